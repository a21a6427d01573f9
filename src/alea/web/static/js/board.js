// The table: five buildings with the dice in them, the cards to win, and each player's
// holdings. Everything is drawn from the server's view of one seat (or a spectator).

import { BUILDING_NAMES, t } from "./i18n.js";
import {
  die, diceRow, esc, fortuna, patrician, province, senateBack, senateCard, token,
} from "./pieces.js";
import { seatColour, seatName } from "./seats.js";

function sum(values) { return values.reduce((a, b) => a + b, 0); }

/**
 * Which building letters the selected dice can go to now, from the legal actions.
 * Returns {ready: Set, can: Set}: ready = "B:selected" is legal; can = B has any legal placement.
 */
export function buildingHints(legal, selectedKey) {
  const ready = new Set();
  const can = new Set();
  for (const a of legal) {
    const [k, d] = a.split(":");
    if (!"TSCFL".includes(k)) continue;
    can.add(k);
    if (d === selectedKey) ready.add(k);
  }
  return { ready, can };
}

function buildingClass(letter, ctx) {
  if (!ctx.placing) return "";
  if (ctx.hints.ready.has(letter)) return "ready";
  if (ctx.hints.can.has(letter)) return "can";
  return "cannot";
}

function header(letter, extra = "") {
  return `<header><h3>${BUILDING_NAMES[letter]}</h3>` +
    `<span class="gives">${esc(t(`b_${letter}`))} · ${esc(t(`gives_${letter}`))}</span>${extra}</header>`;
}

function recentClass(ctx, letter, seat, value) {
  const r = ctx.recent;
  if (!r) return "";
  if (letter === "C") return r.C.has(`${seat}:${value}`) ? "recent" : "";
  return r[letter] && r[letter].has(seat) ? "recent" : "";
}

function temple(view, ctx) {
  const groups = view.buildings.temple
    .map((g, seat) => ({ seat, dice: g }))
    .filter((g) => g.dice.length)
    .sort((a, b) => b.dice.length - a.dice.length);
  const rows = groups.map((g, i) =>
    `<div class="row ${recentClass(ctx, "T", g.seat)}" data-seat="${g.seat}">` +
    `${i === 0 ? `<span class="lead" title="${esc(t("lead"))}">★</span>` : '<span class="lead"></span>'}` +
    `${diceRow(g.dice, seatColour(ctx.seats, g.seat))}<span class="sum">Σ${sum(g.dice)}</span></div>`).join("");
  const d = view.decks;
  const disc = d.fortuna_discards;
  const discards = (disc["1"] || 0) + (disc["2"] || 0) + (disc["3"] || 0);
  return `<div class="building T ${buildingClass("T", ctx)}" data-building="T" title="${esc(t("rule_T"))}">` +
    header("T") + `<div class="content">${rows || '<div class="empty-b"></div>'}</div>` +
    `<footer>${fortuna(null, "mini")} ${t("deck")} ${d.fortuna} · ${t("discards")} ${discards}</footer></div>`;
}

function senate(view, ctx) {
  const straights = view.buildings.senate
    .map((s, seat) => ({ seat, dice: s }))
    .filter((s) => s.dice.length)
    .sort((a, b) => b.dice.length - a.dice.length || Math.max(...b.dice) - Math.max(...a.dice));
  const rows = straights.map((s, i) =>
    `<div class="row ${recentClass(ctx, "S", s.seat)}" data-seat="${s.seat}"><span class="rank">${i + 1}</span>` +
    `${diceRow(s.dice, seatColour(ctx.seats, s.seat))}</div>`).join("");
  let takers = "";
  if (view.senate_takers && view.senate_takers.length && view.phase.startsWith("senate")) {
    takers = `<div class="takers">${view.senate_takers.map((s, i) =>
      `<span class="chip ${seatColour(ctx.seats, s)} ${i === view.senate_turn ? "now" : ""}">${i + 1}</span>`).join("")}</div>`;
  }
  return `<div class="building S ${buildingClass("S", ctx)}" data-building="S" title="${esc(t("rule_S"))}">` +
    header("S") + `<div class="content">${rows || '<div class="empty-b"></div>'}${takers}</div>` +
    `<footer>${senateBack("mini")} ${t("deck")} ${view.decks.senate}</footer></div>`;
}

function castrum(view, ctx) {
  const queueHead = view.castrum_queue && view.castrum_queue[0];
  const rows = view.buildings.castrum.map((s, i) => {
    const now = queueHead && queueHead.seat === s.seat && queueHead.value === s.value &&
      view.phase === "castrum-choice" ? "now" : "";
    const winning = i < view.revealed.provinces.length ? "wins" : "";
    return `<div class="row ${winning} ${now} ${recentClass(ctx, "C", s.seat, s.value)}" data-seat="${s.seat}">` +
      `<span class="rank">${i + 1}</span>${diceRow(Array(s.count).fill(s.value), seatColour(ctx.seats, s.seat))}</div>`;
  }).join("");
  const provs = view.revealed.provinces.map((card) => {
    const action = `P:${card}`;
    const ok = ctx.legal.includes(action);
    return province(card, ok ? "choosable" : "", ok ? `data-action="${esc(action)}"` : "");
  }).join("");
  return `<div class="building C ${buildingClass("C", ctx)}" data-building="C" title="${esc(t("rule_C"))}">` +
    header("C") + `<div class="content">${rows || '<div class="empty-b"></div>'}</div>` +
    `<footer class="prizes"><span class="label">${esc(t("revealed_provinces"))}</span>` +
    `<div class="cards">${provs}</div><span class="decknote">${t("deck")} ${view.decks.provinces}</span></footer></div>`;
}

function forum(view, ctx) {
  const cols = view.buildings.forum_columns;
  const dice = view.buildings.forum;
  const recentLeft = new Map();
  if (ctx.recent) for (const [seat, values] of ctx.recent.F) recentLeft.set(seat, [...values]);
  let slots = "";
  for (let i = 0; i < cols; i++) {
    const d = dice[i];
    let inner = "";
    if (d) {
      let cls = "";
      const left = recentLeft.get(d.seat);
      if (left) {
        const k = left.indexOf(d.value);
        if (k >= 0) { cls = "recent"; left.splice(k, 1); }
      }
      const now = i === 0 && view.phase === "forum-choice" ? "now" : "";
      inner = die(d.value, seatColour(ctx.seats, d.seat), `${cls} ${now}`);
    }
    slots += `<div class="column"><div class="capital"></div><div class="slot">${inner}</div><div class="base">${ROMAN_COL[i] || i + 1}</div></div>`;
  }
  const pats = view.revealed.patricians.map((card) => {
    const action = `N:${card}`;
    const ok = ctx.legal.includes(action);
    return patrician(card, ok ? "choosable" : "", ok ? `data-action="${esc(action)}"` : "");
  }).join("");
  return `<div class="building F ${buildingClass("F", ctx)}" data-building="F" title="${esc(t("rule_F"))}">` +
    header("F") + `<div class="content"><div class="colonnade" style="--cols:${cols}">${slots}</div></div>` +
    `<footer class="prizes"><span class="label">${esc(t("revealed_patricians"))}</span>` +
    `<div class="cards">${pats}</div><span class="decknote">${t("deck")} ${view.decks.patricians}</span></footer></div>`;
}

const ROMAN_COL = ["I", "II", "III", "IV", "V", "VI", "VII"];

function latrine(view, ctx) {
  const rows = view.buildings.latrine.map((count, seat) => count
    ? `<div class="row ${recentClass(ctx, "L", seat)}">${Array.from({ length: count }, () =>
      `<span class="die ${seatColour(ctx.seats, seat)} blank"><svg viewBox="0 0 24 24"></svg></span>`).join("")}</div>`
    : "").join("");
  return `<div class="building L ${buildingClass("L", ctx)}" data-building="L" title="${esc(t("rule_L"))}">` +
    header("L") + `<div class="content">${rows || '<div class="empty-b"></div>'}</div>` +
    `<footer>${token(1).replace("×1", "")} ${esc(t("gives_L"))}</footer></div>`;
}

export function renderBuildings(view, ctx) {
  const parts = [];
  if (view.buildings.temple) parts.push(temple(view, ctx));
  parts.push(senate(view, ctx), castrum(view, ctx), forum(view, ctx), latrine(view, ctx));
  return `<section class="buildings n${view.players}">${parts.join("")}</section>`;
}

/** One player's holdings, as a panel. */
export function renderPlayer(view, info, ctx) {
  const seat = info.seat;
  const seats = ctx.seats || [];
  const meta = seats[seat] || {};
  const toMove = view.to_move === seat;
  const you = ctx.mySeat === seat;
  const colour = seatColour(ctx.seats, seat);
  const provs = info.provinces.map((c) => province(c, "mini")).join("");
  const pats = info.patricians.map((c) => patrician(c, "mini")).join("");
  const kept = info.fortuna.map((v) => fortuna(v, "mini")).join("");
  let drawn = "";
  for (let i = 0; i < info.fortuna_drawn; i++) {
    const v = info.fortuna_drawn_values ? info.fortuna_drawn_values[i] : null;
    drawn += fortuna(v, `mini drawn ${v !== null && v !== undefined ? "own" : ""}`);
  }
  let senateHtml = "";
  if (info.senate) senateHtml = info.senate.map((c) => senateCard(c, "mini")).join("");
  else for (let i = 0; i < info.senate_count; i++) senateHtml += senateBack("mini");
  // Your own dot follows this page's connection: the server's word is stale while it is lost.
  const online = you && ctx.conn ? ctx.conn === "connected" : meta.connected;
  const kind = meta.kind === "bot"
    ? `<span class="tag bot">${meta.replaced ? "↺ " : ""}${t("bot")} · ${esc(t(`level_${meta.level || "medium"}`))}</span>`
    : `<span class="tag ${online ? "online" : "offline"}" title="${esc(t(online ? "online" : "offline"))}">●</span>`;
  const start = view.start_player === seat ? `<span class="startmark" title="${esc(t("start_player"))}">⚑</span>` : "";
  let takeover = "";
  if (ctx.takeoverSeat === seat) {
    takeover = `<button class="small warn" data-takeover="${seat}">${esc(t("hand_to_bot"))}</button>`;
  }
  const diceLeft = info.dice
    ? `<span class="dleft">${die(0, colour, "blank tiny")}×${info.dice}</span>` : "";
  return `<div class="player ${colour} ${toMove ? "to-move" : ""} ${you ? "you" : ""}" data-seat="${seat}">` +
    `<div class="ph"><span class="swatch ${colour}"></span><span class="pname">${esc(seatName(seats, seat))}` +
    `${you ? ` <em>(${esc(t("you"))})</em>` : ""}</span>${start}${kind}</div>` +
    `<div class="stats">${diceLeft}<span class="tk">${token(info.tokens)}</span>` +
    `<span class="ft">${fortuna(null, "mini stat")}${info.fortuna.length + info.fortuna_drawn}</span>` +
    `<span class="sc">${senateBack("mini stat")}${info.senate_count}</span></div>` +
    (provs ? `<div class="holding">${provs}</div>` : "") +
    (pats ? `<div class="holding">${pats}</div>` : "") +
    (kept || drawn ? `<div class="holding">${kept}${drawn}</div>` : "") +
    (senateHtml ? `<div class="holding senates">${senateHtml}</div>` : "") +
    takeover + `</div>`;
}

export function renderPlayers(view, ctx) {
  // Your own panel first, then the others in seat order from you.
  const n = view.players;
  const first = ctx.mySeat ?? 0;
  const order = Array.from({ length: n }, (_, i) => (first + i) % n);
  return `<section class="players">${order.map((s) => renderPlayer(view, view.players_info[s], ctx)).join("")}</section>`;
}

/** Highlights for the placements made since `from` in the log ([event, actor] pairs). */
export function recentMoves(log, from) {
  const r = { T: new Set(), S: new Set(), C: new Set(), F: new Map(), L: new Set() };
  for (let i = Math.max(0, from); i < log.length; i++) {
    const [ev, seat] = log[i];
    const [k, d] = ev.split(":");
    if (seat === null || seat === undefined || !"TSCFL".includes(k) || k.length !== 1) continue;
    const values = [...d].map(Number);
    if (k === "C") r.C.add(`${seat}:${values[0]}`);
    else if (k === "F") r.F.set(seat, [...(r.F.get(seat) || []), ...values]);
    else r[k].add(seat);
  }
  return r;
}
