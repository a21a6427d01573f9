// Talk at the table, beside the game of either kind: who is here (presence), the chat with
// quick phrases and a per-player mute, and the rematch once the game is over. Also the chat
// of a replay, each line at the step it was said.
//
// Chat lines are other people's words: they are only ever put in the page as text
// (textContent), never as HTML. The server decides who may read and say what
// (docs/server.md, "Chat"); this module only shows what it was sent.

import { addStrings, t } from "./i18n.js";
import { esc } from "./pieces.js";
import { seatName } from "./seats.js";
import { api, getName, loadToken, saveToken, toast } from "./util.js";

addStrings({
  en: {
    talk_title: "Table",
    talk_present: "At the table",
    talk_online: "online",
    talk_away_now: "away · just now",
    talk_away_min: "away · {n} min",
    talk_away_h: "away · {n} h",
    talk_offline: "not connected",
    talk_free: "free seat",
    talk_bot: "bot",
    talk_referee: "referee",
    talk_spectators: "{n} watching",
    talk_you: "you",
    talk_mute: "Mute {name}",
    talk_unmute: "Unmute {name}",
    talk_muted: "muted",
    talk_mute_short: "mute",
    talk_placeholder: "Say something…",
    talk_placeholder_watch: "Say something to the other spectators…",
    talk_send: "Send",
    talk_empty: "No messages yet.",
    talk_spectator_tag: "spectator",
    talk_not_sent: "Not connected: the message was not sent.",
    talk_phrases: "Quick phrases",
    phrase_hello: "Hello!",
    phrase_luck: "Good luck!",
    phrase_nice: "Nice move!",
    phrase_oops: "Oops!",
    phrase_wp: "Well played!",
    phrase_thanks: "Thanks!",
    rematch_propose: "Rematch",
    rematch_proposed: "{name} proposes a rematch: {n} of {m} in.",
    rematch_accept: "Accept",
    rematch_decline: "Decline",
    rematch_waiting: "Waiting for the others… ({s} s)",
    rematch_left: "{s} s left; seats without an answer go to bots.",
    rematch_ready: "The rematch has begun.",
    rematch_go: "Go to the new game",
    rematch_watch: "Watch the new game",
    replay_chat: "Chat",
  },
  it: {
    talk_title: "Tavolo",
    talk_present: "Al tavolo",
    talk_online: "in linea",
    talk_away_now: "assente · da poco",
    talk_away_min: "assente · da {n} min",
    talk_away_h: "assente · da {n} h",
    talk_offline: "non collegato",
    talk_free: "posto libero",
    talk_bot: "bot",
    talk_referee: "arbitro",
    talk_spectators: "{n} spettatori",
    talk_you: "tu",
    talk_mute: "Silenzia {name}",
    talk_unmute: "Riattiva {name}",
    talk_muted: "silenziato",
    talk_mute_short: "silenzia",
    talk_placeholder: "Scrivi qualcosa…",
    talk_placeholder_watch: "Scrivi qualcosa agli altri spettatori…",
    talk_send: "Invia",
    talk_empty: "Ancora nessun messaggio.",
    talk_spectator_tag: "spettatore",
    talk_not_sent: "Non collegato: il messaggio non è stato inviato.",
    talk_phrases: "Frasi rapide",
    phrase_hello: "Ciao!",
    phrase_luck: "Buona fortuna!",
    phrase_nice: "Bella mossa!",
    phrase_oops: "Ops!",
    phrase_wp: "Ben giocato!",
    phrase_thanks: "Grazie!",
    rematch_propose: "Rivincita",
    rematch_proposed: "{name} propone la rivincita: {n} su {m} ci stanno.",
    rematch_accept: "Accetta",
    rematch_decline: "Rifiuta",
    rematch_waiting: "In attesa degli altri… ({s} s)",
    rematch_left: "Mancano {s} s; i posti senza risposta vanno ai bot.",
    rematch_ready: "La rivincita è cominciata.",
    rematch_go: "Vai alla nuova partita",
    rematch_watch: "Guarda la nuova partita",
    replay_chat: "Chat",
  },
});

// The quick phrases (said in the speaker's language) and emotes, for phones.
const PHRASES = ["phrase_hello", "phrase_luck", "phrase_nice", "phrase_oops", "phrase_wp", "phrase_thanks"];
const EMOTES = ["☺", "☹", "♥", "★", "⚄"];
const MAX_CHARS = 300;
const MUTE_KEY = "alea.muted";

// Muted people, by role and name ("p:Marcus", "s:Tifoso"), kept in localStorage so that a
// mute holds across games and rematches with the same people.
function readMuted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch (e) { return new Set(); }
}
function saveMuted(set) {
  try { localStorage.setItem(MUTE_KEY, JSON.stringify([...set])); } catch (e) { /* private mode */ }
}
function muteKey(line) { return `${line.role === "spectator" ? "s" : "p"}:${line.name}`; }

/** A chat line as DOM nodes: every part of it set as text. */
function lineNode(line, seats, mine) {
  const li = document.createElement("li");
  li.className = `chatline from-${line.role}${mine ? " own" : ""}`;
  const who = document.createElement("b");
  const seat = typeof line.seat === "number" ? seats[line.seat] : null;
  who.className = seat ? `who ${seat.colour}` : "who plain";
  who.textContent = line.name;
  li.appendChild(who);
  if (line.role === "spectator") {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = t("talk_spectator_tag");
    li.appendChild(tag);
  }
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = line.text;
  li.appendChild(text);
  return li;
}

/** "online", "away · 3 min", … for a seat (times on the server's clock). */
function presenceText(s, now) {
  if (!s.claimed) return t("talk_free");
  if (s.kind === "bot") return t("talk_bot");
  if (s.connected) return t("talk_online");
  if (typeof s.away_since !== "number") return t("talk_offline");
  const minutes = Math.floor(Math.max(0, now - s.away_since) / 60);
  if (minutes < 1) return t("talk_away_now");
  if (minutes < 120) return t("talk_away_min", { n: minutes });
  return t("talk_away_h", { n: Math.floor(minutes / 60) });
}

function presenceClass(s) {
  if (!s.claimed || s.kind === "bot") return "none";
  if (s.connected) return "online";
  return typeof s.away_since === "number" ? "away" : "offline";
}

/**
 * Mounts the table talk in `box` for the seat `table` (js/table.js) holds. It listens to
 * the table's `alea:update` and `alea:chat` events on `root`; `stop()` removes them.
 */
export function mountTableTalk(box, root, table) {
  const T = table.state;
  let muted = readMuted();
  let left = null; // the rematch game this page already went to
  box.innerHTML = `<details class="talkbox" open><summary>${esc(t("talk_title"))} <span class="unread" hidden></span></summary>
    <div class="rematchbox" hidden></div>
    <section class="presence" aria-label="${esc(t("talk_present"))}"><ul class="seatstatus"></ul></section>
    <ol class="chatlines" tabindex="0" aria-live="polite" aria-label="${esc(t("talk_title"))}"></ol>
    <div class="quick" role="group" aria-label="${esc(t("talk_phrases"))}">${PHRASES.map((k) =>
      `<button type="button" class="small" data-phrase="${k}">${esc(t(k))}</button>`).join("")}${EMOTES.map((e) =>
      `<button type="button" class="small emote" data-emote="${e}">${e}</button>`).join("")}</div>
    <form class="chatform"><input name="text" maxlength="${MAX_CHARS}" autocomplete="off" aria-label="${esc(t("talk_placeholder"))}">
      <button class="primary small" type="submit">${esc(t("talk_send"))}</button></form></details>`;
  const $ = (sel) => box.querySelector(sel);
  let unread = 0;

  function serverNow() { return Date.now() / 1000 + (T.skew || 0); }

  function renderPresence() {
    const list = $(".seatstatus");
    list.replaceChildren();
    for (const s of T.seats) {
      const li = document.createElement("li");
      li.className = `seatrow ${presenceClass(s)}`;
      li.dataset.seat = String(s.seat);
      const dot = document.createElement("span");
      dot.className = `swatch ${s.colour}`;
      const name = document.createElement("span");
      name.className = "pname";
      name.textContent = s.claimed ? seatName(T.seats, s.seat) : t("seat_n", { n: s.seat + 1 });
      const state = document.createElement("span");
      state.className = `presence-state ${presenceClass(s)}`;
      state.textContent = s.seat === T.seat ? t("talk_you") : presenceText(s, serverNow());
      li.append(dot, name, state);
      if (s.seat !== T.seat && s.claimed && s.kind === "human") {
        const key = `p:${s.name}`;
        const mute = document.createElement("button");
        mute.type = "button";
        mute.className = `mute small ${muted.has(key) ? "on" : ""}`;
        mute.dataset.mute = key;
        mute.setAttribute("aria-pressed", String(muted.has(key)));
        mute.title = t(muted.has(key) ? "talk_unmute" : "talk_mute", { name: s.name });
        mute.setAttribute("aria-label", mute.title);
        mute.textContent = t(muted.has(key) ? "talk_muted" : "talk_mute_short");
        li.appendChild(mute);
      }
      list.appendChild(li);
    }
    const m = T.message || {};
    if (m.referee && m.referee.claimed) {
      const li = document.createElement("li");
      li.className = `seatrow ${m.referee.connected ? "online" : "away"}`;
      const name = document.createElement("span");
      name.className = "pname";
      name.textContent = `${m.referee.name} (${t("talk_referee")})`;
      const state = document.createElement("span");
      state.className = "presence-state";
      state.textContent = presenceText({ claimed: true, kind: "human", ...m.referee }, serverNow());
      li.append(name, state);
      list.appendChild(li);
    }
    if (m.spectators) {
      const li = document.createElement("li");
      li.className = "seatrow watching";
      li.textContent = `👁 ${t("talk_spectators", { n: m.spectators })}`;
      list.appendChild(li);
    }
  }

  function renderChat() {
    const list = $(".chatlines");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.replaceChildren();
    const shown = T.chat.filter((l) => !muted.has(muteKey(l)));
    if (!shown.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("talk_empty");
      list.appendChild(li);
    }
    for (const line of shown) {
      const mine = T.seat !== null && line.seat === T.seat && line.role === "player";
      list.appendChild(lineNode(line, T.seats, mine));
    }
    if (atBottom || !list.dataset.init) { list.scrollTop = list.scrollHeight; list.dataset.init = "1"; }
    $("input[name=text]").placeholder = t(T.seat === null && T.role !== "referee" ? "talk_placeholder_watch" : "talk_placeholder");
  }

  function renderUnread() {
    const badge = $(".unread");
    badge.hidden = unread === 0 || $("details").open;
    badge.textContent = String(unread);
  }

  // The rematch after the end: propose, answer, and follow the table to the new game.
  function renderRematch() {
    const el = $(".rematchbox");
    const offer = (T.message && T.message.rematch) || null;
    if (T.status !== "finished") { el.hidden = true; el.innerHTML = ""; return; }
    const seated = T.seat !== null;
    if (!offer) {
      el.hidden = !seated;
      el.innerHTML = seated ? `<button class="primary" data-rematch="yes">↻ ${esc(t("rematch_propose"))}</button>` : "";
      return;
    }
    el.hidden = false;
    if (offer.game) {
      followRematch(offer);
      const mine = seated && offer.accepted.includes(T.seat);
      el.innerHTML = `<p>${esc(t("rematch_ready"))}</p><a class="button primary" data-rematch-go="1" href="/game/${esc(offer.game)}${mine ? "" : "?watch=1"}">${esc(t(mine ? "rematch_go" : "rematch_watch"))}</a>`;
      return;
    }
    const secs = Math.max(0, Math.round(offer.deadline - serverNow()));
    const head = `<p>${esc(t("rematch_proposed", { name: seatName(T.seats, offer.by), n: offer.accepted.length, m: offer.asked.length }))}</p>`;
    const asked = seated && offer.asked.includes(T.seat);
    if (asked && !offer.accepted.includes(T.seat)) {
      el.innerHTML = head + `<div class="actions"><button class="primary" data-rematch="yes">${esc(t("rematch_accept"))}</button>` +
        `<button data-rematch="no">${esc(t("rematch_decline"))}</button></div><p class="muted">${esc(t("rematch_left", { s: secs }))}</p>`;
    } else if (asked) {
      el.innerHTML = head + `<p class="muted">${esc(t("rematch_waiting", { s: secs }))}</p>`;
    } else {
      el.innerHTML = head + `<p class="muted">${esc(t("rematch_left", { s: secs }))}</p>`;
    }
  }

  // A seat that accepted goes to the new game at once, its token carried over (the server
  // gave the new seat the same token); everyone else is shown the link.
  function followRematch(offer) {
    if (left === offer.game || T.seat === null || !offer.accepted.includes(T.seat)) return;
    left = offer.game;
    if (T.token) saveToken(offer.game, T.token, T.seat);
    history.pushState({}, "", `/game/${encodeURIComponent(offer.game)}`);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }

  function say(text) {
    const clean = text.trim();
    if (!clean) return false;
    const msg = { type: "chat", text: clean.slice(0, MAX_CHARS) };
    if (T.seat === null && T.role !== "referee") msg.name = getName() || "?";
    if (!table.send(msg)) { toast(t("talk_not_sent"), "error"); return false; }
    return true;
  }

  function onUpdate() { renderPresence(); renderRematch(); }
  function onChat(e) {
    if (!e.detail.whole && !$("details").open) unread += e.detail.lines.length;
    renderChat();
    renderUnread();
  }

  box.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("input[name=text]");
    if (say(input.value)) input.value = "";
  });
  box.addEventListener("click", (e) => {
    const b = e.target.closest("[data-phrase],[data-emote],[data-mute],[data-rematch]");
    if (!b) return;
    const d = b.dataset;
    if (d.phrase) say(t(d.phrase));
    else if (d.emote) say(d.emote);
    else if (d.mute) {
      if (muted.has(d.mute)) muted.delete(d.mute); else muted.add(d.mute);
      saveMuted(muted);
      renderPresence();
      renderChat();
    } else if (d.rematch) {
      if (!table.send({ type: "rematch", accept: d.rematch === "yes" })) toast(t("talk_not_sent"), "error");
    }
  });
  box.addEventListener("toggle", () => { if ($("details").open) unread = 0; renderUnread(); }, true);
  root.addEventListener("alea:update", onUpdate);
  root.addEventListener("alea:chat", onChat);
  const ticker = setInterval(() => { if (T.seats.length) { renderPresence(); renderRematch(); } }, 1000);
  renderPresence();
  renderChat();

  return {
    stop() {
      clearInterval(ticker);
      root.removeEventListener("alea:update", onUpdate);
      root.removeEventListener("alea:chat", onChat);
    },
  };
}

/**
 * The chat of a finished game's replay: the lines said up to the step shown. A seat's
 * holder (token kept in this browser) reads the players' channel too; others the
 * spectators' only.
 */
export function replayChat(box, gameId, seats) {
  let lines = [];
  let step = 0;
  const stored = loadToken(gameId);
  api(`/api/games/${encodeURIComponent(gameId)}/chat`, undefined, { token: stored ? stored.token : null })
    .then((found) => { lines = found; show(step); }, () => {});
  function show(at) {
    step = at;
    const said = lines.filter((l) => l.step <= at);
    box.hidden = lines.length === 0;
    box.replaceChildren();
    const title = document.createElement("h3");
    title.textContent = t("replay_chat");
    const list = document.createElement("ol");
    list.className = "chatlines";
    for (const line of said) list.appendChild(lineNode(line, seats, false));
    box.append(title, list);
    list.scrollTop = list.scrollHeight;
  }
  return { show };
}
