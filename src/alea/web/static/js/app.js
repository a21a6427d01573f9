// Entry point: the router (lobby, game, replay), the language switch and the lobby page.

import { initialLanguage, language, setLanguage, t } from "./i18n.js";
import { accountGames, accountLoaded, accountName, loadAccount, mountAccount, render as renderAccount } from "./account.js";
import { startDashboard } from "./dashboard.js";
import { check as checkNotifications, setBaseTitle, startNotifications } from "./notify.js";
import { startLeaderboard, startProfile } from "./players.js";
import { renderBuildings, renderPlayers } from "./board.js";
import { startGame } from "./game.js";
import { startRomano } from "./romano.js";
import { startTutorial } from "./tutorial.js";
import { describeEvent } from "./log.js";
import { mountAnalysis } from "./analysis.js";
import { die, esc } from "./pieces.js";
import { renderResults } from "./results.js";
import { replayChat } from "./social.js";
import { seatColour, seatName } from "./seats.js";
import { allTokens, api, getName, loadToken, saveToken, setName, toast } from "./util.js";

const root = document.getElementById("app");
let page = null;

function stopPage() {
  if (page && page.stop) page.stop();
  page = null;
}

function route() {
  stopPage();
  renderChrome();
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  setBaseTitle("Alea Iacta Est");
  if (/^\/games\/?$/.test(path)) { page = startDashboard(root); return; }
  let m = /^\/game\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (m) { page = startAnyGame(root, m[1], { watch: params.has("watch"), tutorial: params.has("tutorial") }); return; }
  m = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (m) { page = startReplay(root, m[1]); return; }
  // Players who come back: a profile, the leaderboards (js/players.js).
  m = /^\/players\/([^/]+)\/?$/.exec(path);
  if (m) { page = startProfile(root, decodeURIComponent(m[1])); return; }
  m = /^\/leaderboard(?:\/([a-z]+))?\/?$/.exec(path);
  if (m) { page = startLeaderboard(root, m[1] || "iacta"); return; }
  page = startLobby(root);
}

// A game page for either game: ask the server which game it is, then start its page.
function startAnyGame(el, gameId, options) {
  let inner = null;
  let guide = null;
  let stopped = false;
  api(`/api/games/${encodeURIComponent(gameId)}`).then((info) => info.game, () => "iacta").then((kind) => {
    if (stopped) return;
    inner = kind === "romano" ? startRomano(el, gameId, options) : startGame(el, gameId, options);
    // The guided first game: the guide above an Alea Iacta Est table (js/tutorial.js).
    if (options.tutorial && kind !== "romano") guide = startTutorial(el);
  });
  return { stop() { stopped = true; if (inner && inner.stop) inner.stop(); if (guide) guide.stop(); } };
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

window.addEventListener("popstate", route);

function renderChrome() {
  const langs = document.getElementById("langs");
  langs.innerHTML = ["it", "en"].map((l) =>
    `<button class="lang ${l === language() ? "on" : ""}" data-lang="${l}" aria-pressed="${l === language()}">${l.toUpperCase()}</button>`).join("");
  renderAccount();
  const mine = document.getElementById("mygames");
  if (mine) mine.textContent = t("my_games");
}

document.getElementById("langs").addEventListener("click", (e) => {
  const b = e.target.closest("[data-lang]");
  if (!b || b.dataset.lang === language()) return;
  setLanguage(b.dataset.lang);
  route();
});

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href^='/']");
  if (!a || a.target || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  go(a.getAttribute("href"));
});

// -------------------------------------------------------------------- lobby

// The colours the seats of a new game will get, for the form before the game exists (both
// games give seat n the same colour). Every page of an existing game reads the colours
// the server sends with its seats instead.
const NEW_SEAT_COLOURS = ["gray", "brown", "blue", "green", "yellow", "purple"];

// The bot levels players may choose, weakest first (alea.bots.LEVELS; the server checks them).
const LEVELS = ["easy", "medium", "hard", "expert"];

function levelOptions(selected) {
  return LEVELS.map((l) =>
    `<option value="${l}" ${l === selected ? "selected" : ""}>${esc(t(`level_${l}`))}</option>`).join("");
}

function startLobby(el) {
  const state = { kind: "iacta", players: 4, seats: ["you", "bot:medium", "bot:medium", "bot:medium"], timer: null, asReferee: false };
  const heroDice = [5, 1, 6, 3, 4].map((v, i) => die(v, NEW_SEAT_COLOURS[i], "hero")).join("");
  el.innerHTML = `<div class="lobby">
    <section class="hero"><div class="herodice">${heroDice}</div><h1>Alea Iacta Est</h1>
      <p>${esc(t("tagline"))}</p></section>
    <div class="cards">
      <section class="card quick"><h2>${esc(t("quick_title"))}</h2><p>${esc(t("quick_text"))}</p>
        <label>${esc(t("your_name"))} <input id="qname" maxlength="24" value="${esc(getName())}"></label>
        <label>${esc(t("game_kind"))} <select id="qgame">${["iacta", "romano"].map((k) =>
          `<option value="${k}">${esc(t(`game_${k}`))}</option>`).join("")}</select></label>
        <label>${esc(t("bot_level"))} <select id="qlevel">${levelOptions("medium")}</select></label>
        <button id="quick" class="primary big">${esc(t("quick_button"))}</button></section>
      <section class="card newgame"><h2>${esc(t("new_title"))}</h2>
        <label>${esc(t("game_kind"))} <select id="gamekind">${["iacta", "romano"].map((k) =>
          `<option value="${k}">${esc(t(`game_${k}`))}</option>`).join("")}</select></label>
        <div class="seg" id="pcount"></div>
        <ol id="seatrows" class="seatrows"></ol>
        <div id="timebox" class="timebox" hidden>
          <label>${esc(t("time_limit"))} <input type="number" id="timelimit" min="1" max="600" step="1" value="60" inputmode="numeric"></label>
          <label class="check"><input type="checkbox" id="nolimit"> ${esc(t("no_time_limit"))}</label></div>
        <div id="refbox" class="timebox" hidden>
          <label>${esc(t("referee_label"))} <select id="referee">
            <option value="software">${esc(t("referee_software"))}</option>
            <option value="human">${esc(t("referee_human"))}</option></select></label>
          <label id="refrolebox" hidden>${esc(t("referee_role"))} <select id="refrole">
            <option value="player">${esc(t("referee_me_player"))}</option>
            <option value="referee">${esc(t("referee_me_referee"))}</option></select></label></div>
        <div class="timebox"><label>${esc(t("tc_label"))} <select id="tcmode">
            <option value="">${esc(t("tc_none"))}</option>
            <option value="realtime:60:300">${esc(t("tc_opt_realtime"))}</option>
            <option value="turn:86400">${esc(t("tc_opt_day"))}</option>
            <option value="turn:259200">${esc(t("tc_opt_days"))}</option></select></label>
          <label id="tcpolicybox" hidden>${esc(t("tc_policy"))} <select id="tcpolicy">
            <option value="bot_move">${esc(t("tc_bot_move"))}</option>
            <option value="bot_seat">${esc(t("tc_bot_seat"))}</option></select></label></div>
        <label class="check"><input type="checkbox" id="public" checked> ${esc(t("public_game"))}</label>
        <label class="check" id="ratedbox"><input type="checkbox" id="rated" disabled> ${esc(t("pl_rated_table"))}</label>
        <p class="muted small" id="ratedhint">${esc(t("pl_rated_hint"))}</p>
        <button id="create" class="primary">${esc(t("create"))}</button></section>
    </div>
    <section class="card tutorialcard"><h2>${esc(t("tutorial_title"))}</h2><p>${esc(t("tutorial_text"))}</p>
      <button id="tutorial-start" class="big">${esc(t("tutorial_button"))}</button></section>
    <section class="card lists" id="lists"></section></div>`;
  const $ = (id) => el.querySelector(`#${id}`);

  function seatCounts() {
    const counts = state.kind === "romano" ? [2, 3, 4, 5, 6] : [2, 3, 4, 5];
    $("pcount").innerHTML = counts.map((n) =>
      `<button data-n="${n}" class="${n === state.seats.length ? "on" : ""}">${n}</button>`).join("");
  }

  function seatRows() {
    const romano = state.kind === "romano";
    $("seatrows").innerHTML = state.seats.map((s, i) => {
      const colour = NEW_SEAT_COLOURS[i];
      if (i === 0 && !(romano && state.asReferee)) {
        return `<li><span class="swatch ${colour}"></span><b>${esc(t("seat_you"))}</b></li>`;
      }
      // Every game's bots come at levels (Dado Romano's three: how often they answer right).
      const bots = (romano ? ["easy", "medium", "hard"] : LEVELS).map((l) => [`bot:${l}`, `${t("seat_bot")} · ${t(`level_${l}`)}`]);
      const opts = [["human", t("seat_friend")], ...bots]
        .map(([v, label]) => `<option value="${v}" ${v === s ? "selected" : ""}>${esc(label)}</option>`).join("");
      return `<li><span class="swatch ${colour}"></span><select data-seat="${i}" aria-label="${esc(t("seat_n", { n: i + 1 }))}">${opts}</select></li>`;
    }).join("");
  }
  // Dado Romano's time limit (RULES.md B1): one hour unless changed, or none at all.
  function timeLimitField() {
    $("timebox").hidden = state.kind !== "romano";
    $("timelimit").disabled = $("nolimit").checked;
  }
  // Dado Romano's referee (RULES.md B5): the software, or a person; the creator either
  // plays in seat 1 or is that person (then seat 1 is a friend's or a bot's, like the others).
  function refereeField() {
    $("refbox").hidden = state.kind !== "romano";
    const human = $("referee").value === "human";
    $("refrolebox").hidden = !human;
    const was = state.asReferee;
    state.asReferee = state.kind === "romano" && human && $("refrole").value === "referee";
    if (was !== state.asReferee) {
      state.seats[0] = state.asReferee ? "human" : "you";
      seatRows();
    }
  }
  // A rated table (every human seat an account's) is offered to a signed-in creator only.
  accountLoaded().then(() => {
    if (!$("rated")) return;
    $("rated").disabled = !accountName();
    $("ratedhint").hidden = Boolean(accountName());
  });
  seatCounts();
  seatRows();
  timeLimitField();
  refereeField();
  $("nolimit").addEventListener("change", timeLimitField);
  $("tcmode").addEventListener("change", () => { $("tcpolicybox").hidden = !$("tcmode").value; });

  // The clock per move the form asks for (docs/server.md "Time controls"), or null.
  function timeControl() {
    const chosen = $("tcmode").value;
    if (!chosen) return null;
    const [mode, perMove, bank] = chosen.split(":");
    const control = { mode, per_move: Number(perMove), on_timeout: $("tcpolicy").value };
    if (bank) control.bank = Number(bank);
    return control;
  }
  $("referee").addEventListener("change", refereeField);
  $("refrole").addEventListener("change", refereeField);

  $("gamekind").addEventListener("change", (e) => {
    state.kind = e.target.value;
    timeLimitField();
    refereeField();
    if (state.kind === "iacta" && state.seats.length > 5) state.seats.length = 5;
    state.seats = state.seats.map((s, i) => (i === 0 || s === "human" ? s : "bot:medium"));
    if (state.kind === "iacta") state.seats[0] = "you";
    seatCounts();
    seatRows();
  });

  $("pcount").addEventListener("click", (e) => {
    const b = e.target.closest("[data-n]");
    if (!b) return;
    const n = Number(b.dataset.n);
    while (state.seats.length < n) state.seats.push("bot:medium");
    state.seats.length = n;
    $("pcount").querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
    seatRows();
  });
  $("seatrows").addEventListener("change", (e) => {
    const s = e.target.closest("[data-seat]");
    if (s) state.seats[Number(s.dataset.seat)] = s.value;
  });

  // The time limit the form asks for, in minutes (0: none; an empty field: the default).
  function timeLimit() {
    if ($("nolimit").checked) return 0;
    const text = $("timelimit").value.trim();
    return text === "" ? 60 : Number(text);
  }

  // A quick game takes the server's defaults (for Dado Romano: the rules' hour, the
  // software referee), not what the new-game form holds.
  async function create(seats, isPublic, game = "iacta", quick = false) {
    const name = $("qname").value.trim();
    if (name) setName(name);
    const body = { game, seats, public: isPublic, name };
    if (!quick && timeControl()) body.time_control = timeControl();
    if (!quick && $("rated").checked) body.rated = true;
    if (game === "romano" && !quick) {
      body.time_limit = timeLimit();
      body.referee = $("referee").value;
      if (state.asReferee) body.as_referee = true;
    }
    try {
      const res = await api("/api/games", body);
      saveToken(res.game.id, res.token, res.seat);
      go(`/game/${res.game.id}`);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // Play now: you and three bots, at either game (Dado Romano with the rules' hour, B1).
  $("quick").addEventListener("click", () => {
    const level = $("qlevel").value;
    create([{ kind: "human" }, ...[1, 2, 3].map(() => ({ kind: "bot", level }))], false, $("qgame").value, true);
  });
  // The guided first game: a tutorial table against bots, its dice seeded (js/tutorial.js).
  $("tutorial-start").addEventListener("click", async () => {
    const name = $("qname").value.trim();
    if (name) setName(name);
    try {
      const res = await api("/api/tutorial", { name });
      saveToken(res.game.id, res.token, res.seat);
      go(res.links.play);
    } catch (err) {
      toast(err.message, "error");
    }
  });
  $("create").addEventListener("click", () => {
    const seats = state.seats.map((s, i) => {
      if (s === "you" || s === "human") return { kind: "human" };
      return { kind: "bot", level: s.split(":")[1] };
    });
    create(seats, $("public").checked, state.kind);
  });

  // This browser's games (their tokens), each with the summary the server gives of it.
  // Finished games do not change: their summaries are kept instead of asked for again.
  const mineInfo = new Map();
  async function myGames() {
    // Signed in: the account's games (from any device); a guest: this browser's seat tokens.
    const mine = (await accountGames()) || allTokens();
    const ids = Object.keys(mine).sort((a, b) => (mine[b].at || 0) - (mine[a].at || 0)).slice(0, 8);
    await Promise.all(ids.filter((id) => !(mineInfo.get(id) && mineInfo.get(id).status === "finished")).map((id) =>
      api(`/api/games/${encodeURIComponent(id)}`).then((g) => mineInfo.set(id, g), () => mineInfo.delete(id))));
    return ids.filter((id) => mineInfo.has(id)).map((id) => ({ game: mineInfo.get(id), seat: mine[id].seat }));
  }

  function gameTitle(g) {
    return g.title || g.seats.filter((s) => s.claimed).map((s) => seatName(g.seats, s.seat)).join(", ") || g.id;
  }

  function gameHref(g, verb) {
    const romano = g.game === "romano";
    if (verb === "replay") return romano ? `/game/${g.id}?watch=1` : `/replay/${g.id}`;
    return verb === "watch" ? `/game/${g.id}?watch=1` : `/game/${g.id}`;
  }

  function myList(mine) {
    if (!mine.length) return `<p class="muted">${esc(t("no_games"))}</p>`;
    return `<ul class="games mine">${mine.map(({ game: g, seat }) => {
      const colour = (g.seats[seat] && g.seats[seat].colour) || NEW_SEAT_COLOURS[seat] || "gray";
      const verb = g.status === "finished" ? "replay" : "resume";
      return `<li data-game="${esc(g.id)}" data-status="${esc(g.status)}"><span class="swatch ${esc(colour)}"></span>` +
        `<span class="gkind">${esc(t(`game_${g.game || "iacta"}`))}</span><span class="gtitle">${esc(gameTitle(g))}</span>` +
        `<span class="muted status">${esc(t(`status_${g.status}`))}${g.status === "active" && g.game !== "romano"
          ? ` · ${esc(t("round"))} ${g.round}/${g.rounds}` : ""}</span>` +
        `<a class="button small" href="${gameHref(g, verb)}">${esc(t(verb))}</a></li>`;
    }).join("")}</ul>`;
  }

  async function refresh() {
    try {
      const [open, live, done, mine] = await Promise.all([
        api("/api/games?status=open&limit=20"),
        api("/api/games?status=active&limit=20"),
        api("/api/games?status=finished&limit=10"),
        myGames(),
      ]);
      // Your own finished games are listed too, public or not (a quick game is private).
      const listed = new Set(done.map((g) => g.id));
      const finished = done.concat(mine.map((m) => m.game).filter((g) => g.status === "finished" && !listed.has(g.id)))
        .sort((a, b) => (b.updated_at || 0) - (a.updated_at || 0));
      $("lists").innerHTML = `<h2>${esc(t("my_games"))}</h2>${myList(mine)}` +
        `<p class="lobbylinks"><a href="/leaderboard/iacta">${esc(t("pl_leaderboard"))}</a>${accountName()
          ? ` · <a href="/players/${encodeURIComponent(accountName())}">${esc(t("pl_your_profile"))}</a>` : ""}</p>` +
        gameList("open_games", open, "join") + gameList("live_games", live, "watch") +
        gameList("finished_games", finished, "replay");
    } catch (err) {
      $("lists").innerHTML = "";
    }
  }

  // A Dado Romano game's time limit in the lobby: the limit, the minutes left, or the last round.
  function clockNote(clock) {
    if (!clock) return "";
    if (clock.last_round) return ` · ${esc(t("ro_last_round"))}`;
    if (clock.deadline === null) return ` · ◷ ${esc(t("lobby_time_limit", { n: clock.time_limit }))}`;
    const left = Math.max(0, Math.ceil((clock.deadline - Date.now() / 1000) / 60));
    return ` · ◷ ${esc(t("lobby_minutes_left", { n: left }))}`;
  }

  function gameList(title, games, verb) {
    const items = games.map((g) => {
      const romano = g.game === "romano";
      const seats = g.seats.map((s) => `<span class="swatch ${s.colour} ${s.claimed ? "" : "free"}" title="${esc(s.claimed ? seatName(g.seats, s.seat) : t("free_seat"))}"></span>`).join("");
      const href = gameHref(g, verb);
      const what = g.status === "finished" && g.result
        ? `♛ ${esc(g.result.winners.map((w) => seatName(g.seats, w)).join(", "))}`
        : romano ? `${esc(t("round"))} ${g.round}${clockNote(g.clock)}` : `${esc(t("round"))} ${g.round}/${g.rounds}`;
      const rated = g.rated ? ` <span class="ratedbadge">${esc(t("pl_rated"))}</span>` : "";
      return `<li data-game-kind="${esc(g.game || "iacta")}">${seats}<span class="gkind">${esc(t(`game_${g.game || "iacta"}`))}</span><span class="gtitle">${esc(gameTitle(g))}${rated}</span>` +
        `<span class="muted">${what}</span><a class="button small" href="${href}">${esc(t(verb))}</a></li>`;
    }).join("");
    return `<h2>${esc(t(title))}</h2>${items ? `<ul class="games">${items}</ul>` : `<p class="muted">${esc(t("no_games"))}</p>`}`;
  }

  refresh();
  state.timer = setInterval(refresh, 5000);
  return { stop() { clearInterval(state.timer); } };
}

// ------------------------------------------------------------------- replay

function startReplay(el, gameId) {
  const R = { step: 0, steps: 0, cache: new Map(), playing: null, record: null, stopped: false, analysis: null, chat: null };
  el.innerHTML = `<div class="game replay">
    <div class="topbar"><a class="home" href="/">⟵ ${esc(t("home"))}</a><span class="rtitle">${esc(t("replay_title"))}</span>
      <span id="roundinfo"></span></div>
    <div class="replaybar">
      <button data-step="first" title="${esc(t("first"))}">«</button><button data-step="prev" title="${esc(t("prev"))}">‹</button>
      <button data-step="play" id="playbtn" class="primary" title="${esc(t("play"))}">▶</button><button data-step="next" title="${esc(t("next"))}">›</button>
      <button data-step="last" title="${esc(t("last"))}">»</button>
      <input type="range" id="slider" min="0" max="0" value="0" aria-label="${esc(t("step"))}"><span id="stepno" class="stepno"></span></div>
    <div id="caption" class="caption"></div><div id="anbox"></div><div id="rtray" class="rtray"></div>
    <div class="layout"><div class="main"><div id="board"></div><div id="final"></div></div>
      <aside class="side"><p class="muted">${esc(t("all_hands"))}</p><div id="players"></div>
        <section id="rchat" class="rchat talkbox" hidden></section></aside></div></div>`;
  const $ = (id) => el.querySelector(`#${id}`);

  async function load() {
    try {
      R.record = await api(`/api/games/${encodeURIComponent(gameId)}/replay`);
    } catch (err) {
      el.innerHTML = `<div class="notfound"><h2>${esc(err.status === 404 ? t("not_found") : err.message)}</h2><a href="/game/${esc(gameId)}">${esc(gameId)}</a> · <a href="/">${esc(t("home"))}</a></div>`;
      return;
    }
    if (R.record.game.game === "romano") { go(`/game/${gameId}?watch=1`); return; }
    R.steps = R.record.events.length;
    $("slider").max = String(R.steps);
    R.chat = replayChat($("rchat"), gameId, R.record.game.seats);
    const mine = loadToken(gameId);
    R.analysis = mountAnalysis($("anbox"), gameId, R.record, {
      seat: mine && typeof mine.seat === "number" ? mine.seat : 0,
      goto: (step) => show(step),
      changed: () => show(R.step),
    });
    show(Number(new URLSearchParams(location.search).get("step") || R.steps));
  }

  async function fetchStep(step) {
    if (!R.cache.has(step)) {
      R.cache.set(step, api(`/api/games/${encodeURIComponent(gameId)}/replay/${step}`));
    }
    return R.cache.get(step);
  }

  async function show(step) {
    step = Math.max(0, Math.min(R.steps, step));
    R.step = step;
    // The step is in the address, so a reload or a change of language stays on it.
    const params = new URLSearchParams(location.search);
    params.set("step", String(step));
    history.replaceState(history.state, "", `${location.pathname}?${params}`);
    const data = await fetchStep(step);
    if (R.stopped || R.step !== step) return;
    const v = data.view;
    const seats = R.record.game.seats;
    $("slider").value = String(step);
    $("stepno").textContent = `${t("step")} ${step} / ${R.steps}`;
    $("roundinfo").innerHTML = `${esc(t("round"))} <b>${v.round}</b> ${esc(t("of"))} ${v.rounds}`;
    $("caption").innerHTML = (step ? describeEvent(data.event, data.actor, step > 1 ? R.record.events[step - 2] : "", seats) : "&nbsp;") +
      (R.analysis ? R.analysis.note(step) : "");
    const recent = { T: new Set(), S: new Set(), C: new Set(), F: new Map(), L: new Set() };
    if (data.event && data.actor !== null) {
      const [k, d] = data.event.split(":");
      const values = [...(d || "")].map(Number);
      if (k === "C") recent.C.add(`${data.actor}:${values[0]}`);
      else if (k === "F") recent.F.set(data.actor, values);
      else if (recent[k] && k.length === 1) recent[k].add(data.actor);
    }
    const ctx = { mySeat: null, seats, legal: [], placing: false, hints: null, recent };
    const ts = v.turn.seat;
    const colour = seatColour(seats, ts);
    $("rtray").innerHTML = typeof ts === "number" && (v.turn.roll.length || v.turn.kept.length)
      ? `<span class="who ${colour}" title="${esc(seatName(seats, ts))}">${esc(seatName(seats, ts))}</span> ` +
        v.turn.roll.map((d) => die(d, colour)).join("") +
        v.turn.kept.map((d) => die(d, colour, "kept")).join("") : "";
    $("board").innerHTML = renderBuildings(v, ctx);
    $("players").innerHTML = renderPlayers(v, ctx);
    $("final").innerHTML = step === R.steps && R.record.result ? renderResults(R.record.result, seats, null) : "";
    if (R.chat) R.chat.show(step); // the chat as it stood after this step
    fetchStep(Math.min(R.steps, step + 1));
  }

  function togglePlay() {
    if (R.playing) { clearInterval(R.playing); R.playing = null; $("playbtn").textContent = "▶"; return; }
    if (R.step >= R.steps) show(0);
    $("playbtn").textContent = "||";
    R.playing = setInterval(() => {
      if (R.step >= R.steps) { togglePlay(); return; }
      show(R.step + 1);
    }, 700);
  }

  el.addEventListener("click", (e) => {
    const b = e.target.closest("[data-step]");
    if (!b || !R.record) return;
    const s = b.dataset.step;
    if (s === "play") { togglePlay(); return; }
    show({ first: 0, prev: R.step - 1, next: R.step + 1, last: R.steps }[s]);
  });
  el.addEventListener("input", (e) => { if (e.target.id === "slider") show(Number(e.target.value)); });
  const onKey = (e) => {
    if (!R.record || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") show(R.step + 1);
    if (e.key === "ArrowLeft") show(R.step - 1);
  };
  document.addEventListener("keydown", onKey);
  load();
  return {
    stop() {
      R.stopped = true;
      if (R.playing) clearInterval(R.playing);
      if (R.analysis) R.analysis.stop();
      document.removeEventListener("keydown", onKey);
    },
  };
}

setLanguage(initialLanguage());
mountAccount(document.getElementById("account"), { changed: () => { route(); checkNotifications(); } });
route();
// In-page notifications (js/notify.js) once we know whether anyone is signed in.
loadAccount().then(() => startNotifications(() => accountName() !== null));
