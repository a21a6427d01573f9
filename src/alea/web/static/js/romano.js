// The live Dado Romano table: one WebSocket, the scores, the two rolls, the figure and
// its effect, the riddle or question, and the decisions the server lists as legal.
// As for Alea Iacta Est, the page never guesses rules: every button is a legal action.
// The time limit is the server's: it sends the deadline, the page only counts down to it
// (corrected by the difference between the server's clock and this one) and shows the
// "last round" banner once the server has declared it.
// With a human referee (RULES.md B5) the referee's token opens the same page in the
// referee's role: the public table, a box to type the riddle or question, the player's
// typed answer, and the Right/Wrong marks the server lists as legal. The typed exchange
// comes from the server (so a reload shows it); the boxes keep what is being typed
// across updates.

import { language, t } from "./i18n.js";
import { esc } from "./pieces.js";
import { api, forgetToken, getName, loadToken, saveToken, toast } from "./util.js";

export const ROMANO_COLOURS = ["gray", "brown", "blue", "green", "yellow", "purple"];
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function name(seats, seat) {
  const s = seats[seat];
  if (!s) return t("seat_n", { n: seat + 1 });
  return s.name || t("seat_n", { n: seat + 1 });
}

// One log entry in words (the notation of docs/romano.md).
export function describeRomano(event, actor, seats) {
  const who = actor === null || actor === undefined ? "" : name(seats, actor);
  const [k, v] = event.split(":");
  if (k === "roll") return t("ro_log_roll", { who, n: v });
  if (k === "riddle") return t("ro_log_riddle", { who });
  if (k === "question") return t("ro_log_question", { who });
  if (k === "A") return t("ro_log_answer", { who, n: v });
  if (k === "D") return t("ro_log_declare", { who, a: v[0], b: v[1] });
  if (k === "M" && v === "pass") return t("ro_log_pass", { who });
  if (k === "M") return t("ro_log_challenge", { who, other: name(seats, Number(v)) });
  if (k === "N") return t("ro_log_return", { who, n: v });
  if (event === "last-round") return t("ro_log_last_round");
  if (event === "mark:right") return t("ro_log_mark_right", { who });
  if (event === "mark:wrong") return t("ro_log_mark_wrong", { who });
  return `${who} ${event}`;
}

// Seconds as minutes:seconds ("60:00", "04:59"); long limits keep counting in minutes.
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function startRomano(root, gameId, { watch = false } = {}) {
  const stored = watch ? null : loadToken(gameId);
  const S = {
    token: stored ? stored.token : null,
    seat: null,
    role: "spectator", // "player", "referee" (the human referee) or "spectator"
    referee: null, // {name, claimed, connected} with a human referee, else null
    exchange: null, // {seat, kind, posed, answer} while the referee is to mark, else null
    sayForm: "", // which typing box is shown ("pose", "answer" or ""): rebuilt only on change
    ws: null,
    version: 0,
    view: null,
    legal: [],
    log: [],
    seats: [],
    status: null,
    pending: false,
    closed: false,
    retry: 0,
    shownRolls: 0,
    figure: null,
    clock: null, // {time_limit, deadline, deadline_utc, last_round} or null: no time limit
    skew: 0, // the server's clock minus this one, in seconds (from the welcome)
    ticker: null,
  };
  root.innerHTML = `<div class="game romano">
    <div class="topbar"><a class="home" href="/">⟵ ${esc(t("home"))}</a>
      <b>Dado Romano</b><span id="roundinfo"></span><span id="clock" class="rclock" hidden></span><span id="turnbanner" class="turnbanner"></span></div>
    <div id="banners"></div>
    <div class="layout">
      <div class="main"><div id="rtable" class="rtable"></div>
        <div id="exchange" class="exchange" hidden><div id="exshow"></div><div id="exform"></div></div>
        <div id="decision" class="decision"></div></div>
      <aside class="side"><ol id="scores" class="rscores"></ol><p id="refline" class="muted" hidden></p>
        <details class="logbox" open><summary>${esc(t("log"))}</summary><ol id="log" class="log"></ol></details>
      </aside>
    </div></div>`;
  const $ = (id) => root.querySelector(`#${id}`);

  function connect() {
    if (S.closed) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
    S.ws = ws;
    ws.onopen = () => {
      S.retry = 0;
      send({ type: "hello", token: S.token, lang: language(), since: S.log.length });
    };
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (S.ws !== ws) return;
      S.pending = false;
      if (S.closed || e.code === 4404) return;
      S.retry += 1;
      setTimeout(connect, Math.min(1000 * 2 ** S.retry, 10000));
    };
  }

  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  }

  function act(action) {
    if (S.pending || !S.legal.includes(action)) return;
    S.pending = true;
    send({ type: "action", action, version: S.version });
    render();
  }

  function onMessage(m) {
    if (m.type === "welcome") {
      S.seat = m.seat;
      S.role = m.role || (m.seat === null ? "spectator" : "player");
      if (typeof m.server_time === "number") S.skew = m.server_time - Date.now() / 1000;
    } else if (m.type === "update") {
      if (m.log_start === S.log.length) S.log = S.log.concat(m.log);
      else if (m.log_start === 0) S.log = m.log.slice();
      else send({ type: "sync" });
      S.version = m.version;
      S.view = m.view;
      S.legal = m.legal;
      S.seats = m.seats;
      S.status = m.status;
      S.clock = m.clock || null;
      S.referee = m.referee || null;
      S.exchange = m.exchange || null;
      if (m.role) S.role = m.role;
      S.pending = false;
      render();
    } else if (m.type === "error") {
      S.pending = false;
      if (m.code === "bad_token") {
        forgetToken(gameId);
        S.token = null;
        send({ type: "hello", token: null, lang: language() });
      }
      if (m.code === "stale_version") send({ type: "sync" });
      toast(m.message || m.code, "error");
      render();
    }
  }

  function lastRoundDeclared() {
    return Boolean((S.clock && S.clock.last_round) || (S.view && S.view.is_last_round));
  }

  // The countdown in the top bar, redrawn every second (and on every update).
  function tick() {
    const el = root.querySelector("#clock");
    if (!el) return;
    const c = S.clock;
    if (!c || S.status === "finished") { el.hidden = true; return; }
    el.hidden = false;
    el.title = t("ro_clock_title");
    const declared = lastRoundDeclared();
    let left = null;
    // Declared: the banner and the round say "last round"; the clock says why.
    if (declared) el.textContent = `◷ ${t("ro_time_up")}`;
    else if (c.deadline === null) el.textContent = `◷ ${t("ro_clock_waiting", { n: c.time_limit })}`;
    else {
      left = c.deadline - (Date.now() / 1000 + S.skew);
      // At zero the server is about to declare the last round: say so until it has.
      el.textContent = `◷ ${left > 0 ? clockText(left) : t("ro_time_up")}`;
    }
    el.dataset.left = left === null ? "" : String(Math.max(0, Math.round(left)));
    el.classList.toggle("low", left !== null && left <= 300);
    el.classList.toggle("last", declared);
  }

  // The last two rolls of the log (the current turn's when it has any).
  function lastRolls() {
    const out = [];
    for (let i = S.log.length - 1; i >= 0 && out.length < 2; i -= 1) {
      const [event, actor] = S.log[i];
      if (event.startsWith("roll:")) out.unshift({ value: Number(event.slice(5)), actor, index: i });
    }
    return out;
  }

  function render() {
    const v = S.view;
    if (!v) return;
    const lang = language();
    const referee = S.role === "referee";
    const marking = S.status === "active" && v.phase === "mark";
    const mine = (S.seat !== null && v.turn_of === S.seat && !marking) || (referee && marking);
    const turnWho = name(S.seats, v.turn_of);
    $("roundinfo").textContent = `${t("ro_round")} ${v.round}${v.is_last_round ? ` · ${t("ro_last_round")}` : ""}`;
    $("turnbanner").textContent = S.status === "finished" ? t("ro_over")
      : S.status === "open" ? t("waiting_title")
        : marking && referee ? t("ro_referee_call", { kind: t(`ro_${v.item_kind}_lc`), who: turnWho })
          : marking ? t("ro_referee_awaited", { who: turnWho })
            : S.seat !== null && v.turn_of === S.seat ? t("ro_your_turn") : t("ro_turn_of", { who: turnWho });
    $("turnbanner").classList.toggle("mine", mine && S.status === "active");
    // The human referee, by name, and whether they are here (the table waits for them).
    const ref = S.referee;
    $("refline").hidden = !ref;
    if (ref) {
      $("refline").textContent = referee ? t("ro_you_referee")
        : ref.claimed ? `${t("ro_referee_is", { who: ref.name })}${ref.connected ? "" : ` (${t("ro_referee_away")})`}`
          : t("ro_referee_free");
    }

    // Scores with the ceiling state (above 150: changes are inverted).
    $("scores").innerHTML = S.seats.map((s, i) => {
      const badges = [
        v.above_150[i] ? `<span class="badge above">${esc(t("ro_above"))}</span>` : `<span class="badge below">${esc(t("ro_below"))}</span>`,
        v.eliminated[i] ? `<span class="badge out">${esc(t("ro_out"))}</span>` : "",
        v.skip_next[i] ? `<span class="badge skip">${esc(t("ro_skip"))}</span>` : "",
        v.winners.includes(i) ? `<span class="badge win">♛</span>` : "",
      ].join("");
      return `<li class="${i === v.turn_of && S.status === "active" ? "turn" : ""}" data-seat-row="${i}">` +
        `<span class="swatch ${ROMANO_COLOURS[i]}"></span><span class="pname">${esc(name(S.seats, i))}${i === S.seat ? ` (${esc(t("seat_you"))})` : ""}</span>` +
        `<b class="score" data-score="${i}">${v.scores[i]}</b>${badges}</li>`;
    }).join("");

    // The two rolls, with a short animation for new ones.
    const rolls = lastRolls();
    const fresh = rolls.filter((r) => r.index >= S.shownRolls);
    S.shownRolls = S.log.length;
    const dice = rolls.map((r) => `<span class="rdie ${ROMANO_COLOURS[r.actor] || "gray"} ${fresh.includes(r) ? "rolling" : ""}" data-roll="${r.value}" title="${r.value}">${PIPS[r.value]}</span>`).join("");
    // The figure being resolved, or the last one seen (a new turn has none yet).
    if (v.figure_name) S.figure = { name: v.figure_name, key: v.figure, effect: v.figure_effect };
    let figure = "";
    if (S.figure) {
      const f = S.figure;
      const effect = f.effect ? f.effect[lang] || f.effect.en : "";
      figure = `<div class="figure"><span class="fname">${esc(f.name)}</span> <span class="fkey">${esc(f.key)}</span><p class="effect">${esc(effect)}</p></div>`;
    }
    let item = "";
    if (v.item_text) {
      const it = v.item_text;
      item = `<div class="riddle"><h3>${esc(t(it.kind === "riddle" ? "ro_riddle" : "ro_question"))}</h3><p>${esc(it.text[lang] || it.text.en)}</p></div>`;
    }
    const declared = v.declared ? `<p class="muted">${esc(t("ro_declared", { a: v.declared[0], b: v.declared[1] }))}</p>` : "";
    let end = "";
    if (S.status === "finished") {
      const who = v.winners.map((w) => name(S.seats, w)).join(", ");
      end = `<div class="banner winners" id="winners">♛ ${esc(t("ro_winners", { who }))}</div>`;
    }
    $("rtable").innerHTML = `${end}<div class="rolls">${dice || `<span class="muted">${esc(t("ro_no_rolls"))}</span>`}</div>${figure}${declared}${item}`;

    // Banners: the last round, waiting for players.
    let banners = "";
    if (S.status === "active" && lastRoundDeclared()) {
      banners += `<div class="banner lastround" id="lastround">${esc(t("ro_last_round_banner"))}</div>`;
    }
    if (S.status === "open") {
      const free = S.seats.filter((s) => !s.claimed);
      const outsider = S.role === "spectator";
      const freeReferee = S.referee && !S.referee.claimed;
      banners += `<div class="banner">${esc(t("waiting_title"))} ` +
        (outsider ? free.map((s) => `<button class="primary small" data-claim="${s.seat}">${esc(t("take_seat"))} ${s.seat + 1}</button>`).join(" ") : "") +
        (outsider && freeReferee ? ` <button class="primary small" data-claim-referee="1">${esc(t("ro_be_referee"))}</button>` : "") +
        (!outsider && free.length ? `<button data-fill="1">${esc(t("fill_bots"))}</button>` : "") +
        `<input readonly class="invitelink" value="${esc(location.origin + location.pathname)}"></div>`;
    }
    $("banners").innerHTML = banners;
    tick();
    renderExchange(v);

    // The decision, as buttons (every one a legal action from the server).
    const legal = S.legal;
    let html = "";
    const busy = S.pending ? "busy" : "";
    if (legal.length) {
      const answers = legal.filter((a) => a.startsWith("A:"));
      const declares = legal.filter((a) => a.startsWith("D:"));
      const challenges = legal.filter((a) => a.startsWith("M:"));
      const returns = legal.filter((a) => a.startsWith("N:"));
      const marks = legal.filter((a) => a.startsWith("mark:"));
      const rest = legal.filter((a) => !/^([ADMN]|mark):/.test(a));
      if (marks.length) {
        html += `<p>${esc(t("ro_mark_help", { who: turnWho }))}</p><div class="actions marks">${marks.map((a) =>
          `<button class="${a === "mark:right" ? "primary" : ""}" data-act="${a}">${esc(t(a === "mark:right" ? "ro_right" : "ro_wrong"))}</button>`).join("")}</div>`;
      }
      if (answers.length && v.item_text) {
        const choices = v.item_text.choices[lang] || v.item_text.choices.en;
        html += `<div class="answers">${answers.map((a) => {
          const n = Number(a.slice(2));
          return `<button class="answer" data-act="${a}">${n}. ${esc(choices[n - 1] || a)}</button>`;
        }).join("")}</div>`;
      } else if (answers.length) {
        html += `<div class="answers">${answers.map((a) => `<button data-act="${a}">${esc(a)}</button>`).join("")}</div>`;
      }
      if (declares.length) {
        html += `<p>${esc(t("ro_declare_help"))}</p><div class="declare">${declares.map((a) =>
          `<button data-act="${a}">${PIPS[Number(a[2])]}${PIPS[Number(a[3])]}</button>`).join("")}</div>`;
      }
      if (challenges.length) {
        html += `<p>${esc(t("ro_challenge_help"))}</p><div class="actions">${challenges.map((a) =>
          `<button data-act="${a}">${esc(a === "M:pass" ? t("ro_pass") : t("ro_challenge", { who: name(S.seats, Number(a.slice(2))) }))}</button>`).join("")}</div>`;
      }
      if (returns.length) {
        html += `<p>${esc(t("ro_return_help"))}</p><div class="actions">${returns.map((a) =>
          `<button data-act="${a}">${a.slice(2)}</button>`).join("")}</div>`;
      }
      if (rest.length) {
        html += `<div class="actions">${rest.map((a) => `<button data-act="${a}">${esc(a)}</button>`).join("")}</div>`;
      }
      html = `<h3>${esc(t("ro_decide"))}</h3><div class="${busy}">${html}</div>`;
    }
    $("decision").innerHTML = html;

    // The log, newest first.
    const entries = S.log.map(([e, a], i) => [i, e, a]).slice(-40).reverse();
    $("log").innerHTML = entries.map(([i, e, a]) =>
      `<li data-index="${i}"><span class="swatch ${a === null ? "free" : ROMANO_COLOURS[a]}"></span> ${esc(describeRomano(e, a, S.seats))}</li>`).join("");
  }

  // The typed riddle or question and answer while the referee is to mark: what was typed
  // (for everyone), and a box for the referee (to pose) or the answering player (to answer).
  function renderExchange(v) {
    const ex = S.status === "active" ? S.exchange : null;
    $("exchange").hidden = !ex;
    if (!ex) {
      S.sayForm = "";
      $("exform").innerHTML = "";
      return;
    }
    const who = name(S.seats, ex.seat);
    const kind = t(ex.kind === "riddle" ? "ro_riddle" : "ro_question");
    $("exshow").innerHTML = `<h3>${esc(t("ro_item_for", { kind, who }))}</h3>` +
      `<p class="posed" id="posed">${ex.posed ? esc(ex.posed) : `<span class="muted">${esc(t("ro_not_posed"))}</span>`}</p>` +
      `<p class="answered"><b>${esc(t("ro_answer_of", { who }))}:</b> <span id="answered">${ex.answer ? esc(ex.answer) : `<span class="muted">${esc(t("ro_no_answer"))}</span>`}</span></p>`;
    const form = S.role === "referee" ? "pose" : S.seat !== null && S.seat === ex.seat ? "answer" : "";
    if (form === S.sayForm) return; // keep what is being typed
    S.sayForm = form;
    $("exform").innerHTML = !form ? ""
      : `<form class="sayform" data-say="${form}"><input id="saytext" maxlength="280" autocomplete="off" placeholder="${esc(t(form === "pose" ? "ro_pose_placeholder" : "ro_answer_placeholder"))}">` +
        `<button type="submit" class="primary">${esc(t(form === "pose" ? "ro_pose" : "ro_send_answer"))}</button></form>`;
  }

  async function claimReferee() {
    try {
      const res = await api(`/api/games/${encodeURIComponent(gameId)}/referee/claim`, { name: getName() });
      saveToken(gameId, res.token, null);
      S.token = res.token;
      send({ type: "hello", token: res.token, lang: language(), since: S.log.length });
    } catch (err) {
      toast(err.message, "error");
    }
  }

  root.addEventListener("submit", (e) => {
    const form = e.target.closest("[data-say]");
    if (!form) return;
    e.preventDefault();
    const input = form.querySelector("input");
    const text = input.value.trim();
    if (!text) return;
    send({ type: "say", text });
    input.value = "";
  });

  async function claim(seat) {
    const input = getName();
    try {
      const res = await api(`/api/games/${encodeURIComponent(gameId)}/seats/${seat}/claim`, { name: input });
      saveToken(gameId, res.token, res.seat);
      S.token = res.token;
      send({ type: "hello", token: res.token, lang: language(), since: S.log.length });
    } catch (err) {
      toast(err.message, "error");
    }
  }

  root.addEventListener("click", (e) => {
    const target = e.target.closest("[data-act],[data-claim],[data-claim-referee],[data-fill]");
    if (!target || S.closed) return;
    const d = target.dataset;
    if (d.act) act(d.act);
    else if (d.claimReferee) claimReferee();
    else if (d.claim !== undefined) claim(Number(d.claim));
    else if (d.fill) send({ type: "fill_bots" });
  });

  connect();
  S.ticker = setInterval(tick, 1000);
  return {
    stop() {
      S.closed = true;
      clearInterval(S.ticker);
      if (S.ws) S.ws.close();
    },
  };
}
