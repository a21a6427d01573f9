// Your projected score, on request: the best arrangement of what you hold now (your Senate
// cards included) and every player's public estimate (Senate cards are face down, so they
// are counted, not scored). The server works both out from this seat's own view
// (GET /api/games/{id}/projection, docs/server.md); nothing here knows another seat's cards.

import { addStrings, language, t } from "./i18n.js";
import { esc, patrician, province, senateCard } from "./pieces.js";
import { seatColour, seatName } from "./seats.js";
import { api } from "./util.js";

addStrings({
  en: {
    projection_button: "Projected scores",
    projection_title: "If the game ended now",
    projection_own: "Your best arrangement: {score} points",
    projection_tiebreak: "tie-break {n}",
    projection_unplaced: "Not placed: {cards}",
    projection_public: "Public estimates",
    projection_public_note: "From what is on the table: Senate cards are face down and not counted.",
    projection_hidden: "+ {n} hidden Senate cards",
    projection_hidden_one: "+ 1 hidden Senate card",
    projection_points: "{n} pts",
    projection_loading: "Working it out…",
    projection_refresh: "Refresh",
    projection_close: "Close",
    projection_you: "you",
    projection_places_none: "No provinces yet.",
  },
  it: {
    projection_button: "Punteggi previsti",
    projection_title: "Se la partita finisse ora",
    projection_own: "La tua disposizione migliore: {score} punti",
    projection_tiebreak: "spareggio {n}",
    projection_unplaced: "Non piazzati: {cards}",
    projection_public: "Stime pubbliche",
    projection_public_note: "Da ciò che è sul tavolo: le carte Senato sono coperte e non contano.",
    projection_hidden: "+ {n} carte Senato coperte",
    projection_hidden_one: "+ 1 carta Senato coperta",
    projection_points: "{n} pt",
    projection_loading: "Calcolo in corso…",
    projection_refresh: "Aggiorna",
    projection_close: "Chiudi",
    projection_you: "tu",
    projection_places_none: "Ancora nessuna provincia.",
  },
});

/** The button and panel in `el`, for the table `table` (see table.js). */
export function projectionPanel(el, table) {
  const T = table.state;
  const P = { open: false, data: null, version: null, busy: false, error: "" };

  el.addEventListener("click", (e) => {
    const b = e.target.closest("[data-projection]");
    if (!b) return;
    if (b.dataset.projection === "close") { P.open = false; draw(); return; }
    P.open = true;
    fetchIt();
  });

  async function fetchIt() {
    const version = T.version;
    P.busy = true;
    draw();
    try {
      P.data = await api(`/api/games/${encodeURIComponent(T.id)}/projection`, undefined, { token: T.token });
      P.error = "";
    } catch (err) {
      P.error = err.message;
    }
    P.version = version;
    P.busy = false;
    draw();
  }

  function update() {
    // Open and out of date: work it out again (once per change of the game).
    if (P.open && !P.busy && P.version !== T.version && T.status !== "open") fetchIt();
    else draw();
  }

  function place(p) {
    const people = p.patricians.map((c) => patrician(c, "mini")).join("");
    const extra = p.extra ? patrician(p.extra, "mini") : "";
    const card = p.kind === "province" || p.kind === "wild" ? province(p.card, "mini") : senateCard(p.card, "mini");
    return `<li>${card}<span class="pjpeople">${people}${extra}</span>` +
      `<b>${esc(t("projection_points", { n: p.points }))}</b><small>${esc((p.why && p.why[language()]) || p.reason)}</small></li>`;
  }

  function ownPart(own) {
    if (!own) return "";
    const places = own.places.length ? `<ul class="pjplaces">${own.places.map(place).join("")}</ul>`
      : `<p>${esc(t("projection_places_none"))}</p>`;
    const unplaced = own.unplaced.length
      ? `<p class="pjunplaced">${esc(t("projection_unplaced", { cards: "" }))}${own.unplaced.map((c) => patrician(c, "mini")).join("")}</p>` : "";
    return `<h4>${esc(t("projection_own", { score: own.score }))} <small>(${esc(t("projection_tiebreak", { n: own.tiebreak }))})</small></h4>` +
      places + unplaced;
  }

  function publicPart(list) {
    const rows = list.map((p) => {
      const hidden = p.hidden_senate === 1 ? t("projection_hidden_one") : p.hidden_senate ? t("projection_hidden", { n: p.hidden_senate }) : "";
      const you = p.seat === T.seat ? ` <small>(${esc(t("projection_you"))})</small>` : "";
      return `<tr><th scope="row"><span class="swatch ${esc(seatColour(T.seats, p.seat))}"></span> <span class="pjname">${esc(seatName(T.seats, p.seat))}</span>${you}</th>` +
        `<td>${esc(t("projection_points", { n: p.score }))}</td><td>${esc(hidden)}</td></tr>`;
    }).join("");
    return `<h4>${esc(t("projection_public"))}</h4><table class="pjpublic">${rows}</table>` +
      `<p class="pjnote">${esc(t("projection_public_note"))}</p>`;
  }

  function draw() {
    if (!T.view || T.status === "open") { el.innerHTML = ""; return; }
    const button = `<button class="pjbutton" data-projection="open" aria-expanded="${P.open}">${esc(t(P.open ? "projection_refresh" : "projection_button"))}</button>`;
    if (!P.open) { el.innerHTML = button; return; }
    let body = "";
    if (P.error) body = `<p class="error" role="alert">${esc(P.error)}</p>`;
    else if (!P.data) body = `<p>${esc(t("projection_loading"))}</p>`;
    else body = ownPart(P.data.own) + publicPart(P.data.public);
    el.innerHTML = `<section class="projection" aria-live="polite" lang="${esc(language())}">` +
      `<h3>${esc(t("projection_title"))}</h3>${body}` +
      `<div class="pjactions">${button}<button data-projection="close">${esc(t("projection_close"))}</button></div></section>`;
  }

  return { update };
}
