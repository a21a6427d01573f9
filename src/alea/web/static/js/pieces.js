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

// The card grammar of alea.iacta.cards: a province is a colour and a value 1-4 (or the
// wild grey0), a patrician a colour, "m" or "w" and a value 1-3. The colours are named
// in full, because a colour may end in a letter that is also a sex ("yellow" + "2" is a
// province, not a "yello" woman); tests/web pins this grammar to the engine's tables.
export const CARD_COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"];
const COLOUR_ALT = CARD_COLOURS.join("|");
const PROVINCE_RE = new RegExp(`^(?:(${COLOUR_ALT})([1-4])|(grey)(0))$`);
const PATRICIAN_RE = new RegExp(`^(${COLOUR_ALT})([mw])([1-3])$`);

/** A province card's colour and value, or null when `card` is not a province. */
export function parseProvince(card) {
  const m = PROVINCE_RE.exec(card);
  if (!m) return null;
  return m[1] ? { colour: m[1], value: Number(m[2]) } : { colour: "grey", value: 0 };
}

/** A patrician tile's colour, sex ("m" or "w") and value, or null when it is none. */
export function parsePatrician(card) {
  const m = PATRICIAN_RE.exec(card);
  return m ? { colour: m[1], sex: m[2], value: Number(m[3]) } : null;
}

export function colourName(colour) { return t(`colour_${colour}`); }

/** A card in words ("yellow woman 2", "red 4"); Senate cards and unknown names as they are. */
export function cardLabel(card) {
  const pat = parsePatrician(card);
  if (pat) return `${colourName(pat.colour)} ${t(pat.sex === "m" ? "man" : "woman")} ${pat.value}`;
  const p = parseProvince(card);
  if (p) return p.value ? `${colourName(p.colour)} ${p.value}` : t("wild_province");
  return card;
}

/** A province card: colour band and value; grey0 is the wild province. */
export function province(card, extra = "", attrs = "") {
  const p = parseProvince(card) || { colour: "grey", value: 0 };
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
  if (parseProvince(card)) return province(card, "mini");
  return senateCard(card, "mini");
}
