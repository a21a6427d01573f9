// Small helpers: the HTTP API, seat tokens in localStorage, the player's name, toasts.

import { language } from "./i18n.js";

// The CSRF token of the signed-in account (js/account.js sets it): every change sent with
// the session cookie must carry it (docs/server.md, "Accounts").
let csrfToken = null;
export function setCsrf(value) { csrfToken = value || null; }

export async function api(path, body, { method, token } = {}) {
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrfToken && body !== undefined) headers["X-CSRF-Token"] = csrfToken;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method: method || (body === undefined ? "GET" : "POST"),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error((data.error && data.error.message) || `HTTP ${res.status}`);
    err.code = data.error && data.error.code;
    err.status = res.status;
    throw err;
  }
  return data;
}

function readTokens() {
  try { return JSON.parse(localStorage.getItem("alea.tokens") || "{}"); } catch (e) { return {}; }
}

export function loadToken(gameId) { return readTokens()[gameId] || null; }

export function allTokens() { return readTokens(); }

export function saveToken(gameId, token, seat) {
  const all = readTokens();
  all[gameId] = { token, seat, at: Date.now() };
  localStorage.setItem("alea.tokens", JSON.stringify(all));
}

/** Keeps the colour the server gave this browser's seat in `gameId` (for the lobby's list). */
export function rememberColour(gameId, colour) {
  const all = readTokens();
  if (!all[gameId] || all[gameId].colour === colour) return;
  all[gameId].colour = colour;
  localStorage.setItem("alea.tokens", JSON.stringify(all));
}

export function forgetToken(gameId) {
  const all = readTokens();
  delete all[gameId];
  localStorage.setItem("alea.tokens", JSON.stringify(all));
}

export function getName() { return localStorage.getItem("alea.name") || ""; }
export function setName(name) { localStorage.setItem("alea.name", name); }

export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    document.body.appendChild(box);
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.appendChild(el);
  setTimeout(() => el.classList.add("gone"), 4000);
  setTimeout(() => el.remove(), 4600);
}
