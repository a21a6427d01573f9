// Asking before a move is sent: a setting per kind of move (placements, re-rolls), kept in
// this browser. Re-rolls spend a token, so they are confirmed unless the player says not.
// The move waits in the tray with "Confirm" and "Cancel"; nothing reaches the server first.

import "./show-strings.js";
import { BUILDING_NAMES, t } from "./i18n.js";
import { diceText, esc } from "./pieces.js";

const KEY = "alea.confirm";

export function readConfirm() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { saved = {}; }
  return { place: saved.place === true, reroll: saved.reroll !== false };
}

export function saveConfirm(setting) {
  try { localStorage.setItem(KEY, JSON.stringify(setting)); } catch (e) { /* private mode */ }
}

/** Whether `action` (notation) waits for "Confirm" under `setting`. */
export function needsConfirm(setting, action) {
  if (action.startsWith("R:")) return setting.reroll;
  return /^[TSCFL]:/.test(action) && setting.place;
}

/** The tray's question for `action`, with its two buttons. */
export function confirmBar(action, busy) {
  const [kind, dice] = action.split(":");
  const question = kind === "R"
    ? t("confirm_reroll", { dice: diceText(dice) })
    : t("confirm_place", { dice: diceText(dice), building: `<b>${BUILDING_NAMES[kind]}</b>` });
  return `<div class="confirmbar ${busy}" role="group" aria-label="${esc(t("confirm_title"))}"><p>${question}</p>` +
    `<button class="primary" data-confirm="${esc(action)}">${esc(t("confirm_yes"))}</button>` +
    `<button data-confirm="">${esc(t("confirm_no"))}</button></div>`;
}

/** The two settings, for the side panel. */
export function confirmSettings(setting) {
  const box = (name, label) => `<label><input type="checkbox" data-confirm-setting="${name}" ${setting[name] ? "checked" : ""}> ${esc(t(label))}</label>`;
  return `<div class="settings">${box("place", "confirm_place_setting")}${box("reroll", "confirm_reroll_setting")}</div>`;
}
