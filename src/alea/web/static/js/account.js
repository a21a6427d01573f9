// The optional account: a button in the header and its panel (sign in, create an account,
// change password, sign out here or everywhere). Nobody needs one to play: guests keep
// their seats as tokens in localStorage. Signing in or up hands those tokens to the server,
// so their games join the account and resume on any device signed in to it; the lobby's
// "Your games" then comes from the account (`accountGames`). The session is an HttpOnly
// cookie the page never sees; the CSRF token it must send with changes is kept in util.js.
// Endpoints and rules: docs/server.md, "Accounts".

import { addStrings, t } from "./i18n.js";
import { esc } from "./pieces.js";
import { allTokens, api, setCsrf, toast } from "./util.js";

addStrings({
  en: {
    acct_sign_in: "Sign in",
    acct_title: "Account",
    acct_optional: "Optional: guests play with links as always. An account keeps your games on every device.",
    acct_name: "User name",
    acct_password: "Password",
    acct_create: "Create account",
    acct_signed_in_as: "Signed in as {name}",
    acct_follow: "Your games follow you on every device where you sign in.",
    acct_change_password: "Change password",
    acct_current: "Current password",
    acct_new: "New password",
    acct_save: "Save",
    acct_sign_out: "Sign out",
    acct_sign_out_all: "Sign out everywhere",
    acct_welcome: "Welcome, {name}!",
    acct_joined: "{n} of your games joined your account.",
    acct_password_changed: "Password changed; other devices were signed out.",
    acct_rules: "3–24 letters, digits, . _ -; password at least 8 characters.",
    acct_close: "Close",
  },
  it: {
    acct_sign_in: "Accedi",
    acct_title: "Account",
    acct_optional: "Facoltativo: gli ospiti giocano con i link come sempre. Un account tiene le tue partite su ogni dispositivo.",
    acct_name: "Nome utente",
    acct_password: "Password",
    acct_create: "Crea account",
    acct_signed_in_as: "Accesso come {name}",
    acct_follow: "Le tue partite ti seguono su ogni dispositivo dove accedi.",
    acct_change_password: "Cambia password",
    acct_current: "Password attuale",
    acct_new: "Nuova password",
    acct_save: "Salva",
    acct_sign_out: "Esci",
    acct_sign_out_all: "Esci ovunque",
    acct_welcome: "Benvenuto, {name}!",
    acct_joined: "{n} tue partite sono ora nel tuo account.",
    acct_password_changed: "Password cambiata; gli altri dispositivi sono stati disconnessi.",
    acct_rules: "3–24 lettere, cifre, . _ -; password di almeno 8 caratteri.",
    acct_close: "Chiudi",
  },
});

// What the server said last about who is signed in: {user: {name, created_at} | null}.
const me = { user: null, loaded: false };
let mounted = null;
let loading = null;

/** Resolves once the server has said who is signed in (at once if it has). */
export function accountLoaded() { return loading || Promise.resolve(me.user); }

/** The signed-in user's name, or null for a guest. */
export function accountName() { return me.user ? me.user.name : null; }

/** Asks the server who is signed in (and the CSRF token that goes with the session). */
export async function loadAccount() {
  try {
    const answer = await api("/api/me");
    me.user = answer.user;
    setCsrf(answer.csrf);
  } catch (err) {
    me.user = null;
    setCsrf(null);
  }
  me.loaded = true;
  return me.user;
}

/**
 * The lobby's "Your games" for a signed-in player, in the shape of the seat tokens kept in
 * localStorage (`{gameId: {seat, colour, at}}`), or null for a guest (then localStorage is it).
 */
export async function accountGames() {
  if (!me.user) return null;
  try {
    const list = await api("/api/me/games?limit=8");
    const found = {};
    list.forEach((entry, i) => {
      const seat = entry.game.seats[entry.seat];
      found[entry.game.id] = { seat: entry.seat, colour: seat && seat.colour, at: list.length - i };
    });
    return found;
  } catch (err) {
    return null;
  }
}

// The guest's seats, so that they join the account when signing in or up.
function guestSeats() {
  const tokens = allTokens();
  return Object.keys(tokens).filter((id) => tokens[id] && tokens[id].token)
    .map((id) => ({ game_id: id, token: tokens[id].token }));
}

function panelHtml() {
  if (!me.user) {
    return `<h2>${esc(t("acct_title"))}</h2><p class="muted">${esc(t("acct_optional"))}</p>
      <form id="acctform" autocomplete="on">
        <label>${esc(t("acct_name"))} <input id="acctname" name="username" autocomplete="username" maxlength="24" required></label>
        <label>${esc(t("acct_password"))} <input id="acctpass" name="password" type="password" autocomplete="current-password" maxlength="256" required></label>
        <p class="muted small">${esc(t("acct_rules"))}</p>
        <div class="acctbuttons"><button type="submit" class="primary" id="acctlogin">${esc(t("acct_sign_in"))}</button>
        <button type="button" id="acctsignup">${esc(t("acct_create"))}</button></div>
      </form>`;
  }
  return `<h2>${esc(t("acct_signed_in_as", { name: me.user.name }))}</h2><p class="muted">${esc(t("acct_follow"))}</p>
    <p class="acctlinks"><a href="/players/${encodeURIComponent(me.user.name)}" id="acctprofile">${esc(t("pl_your_profile"))}</a>
      <a href="/leaderboard/iacta" id="acctleaderboard">${esc(t("pl_leaderboard"))}</a></p>
    <details id="acctpw"><summary>${esc(t("acct_change_password"))}</summary>
      <form id="pwform">
        <input type="text" name="username" autocomplete="username" value="${esc(me.user.name)}" hidden>
        <label>${esc(t("acct_current"))} <input id="pwcurrent" type="password" autocomplete="current-password" required></label>
        <label>${esc(t("acct_new"))} <input id="pwnew" type="password" autocomplete="new-password" minlength="8" required></label>
        <button type="submit" class="primary small">${esc(t("acct_save"))}</button></form></details>
    <div class="acctbuttons"><button id="acctlogout">${esc(t("acct_sign_out"))}</button>
      <button id="acctlogoutall" class="small">${esc(t("acct_sign_out_all"))}</button></div>`;
}

/**
 * Draws the header's account button and panel into `el`; `changed()` runs after signing in,
 * up or out (the page redraws: "Your games", the seat at a table).
 */
export function mountAccount(el, { changed } = {}) {
  mounted = { el, changed, open: false };
  render();
  if (!me.loaded) loading = loadAccount().then((user) => { render(); return user; });

  el.addEventListener("click", (e) => {
    if (e.target.closest("a[href^='/']")) { mounted.open = false; return; } // the page changes
    const b = e.target.closest("button");
    if (!b) return;
    if (b.id === "accttoggle") { mounted.open = !mounted.open; render(); }
    else if (b.id === "acctclose") { mounted.open = false; render(); }
    else if (b.id === "acctsignup") { e.preventDefault(); credentials("/api/account/signup"); }
    else if (b.id === "acctlogout") signOut("/api/account/logout");
    else if (b.id === "acctlogoutall") signOut("/api/account/logout-all");
  });
  el.addEventListener("submit", (e) => {
    e.preventDefault();
    if (e.target.id === "acctform") credentials("/api/account/login");
    else if (e.target.id === "pwform") changePassword();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && mounted.open) { mounted.open = false; render(); }
  });
}

/** Draws the button and, when open, the panel (also after the language changes). */
export function render() {
  if (!mounted) return;
  const { el, open } = mounted;
  const label = me.user ? `<span class="acctavatar" aria-hidden="true">${esc(me.user.name.slice(0, 1).toUpperCase())}</span>${esc(me.user.name)}`
    : esc(t("acct_sign_in"));
  el.innerHTML = `<button id="accttoggle" class="accttoggle ${me.user ? "in" : ""}" aria-expanded="${open}">${label}</button>` +
    (open ? `<section class="acctpanel card" role="dialog" aria-label="${esc(t("acct_title"))}">` +
      `<button id="acctclose" class="acctclose" aria-label="${esc(t("acct_close"))}">×</button>${panelHtml()}</section>` : "");
  const first = el.querySelector("#acctname");
  if (first) first.focus();
}

async function credentials(path) {
  const name = mounted.el.querySelector("#acctname").value.trim();
  const password = mounted.el.querySelector("#acctpass").value;
  try {
    const answer = await api(path, { name, password, seats: guestSeats() });
    me.user = answer.user;
    setCsrf(answer.csrf);
    mounted.open = false;
    render();
    toast(t("acct_welcome", { name: me.user.name }));
    if (answer.linked && answer.linked.length) toast(t("acct_joined", { n: answer.linked.length }));
    if (mounted.changed) mounted.changed();
  } catch (err) {
    toast(err.message, "error");
  }
}

async function signOut(path) {
  try {
    await api(path, {});
  } catch (err) {
    toast(err.message, "error");
  }
  await loadAccount();
  mounted.open = false;
  render();
  if (mounted.changed) mounted.changed();
}

async function changePassword() {
  const current = mounted.el.querySelector("#pwcurrent").value;
  const next = mounted.el.querySelector("#pwnew").value;
  try {
    await api("/api/account/password", { current, new: next });
    mounted.open = false;
    render();
    toast(t("acct_password_changed"));
  } catch (err) {
    toast(err.message, "error");
  }
}
