// The game's pieces as HTML: dice, province cards, patrician tiles, Senate cards,
// Fortuna tiles and re-roll tokens. Pure functions returning strings; all text is escaped.

import { t } from "./i18n.js";

export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

const PIPS = {
  1: [[12, 12]],
  2: [[7, 7], [17, 17]],
  3: [[7, 7], [12, 12], [17, 17]],
  4: [[7, 7], [17, 7], [7, 17], [17, 17]],
  5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
  6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]],
};

/** A die of value v in a player colour. extra: classes; attrs: extra attributes. */
export function die(value, colour, extra = "", attrs = "") {
  const pips = (PIPS[value] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2"/>`).join("");
  // A die to pick is a button (its attrs say so); any other die is a picture of its value.
  const role = attrs.includes("role=") ? "" : ' role="img"';
  return `<span class="die ${esc(colour)} ${extra}" data-v="${value}" ${attrs}` +
    `${role} aria-label="${value}"><svg viewBox="0 0 24 24" aria-hidden="true">${pips}</svg></span>`;
}

export function diceRow(values, colour, extra = "") {
  return values.map((v) => die(v, colour, extra)).join("");
}

export function diceText(text) {
  return [...String(text)].map((d) => die(Number(d), "ivory", "mini")).join("");
}

const PROVINCE_RE = /^([a-z]+)(\d)$/;
const PATRICIAN_RE = /^([a-z]+)([mw])(\d)$/;

export function parseProvince(card) {
  const m = PROVINCE_RE.exec(card);
  return m ? { colour: m[1], value: Number(m[2]) } : { colour: "grey", value: 0 };
}

export function parsePatrician(card) {
  const m = PATRICIAN_RE.exec(card);
  return m ? { colour: m[1], sex: m[2], value: Number(m[3]) } : null;
}

export function colourName(colour) { return t(`colour_${colour}`); }

export function cardLabel(card) {
  const pat = parsePatrician(card);
  if (pat) return `${colourName(pat.colour)} ${t(pat.sex === "m" ? "man" : "woman")} ${pat.value}`;
  if (PROVINCE_RE.test(card)) {
    const p = parseProvince(card);
    return `${colourName(p.colour)} ${p.value}`;
  }
  return card;
}

/** A province card: colour band and value; grey0 is the wild province. */
export function province(card, extra = "", attrs = "") {
  const p = parseProvince(card);
  const wild = card === "grey0";
  return `<span class="province ${p.colour} ${extra}" data-card="${esc(card)}" ${attrs}` +
    ` title="${esc(cardLabel(card))}"><span class="pv">${wild ? "✱" : p.value}</span>` +
    `<span class="pname">${esc(wild ? "0" : colourName(p.colour))}</span></span>`;
}

const ROMAN = ["", "I", "II", "III"];

/** A patrician tile: a round token with the sex symbol and value. */
export function patrician(card, extra = "", attrs = "") {
  const p = parsePatrician(card);
  if (!p) return "";
  const sym = p.sex === "m" ? "♂" : "♀";
  return `<span class="patrician ${p.colour} ${p.sex} ${extra}" data-card="${esc(card)}" ${attrs}` +
    ` title="${esc(cardLabel(card))}"><span class="sx">${sym}</span>` +
    `<span class="pv">${ROMAN[p.value] || p.value}</span></span>`;
}

/** A Senate card (face up), with what it scores. */
export function senateCard(card, extra = "", attrs = "") {
  const [num, pair] = card.split("-");
  let band = "";
  if (pair) {
    const [a, b] = pair.split("/");
    band = `<span class="band"><i class="${esc(a)}"></i><i class="${esc(b)}"></i></span>`;
  }
  const text = t(`senate_${num}`);
  return `<span class="senate ${extra}" data-card="${esc(card)}" ${attrs} title="${esc(text)}">` +
    `<b>${esc(num)}</b>${band}<small>${esc(text)}</small></span>`;
}

export function senateBack(extra = "") {
  return `<span class="senate back ${extra}" title="${esc(t("hidden_card"))}"><b>S</b></span>`;
}

export function fortuna(value, extra = "") {
  if (value === null || value === undefined) {
    return `<span class="fortuna back ${extra}" title="${esc(t("hidden_card"))}">?</span>`;
  }
  return `<span class="fortuna ${extra}" title="Fortuna ${value}">${value}</span>`;
}

export function token(count) {
  return `<span class="token" title="${esc(t("tokens"))}">↻</span><span class="count">×${count}</span>`;
}

/** A short human name for any card in notation (K:/P:/N: and reveals). */
export function anyCard(card) {
  if (parsePatrician(card)) return patrician(card, "mini");
  if (PROVINCE_RE.test(card)) return province(card, "mini");
  return senateCard(card, "mini");
}
