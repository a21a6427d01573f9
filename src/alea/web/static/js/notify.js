// Notifications in the page for a signed-in player: when it becomes your turn in a
// turn-based game, and when a game you are in ends. The page asks the dashboard
// (`GET /api/me/dashboard`) every half minute and whenever it comes back into view; what
// changed since the last look is told three ways: the document title counts the games
// waiting for you ("(2) Alea Iacta Est"), a short sound (switched off in "Your games"),
// and the browser's Notification API once the player allowed it. Nothing is told on the
// first look: only what changes while the page is open.

import { addStrings, t } from "./i18n.js";
import { api } from "./util.js";

addStrings({
  en: {
    nt_your_turn: "Your turn: {title}",
    nt_ended: "Game over: {title}",
    nt_body: "Alea Iacta Est",
  },
  it: {
    nt_your_turn: "Tocca a te: {title}",
    nt_ended: "Partita finita: {title}",
    nt_body: "Alea Iacta Est",
  },
});

const SOUND_KEY = "alea.sound";
let baseTitle = document.title || "Alea Iacta Est";
let waiting = 0;
let last = null;
let timer = null;
let signedIn = () => false;
const listeners = new Set();

/** Sets the page's own title; the count of games waiting for you goes in front of it. */
export function setBaseTitle(text) {
  baseTitle = text;
  showTitle();
}

function showTitle() {
  document.title = waiting > 0 ? `(${waiting}) ${baseTitle}` : baseTitle;
}

export function soundOn() { return localStorage.getItem(SOUND_KEY) !== "0"; }
export function setSound(on) { localStorage.setItem(SOUND_KEY, on ? "1" : "0"); }

/** "granted", "denied", "default", or "unsupported" (no Notification API here). */
export function permission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

/** Asks the browser for permission to notify (after a click: browsers insist on it). */
export async function askPermission() {
  if (!("Notification" in window)) return "unsupported";
  try { return await Notification.requestPermission(); } catch (err) { return Notification.permission; }
}

function beep() {
  if (!soundOn()) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
    osc.onended = () => ctx.close();
  } catch (err) { /* no sound here: the title and notifications still tell */ }
}

function tell(text, game) {
  beep();
  if (permission() !== "granted") return;
  try {
    const note = new Notification(text, { body: t("nt_body"), tag: `alea-${game.id}` });
    note.onclick = () => { window.focus(); location.assign(game.link); };
  } catch (err) { /* some browsers only notify from a service worker */ }
}

function titleOf(g) { return g.title || g.id; }

/** What changed between two looks at the dashboard: [[text, game], ...]. */
export function changes(before, now) {
  const old = new Map(before.games.map((g) => [g.id, g]));
  const told = [];
  for (const g of now.games) {
    const was = old.get(g.id);
    if (g.your_turn && g.time_control && g.time_control.mode === "turn" && !(was && was.your_turn)) {
      told.push([t("nt_your_turn", { title: titleOf(g) }), g]);
    }
    if (g.status === "finished" && was && was.status !== "finished") {
      told.push([t("nt_ended", { title: titleOf(g) }), g]);
    }
  }
  return told;
}

/** Looks at the dashboard now; tells what changed; returns the dashboard (or null). */
export async function check() {
  if (!signedIn()) {
    waiting = 0;
    last = null;
    showTitle();
    return null;
  }
  let now;
  try { now = await api("/api/me/dashboard"); } catch (err) { return null; }
  if (last) for (const [text, game] of changes(last, now)) tell(text, game);
  last = now;
  waiting = now.waiting || 0;
  showTitle();
  listeners.forEach((f) => f(now));
  return now;
}

/** Calls `f(dashboard)` after every look (the "Your games" page redraws with it). */
export function onDashboard(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Starts looking (once per page load); `isSignedIn()` says whether there is anyone to tell. */
export function startNotifications(isSignedIn) {
  signedIn = isSignedIn;
  if (timer) return;
  const every = Number(window.ALEA_NOTIFY_MS) || 30000;
  timer = setInterval(check, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
  check();
}
