// The end-of-game screen: ranking, each player's optimal arrangement and the score breakdown.

import { t } from "./i18n.js";
import { esc, patrician, province, senateCard } from "./pieces.js";
import { seatColour, seatName } from "./seats.js";
import { placeReason, senateReason } from "./why.js";

function place(p) {
  const card = p.kind === "border" || p.kind === "free" ? senateCard(p.card, "mini") : province(p.card, "mini");
  const pats = p.patricians.map((c) => patrician(c, "mini")).join("");
  const extra = p.extra ? `<span class="extra" title="${esc(t("extra"))}">+${patrician(p.extra, "mini")}</span>` : "";
  return `<div class="place" title="${esc(placeReason(p))}">${card}<span class="on">${pats}${extra}</span>` +
    `<span class="pts">${p.points}</span></div>`;
}

function breakdown(a) {
  const b = a.breakdown;
  const senate = b.senate.map((s, i) =>
    `<tr class="sub"><td>${senateCard(s.card, "mini")} <span class="why">${esc(senateReason(a, i))}</span></td><td>${s.points}</td></tr>`).join("");
  return `<table class="breakdown"><tbody>` +
    `<tr><td>${esc(t("bd_province_cards"))}</td><td>${b.province_cards}</td></tr>` +
    `<tr><td>${esc(t("bd_patricians"))}</td><td>${b.patricians}</td></tr>` +
    `<tr><td>${esc(t("bd_senate"))}</td><td>${b.senate_total}</td></tr>${senate}` +
    `<tr><td>${esc(t("bd_fortuna"))}</td><td>${b.fortuna}</td></tr>` +
    `<tr><td>${esc(t("bd_tokens"))}</td><td>${b.tokens}</td></tr>` +
    `<tr class="total"><td>${esc(t("bd_total"))}</td><td>${b.total}</td></tr></tbody></table>`;
}

export function renderResults(result, seats, mySeat) {
  if (!result) return "";
  const order = result.scores.map((s, i) => i)
    .sort((a, b) => result.scores[b] - result.scores[a] || result.tiebreaks[b] - result.tiebreaks[a]);
  const winners = new Set(result.winners);
  const cards = order.map((seat, rank) => {
    const a = result.arrangements ? result.arrangements[seat] : null;
    const places = a ? a.places.map(place).join("") : "";
    const unplaced = a && a.unplaced.length
      ? `<div class="unplaced"><span class="label">${esc(t("unplaced"))}</span>${a.unplaced.map((c) => patrician(c, "mini")).join("")}</div>` : "";
    return `<article class="final ${seatColour(seats, seat)} ${winners.has(seat) ? "winner" : ""} ${seat === mySeat ? "you" : ""}" data-seat="${seat}">` +
      `<header><span class="rankno">${rank + 1}</span><span class="swatch ${seatColour(seats, seat)}"></span>` +
      `<span class="pname">${esc(seatName(seats, seat))}</span>${winners.has(seat) ? `<span class="crown" title="${esc(t("winner"))}">♛</span>` : ""}` +
      `<span class="score">${result.scores[seat]}</span></header>` +
      `<div class="tb">${esc(t("tiebreak"))}: ${result.tiebreaks[seat]}</div>` +
      (a ? `<h4>${esc(t("arrangement"))}</h4><div class="places">${places}</div>${unplaced}${breakdown(a)}` : "") +
      `</article>`;
  }).join("");
  const names = result.winners.map((s) => esc(seatName(seats, s))).join(", ");
  return `<div class="results"><h2>${esc(t("final_title"))}</h2>` +
    `<p class="winline">♛ ${esc(t(result.winners.length > 1 ? "winners" : "winner"))}: <b>${names}</b></p>` +
    `<div class="finals">${cards}</div></div>`;
}
