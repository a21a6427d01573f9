// The analysis of a finished game in the replay, and the hint button of casual games.
// Every figure comes from the server's analysis (alea.analysis), which judged each
// decision from what that seat knew at the time; this module only shows it.

import { addStrings, language, t } from "./i18n.js";
import { moveText } from "./log.js";
import { esc } from "./pieces.js";
import { seatColour, seatName } from "./seats.js";
import { api } from "./util.js";

addStrings({
  en: {
    an_title: "Analysis",
    an_intro: "Each decision of one player, judged by the top bot from what that player knew then (never the hidden cards).",
    an_seat: "Player",
    an_go: "Analyse",
    an_running: "Analysing… {done} of {total} decisions",
    an_failed: "The analysis failed: {detail}",
    an_summary: "{mistakes} mistakes in {total} decisions ({samples} sampled deals each).",
    an_chart: "Estimated winning chances of {name} across the game",
    an_mistake: "−{loss} points: {better} was better than {played}.",
    an_mistake_long: "Expected margin over the best rival {best} instead of {mine}, winning chances {bestwin} instead of {mywin}, over {samples} sampled deals of the hidden cards and dice.",
    an_good: "Best move found.",
    an_close: "Close to the best ({loss} points).",
    an_only: "The only move.",
    an_none: "No mistakes found.",
    an_goto: "Show this decision",
    an_round: "Round {n}",
    an_loss: "−{loss} points",
    hint: "Hint",
    hint_busy: "Thinking…",
    hint_text: "Hint: {move} (winning chances {win}, {samples} sampled deals).",
  },
  it: {
    an_title: "Analisi",
    an_intro: "Ogni decisione di un giocatore, giudicata dal bot più forte con ciò che quel giocatore sapeva allora (mai le carte nascoste).",
    an_seat: "Giocatore",
    an_go: "Analizza",
    an_running: "Analisi in corso… {done} di {total} decisioni",
    an_failed: "L'analisi non è riuscita: {detail}",
    an_summary: "{mistakes} errori in {total} decisioni ({samples} smazzate simulate ciascuna).",
    an_chart: "Probabilità di vittoria stimate di {name} lungo la partita",
    an_mistake: "−{loss} punti: meglio {better} che {played}.",
    an_mistake_long: "Margine atteso sul miglior avversario {best} invece di {mine}, probabilità di vittoria {bestwin} invece di {mywin}, su {samples} smazzate simulate delle carte nascoste e dei dadi.",
    an_good: "La mossa migliore trovata.",
    an_close: "Vicina alla migliore ({loss} punti).",
    an_only: "L'unica mossa possibile.",
    an_none: "Nessun errore trovato.",
    an_goto: "Mostra questa decisione",
    an_round: "Turno {n}",
    an_loss: "−{loss} punti",
    hint: "Suggerimento",
    hint_busy: "Sto pensando…",
    hint_text: "Suggerimento: {move} (probabilità di vittoria {win}, {samples} smazzate simulate).",
  },
});

const number = (x, digits = 1) => x.toLocaleString(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
const signed = (x) => (x > 0 ? "+" : x < 0 ? "−" : "") + number(Math.abs(x));
const percent = (x) => `${Math.round(x * 100)}%`;

/** A decision's verdict in words (HTML). */
export function verdictText(d) {
  if (d.options <= 1) return esc(t("an_only"));
  if (d.best === d.played) return esc(t("an_good"));
  const params = {
    loss: number(d.loss), better: moveText(d.best), played: moveText(d.played),
    best: signed(d.best_margin), mine: signed(d.played_margin),
    bestwin: percent(d.best_win), mywin: percent(d.played_win), samples: d.samples,
  };
  if (!d.flagged) return esc(t("an_close", { loss: number(d.loss) }));
  return `<b>${t("an_mistake", params)}</b> ${t("an_mistake_long", params)}`;
}

function chart(decisions, name, colour) {
  const w = 600, h = 120, pad = 6;
  const n = Math.max(1, decisions.length - 1);
  const x = (i) => pad + (i * (w - 2 * pad)) / n;
  const y = (p) => h - pad - p * (h - 2 * pad);
  const line = decisions.map((d, i) => `${x(i).toFixed(1)},${y(d.played_win).toFixed(1)}`).join(" ");
  const marks = decisions.map((d, i) => d.flagged
    // A zero-length line with round caps and a non-scaling stroke: a round dot however
    // the chart is stretched to its width.
    ? `<line class="an-mark" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${y(d.played_win).toFixed(1)}" y2="${y(d.played_win).toFixed(1)}" data-goto="${d.step + 1}" tabindex="0" role="button" aria-label="${esc(t("an_goto"))}: ${esc(t("an_round", { n: d.round }))}"><title>${esc(t("an_loss", { loss: number(d.loss) }))}</title></line>` : "").join("");
  const label = t("an_chart", { name });
  return `<figure class="an-chart"><svg viewBox="0 0 ${w} ${h}" role="group" aria-label="${esc(label)}" preserveAspectRatio="none">` +
    `<line class="an-half" x1="0" x2="${w}" y1="${y(0.5)}" y2="${y(0.5)}"></line>` +
    `<polyline class="an-line ${esc(colour)}" points="${line}"></polyline>${marks}</svg>` +
    `<figcaption>${esc(label)}</figcaption></figure>`;
}

/**
 * The analysis panel of a replay: pick a player, analyse, see the chart and the mistakes.
 * `goto(step)` moves the replay; `changed()` is called when notes for the caption change.
 */
export function mountAnalysis(el, gameId, record, { seat = 0, goto, changed }) {
  // `?analysis=<seat>` in the address opens the panel on that seat (kept on reload).
  const asked = new URLSearchParams(location.search).get("analysis");
  if (asked !== null && /^\d+$/.test(asked) && Number(asked) < record.game.seats.length) seat = Number(asked);
  const A = { seat, data: null, timer: null, stopped: false };
  const seats = record.game.seats;
  const options = seats.map((s, i) => `<option value="${i}" ${i === seat ? "selected" : ""}>${esc(seatName(seats, i))}</option>`).join("");
  el.innerHTML = `<details class="analysis" id="an"><summary>${esc(t("an_title"))}</summary>
    <p class="muted">${esc(t("an_intro"))}</p>
    <div class="an-controls"><label>${esc(t("an_seat"))} <select id="an-seat">${options}</select></label>
      <button class="primary" id="an-go">${esc(t("an_go"))}</button></div>
    <div id="an-status" role="status" aria-live="polite"></div><div id="an-body"></div></details>`;
  const $ = (id) => el.querySelector(`#${id}`);
  const url = () => `/api/games/${encodeURIComponent(gameId)}/analysis?seat=${A.seat}`;

  function render(answer) {
    const status = $("an-status");
    const body = $("an-body");
    $("an-go").dataset.asked = String(A.seat); // the page knows where this seat stands
    $("an-go").style.display = answer.status === "done" || answer.status === "running" ? "none" : "";
    if (answer.status === "running") {
      status.innerHTML = `<progress max="${answer.total}" value="${answer.done}"></progress> ${esc(t("an_running", answer))}`;
      body.innerHTML = "";
      return;
    }
    if (answer.status === "failed") {
      status.textContent = t("an_failed", { detail: answer.detail || "" });
      return;
    }
    if (answer.status !== "done") { status.textContent = ""; body.innerHTML = ""; return; }
    const a = answer.analysis;
    const mistakes = a.decisions.filter((d) => d.flagged);
    status.textContent = t("an_summary", { mistakes: mistakes.length, total: a.decisions.length, samples: a.samples });
    const items = mistakes.map((d) =>
      `<li><button class="link" data-goto="${d.step + 1}">${esc(t("an_round", { n: d.round }))}</button> ${verdictText(d)}</li>`).join("");
    body.innerHTML = chart(a.decisions, seatName(seats, A.seat), seatColour(seats, A.seat)) +
      (items ? `<ol class="an-list">${items}</ol>` : `<p>${esc(t("an_none"))}</p>`);
  }

  async function poll() {
    clearTimeout(A.timer);
    const asking = A.seat;
    let answer;
    try {
      answer = await api(url());
    } catch (err) {
      if (asking === A.seat) $("an-status").textContent = err.message;
      return;
    }
    // A slow answer about the seat chosen before must not be shown under the seat chosen now.
    if (A.stopped || asking !== A.seat) return;
    A.data = answer.status === "done" ? answer.analysis : null;
    render(answer);
    changed();
    if (answer.status === "running") A.timer = setTimeout(poll, 700);
  }

  el.addEventListener("click", async (e) => {
    const target = e.target.closest("[data-goto]");
    if (target) { goto(Number(target.dataset.goto)); return; }
    if (e.target.id === "an-go") {
      const asking = A.seat;
      let answer;
      try {
        answer = await api(url(), undefined, { method: "POST" });
      } catch (err) {
        $("an-status").textContent = err.message;
        return;
      }
      if (asking !== A.seat) return;
      render(answer);
      poll();
    }
  });
  el.addEventListener("keydown", (e) => {
    const target = e.target.closest("line[data-goto]");
    if (target && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); goto(Number(target.dataset.goto)); }
  });
  function remember() {
    const params = new URLSearchParams(location.search);
    if ($("an").open) params.set("analysis", String(A.seat)); else params.delete("analysis");
    history.replaceState(history.state, "", `${location.pathname}?${params}`);
  }
  el.addEventListener("change", (e) => {
    if (e.target.id === "an-seat") { A.seat = Number(e.target.value); A.data = null; remember(); changed(); poll(); }
  });
  $("an").addEventListener("toggle", remember);
  if (asked !== null) $("an").open = true;
  poll(); // a stored analysis shows its verdicts in the captions, panel open or not

  return {
    /** The verdict on the move shown at replay `step` (the event just played), as HTML. */
    note(step) {
      if (!A.data) return "";
      const d = A.data.decisions.find((x) => x.step + 1 === step);
      if (!d) return "";
      return `<span class="an-note ${d.flagged ? "bad" : "ok"}">${d.flagged ? "✗" : "✓"} ${verdictText(d)}</span>`;
    },
    stop() { A.stopped = true; clearTimeout(A.timer); },
  };
}

/** The hint button of a casual game (the page shows it to the seat to move only). */
export function hintButton(busy) {
  return `<button class="hintbtn" data-hint="1" ${busy ? "disabled" : ""}>${esc(t(busy ? "hint_busy" : "hint"))}</button>`;
}

/** Ask the server for a hint for this seat; its text (HTML) for the tray. */
export async function fetchHint(gameId, token) {
  const h = await api(`/api/games/${encodeURIComponent(gameId)}/hint`, undefined, { method: "POST", token });
  return { action: h.best, html: esc(t("hint_text", { move: "§", win: percent(h.best_win), samples: h.samples })).replace("§", moveText(h.best)) };
}
