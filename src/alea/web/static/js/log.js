// The game log: every event in notation (RULES.md §7), told as a sentence with pieces.

import { t } from "./i18n.js";
import { anyCard, diceText, esc, fortuna } from "./pieces.js";
import { seatColour, seatName } from "./seats.js";

function describe(ev, actor, previous) {
  const [kind, rest] = ev.split(":");
  const hidden = rest === "?";
  const dice = hidden ? "" : diceText(rest);
  switch (kind) {
    case "roll":
      return t(previous && previous.startsWith("R:") ? "ev_reroll_result" : "ev_roll", { dice });
    case "R": case "T": case "S": case "C": case "F": case "L":
      return t(`ev_${kind}`, { dice });
    case "K":
      return hidden ? t("ev_K_hidden") : t("ev_K", { card: anyCard(rest) });
    case "P": case "N":
      return t(`ev_${kind}`, { card: anyCard(rest) });
    case "province": case "patrician":
      return t(`ev_${kind}`, { card: anyCard(rest) });
    case "fortuna":
      return hidden ? t("ev_fortuna_hidden") : t("ev_fortuna", { card: fortuna(Number(rest), "mini") });
    case "senate":
      return hidden ? t("ev_senate_hidden") : t("ev_senate", { card: anyCard(rest) });
    default:
      return esc(ev);
  }
}

/**
 * The log as HTML list items. `highlightFrom` marks recent entries; a heading opens each
 * round (a round starts with its province reveals). `inserts` ({index: [<li>, ...]}) are
 * lines shown before the entry at that index (the evaluation's steps, evaluation.js).
 */
export function renderLog(log, seats, highlightFrom, mySeat, inserts = {}) {
  const items = [];
  let round = 0;
  let prev = "";
  for (let i = 0; i <= log.length; i++) {
    if (inserts[i]) items.push(...inserts[i]);
    if (i === log.length) break;
    const [ev, actor] = log[i];
    if (ev.startsWith("province:") && !prev.startsWith("province:")) {
      round += 1;
      items.push(`<li class="round">${esc(t("round_heading", { n: round }))}</li>`);
    }
    const who = actor === null || actor === undefined ? ""
      : `<span class="who ${seatColour(seats, actor)}" title="${esc(seatName(seats, actor))}">${esc(seatName(seats, actor))}</span> `;
    const isAction = /^[RTSCFLKPN]:/.test(ev);
    const cls = [isAction ? "act" : "chance", i >= highlightFrom ? "recent" : "", actor === mySeat ? "mine" : ""].join(" ");
    items.push(`<li class="${cls}" data-i="${i}" title="${esc(ev)}">${who}${describe(ev, actor, prev)}</li>`);
    prev = ev;
  }
  return items.join("");
}

/** A move in words without its player ("places 4-4-4 in the Castrum"), as HTML. */
export function moveText(ev) {
  return describe(ev, null, "");
}

/** One event as a sentence (for the replay's caption). */
export function describeEvent(ev, actor, previous, seats) {
  const who = actor === null || actor === undefined ? ""
    : `<span class="who ${seatColour(seats, actor)}" title="${esc(seatName(seats, actor))}">${esc(seatName(seats, actor))}</span> `;
  return who + describe(ev, actor, previous || "");
}
