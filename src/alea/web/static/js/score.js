// The table-top scorer (/score): each player of a physical game taps in their pieces, the
// server's optimiser (POST /api/score, the same as `alea score`) finds every best arrangement,
// and the page draws it card by card with why each place scores what it does.
//
// The pieces and the limits come from the server (GET /api/score/box, the engine's tables), so
// the page refuses what the box cannot produce before sending; the server checks again.

import "./score-strings.js";
import { initialLanguage, language, setLanguage, t } from "./i18n.js";
import { cardLabel, esc, fortuna, patrician, province, senateCard } from "./pieces.js";
import { api } from "./util.js";

const STORE = "alea.score";
const root = document.getElementById("app");
let box = null;
let state = load();
let result = null;
let status = { text: "", kind: "" };
let busy = false;

function blankPlayer(n) {
  return { name: t("sc_player_n", { n }), provinces: [], patricians: [], senate: [], fortuna: { 1: 0, 2: 0, 3: 0 }, tokens: 0 };
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (saved && Array.isArray(saved.players) && saved.players.length) return saved;
  } catch (e) { /* a broken or private store: start afresh */ }
  return null;
}

function save() {
  try { localStorage.setItem(STORE, JSON.stringify(state)); } catch (e) { /* private mode */ }
}

function fresh() {
  return { players: [blankPlayer(1), blankPlayer(2)], current: 0 };
}

function me() { return state.players[state.current]; }

// ------------------------------------------------------------------ the box's limits

/** How many of `card` the whole table holds, and who holds them (names). */
function holders(kind, card) {
  const names = [];
  for (const p of state.players) for (const c of p[kind]) if (c === card) names.push(p.name);
  return names;
}

function copies(kind, card) { return kind === "senate" ? box.senate[card] : 1; }

function fortunaLeft(value) {
  return box.fortuna[value] - state.players.reduce((n, p) => n + (p.fortuna[value] || 0), 0);
}

function say(text, kind = "warn") { status = { text, kind }; }

/** Adds or removes one copy of `card` for the current player, refusing what cannot be. */
function toggle(kind, card) {
  const mine = me()[kind];
  const have = mine.filter((c) => c === card).length;
  const all = holders(kind, card).length;
  const canAdd = all < copies(kind, card);
  if (kind === "senate" && canAdd && mine.length >= box.max_senate) {
    if (have) { mine.splice(mine.indexOf(card), 1); return; }
    say(t("sc_max_senate", { n: box.max_senate }));
    return;
  }
  if (canAdd && (have === 0 || copies(kind, card) > 1)) mine.push(card);
  else if (have) me()[kind] = mine.filter((c) => c !== card);
  else say(t("sc_box_empty"));
}

// ------------------------------------------------------------------ the editor

function pieceButton(kind, card, drawn) {
  const have = me()[kind].filter((c) => c === card).length;
  const others = state.players.filter((p, i) => i !== state.current && p[kind].includes(card)).map((p) => p.name);
  const full = have === 0 && holders(kind, card).length >= copies(kind, card);
  const many = copies(kind, card) > 1;
  let label = kind === "senate" ? card : cardLabel(card);
  if (many) label += `, ${t("sc_xiii_count", { n: have })}`;
  if (others.length) label += ` (${t("sc_held_by", { name: others.join(", ") })})`;
  const badge = many && have ? `<span class="count-badge" aria-hidden="true">×${have}</span>` : "";
  const owner = full && others.length ? `<span class="owner" aria-hidden="true">${esc(others[0])}</span>` : "";
  return `<button type="button" class="piece-btn ${kind}" data-kind="${kind}" data-card="${esc(card)}"` +
    ` aria-pressed="${have > 0}" aria-label="${esc(label)}" ${full ? "disabled" : ""}>${drawn}${badge}${owner}</button>`;
}

function stepper(key, label, count, canAdd, drawn, note = "") {
  return `<div class="stepper" data-step="${key}"><span class="step-piece" aria-hidden="true">${drawn}</span>` +
    `<button type="button" class="step" data-step-by="-1" data-step-key="${key}" aria-label="${esc(t("sc_fewer", { what: label }))}" ${count ? "" : "disabled"}>−</button>` +
    `<output class="step-count" aria-label="${esc(label)}">${count}</output>` +
    `<button type="button" class="step" data-step-by="1" data-step-key="${key}" aria-label="${esc(t("sc_more", { what: label }))}" ${canAdd ? "" : "disabled"}>+</button>` +
    `${note ? `<small class="muted">${esc(note)}</small>` : ""}</div>`;
}

function section(id, title, count, body) {
  return `<section class="sc-section ${id}" aria-labelledby="${id}"><h2 id="${id}">${esc(title)}` +
    ` <span class="muted">${count}</span></h2>${body}</section>`;
}

function editor() {
  const p = me();
  const provinces = box.colours.map((c) =>
    `<div class="piece-row">${box.provinces.filter((k) => k.startsWith(c)).map((k) => pieceButton("provinces", k, province(k, "big"))).join("")}</div>`).join("") +
    `<div class="piece-row">${pieceButton("provinces", "grey0", province("grey0", "big"))}</div>`;
  const patricians = box.colours.map((c) =>
    `<div class="piece-row pat-row">${box.patricians.filter((k) => k.startsWith(c)).map((k) => pieceButton("patricians", k, patrician(k, "big"))).join("")}</div>`).join("");
  const senate = `<div class="piece-row senate-row">${Object.keys(box.senate).map((k) => pieceButton("senate", k, senateCard(k))).join("")}</div>`;
  const tiles = Object.keys(box.fortuna).map((v) => {
    const label = t("sc_fortuna_n", { v });
    return stepper(`f${v}`, label, p.fortuna[v] || 0, fortunaLeft(v) > 0, fortuna(Number(v), "big"), t("sc_left", { n: fortunaLeft(v) }));
  }).join("");
  const tokens = stepper("tokens", t("sc_tokens"), p.tokens, true, '<span class="token big">↻</span>');
  const tabs = state.players.map((q, i) =>
    `<button type="button" class="player-tab ${i === state.current ? "on" : ""}" data-player="${i}" aria-pressed="${i === state.current}">` +
    `<b>${esc(q.name)}</b><small>${esc(t("sc_pieces", { n: pieceCount(q) }))}</small></button>`).join("");
  const add = `<button type="button" class="player-tab add" data-add-player ${state.players.length >= box.max_players ? "disabled" : ""}` +
    ` aria-label="${esc(t("sc_add_player"))}">+</button>`;
  return `<div class="players-bar" role="group" aria-label="${esc(t("sc_players"))}">${tabs}${add}</div>` +
    `<div class="player-head"><label for="sc-name">${esc(t("sc_name"))}</label>` +
    `<input id="sc-name" maxlength="${box.max_name}" value="${esc(p.name)}" autocomplete="off">` +
    `<button type="button" class="small" data-clear>${esc(t("sc_clear"))}</button>` +
    (state.players.length > 1 ? `<button type="button" class="small" data-remove>${esc(t("sc_remove_player", { name: p.name }))}</button>` : "") +
    `</div>` +
    section("sc-prov", t("sc_provinces"), p.provinces.length, provinces) +
    section("sc-pat", t("sc_patricians"), p.patricians.length, patricians) +
    section("sc-sen", t("sc_senate"), `${p.senate.length}/${box.max_senate}`, senate) +
    section("sc-for", t("sc_fortuna"), Object.values(p.fortuna).reduce((a, b) => a + b, 0), `<div class="steppers">${tiles}</div>`) +
    section("sc-tok", t("sc_tokens"), p.tokens, `<div class="steppers">${tokens}</div>`);
}

function pieceCount(p) {
  return p.provinces.length + p.patricians.length + p.senate.length +
    Object.values(p.fortuna).reduce((a, b) => a + b, 0);
}

// ------------------------------------------------------------------ the results

function placePicture(place) {
  if (place.kind === "province" || place.kind === "wild") return province(place.card, "big");
  return senateCard(place.card);
}

function why(item) { return esc(item.why ? item.why[language()] || item.why.en : item.reason); }

function playerResult(p, rank, delay) {
  const rows = p.places.map((place, i) =>
    `<li class="sc-place" style="--i:${delay + i}"><span class="sc-where">${placePicture(place)}</span>` +
    `<span class="sc-who">${place.patricians.map((q) => patrician(q)).join("") || '<span class="muted">—</span>'}` +
    `${place.extra ? `<span class="extra" title="${esc(t("sc_extra"))}">${patrician(place.extra)}<small>${esc(t("sc_extra"))}</small></span>` : ""}</span>` +
    `<span class="sc-pts">${place.points}</span><span class="sc-why">${why(place)}</span></li>`).join("");
  const unplaced = `<li class="sc-place unplaced" style="--i:${delay + p.places.length}"><span class="sc-where"><b>${esc(t("sc_unplaced"))}</b></span>` +
    `<span class="sc-who">${p.unplaced.map((q) => patrician(q)).join("") || `<span class="muted">${esc(t("sc_none"))}</span>`}</span>` +
    `<span class="sc-pts">0</span><span class="sc-why">${esc(t("sc_unplaced_why", { n: p.tiebreak }))}</span></li>`;
  const b = p.breakdown;
  const senate = p.senate.map((s, i) => {
    const num = s.card.split("-")[0];
    // XII and XIII are places: their points are already in the place's row above.
    const place = num === "XII" || num === "XIII";
    return `<li class="sc-place ${place ? "in-place" : ""}" style="--i:${delay + p.places.length + 1 + i}"><span class="sc-where">${senateCard(s.card, "mini")}</span>` +
      `<span class="sc-who card-name">${esc(num)} · ${esc(t(`senate_${num}`))}</span>` +
      `<span class="sc-pts">${place ? `(${s.points})` : s.points}</span>` +
      `<span class="sc-why">${place ? esc(t("sc_in_place")) : why(s)}</span></li>`;
  }).join("");
  const tiles = p.holdings.fortuna;
  const extras = `<li class="sc-place"><span class="sc-where"><span class="fortuna big" aria-hidden="true">F</span></span>` +
    `<span class="sc-who">${tiles.map((v) => fortuna(v)).join("") || esc(t("sc_none"))}</span><span class="sc-pts">${b.fortuna}</span>` +
    `<span class="sc-why">${esc(t("sc_fortuna"))}: ${esc(tiles.join(" + ") || "0")}</span></li>` +
    `<li class="sc-place"><span class="sc-where"><span class="token big" aria-hidden="true">↻</span></span><span class="sc-who">${esc(t("sc_tokens"))} ×${p.holdings.tokens}</span>` +
    `<span class="sc-pts">${b.tokens}</span><span class="sc-why">${esc(t("sc_tokens_why", { n: p.holdings.tokens }))}</span></li>`;
  const line = t("sc_total_line", { cards: b.province_cards, patricians: b.patricians, senate: b.senate_total, fortuna: b.fortuna, tokens: b.tokens });
  const warnings = p.warnings.map((w) => `<p class="sc-warning"><b>${esc(t("sc_warning"))}:</b> ${esc(w)}</p>`).join("");
  return `<article class="sc-player" aria-labelledby="res-${rank}-${esc(p.name)}">` +
    `<h3 id="res-${rank}-${esc(p.name)}"><span class="rank">${rank}</span> ${esc(p.name)} <span class="score">${p.score}</span></h3>${warnings}` +
    `<ul class="sc-places" aria-label="${esc(t("sc_place"))}">${rows}${unplaced}</ul>` +
    `<h4>${esc(t("sc_senate"))}, ${esc(t("sc_fortuna"))}, ${esc(t("sc_tokens"))}</h4>` +
    `<ul class="sc-places">${senate}${extras}</ul>` +
    `<p class="sc-total"><b>${esc(t("sc_total"))} ${p.score}</b> = ${esc(line)} · ${esc(t("sc_tiebreak"))} ${p.tiebreak}</p></article>`;
}

function results() {
  if (!result) return "";
  const byName = Object.fromEntries(result.players.map((p) => [p.name, p]));
  const banner = result.winners.length > 1
    ? t("sc_winners", { names: result.winners.join(", ") })
    : t("sc_winner", { name: result.winners[0] });
  let note = "";
  if (result.decided_by === "tiebreak") note = t("sc_by_tiebreak");
  if (result.decided_by === "shared") note = t("sc_shared_why");
  const ranking = `<table class="sc-ranking"><thead><tr><th scope="col">${esc(t("sc_rank"))}</th><th scope="col">${esc(t("sc_name"))}</th>` +
    `<th scope="col">${esc(t("sc_points"))}</th><th scope="col">${esc(t("sc_tiebreak"))}</th></tr></thead><tbody>` +
    result.ranking.map((r) => `<tr class="${r.rank === 1 ? "first" : ""}"><td>${r.rank}</td><td>${esc(r.name)}</td><td>${r.score}</td><td>${r.tiebreak}</td></tr>`).join("") +
    "</tbody></table>";
  let delay = 0;
  const players = result.ranking.map((r) => {
    const html = playerResult(byName[r.name], r.rank, delay);
    delay += byName[r.name].places.length + 2;
    return html;
  }).join("");
  return `<section id="sc-results" class="sc-results" aria-labelledby="sc-results-h" tabindex="-1">` +
    `<h2 id="sc-results-h">${esc(t("sc_results"))}</h2>` +
    `<p><button type="button" data-edit>${esc(t("sc_edit"))}</button></p><p class="sc-banner"><span class="laurel" aria-hidden="true">★</span> ${esc(banner)}</p>${note ? `<p class="muted">${esc(note)}</p>` : ""}` +
    `${ranking}${players}<p><button type="button" data-edit>${esc(t("sc_edit"))}</button></p></section>`;
}

// ------------------------------------------------------------------ page

function chrome() {
  document.title = `${t("sc_title")} · Alea Iacta Est`;
  document.getElementById("langs").innerHTML = ["it", "en"].map((l) =>
    `<button type="button" class="lang ${l === language() ? "on" : ""}" data-lang="${l}" aria-pressed="${l === language()}">${l.toUpperCase()}</button>`).join("");
  document.getElementById("rules-link").textContent = t("rules_link");
}

function render() {
  chrome();
  if (!box) return;
  const focused = document.activeElement;
  const focusKey = focused && focused.dataset ? (focused.dataset.card && `[data-kind="${focused.dataset.kind}"][data-card="${focused.dataset.card}"]`) ||
    (focused.dataset.stepKey && `[data-step-key="${focused.dataset.stepKey}"][data-step-by="${focused.dataset.stepBy}"]`) || (focused.id && `#${focused.id}`) : null;
  root.innerHTML = `<h1>${esc(t("sc_title"))}</h1><p class="intro muted">${esc(t("sc_intro"))}</p>` +
    `<div id="sc-status" class="sc-status ${status.kind}" role="status" aria-live="polite">${esc(status.text)}</div>` +
    (result ? results() : `<div class="sc-editor">${editor()}</div>` +
      `<div class="sc-go"><button type="button" class="primary big" data-score ${busy ? "disabled" : ""}>${esc(t(busy ? "sc_scoring" : "sc_score"))}</button></div>`);
  if (focusKey) {
    const again = root.querySelector(focusKey);
    if (again && !again.disabled) again.focus();
  }
}

async function score() {
  busy = true;
  status = { text: "", kind: "" };
  render();
  const body = {
    players: state.players.map((p) => ({
      name: p.name,
      holdings: {
        provinces: p.provinces, patricians: p.patricians, senate: p.senate, tokens: p.tokens,
        fortuna: Object.entries(p.fortuna).flatMap(([v, n]) => Array(n).fill(Number(v))),
      },
    })),
  };
  try {
    result = await api("/api/score", body);
  } catch (err) {
    result = null;
    say(err.status ? err.message : t("sc_offline"), "error");
  }
  busy = false;
  render();
  const out = document.getElementById("sc-results");
  if (out) { out.scrollIntoView({ block: "start" }); out.focus({ preventScroll: true }); }
}

root.addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (!b || b.disabled) return;
  status = { text: "", kind: "" };
  if (b.dataset.card) {
    toggle(b.dataset.kind, b.dataset.card);
    result = null;
  } else if (b.dataset.stepKey) {
    const by = Number(b.dataset.stepBy);
    const key = b.dataset.stepKey;
    if (key === "tokens") me().tokens = Math.max(0, me().tokens + by);
    else {
      const v = key.slice(1);
      if (by > 0 && fortunaLeft(v) <= 0) say(t("sc_box_empty"));
      else me().fortuna[v] = Math.max(0, (me().fortuna[v] || 0) + by);
    }
    result = null;
  } else if (b.dataset.player) {
    state.current = Number(b.dataset.player);
  } else if (b.hasAttribute("data-add-player")) {
    if (state.players.length >= box.max_players) say(t("sc_max_players", { n: box.max_players }));
    else {
      let n = state.players.length + 1;
      while (state.players.some((p) => p.name === t("sc_player_n", { n }))) n += 1;
      state.players.push(blankPlayer(n));
      state.current = state.players.length - 1;
    }
    result = null;
  } else if (b.hasAttribute("data-remove")) {
    state.players.splice(state.current, 1);
    state.current = Math.max(0, state.current - 1);
    result = null;
  } else if (b.hasAttribute("data-clear")) {
    Object.assign(me(), { ...blankPlayer(1), name: me().name });
    result = null;
  } else if (b.hasAttribute("data-score")) {
    save();
    score();
    return;
  } else if (b.hasAttribute("data-edit")) {
    result = null;
  } else {
    return;
  }
  save();
  render();
});

root.addEventListener("change", (e) => {
  if (e.target.id !== "sc-name") return;
  const name = e.target.value.trim().slice(0, box.max_name);
  const taken = state.players.some((p, i) => i !== state.current && p.name.trim().toLowerCase() === name.toLowerCase());
  if (name && !taken) me().name = name;
  else say(t(taken ? "sc_name_taken" : "sc_name_empty", { name }));
  result = null;
  save();
  render();
});

document.getElementById("langs").addEventListener("click", (e) => {
  const b = e.target.closest("[data-lang]");
  if (!b || b.dataset.lang === language()) return;
  setLanguage(b.dataset.lang);
  render();
});

async function start() {
  setLanguage(initialLanguage());
  if (!state) state = fresh();
  chrome();
  try {
    box = await api("/api/score/box");
  } catch (err) {
    say(t("sc_offline"), "error");
    root.innerHTML = `<div class="sc-status error" role="status">${esc(status.text)}</div>`;
    return;
  }
  state.current = Math.min(state.current || 0, state.players.length - 1);
  render();
}

if ("serviceWorker" in navigator) {
  // Scope /score: the worker controls the scorer only, never the game's pages.
  navigator.serviceWorker.register("/sw.js", { scope: "/score" }).catch(() => { /* offline use is a bonus */ });
}

start();
