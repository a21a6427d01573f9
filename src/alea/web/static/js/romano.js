// The live Dado Romano table: the scores, the two rolls, the figure and its effect, the
// riddle or question, and the decisions the server lists as legal (the connection, the
// log and the seat are table.js's, shared with Alea Iacta Est's page).
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
import { ROMANO, romanoRules } from "./romano-help.js";
import { seatColour, seatName } from "./seats.js";
import { inviteLink, joinTable } from "./table.js";
import { mountTableTalk } from "./social.js";
import { getName } from "./util.js";
import { describeControl, formatLeft, secondsLeft } from "./clocks.js";

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// One log entry in words (the notation of docs/romano.md).
export function describeRomano(event, actor, seats) {
  const who = actor === null || actor === undefined ? "" : seatName(seats, actor);
  const [k, v] = event.split(":");
  if (k === "roll") return t("ro_log_roll", { who, n: v });
  if (k === "riddle") return t("ro_log_riddle", { who });
  if (k === "question") return t("ro_log_question", { who });
  if (k === "A") return t("ro_log_answer", { who, n: v });
  if (k === "D") return t("ro_log_declare", { who, a: v[0], b: v[1] });
  if (k === "M" && v === "pass") return t("ro_log_pass", { who });
  if (k === "M") return t("ro_log_challenge", { who, other: seatName(seats, Number(v)) });
  if (k === "N") return t("ro_log_return", { who, n: v });
  if (event === "last-round") return t("ro_log_last_round");
  if (event === "throw") return t("ro_log_throw", { who });
  if (event === "mark:right") return t("ro_log_mark_right", { who });
  if (event === "mark:wrong") return t("ro_log_mark_wrong", { who });
  return `${who} ${event}`;
}

// One event of the engine's story (the view's "story") in words: the figure with its
// effect, score changes, answers with the right answer once given, challenges, Nero.
// The engine names the figures and the right answers; the page only puts them in words.
export function tellRomano(e, seats, lang) {
  const who = e.seat >= 0 ? seatName(seats, e.seat) : "";
  const other = e.other >= 0 ? seatName(seats, e.other) : "";
  const k = e.kind;
  if (k === "round") return t("ro_ev_round", { n: e.value });
  if (k === "turn") return t(e.text === "normal" ? "ro_ev_turn" : `ro_ev_turn_${e.text}`, { who });
  if (k === "roll") return t("ro_log_roll", { who, n: e.value });
  if (k === "declare") return t("ro_log_declare", { who, a: e.text[0], b: e.text[1] });
  if (k === "figure") {
    const effect = e.effect ? e.effect[lang] || e.effect.en : "";
    return t("ro_ev_figure", { who, pair: e.cause, name: e.name, effect });
  }
  if (k === "score") {
    const notes = [];
    if (e.text === "change") notes.push(e.new - e.old >= 0 ? `+${e.new - e.old}` : String(e.new - e.old));
    if (e.text === "set") notes.push(t("ro_ev_score_set"));
    if (e.text === "swap") notes.push(t("ro_ev_score_swap"));
    if (e.cause === "declaration") notes.push(t("ro_ev_score_declaration"));
    if (e.inverted) notes.push(t("ro_ev_score_inverted"));
    return `${t("ro_ev_score", { who, old: e.old, new: e.new })} (${notes.join(", ")})`;
  }
  if (k === "declaration") return t("ro_ev_declaration", { who, n: e.value });
  if (k === "draw") return t(e.kind_of_item === "riddle" ? "ro_log_riddle" : "ro_log_question", { who });
  if (k === "answer") {
    const given = e.given_text ? e.given_text[lang] || e.given_text.en : String(e.value);
    const right = e.right_text ? e.right_text[lang] || e.right_text.en : "";
    return t(e.text === "right" ? "ro_ev_answer_right" : "ro_ev_answer_wrong", { who, given, right });
  }
  if (k === "mark") return t(e.text === "right" ? "ro_log_mark_right" : "ro_log_mark_wrong", { who });
  if (k === "challenge") return t("ro_log_challenge", { who, other });
  if (k === "decline") return t("ro_log_pass", { who });
  if (k === "challenge-result") return t(`ro_ev_${e.text}`, { who, other });
  if (k === "eliminated") return t("ro_ev_eliminated", { who });
  if (k === "return") return t(e.text === "back" ? "ro_ev_back" : "ro_ev_out", { who, n: e.value });
  if (k === "skip") return t("ro_ev_skip", { who });
  if (k === "skip-next") return t("ro_ev_skip_next", { who });
  if (k === "marcus") return t("ro_ev_marcus", { who });
  if (k === "marcus-applied") return t("ro_ev_marcus_applied", { who, other, n: e.value });
  if (k === "last-round") return t("ro_log_last_round");
  if (k === "end") return e.text === "150" ? "" : t("ro_ev_end_time");
  if (k === "win") return t("ro_ev_win", { who });
  return k;
}

// The answer just given, for everyone to see: the latest answer or mark of the turn under
// way or the one just ended, unless a newer riddle or question has been drawn since.
export function latestFeedback(story) {
  let turns = 0;
  for (let i = story.length - 1; i >= 0; i -= 1) {
    const e = story[i];
    if (e.kind === "draw") return null;
    if (e.kind === "answer" || e.kind === "mark") return e;
    if (e.kind === "turn" || e.kind === "skip") {
      turns += 1;
      if (turns >= 2) return null;
    }
  }
  return null;
}

// Seconds as minutes:seconds ("60:00", "04:59"); long limits keep counting in minutes.
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function startRomano(root, gameId, { watch = false } = {}) {
  const table = joinTable(root, gameId, {
    watch,
    update(m) {
      S.clock = m.clock || null;
      S.referee = m.referee || null;
      S.exchange = m.exchange || null;
      render();
    },
    error: () => render(),
  });
  // T: what the server said (see table.js); S: what this page adds to it.
  const T = table.state;
  const S = {
    referee: null, // {name, claimed, connected} with a human referee, else null
    exchange: null, // {seat, kind, posed, answer} while the referee is to mark, else null
    sayForm: "", // which typing box is shown ("pose", "answer" or ""): rebuilt only on change
    shownRolls: 0,
    helpShown: "", // the language and figure the rules box was drawn for
    story: new Map(), // the engine's events seen so far, by index (the view sends the latest)
    clock: null, // {time_limit, deadline, deadline_utc, last_round} or null: no time limit
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
        <details class="logbox" open><summary>${esc(t("log"))}</summary><ol id="log" class="log" tabindex="0" aria-label="${esc(t("log"))}"></ol></details>
        <details class="logbox rhelp" id="rhelp"><summary id="rhelptitle"></summary><div id="rhelpbody"></div>
          <p><a href="/rules#romano" id="rhelplink"></a></p></details>
        <div id="talk" class="talk"></div>
      </aside>
    </div></div>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const talk = mountTableTalk($("talk"), root, table);

  function act(action) {
    if (table.act(action)) render();
  }

  function lastRoundDeclared() {
    return Boolean((S.clock && S.clock.last_round) || (T.view && T.view.is_last_round));
  }

  // The countdown in the top bar, redrawn every second (and on every update).
  function turnClock() {
    const el = root.querySelector("#turnclock");
    const tc = T.message && T.message.time_control;
    if (!el || !tc) return;
    const left = secondsLeft(tc, T.skew || 0);
    el.textContent = left === null ? "" : `⏱ ${formatLeft(left)}`;
    el.classList.toggle("low", left !== null && left < Math.min(30, tc.per_move / 4));
  }

  function tick() {
    turnClock();
    const el = root.querySelector("#clock");
    if (!el) return;
    const c = S.clock;
    if (!c || T.status === "finished") { el.hidden = true; return; }
    el.hidden = false;
    el.title = t("ro_clock_title");
    const declared = lastRoundDeclared();
    let left = null;
    // Declared: the banner and the round say "last round"; the clock says why.
    if (declared) el.textContent = `◷ ${t("ro_time_up")}`;
    else if (c.deadline === null) el.textContent = `◷ ${t("ro_clock_waiting", { n: c.time_limit })}`;
    else {
      left = c.deadline - (Date.now() / 1000 + T.skew);
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
    for (let i = T.log.length - 1; i >= 0 && out.length < 2; i -= 1) {
      const [event, actor] = T.log[i];
      if (event.startsWith("roll:")) out.unshift({ value: Number(event.slice(5)), actor, index: i });
    }
    return out;
  }

  function render() {
    const v = T.view;
    if (!v) return;
    const lang = language();
    for (const e of v.story || []) S.story.set(e.index, e);
    const referee = T.role === "referee";
    const marking = T.status === "active" && v.phase === "mark";
    const mine = (T.seat !== null && v.turn_of === T.seat && !marking) || (referee && marking);
    const turnWho = seatName(T.seats, v.turn_of);
    $("roundinfo").textContent = `${t("ro_round")} ${v.round}${v.is_last_round ? ` · ${t("ro_last_round")}` : ""}`;
    $("turnbanner").textContent = T.status === "finished" ? t("ro_over")
      : T.status === "open" ? t("waiting_title")
        : marking && referee ? t("ro_referee_call", { kind: t(`ro_${v.item_kind}_lc`), who: turnWho })
          : marking ? t("ro_referee_awaited", { who: turnWho })
            : T.seat !== null && v.turn_of === T.seat ? t("ro_your_turn") : t("ro_turn_of", { who: turnWho });
    $("turnbanner").classList.toggle("mine", mine && T.status === "active");
    // A clock per turn (time controls): the time left of the turn being played.
    const tc = T.message && T.message.time_control;
    if (tc && T.status === "active") {
      const clock = document.createElement("span");
      clock.id = "turnclock";
      clock.className = "turnclock";
      clock.title = describeControl(tc);
      $("turnbanner").append(" ", clock);
      turnClock();
    }
    // The human referee, by name, and whether they are here (the table waits for them).
    const ref = S.referee;
    $("refline").hidden = !ref;
    if (ref) {
      $("refline").textContent = referee ? t("ro_you_referee")
        : ref.claimed ? `${t("ro_referee_is", { who: ref.name })}${ref.connected ? "" : ` (${t("ro_referee_away")})`}`
          : t("ro_referee_free");
    }

    // Scores with the ceiling state (above 150: changes are inverted).
    $("scores").innerHTML = T.seats.map((s, i) => {
      const badges = [
        v.above_150[i] ? `<span class="badge above">${esc(t("ro_above"))}</span>` : `<span class="badge below">${esc(t("ro_below"))}</span>`,
        v.eliminated[i] ? `<span class="badge out">${esc(t("ro_out"))}</span>` : "",
        v.skip_next[i] ? `<span class="badge skip">${esc(t("ro_skip"))}</span>` : "",
        v.winners.includes(i) ? `<span class="badge win">♛</span>` : "",
      ].join("");
      return `<li class="${i === v.turn_of && T.status === "active" ? "turn" : ""}" data-seat-row="${i}">` +
        `<span class="swatch ${seatColour(T.seats, i)}"></span><span class="pname">${esc(seatName(T.seats, i))}${i === T.seat ? ` (${esc(t("seat_you"))})` : ""}</span>` +
        `<b class="score" data-score="${i}">${v.scores[i]}</b>${badges}</li>`;
    }).join("");

    // The two rolls, with a short animation for new ones.
    // The first rolls are drawn when the game is created: nobody sees them before the start.
    const started = T.status !== "open";
    const rolls = started ? lastRolls() : [];
    const fresh = rolls.filter((r) => r.index >= S.shownRolls);
    S.shownRolls = T.log.length;
    // Whose dice these are, in words as well as in colour.
    const last = rolls.length ? rolls[rolls.length - 1].actor : null;
    const rollWho = last === null || last === undefined ? ""
      : `<span class="who ${seatColour(T.seats, last)}" title="${esc(seatName(T.seats, last))}">${esc(seatName(T.seats, last))}</span>`;
    const dice = rollWho + rolls.filter((r) => r.actor === last).map((r) => `<span class="rdie ${seatColour(T.seats, r.actor) || "gray"} ${fresh.includes(r) ? "rolling" : ""}" data-roll="${r.value}" title="${r.value}">${PIPS[r.value]}</span>`).join("");
    // The figure being resolved: only the view's own (between turns there is none, and an
    // older one would sit beside another player's dice).
    let figure = "";
    if (started && v.figure_name) {
      const f = { name: v.figure_name, key: v.figure, effect: v.figure_effect };
      const effect = f.effect ? f.effect[lang] || f.effect.en : "";
      figure = `<div class="figure"><span class="fname">${esc(f.name)}</span> <span class="fkey">${esc(f.key)}</span><p class="effect">${esc(effect)}</p></div>`;
    }
    let item = "";
    if (started && v.item_text) {
      const it = v.item_text;
      item = `<div class="riddle"><h3>${esc(t(it.kind === "riddle" ? "ro_riddle" : "ro_question"))}</h3><p>${esc(it.text[lang] || it.text.en)}</p></div>`;
    }
    const declared = v.declared ? `<p class="muted">${esc(t("ro_declared", { a: v.declared[0], b: v.declared[1] }))}</p>` : "";
    let end = "";
    if (T.status === "finished") {
      const who = v.winners.map((w) => seatName(T.seats, w)).join(", ");
      end = `<div class="banner winners" id="winners">♛ ${esc(t("ro_winners", { who }))}</div>`;
    }
    // Whether the answer just given was right, and the right answer (public once given).
    let feedback = "";
    const fb = started ? latestFeedback(v.story || []) : null;
    if (fb) {
      const fwho = seatName(T.seats, fb.seat);
      const given = fb.given_text ? fb.given_text[lang] || fb.given_text.en : "";
      const rightText = fb.right_text ? fb.right_text[lang] || fb.right_text.en : "";
      const key = fb.kind === "mark" ? `ro_fb_mark_${fb.text}` : `ro_fb_${fb.text}`;
      feedback = `<div class="feedback ${fb.text}" id="feedback" role="status">${fb.text === "right" ? "✔" : "✘"} ${esc(t(key, { who: fwho, given, right: rightText }))}</div>`;
    }
    $("rtable").innerHTML = `${end}<div class="rolls">${dice || `<span class="muted">${esc(t("ro_no_rolls"))}</span>`}</div>${figure}${declared}${feedback}${item}`;

    // Banners: the last round, waiting for players.
    let banners = "";
    if (T.status === "active" && lastRoundDeclared()) {
      banners += `<div class="banner lastround" id="lastround">${esc(t("ro_last_round_banner"))}</div>`;
    }
    if (T.status === "open") {
      const free = T.seats.filter((s) => !s.claimed);
      const outsider = T.role === "spectator";
      const freeReferee = S.referee && !S.referee.claimed;
      banners += `<div class="banner">${esc(t("waiting_title"))} ` +
        (outsider ? free.map((s) => `<button class="primary small" data-claim="${s.seat}">${esc(t("take_seat"))} ${s.seat + 1}</button>`).join(" ") : "") +
        (outsider && freeReferee ? ` <button class="primary small" data-claim-referee="1">${esc(t("ro_be_referee"))}</button>` : "") +
        (!outsider && free.length ? `<button data-fill="1">${esc(t("fill_bots"))}</button>` : "") +
        `<input readonly class="invitelink" value="${esc(inviteLink(gameId))}"></div>`;
    }
    $("banners").innerHTML = banners;
    tick();
    renderExchange(v);
    // The rules box: the same content as the rules page, the figure being played marked.
    const helpKey = `${lang}|${v.figure || ""}`;
    if (helpKey !== S.helpShown) {
      S.helpShown = helpKey;
      $("rhelptitle").textContent = ROMANO.help[lang] || ROMANO.help.en;
      $("rhelpbody").innerHTML = romanoRules(v.figure || "", 3);
      $("rhelplink").textContent = ROMANO.full_rules[lang] || ROMANO.full_rules.en;
    }

    // The decision, as buttons (every one a legal action from the server).
    const legal = T.legal;
    let html = "";
    const busy = T.pending ? "busy" : "";
    if (legal.length) {
      const answers = legal.filter((a) => a.startsWith("A:"));
      const declares = legal.filter((a) => a.startsWith("D:"));
      const challenges = legal.filter((a) => a.startsWith("M:"));
      const returns = legal.filter((a) => a.startsWith("N:"));
      const marks = legal.filter((a) => a.startsWith("mark:"));
      const rest = legal.filter((a) => !/^([ADMN]|mark):/.test(a) && a !== "throw");
      // A paced table: each die waits for its player's Roll.
      if (legal.includes("throw")) {
        html += `<p>${esc(t("ro_roll_help"))}</p><div class="actions"><button class="primary big roll" id="rollbtn" data-act="throw">🎲 ${esc(t("ro_roll"))}</button></div>`;
      }
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
          `<button data-act="${a}">${esc(a === "M:pass" ? t("ro_pass") : t("ro_challenge", { who: seatName(T.seats, Number(a.slice(2))) }))}</button>`).join("")}</div>`;
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

    // The log, newest first: the engine's story in words (figures, effects, score
    // changes, answers and the right answer).
    const told = started ? [...S.story.values()].sort((a, b) => a.index - b.index)
      .map((e) => [e, tellRomano(e, T.seats, lang)]).filter(([, text]) => text).slice(-40).reverse() : [];
    $("log").innerHTML = told.map(([e, text]) =>
      `<li data-index="${e.index}" data-kind="${esc(e.kind)}" data-seat="${e.seat}" class="ev-${esc(e.kind)}${e.kind === "answer" || e.kind === "mark" ? ` ${esc(e.text)}` : ""}"><span class="swatch ${e.seat < 0 ? "free" : seatColour(T.seats, e.seat)}"></span><span class="etext">${esc(text)}</span></li>`).join("");
  }

  // The typed riddle or question and answer while the referee is to mark: what was typed
  // (for everyone), and a box for the referee (to pose) or the answering player (to answer).
  function renderExchange(v) {
    const ex = T.status === "active" ? S.exchange : null;
    $("exchange").hidden = !ex;
    if (!ex) {
      S.sayForm = "";
      $("exform").innerHTML = "";
      return;
    }
    const who = seatName(T.seats, ex.seat);
    const kind = t(ex.kind === "riddle" ? "ro_riddle" : "ro_question");
    $("exshow").innerHTML = `<h3>${esc(t("ro_item_for", { kind, who }))}</h3>` +
      `<p class="posed" id="posed">${ex.posed ? esc(ex.posed) : `<span class="muted">${esc(t("ro_not_posed"))}</span>`}</p>` +
      `<p class="answered"><b>${esc(t("ro_answer_of", { who }))}:</b> <span id="answered">${ex.answer ? esc(ex.answer) : `<span class="muted">${esc(t("ro_no_answer"))}</span>`}</span></p>`;
    const form = T.role === "referee" ? "pose" : T.seat !== null && T.seat === ex.seat ? "answer" : "";
    if (form === S.sayForm) return; // keep what is being typed
    S.sayForm = form;
    $("exform").innerHTML = !form ? ""
      : `<form class="sayform" data-say="${form}"><input id="saytext" maxlength="280" autocomplete="off" placeholder="${esc(t(form === "pose" ? "ro_pose_placeholder" : "ro_answer_placeholder"))}">` +
        `<button type="submit" class="primary">${esc(t(form === "pose" ? "ro_pose" : "ro_send_answer"))}</button></form>`;
  }

  root.addEventListener("submit", (e) => {
    const form = e.target.closest("[data-say]");
    if (!form) return;
    e.preventDefault();
    const input = form.querySelector("input");
    const text = input.value.trim();
    if (!text) return;
    table.send({ type: "say", text });
    input.value = "";
  });

  root.addEventListener("click", (e) => {
    const target = e.target.closest("[data-act],[data-claim],[data-claim-referee],[data-fill]");
    if (!target || T.closed) return;
    const d = target.dataset;
    if (d.act) act(d.act);
    else if (d.claimReferee) table.claimReferee(getName());
    else if (d.claim !== undefined) table.claim(Number(d.claim), getName());
    else if (d.fill) table.fillBots();
  });

  table.connect();
  S.ticker = setInterval(tick, 1000);
  return {
    stop() {
      table.stop();
      talk.stop();
      clearInterval(S.ticker);
    },
  };
}
