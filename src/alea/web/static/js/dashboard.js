// "Your games" (/games): every game the signed-in account is in, the ones waiting for it
// first, with whose turn it is, the time left (counted down here), your seat, the
// opponents and a link; and the ways to be told when it is your turn: the sound, the
// browser's notifications, e-mail. Data: GET /api/me/dashboard (docs/server.md).

import { addStrings, t } from "./i18n.js";
import { accountName } from "./account.js";
import { describeControl, formatLeft } from "./clocks.js";
import { askPermission, check, onDashboard, permission, setBaseTitle, setSound, soundOn } from "./notify.js";
import { esc } from "./pieces.js";
import { api, toast } from "./util.js";

addStrings({
  en: {
    db_title: "Your games",
    db_sign_in: "Sign in (top right) to see every game you are in, on any device.",
    db_waiting: "Waiting for you",
    db_others: "Your other games",
    db_none_waiting: "Nothing is waiting for you.",
    db_none: "No games yet: start one from the lobby.",
    db_your_turn: "Your turn",
    db_their_turn: "{name} to move",
    db_open: "Waiting for players",
    db_finished: "Finished",
    db_abandoned: "Abandoned",
    db_replaced: "a bot plays for you",
    db_vs: "with {names}",
    db_seat: "you play {colour}",
    db_play: "Play",
    db_view: "View",
    db_left: "{time} left",
    db_tell: "Tell me",
    db_sound: "Sound when it is my turn",
    db_browser: "Browser notifications",
    db_allow: "Allow",
    db_allowed: "allowed",
    db_denied: "blocked in the browser's settings",
    db_unsupported: "not available in this browser",
    db_email: "E-mail address",
    db_email_on: "E-mail me when it is my turn in a turn-based game, and when a game ends",
    db_email_save: "Save",
    db_email_saved: "E-mail settings saved.",
    db_email_off: "This server sends no e-mail.",
  },
  it: {
    db_title: "Le tue partite",
    db_sign_in: "Accedi (in alto a destra) per vedere tutte le tue partite, su ogni dispositivo.",
    db_waiting: "Aspettano te",
    db_others: "Le altre tue partite",
    db_none_waiting: "Nessuna partita ti aspetta.",
    db_none: "Ancora nessuna partita: iniziane una dalla sala.",
    db_your_turn: "Tocca a te",
    db_their_turn: "Tocca a {name}",
    db_open: "In attesa di giocatori",
    db_finished: "Finita",
    db_abandoned: "Abbandonata",
    db_replaced: "un bot gioca per te",
    db_vs: "con {names}",
    db_seat: "giochi con il {colour}",
    db_play: "Gioca",
    db_view: "Guarda",
    db_left: "mancano {time}",
    db_tell: "Avvisami",
    db_sound: "Suono quando tocca a me",
    db_browser: "Notifiche del browser",
    db_allow: "Consenti",
    db_allowed: "consentite",
    db_denied: "bloccate nelle impostazioni del browser",
    db_unsupported: "non disponibili in questo browser",
    db_email: "Indirizzo e-mail",
    db_email_on: "Mandami un'e-mail quando tocca a me in una partita a turni, e quando una partita finisce",
    db_email_save: "Salva",
    db_email_saved: "Impostazioni e-mail salvate.",
    db_email_off: "Questo server non invia e-mail.",
  },
});

function statusText(g) {
  if (g.status === "open") return t("db_open");
  if (g.status === "finished") return t("db_finished");
  if (g.status === "abandoned") return t("db_abandoned");
  if (g.your_turn) return t("db_your_turn");
  if (g.replaced) return t("db_replaced");
  return g.to_move_name ? t("db_their_turn", { name: g.to_move_name }) : "";
}

function leftText(g, skew) {
  if (typeof g.deadline !== "number" || g.status !== "active") return "";
  return t("db_left", { time: formatLeft(g.deadline - (Date.now() / 1000 + skew)) });
}

function item(g, skew) {
  const names = g.opponents.map((o) => (o.claimed ? o.name || t(`pc_${o.colour}`) : t("free_seat"))).join(", ");
  const over = g.status === "finished" || g.status === "abandoned";
  const verb = over ? "db_view" : "db_play";
  return `<li class="dbgame ${g.your_turn ? "mine" : ""}" data-game="${esc(g.id)}" data-status="${esc(g.status)}">
    <span class="swatch ${esc(g.colour)}" title="${esc(t("db_seat", { colour: t(`pc_${g.colour}`) }))}"></span>
    <div class="dbmain"><div class="dbtitle"><b>${esc(g.title || t(`game_${g.game}`))}</b>
      <span class="muted small">${esc(t(`game_${g.game}`))}</span></div>
      <div class="dbmeta"><span class="dbstatus">${esc(statusText(g))}</span>
        <span class="dbleft" data-deadline="${g.deadline ?? ""}">${esc(leftText(g, skew))}</span></div>
      <div class="muted small">${esc(t("db_vs", { names }))} · ${esc(describeControl(g.time_control))}</div></div>
    <a class="button small ${g.your_turn ? "primary" : ""}" href="${esc(g.link)}">${esc(t(verb))}</a></li>`;
}

function lists(board, skew) {
  const mine = board.games.filter((g) => g.your_turn);
  const rest = board.games.filter((g) => !g.your_turn);
  const list = (games, empty) => games.length
    ? `<ul class="dblist">${games.map((g) => item(g, skew)).join("")}</ul>`
    : `<p class="muted">${esc(empty)}</p>`;
  return `<section class="card"><h2>${esc(t("db_waiting"))} <span class="count">${mine.length}</span></h2>${list(mine, t("db_none_waiting"))}</section>
    <section class="card"><h2>${esc(t("db_others"))}</h2>${list(rest, t("db_none"))}</section>`;
}

function permissionText() {
  const p = permission();
  if (p === "granted") return t("db_allowed");
  if (p === "denied") return t("db_denied");
  if (p === "unsupported") return t("db_unsupported");
  return "";
}

function settingsHtml(mail) {
  const p = permission();
  const email = mail && mail.available
    ? `<form id="dbmail" class="dbmail"><label>${esc(t("db_email"))} <input id="dbemail" type="email" autocomplete="email" maxlength="254" value="${esc(mail.email || "")}"></label>
        <label class="check"><input type="checkbox" id="dbnotify" ${mail.notify_email ? "checked" : ""}> ${esc(t("db_email_on"))}</label>
        <button type="submit" class="small">${esc(t("db_email_save"))}</button></form>`
    : `<p class="muted small">${esc(t("db_email_off"))}</p>`;
  return `<section class="card dbtell"><h2>${esc(t("db_tell"))}</h2>
    <label class="check"><input type="checkbox" id="dbsound" ${soundOn() ? "checked" : ""}> ${esc(t("db_sound"))}</label>
    <p>${esc(t("db_browser"))}: ${p === "default" ? `<button id="dballow" class="small">${esc(t("db_allow"))}</button>` : ""}
      <span class="muted small" id="dbperm">${esc(permissionText())}</span></p>${email}</section>`;
}

export function startDashboard(el) {
  setBaseTitle(`${t("db_title")} · Alea Iacta Est`);
  let stopped = false;
  let board = null;
  let mail = null;
  let skew = 0; // the server's clock minus this browser's, from the dashboard's `now`
  el.innerHTML = `<div class="dashboard"><h1>${esc(t("db_title"))}</h1><div id="dblists"></div><div id="dbsettings"></div></div>`;
  const $ = (id) => el.querySelector(`#${id}`);

  function draw() {
    if (stopped) return;
    if (!accountName()) {
      $("dblists").innerHTML = `<section class="card"><p>${esc(t("db_sign_in"))}</p></section>`;
      $("dbsettings").innerHTML = "";
      return;
    }
    if (board) $("dblists").innerHTML = lists(board, skew);
    $("dbsettings").innerHTML = settingsHtml(mail);
  }

  async function load() {
    if (accountName()) {
      const [found, settings] = await Promise.all([check(), api("/api/account/notifications").catch(() => null)]);
      board = found || board;
      if (board) skew = board.now - Date.now() / 1000;
      mail = settings;
    }
    draw();
  }

  const off = onDashboard((found) => {
    board = found;
    skew = found.now - Date.now() / 1000;
    if (!stopped && accountName()) $("dblists").innerHTML = lists(board, skew);
  });
  const ticker = setInterval(() => {
    el.querySelectorAll(".dbleft[data-deadline]").forEach((span) => {
      const deadline = Number(span.dataset.deadline);
      if (span.dataset.deadline && deadline) span.textContent = t("db_left", { time: formatLeft(deadline - Date.now() / 1000 - skew) });
    });
  }, 1000);

  el.addEventListener("change", (e) => {
    if (e.target.id === "dbsound") setSound(e.target.checked);
  });
  el.addEventListener("click", async (e) => {
    if (e.target.id === "dballow") {
      await askPermission();
      draw();
    }
  });
  el.addEventListener("submit", async (e) => {
    if (e.target.id !== "dbmail") return;
    e.preventDefault();
    try {
      mail = await api("/api/account/notifications", { email: $("dbemail").value, notify_email: $("dbnotify").checked });
      toast(t("db_email_saved"));
      draw();
    } catch (err) {
      toast(err.message, "error");
    }
  });

  load();
  return { stop() { stopped = true; off(); clearInterval(ticker); }, redraw: load };
}
