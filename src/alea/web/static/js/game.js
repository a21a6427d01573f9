// The live Alea Iacta Est page: the table, your dice and the moves you may make (the
// connection, the log and the seat are table.js's, shared with Dado Romano's page).
// The server sends only this seat's view and the legal actions; the page never guesses
// rules of its own: every hint comes from the legal actions the server listed.

import { BUILDING_NAMES, language, t } from "./i18n.js";
import { buildingHints, recentMoves, renderBuildings, renderPlayers } from "./board.js";
import { renderLog } from "./log.js";
import { evaluationLogLines } from "./evaluation.js";
import { evaluationPanel } from "./evalpanel.js";
import { flyPlaced, rollIn, trayDice } from "./motion.js";
import { confirmBar, confirmSettings, needsConfirm, readConfirm, saveConfirm } from "./confirm.js";
import { die, diceText, esc, patrician, province, senateCard } from "./pieces.js";
import { renderResults } from "./results.js";
import { seatColour, seatName } from "./seats.js";
import { inviteLink, joinTable } from "./table.js";
import { mountTableTalk } from "./social.js";
import { api, getName, setName } from "./util.js";
import { describeControl, formatLeft, secondsLeft } from "./clocks.js";
import { setBaseTitle } from "./notify.js";
import { fetchHint, hintButton } from "./analysis.js";
import { undoBar } from "./undo.js";
import { projectionPanel } from "./projection.js";

const CHOICE_KINDS = new Set(["K", "P", "N"]);

export function startGame(root, gameId, { watch = false } = {}) {
  const table = joinTable(root, gameId, {
    watch,
    update: onUpdate,
    error: () => render(),
    connection: () => { renderConn(); render(); },
  });
  // T: what the server said (see table.js); S: what this page adds to it.
  const T = table.state;
  const S = {
    selected: [],
    rollKey: "",
    takeoverAt: null,
    takeoverLocal: null,
    resultsOpen: true,
    autoForced: localStorage.getItem("alea.auto") !== "0",
    autoTimer: null,
    copied: false,
    movesOpen: !window.matchMedia("(max-width: 820px)").matches,
    note: null, // {building, text, key}: why the dice picked cannot go to that building
    hint: null, // {key, html, busy}: the analyser's move for this decision, when asked
    noteTimer: null,
    rolled: false, // a new roll arrived: the tray's dice tumble on the next redraw
    logSeen: 0, // log entries already drawn (the new ones may be placements to fly)
    confirm: readConfirm(), // {place, reroll}: ask before sending these moves
    asking: null, // the move waiting for "Confirm"
  };

  root.innerHTML = `<div class="game">
    <div class="topbar"><a class="home" href="/">⟵ ${esc(t("home"))}</a>
      <span id="roundinfo"></span><span id="turnbanner" class="turnbanner"></span>
      <span id="conn" class="conn"></span></div>
    <div id="banners"></div>
    <div class="layout">
      <div class="main"><div id="board"></div>
        <div class="tray"><section id="evaluation" class="evalpanel" aria-live="polite" tabindex="0" hidden></section>
          <div id="undo" class="undobar" hidden></div><div id="tray"></div></div></div>
      <aside class="side"><div id="players"></div><div id="projection" class="pjbox"></div>
        <details class="logbox" open><summary>${esc(t("log"))}</summary><ol id="log" class="log" tabindex="0"></ol></details>
        <div id="talk" class="talk"></div>
        <label class="autoforced"><input type="checkbox" id="autoforced" ${S.autoForced ? "checked" : ""}> ${esc(t("auto_forced"))}</label>
        ${confirmSettings(S.confirm)}
      </aside>
    </div>
    <div id="overlay"></div></div>`;

  const $ = (id) => root.querySelector(`#${id}`);
  const evaluation = evaluationPanel($("evaluation"), markEvaluating);
  const talk = mountTableTalk($("talk"), root, table);
  const undo = undoBar($("undo"), table);
  const projection = projectionPanel($("projection"), table);

  function act(action) {
    S.asking = null;
    if (table.act(action)) render();
  }

  // A placement or re-roll the player asked to confirm waits in the tray for "Confirm".
  function request(action) {
    if (needsConfirm(S.confirm, action) && S.asking !== action) {
      S.asking = action;
      render();
      return;
    }
    act(action);
  }

  function markEvaluating(building) {
    root.querySelectorAll(".building.evaluating").forEach((b) => b.classList.remove("evaluating"));
    if (building) root.querySelector(`.building[data-building="${building}"]`)?.classList.add("evaluating");
  }

  function onUpdate(m, { changed, was }) {
    if (m.status === "finished" && was !== "finished" && was !== null) S.resultsOpen = true;
    if (m.takeover_at !== S.takeoverAt) {
      S.takeoverAt = m.takeover_at;
      S.takeoverLocal = m.takeover_at ? Date.now() + (m.takeover_at - m.turn_since) * 1000 : null;
    }
    const rollKey = `${m.version}:${(m.view.turn.roll || []).join("")}`;
    if (changed && rollKey !== S.rollKey) {
      S.selected = [];
      S.asking = null;
      S.rolled = (m.view.turn.roll || []).length > 0;
    }
    S.rollKey = rollKey;
    render();
    maybeAutoPlay();
  }

  function maybeAutoPlay() {
    clearTimeout(S.autoTimer);
    if (!S.autoForced || T.legal.length !== 1) return;
    const only = T.legal[0];
    if (!CHOICE_KINDS.has(only[0])) return;
    const version = T.version;
    S.autoTimer = setTimeout(() => { if (T.version === version) act(only); }, 900);
  }

  // ------------------------------------------------------------------ render

  function renderConn() {
    const el = $("conn");
    if (!el) return;
    el.className = `conn ${T.conn}`;
    el.textContent = t(T.conn);
  }

  function myDecision() { return T.legal.length > 0; }

  function selectedValues() {
    const roll = (T.view && T.view.turn.roll) || [];
    return S.selected.map((i) => roll[i]).sort((a, b) => a - b);
  }

  function highlightFrom() {
    if (T.seat !== null) {
      for (let i = T.log.length - 1; i >= 0; i--) {
        const [ev, actor] = T.log[i];
        if (actor === T.seat && /^[RTSCFLKPN]:/.test(ev)) return i + 1;
      }
      return Math.max(0, T.log.length - 12);
    }
    let actions = 0;
    for (let i = T.log.length - 1; i >= 0; i--) {
      if (/^[TSCFL]:/.test(T.log[i][0]) && ++actions > T.view.players - 1) return i + 1;
    }
    return 0;
  }

  function phaseKey(phase) {
    if (phase === "senate-choice") return "senate";
    if (phase === "castrum-choice") return "province";
    if (phase === "forum-choice") return "patrician";
    return "place";
  }

  function renderTopbar() {
    const v = T.view;
    // A rated table says so (its result moves the players' ratings: js/players.js).
    const rated = T.message && T.message.rated ? ` <span class="ratedbadge">${esc(t("pl_rated"))}</span>` : "";
    $("roundinfo").innerHTML = `${esc(t("round"))} <b>${v.round}</b> ${esc(t("of"))} ${v.rounds}${rated}`;
    let text = "";
    let cls = "";
    if (T.status === "finished") { text = t("game_over"); cls = "over"; }
    else if (T.status === "open") { text = t("waiting_title"); }
    else if (myDecision()) { text = t(`your_turn_${phaseKey(v.phase)}`); cls = "mine"; }
    else if (typeof v.to_move === "number") {
      text = t(`others_turn_${phaseKey(v.phase)}`, { name: seatName(T.seats, v.to_move) });
      cls = seatColour(T.seats, v.to_move);
    }
    const el = $("turnbanner");
    el.className = `turnbanner ${cls}`;
    el.textContent = text;
    const tc = T.message && T.message.time_control;
    if (tc && T.status === "active") {
      const clock = document.createElement("span");
      clock.id = "turnclock";
      clock.className = "turnclock";
      clock.title = describeControl(tc);
      el.append(" ", clock);
      renderClock();
    }
    setBaseTitle(`${myDecision() ? "● " : ""}Alea Iacta Est`);
  }

  // The time left of the turn being played (time controls): counted down every second.
  function renderClock() {
    const el = $("turnclock");
    const tc = T.message && T.message.time_control;
    if (!el || !tc) return;
    const left = secondsLeft(tc, T.skew || 0);
    el.textContent = left === null ? "" : `⏱ ${formatLeft(left)}`;
    el.classList.toggle("low", left !== null && left < Math.min(30, tc.per_move / 4));
  }

  function renderBanners() {
    const parts = [];
    if (T.status === "open") parts.push(waitingRoom());
    if (T.seat === null && T.status !== "open") parts.push(`<div class="banner info">${esc(t("watching"))}</div>`);
    const mine = T.seat !== null ? T.seats[T.seat] : null;
    if (mine && mine.replaced) {
      parts.push(`<div class="banner warn">${esc(t("replaced_banner"))} <button data-reclaim="1">${esc(t("reclaim"))}</button></div>`);
    }
    $("banners").innerHTML = parts.join("");
  }

  function waitingRoom() {
    const link = inviteLink(T.id);
    const rows = T.seats.map((s) => {
      let right = "";
      if (!s.claimed) {
        right = T.seat === null
          ? `<button class="primary small" data-claim="${s.seat}">${esc(t("take_seat"))}</button>`
          : `<em>${esc(t("free_seat"))}</em>`;
      } else if (s.kind === "bot") right = `<span class="tag bot">${esc(t("bot"))} · ${esc(t(`level_${s.level}`))}</span>`;
      else right = `<span class="tag ${s.connected ? "online" : "offline"}">●</span>`;
      return `<li><span class="swatch ${s.colour}"></span><span class="pname">${esc(s.claimed ? seatName(T.seats, s.seat) : t("seat_n", { n: s.seat + 1 }))}</span>${right}</li>`;
    }).join("");
    const nameInput = T.seat === null
      ? `<label>${esc(t("your_name"))} <input id="claimname" maxlength="24" value="${esc(getName())}"></label>` : "";
    const fill = T.seat !== null ? `<button data-fill="1">${esc(t("fill_bots"))}</button>` : "";
    return `<div class="banner waiting"><h3>${esc(t("waiting_title"))}</h3><p>${esc(t("waiting_text"))}</p>` +
      `<div class="invite"><input readonly id="invitelink" value="${esc(link)}"><button data-copy="1">${esc(t(S.copied ? "copied" : "copy"))}</button></div>` +
      `${nameInput}<ul class="seatlist">${rows}</ul>${fill}</div>`;
  }

  function renderTray() {
    const v = T.view;
    const el = $("tray");
    if (T.status === "finished") {
      el.innerHTML = `<div class="trayhead"><h3>${esc(t("game_over"))}</h3></div>` +
        `<div class="actions"><button class="primary" data-results="1">${esc(t("show_scores"))}</button>` +
        rematchButton() +
        `<a class="button" href="/replay/${esc(T.id)}">${esc(t("replay"))}</a>` +
        `<a class="button" href="/">${esc(t("new_game"))}</a></div>`;
      return;
    }
    if (T.status === "open") {
      // The first roll is drawn when the game is created; it is nobody's until it starts.
      el.innerHTML = `<div class="trayhead"><h3>${esc(t("waiting_title"))}</h3></div>`;
      return;
    }
    const busy = T.pending ? "busy" : "";
    if (myDecision() && v.phase === "placement") {
      el.innerHTML = placementTray(v, busy);
      return;
    }
    if (myDecision()) {
      el.innerHTML = choiceTray(v, busy);
      return;
    }
    // Someone else's turn: show their public dice.
    const seat = v.turn.seat;
    if (typeof seat === "number" && (v.turn.roll.length || v.turn.kept.length) && v.phase !== "game-over") {
      const colour = seatColour(T.seats, seat);
      el.innerHTML = `<div class="trayhead"><h3>${esc(t("roll_of", { name: seatName(T.seats, seat) }))}</h3></div>` +
        `<div class="dice watching">${v.turn.roll.map((d) => die(d, colour, "big")).join("")}` +
        `${v.turn.kept.map((d) => die(d, colour, "big kept")).join("")}</div>`;
      return;
    }
    el.innerHTML = `<div class="trayhead"><h3>${esc($("turnbanner").textContent)}</h3></div>`;
  }

  // The hint button and answer of a casual game (never in rated games): the server
  // answers only the seat to move, from its own view.
  // The decision a hint answers. The version alone does not name it: an undo takes the
  // version back, and another move then reaches the same number in another position.
  function decisionKey() { return `${T.version}:${JSON.stringify(T.log)}`; }

  function hintPart() {
    if (!myDecision() || (T.message && T.message.rated)) return { button: "", line: "" };
    const h = S.hint && S.hint.key === decisionKey() ? S.hint : null;
    return {
      button: hintButton(Boolean(h && h.busy)),
      line: h && h.html ? `<p class="hintline" role="status">${h.html}</p>` : "",
    };
  }

  async function askHint() {
    const key = decisionKey();
    S.hint = { key, html: "", busy: true };
    renderTray();
    try {
      const h = await fetchHint(T.id, T.token);
      if (S.hint && S.hint.key === key) S.hint = { key, html: h.html, busy: false };
    } catch (err) {
      if (S.hint && S.hint.key === key) S.hint = { key, html: esc(err.message), busy: false };
    }
    renderTray();
  }

  function placementTray(v, busy) {
    const colour = seatColour(T.seats, T.seat);
    const roll = v.turn.roll;
    const key = selectedValues().join("");
    const hints = buildingHints(T.legal, key);
    const dice = roll.map((d, i) =>
      die(d, colour, `big pick ${S.selected.includes(i) ? "selected" : ""}`,
        `data-idx="${i}" tabindex="0" role="button" aria-pressed="${S.selected.includes(i)}"`)).join("");
    const buttons = [];
    for (const b of "TSCFL") {
      if (hints.ready.has(b)) {
        buttons.push(`<button class="primary place" data-action="${b}:${key}">${t("place_in", {
          dice: diceText(key), building: `<b>${BUILDING_NAMES[b]}</b>` })}</button>`);
      }
    }
    const reroll = `R:${key}`;
    if (key && T.legal.includes(reroll)) {
      buttons.push(`<button class="reroll" data-action="${reroll}" title="${esc(t("reroll_cost"))}">↻ ${t("reroll", { dice: diceText(key) })}</button>`);
    }
    const groups = {};
    for (const a of T.legal) {
      const [k, d] = a.split(":");
      if (k === "R") continue;
      (groups[k] = groups[k] || []).push(d);
    }
    const forced = Object.keys(groups).length === 1 && groups.L;
    const moves = Object.entries(groups).map(([k, list]) =>
      `<div class="mgroup" data-group="${k}"><span class="bname">${BUILDING_NAMES[k]}</span>` +
      list.map((d) => `<button class="chip ${d === key ? "on" : ""}" data-select="${k}:${d}">${diceText(d)}</button>`).join("") +
      `</div>`).join("");
    const tokens = v.players_info[T.seat].tokens;
    const hint = hintPart();
    const asking = S.asking && T.legal.includes(S.asking) ? confirmBar(S.asking, busy) : "";
    return `<div class="trayhead"><h3>${esc(t("your_roll"))}</h3>` +
      `<span class="hint">${esc(t("none_selected"))}${tokens ? " " + esc(t("your_turn_reroll")) : ""}</span>${hint.button}</div>` +
      hint.line +
      `<div class="dice ${busy}">${dice}</div>` +
      (forced ? `<p class="forced">${esc(t("forced_latrine"))}</p>` : "") +
      (asking || `<div class="actions ${busy}">${buttons.join("")}</div>`) +
      `<details class="moves" ${S.movesOpen ? "open" : ""}><summary>${esc(t("moves"))}</summary>${moves}</details>`;
  }

  function choiceTray(v, busy) {
    const cards = T.legal.map((a) => {
      const [k, c] = a.split(":");
      const attrs = `data-action="${esc(a)}" tabindex="0" role="button"`;
      if (k === "K") return senateCard(c, "big choosable", attrs);
      if (k === "P") return province(c, "big choosable", attrs);
      if (k === "N") return patrician(c, "big choosable", attrs);
      return `<button data-action="${esc(a)}">${esc(a)}</button>`;
    }).join("");
    const hint = hintPart();
    return `<div class="trayhead"><h3>${esc(t(`your_turn_${phaseKey(v.phase)}`))}</h3>${hint.button}</div>` +
      hint.line + `<div class="choices ${busy}">${cards}</div>`;
  }

  function renderLogPanel() {
    const el = $("log");
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    // The first roll is drawn when the game is created: nobody sees it before the start.
    const log = T.status === "open" ? [] : T.log;
    const inserts = T.status === "open" ? {} : evaluationLogLines(T.view.evaluations, log, T.seats);
    el.innerHTML = renderLog(log, T.seats, highlightFrom(), T.seat, inserts);
    if (atBottom || !el.dataset.init) { el.scrollTop = el.scrollHeight; el.dataset.init = "1"; }
  }

  function takeoverSeat() {
    if (T.seat === null || T.status !== "active" || !S.takeoverLocal) return null;
    const seat = T.view.to_move;
    if (typeof seat !== "number" || seat === T.seat) return null;
    return Date.now() >= S.takeoverLocal ? seat : null;
  }

  function render() {
    if (!T.view) return;
    const v = T.view;
    const placing = myDecision() && v.phase === "placement";
    const key = selectedValues().join("");
    const from = highlightFrom();
    const ctx = {
      mySeat: T.seat,
      seats: T.seats,
      legal: T.legal,
      placing,
      hints: buildingHints(placing ? T.legal : [], key),
      recent: recentMoves(T.log, from),
      takeoverSeat: takeoverSeat(),
      conn: T.conn,
    };
    const before = trayDice(root);
    const fresh = T.log.slice(Math.min(S.logSeen, T.log.length));
    S.logSeen = T.log.length;
    renderTopbar();
    renderBanners();
    $("board").innerHTML = renderBuildings(v, ctx);
    $("players").innerHTML = renderPlayers(v, ctx);
    renderNote();
    renderTray();
    undo.update();
    projection.update();
    renderLogPanel();
    renderOverlay();
    if (T.status !== "open") {
      // Your own placement needs the room: the log keeps the evaluation meanwhile.
      evaluation.update(v, T.log, T.seats, placing);
      markEvaluating(evaluation.building());
      if (fresh.length && fresh.length < T.log.length) flyPlaced(root, before, fresh);
      if (S.rolled) rollIn($("tray").querySelector(".dice"));
    }
    S.rolled = false;
  }

  // Why the building just clicked cannot take the dice picked, shown on that building
  // until the selection changes or a few seconds pass.
  function renderNote() {
    const n = S.note;
    if (!n || n.key !== selectedValues().join("") || !(myDecision() && T.view.phase === "placement")) {
      S.note = null;
      return;
    }
    const b = $("board").querySelector(`.building[data-building="${n.building}"]`);
    if (b) b.insertAdjacentHTML("beforeend", `<div class="whynot" role="status">${esc(n.text)}</div>`);
  }

  function showNote(building, text) {
    S.note = { building, text, key: selectedValues().join("") };
    clearTimeout(S.noteTimer);
    S.noteTimer = setTimeout(() => { S.note = null; render(); }, 7000);
    render();
  }

  // Says why the dice picked cannot go to `building`: the engine's reason, from the server.
  async function explainRefusal(building, key) {
    const name = BUILDING_NAMES[building];
    if (!key) {
      const can = T.legal.some((a) => a.startsWith(`${building}:`));
      showNote(building, t(can ? "pick_first" : "takes_none", { building: name }));
      return;
    }
    let reason = "";
    try {
      const answer = await api(`/api/games/${encodeURIComponent(T.id)}/explain?action=${encodeURIComponent(`${building}:${key}`)}&lang=${language()}`,
        undefined, { token: T.token });
      reason = answer.reason;
    } catch (err) {
      reason = "";
    }
    if (key !== selectedValues().join("")) return; // the selection changed meanwhile
    showNote(building, `${t("not_here", { building: name })} ${reason}`.trim());
  }

  // Propose the rematch, or accept the one proposed (js/social.js shows the offer itself).
  function rematchButton() {
    const offer = T.message && T.message.rematch;
    if (T.seat === null || (offer && (offer.game || offer.accepted.includes(T.seat) || !offer.asked.includes(T.seat)))) return "";
    return `<button class="primary" data-rematch-now="1">↻ ${esc(t(offer ? "rematch_accept" : "rematch_propose"))}</button>`;
  }

  function renderOverlay() {
    const el = $("overlay");
    if (T.status === "finished" && S.resultsOpen && T.view.result) {
      el.innerHTML = `<div class="overlay"><div class="sheet">` +
        renderResults(T.view.result, T.seats, T.seat) +
        `<div class="actions"><button data-close="1">${esc(t("show_board"))}</button>` +
        rematchButton() +
        `<a class="button" href="/replay/${esc(T.id)}">${esc(t("replay"))}</a>` +
        `<a class="button primary" href="/">${esc(t("new_game"))}</a></div></div></div>`;
    } else {
      el.innerHTML = "";
    }
  }

  // ----------------------------------------------------------------- clicks

  function selectAction(action) {
    const [, d] = action.split(":");
    const roll = T.view.turn.roll;
    const picked = [];
    for (const ch of d) {
      const value = Number(ch);
      const idx = roll.findIndex((r, i) => r === value && !picked.includes(i));
      if (idx >= 0) picked.push(idx);
    }
    S.selected = picked;
    render();
  }

  function claim(seat) {
    const input = root.querySelector("#claimname");
    const name = input ? input.value.trim() : getName();
    if (name) setName(name);
    table.claim(seat, name);
  }

  root.addEventListener("click", (e) => {
    const target = e.target.closest("[data-idx],[data-confirm],[data-action],[data-select],[data-building],[data-takeover],[data-reclaim],[data-claim],[data-fill],[data-copy],[data-close],[data-results],[data-hint],[data-rematch-now]");
    if (!target || T.closed) return;
    const d = target.dataset;
    if (d.hint) {
      askHint();
    } else if (d.idx !== undefined) {
      const i = Number(d.idx);
      S.selected = S.selected.includes(i) ? S.selected.filter((x) => x !== i) : [...S.selected, i];
      S.asking = null;
      render();
    } else if (d.confirm !== undefined) {
      if (d.confirm && T.legal.includes(d.confirm)) act(d.confirm);
      else { S.asking = null; render(); }
    } else if (d.action) {
      if (/^[RTSCFL]:/.test(d.action)) request(d.action);
      else act(d.action);
    } else if (d.select) {
      selectAction(d.select);
    } else if (d.building) {
      if (!(myDecision() && T.view.phase === "placement")) return;
      const key = selectedValues().join("");
      const action = `${d.building}:${key}`;
      if (key && T.legal.includes(action)) { request(action); return; }
      const options = T.legal.filter((a) => a.startsWith(`${d.building}:`));
      if (!key && options.length === 1) { selectAction(options[0]); return; }
      const group = root.querySelector(`.mgroup[data-group="${d.building}"]`);
      if (group) { group.classList.remove("flash"); void group.offsetWidth; group.classList.add("flash"); }
      explainRefusal(d.building, key);
    } else if (d.takeover) {
      table.send({ type: "takeover", seat: Number(d.takeover) });
    } else if (d.reclaim) {
      table.send({ type: "reclaim" });
    } else if (d.claim) {
      claim(Number(d.claim));
    } else if (d.fill) {
      table.fillBots("medium");
    } else if (d.copy) {
      const input = root.querySelector("#invitelink");
      input.select();
      (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject())
        .catch(() => document.execCommand("copy"));
      S.copied = true;
      renderBanners();
    } else if (d.close) {
      S.resultsOpen = false;
      renderOverlay();
    } else if (d.rematchNow) {
      // Propose the rematch, then show the table, where the offer's answers appear.
      table.send({ type: "rematch", accept: true });
      S.resultsOpen = false;
      renderOverlay();
    } else if (d.results) {
      S.resultsOpen = true;
      renderOverlay();
    }
  });

  root.addEventListener("toggle", (e) => {
    if (e.target.classList && e.target.classList.contains("moves")) S.movesOpen = e.target.open;
  }, true);

  root.addEventListener("keydown", (e) => {
    const d = e.target.dataset;
    const pressable = d && (d.idx !== undefined || (d.action !== undefined && e.target.tagName !== "BUTTON"));
    if ((e.key === "Enter" || e.key === " ") && pressable) {
      e.preventDefault();
      e.target.click();
      // The tray is redrawn: keep the keyboard on the die just pressed.
      if (d.idx !== undefined) root.querySelector(`.tray [data-idx="${d.idx}"]`)?.focus();
    }
  });

  root.querySelectorAll("[data-confirm-setting]").forEach((box) => box.addEventListener("change", (e) => {
    S.confirm = { ...S.confirm, [e.target.dataset.confirmSetting]: e.target.checked };
    saveConfirm(S.confirm);
  }));

  root.querySelector("#autoforced").addEventListener("change", (e) => {
    S.autoForced = e.target.checked;
    localStorage.setItem("alea.auto", S.autoForced ? "1" : "0");
    maybeAutoPlay();
  });

  const ticker = setInterval(() => {
    renderClock();
    if (S.takeoverLocal && T.view && T.status === "active") {
      const seat = takeoverSeat();
      if (seat !== null && !root.querySelector(`[data-takeover="${seat}"]`)) render();
    }
  }, 1000);

  table.connect();

  return {
    stop() {
      table.stop();
      talk.stop();
      evaluation.stop();
      clearInterval(ticker);
      clearTimeout(S.autoTimer);
      clearTimeout(S.noteTimer);
    },
  };
}
