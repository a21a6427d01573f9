// Why a place or a Senate card scores what it does, in the player's language.
// The points are the server's (alea.iacta.scoring); the engine's own reasons are English
// sentences for developers, so the words here are built from the same arrangement the
// server sent (its places, patricians and holdings), with every word an i18n key.

import { t } from "./i18n.js";
import { CARD_COLOURS, cardLabel, colourName, parsePatrician, parseProvince } from "./pieces.js";

const RING = [...CARD_COLOURS, "grey"];

function list(items) {
  return items.length ? items.join(", ") : t("why_none");
}

function byRing(colours) {
  return [...new Set(colours)].sort((a, b) => RING.indexOf(a) - RING.indexOf(b)).map(colourName);
}

function placeKind(card) {
  if (card === "grey0") return "wild";
  if (card === "XIII") return "free";
  if (card.startsWith("XII")) return "border";
  return "province";
}

function patricianValues(patricians) {
  return patricians.map((p) => (parsePatrician(p) || { value: "?" }).value).join("+");
}

/** The card part of a place's points in words (no patricians), e.g. "empty: value 3 − 1". */
function placeBase(p) {
  const kind = placeKind(p.card);
  const empty = p.patricians.length === 0;
  if (kind === "province") {
    const value = (parseProvince(p.card) || { value: 0 }).value;
    return empty ? t("why_empty_province", { v: value }) : t("why_province", { v: value });
  }
  if (kind === "wild") return t(empty ? "why_empty_wild" : "why_wild");
  if (kind === "free") return t(empty ? "why_empty_free" : "why_free");
  if (empty) return t("why_empty_border");
  const colours = new Set(p.patricians.map((c) => (parsePatrician(c) || {}).colour));
  return t(colours.size === 2 ? "why_border_both" : "why_border_not");
}

/** Why a place scores its points: the card part, the patricians, an XI extra. */
export function placeReason(p) {
  let text = placeBase(p);
  if (p.patricians.length) text += ` + ${t("why_patricians", { values: patricianValues(p.patricians) })}`;
  if (p.extra) text += `; ${t("why_extra", { card: cardLabel(p.extra) })}`;
  return text;
}

/** Why the `i`th Senate card of arrangement `a`'s breakdown scores what it does. */
export function senateReason(a, i) {
  const card = a.breakdown.senate[i].card;
  const number = card.split("-")[0];
  const placed = a.places.flatMap((p) => p.patricians);
  const sexes = placed.map((c) => (parsePatrician(c) || {}).sex);
  const couples = a.places.filter((p) => p.patricians.length === 2).length;
  const holdings = a.holdings || { senate: [], fortuna: [] };
  switch (number) {
    case "I": return t("why_I", { n: a.places.length });
    case "II": return t("why_II", { n: placed.length });
    case "III": return t("why_III", { n: holdings.senate.length });
    case "IV": return t("why_IV", { n: holdings.fortuna.length });
    case "V": return t("why_V", { n: couples });
    case "VI": return t("why_VI", { list: list(byRing(placed.map((c) => (parsePatrician(c) || {}).colour))) });
    case "VII": {
      const colours = a.places.flatMap((p) => {
        const kind = placeKind(p.card);
        if (kind === "province") return [(parseProvince(p.card) || { colour: "grey" }).colour];
        if (kind === "border") return p.card.slice(4).split("/");
        return [p.patricians.length ? (parsePatrician(p.patricians[0]) || {}).colour : "grey"];
      });
      return t("why_VII", { list: list(byRing(colours)) });
    }
    case "VIII": {
      const cards = a.places.filter((p) => placeKind(p.card) === "province" && p.patricians.length && p.card !== "grey0");
      return t("why_VIII", { list: list(cards.map((p) => cardLabel(p.card))) });
    }
    case "IX": return t("why_IX", { n: sexes.filter((s) => s === "w").length });
    case "X": return t("why_X", { n: sexes.filter((s) => s === "m").length });
    case "XI": {
      const extras = a.places.filter((p) => p.extra).map((p) => cardLabel(p.extra));
      if (extras.length) return t("why_XI", { list: extras.join(", ") });
      return t(couples ? "why_XI_none" : "why_XI_no_couple");
    }
    case "XII": {
      const place = a.places.find((p) => p.card === card);
      return place ? placeBase(place) : "";
    }
    case "XIII": {
      // The free provinces in place order, as the server pairs them with the XIII cards.
      const frees = a.places.filter((p) => p.card === "XIII");
      const nth = a.breakdown.senate.slice(0, i).filter((s) => s.card === "XIII").length;
      const place = frees[nth] || frees[0];
      return place ? placeBase(place) : "";
    }
    default: return "";
  }
}
