// Time controls on the page: the time left of the turn being played, counted down here from
// the deadline the server sends (`time_control.deadline`, epoch seconds of the server's
// clock; `skew` is how far the server's clock is ahead of this browser's).

import { addStrings, t } from "./i18n.js";

addStrings({
  en: {
    tc_realtime: "Real time · {move} a move + {bank} bank",
    tc_turn: "Turn-based · {move} a move",
    tc_bot_move: "on timeout a bot moves",
    tc_bot_seat: "on timeout a bot takes the seat",
    tc_left: "{time} left",
    tc_days: "{d} d {rest}",
    tc_none: "No time limit",
    tc_label: "Clock per move",
    tc_opt_realtime: "Real time: 60 s a move + 5 min bank",
    tc_opt_day: "Turn-based: 24 hours a move",
    tc_opt_days: "Turn-based: 3 days a move",
    tc_policy: "When time runs out",
  },
  it: {
    tc_realtime: "Tempo reale · {move} a mossa + {bank} di riserva",
    tc_turn: "A turni · {move} a mossa",
    tc_bot_move: "allo scadere muove un bot",
    tc_bot_seat: "allo scadere un bot prende il posto",
    tc_left: "mancano {time}",
    tc_days: "{d} g {rest}",
    tc_none: "Senza limite di tempo",
    tc_label: "Tempo per mossa",
    tc_opt_realtime: "Tempo reale: 60 s a mossa + 5 min di riserva",
    tc_opt_day: "A turni: 24 ore a mossa",
    tc_opt_days: "A turni: 3 giorni a mossa",
    tc_policy: "Allo scadere del tempo",
  },
});

const pad = (n) => String(n).padStart(2, "0");

/** Seconds as "1:05", "2:03:04" or "3 d 04:05:06" (never negative). */
export function formatLeft(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const rest = h || d ? `${d ? pad(h) : h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
  return d ? t("tc_days", { d, rest }) : rest;
}

/** A duration chosen at creation, short: "60 s", "5 min", "24 h", "3 d". */
export function formatSpan(seconds) {
  if (seconds % 86400 === 0) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** What the time control is, in words ("Turn-based · 24 h a move, on timeout …"). */
export function describeControl(tc) {
  if (!tc) return t("tc_none");
  const head = tc.mode === "turn"
    ? t("tc_turn", { move: formatSpan(tc.per_move) })
    : t("tc_realtime", { move: formatSpan(tc.per_move), bank: formatSpan(tc.bank) });
  return `${head}, ${t(tc.on_timeout === "bot_seat" ? "tc_bot_seat" : "tc_bot_move")}`;
}

/** Seconds left of the timed turn (null: no deadline), with the server's clock `skew`. */
export function secondsLeft(tc, skew = 0) {
  if (!tc || typeof tc.deadline !== "number") return null;
  return tc.deadline - (Date.now() / 1000 + skew);
}
