// Players who come back: a player's profile (/players/{name}) and the leaderboards
// (/leaderboard/{game}). Ratings are openskill's (Plackett–Luce), shown as mu − 3 sigma:
// a newcomer starts near 0 and climbs as the system grows sure. Only rated games (every
// human seat held by an account) move them. Endpoints: docs/server.md, "Ratings".

import { addStrings, language, t } from "./i18n.js";
import { esc } from "./pieces.js";
import { api } from "./util.js";

addStrings({
  en: {
    pl_profile: "Profile",
    pl_leaderboard: "Leaderboard",
    pl_your_profile: "Your profile",
    pl_member_since: "Playing since {date}",
    pl_ratings: "Ratings",
    pl_rating: "Rating",
    pl_rating_note: "Rating = μ − 3σ: it rises as you win rated games and as it grows certain.",
    pl_unrated: "No rated games yet.",
    pl_history: "Rating history",
    pl_records: "Games played and won",
    pl_players_n: "{n} players",
    pl_players: "Players",
    pl_played: "Played",
    pl_won: "Won",
    pl_recent: "Recent games",
    pl_no_games: "No finished games yet.",
    pl_won_game: "won",
    pl_lost_game: "lost",
    pl_rated: "rated",
    pl_rank: "#",
    pl_player: "Player",
    pl_games: "Games",
    pl_wins: "Wins",
    pl_nobody: "Nobody has played a rated game of {game} yet.",
    pl_prev: "← Previous",
    pl_next: "Next →",
    pl_page: "{from}–{to} of {total}",
    pl_missing: "There is no player by that name.",
    pl_chart_label: "Rating of {name} after each rated game",
    pl_rated_table: "Rated (signed-in players only)",
    pl_rated_hint: "Sign in to create a rated table.",
    pl_back: "← Lobby",
    pl_games_kind: "Game",
  },
  it: {
    pl_profile: "Profilo",
    pl_leaderboard: "Classifica",
    pl_your_profile: "Il tuo profilo",
    pl_member_since: "Gioca dal {date}",
    pl_ratings: "Punteggi",
    pl_rating: "Punteggio",
    pl_rating_note: "Punteggio = μ − 3σ: sale vincendo partite classificate e man mano che diventa certo.",
    pl_unrated: "Ancora nessuna partita classificata.",
    pl_history: "Andamento del punteggio",
    pl_records: "Partite giocate e vinte",
    pl_players_n: "{n} giocatori",
    pl_players: "Giocatori",
    pl_played: "Giocate",
    pl_won: "Vinte",
    pl_recent: "Partite recenti",
    pl_no_games: "Ancora nessuna partita finita.",
    pl_won_game: "vinta",
    pl_lost_game: "persa",
    pl_rated: "classificata",
    pl_rank: "#",
    pl_player: "Giocatore",
    pl_games: "Partite",
    pl_wins: "Vittorie",
    pl_nobody: "Nessuno ha ancora giocato una partita classificata di {game}.",
    pl_prev: "← Precedenti",
    pl_next: "Successivi →",
    pl_page: "{from}–{to} di {total}",
    pl_missing: "Non esiste un giocatore con questo nome.",
    pl_chart_label: "Punteggio di {name} dopo ogni partita classificata",
    pl_rated_table: "Classificata (solo giocatori con account)",
    pl_rated_hint: "Accedi per creare un tavolo classificato.",
    pl_back: "← Sala",
    pl_games_kind: "Gioco",
  },
});

const GAMES = ["iacta", "romano"];
const PAGE = 25;
// One line per game kind in the chart (the board's terracotta and the Senate's blue).
const LINE = { iacta: "#9c3b25", romano: "#2d7fd0" };

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);
const day = (epoch) => new Date(epoch * 1000).toLocaleDateString(language() === "it" ? "it-IT" : "en-GB",
  { year: "numeric", month: "short", day: "numeric" });

/** The page of a finished game: Alea Iacta Est has a replay, Dado Romano its table. */
export function replayHref(game, id) {
  return game === "romano" ? `/game/${id}?watch=1` : `/replay/${id}`;
}

/** The rating-history chart: one line per game kind, the displayed rating after each game. */
export function historyChart(history, name) {
  if (!history.length) return `<p class="muted">${esc(t("pl_unrated"))}</p>`;
  // A narrower drawing on a phone, so that its labels keep a readable size.
  const W = window.innerWidth < 560 ? 360 : 640, H = 200, L = 44, R = 12, T = 14, B = 26;
  const values = history.map((p) => p.after);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 4) { lo -= 2; hi += 2; }
  const x = (i) => L + (history.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (history.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const grid = [lo, (lo + hi) / 2, hi].map((v) =>
    `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" class="grid"/>` +
    `<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`).join("");
  const lines = GAMES.map((g) => {
    const points = history.map((p, i) => [p, i]).filter(([p]) => p.game === g);
    if (!points.length) return "";
    const path = points.map(([p, i]) => `${x(i).toFixed(1)},${y(p.after).toFixed(1)}`).join(" ");
    const dots = points.map(([p, i]) =>
      `<a href="${replayHref(p.game, esc(p.game_id))}"><circle cx="${x(i).toFixed(1)}" cy="${y(p.after).toFixed(1)}" r="4.5" fill="${LINE[g]}">` +
      `<title>${esc(t(`game_${g}`))} · ${fmt(p.before)} → ${fmt(p.after)} · ${esc(day(p.at))}</title></circle></a>`).join("");
    return `<polyline points="${path}" fill="none" stroke="${LINE[g]}" stroke-width="2.5" stroke-linejoin="round"/>${dots}`;
  }).join("");
  const first = history[0], last = history[history.length - 1];
  const axis = `<text x="${L}" y="${H - 6}">${esc(day(first.at))}</text>` +
    (history.length > 1 ? `<text x="${W - R}" y="${H - 6}" text-anchor="end">${esc(day(last.at))}</text>` : "");
  const label = t("pl_chart_label", { name });
  const legend = GAMES.filter((g) => history.some((p) => p.game === g)).map((g) =>
    `<span><i style="background:${LINE[g]}"></i>${esc(t(`game_${g}`))}</span>`).join("");
  return `<svg class="ratingchart" viewBox="0 0 ${W} ${H}" role="group" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
    `${grid}${lines}${axis}</svg><div class="chartlegend">${legend}</div>`;
}

function ratingCards(ratings) {
  if (!ratings.length) return `<p class="muted">${esc(t("pl_unrated"))}</p>`;
  return `<div class="ratingcards">${ratings.map((r) =>
    `<div class="ratingcard" data-game="${esc(r.game)}"><span class="gkind">${esc(t(`game_${r.game}`))}</span>` +
    `<b class="ratingvalue">${fmt(r.rating)}</b><span class="muted small">μ ${fmt(r.mu)} · σ ${fmt(r.sigma)}</span>` +
    `<span class="small">${esc(t("pl_games"))} ${r.games} · ${esc(t("pl_wins"))} ${r.wins}</span>` +
    `<a class="small" href="/leaderboard/${esc(r.game)}">${esc(t("pl_leaderboard"))}</a></div>`).join("")}</div>`;
}

function recordsTable(records) {
  if (!records.length) return `<p class="muted">${esc(t("pl_no_games"))}</p>`;
  return `<table class="plain records"><thead><tr><th>${esc(t("pl_games_kind"))}</th><th class="num">${esc(t("pl_players"))}</th>` +
    `<th class="num">${esc(t("pl_played"))}</th><th class="num">${esc(t("pl_won"))}</th></tr></thead><tbody>${records.map((r) =>
      `<tr><td>${esc(t(`game_${r.game}`))}</td><td class="num">${r.players}</td>` +
      `<td class="num">${r.played}</td><td class="num">${r.won}</td></tr>`).join("")}</tbody></table>`;
}

function recentList(recent) {
  if (!recent.length) return `<p class="muted">${esc(t("pl_no_games"))}</p>`;
  return `<ul class="games recent">${recent.map((g) =>
    `<li data-game="${esc(g.id)}"><span class="outcome ${g.won ? "won" : ""}">${g.won ? "♛" : "·"}</span>` +
    `<span class="gkind">${esc(t(`game_${g.game}`))}</span>` +
    `<span class="gtitle">${esc(g.title || t("pl_players_n", { n: g.players }))}</span>` +
    `${g.rated ? `<span class="ratedbadge">${esc(t("pl_rated"))}</span>` : ""}` +
    `<span class="muted small">${esc(g.won ? t("pl_won_game") : t("pl_lost_game"))} · ${esc(day(g.finished_at))}</span>` +
    `<a class="button small" href="${replayHref(g.game, esc(g.id))}">${esc(t("replay"))}</a></li>`).join("")}</ul>`;
}

/** The profile page of `name`. */
export function startProfile(el, name) {
  let stopped = false;
  el.innerHTML = `<div class="ppage"><p class="muted">…</p></div>`;
  api(`/api/players/${encodeURIComponent(name)}`).then((p) => {
    if (stopped) return;
    document.title = `${p.name} · Alea Iacta Est`;
    el.innerHTML = `<div class="ppage profile">
      <nav class="crumbs"><a href="/">${esc(t("pl_back"))}</a> · <a href="/leaderboard/iacta">${esc(t("pl_leaderboard"))}</a></nav>
      <header class="card playerhead"><span class="bigavatar" aria-hidden="true">${esc(p.name.slice(0, 1).toUpperCase())}</span>
        <div><h1>${esc(p.name)}</h1><p class="muted">${esc(t("pl_member_since", { date: day(p.created_at) }))}</p></div></header>
      <section class="card"><h2>${esc(t("pl_ratings"))}</h2>${ratingCards(p.ratings)}
        <p class="muted small">${esc(t("pl_rating_note"))}</p></section>
      <section class="card"><h2>${esc(t("pl_history"))}</h2>${historyChart(p.history, p.name)}</section>
      <div class="cards">
        <section class="card"><h2>${esc(t("pl_records"))}</h2>${recordsTable(p.records)}</section>
        <section class="card"><h2>${esc(t("pl_recent"))}</h2>${recentList(p.recent)}</section>
      </div></div>`;
  }, (err) => {
    if (stopped) return;
    el.innerHTML = `<div class="ppage"><section class="card missing"><h2>${esc(t("pl_profile"))}</h2>` +
      `<p>${esc(err.status === 404 ? t("pl_missing") : err.message)}</p><a href="/">${esc(t("pl_back"))}</a></section></div>`;
  });
  return { stop() { stopped = true; } };
}

/** The leaderboard of `game` (iacta, romano), a page at a time. */
export function startLeaderboard(el, game) {
  let stopped = false;
  const kind = GAMES.includes(game) ? game : "iacta";
  let offset = 0;
  async function draw() {
    let board;
    try {
      board = await api(`/api/leaderboard/${kind}?offset=${offset}&limit=${PAGE}`);
    } catch (err) {
      if (!stopped) el.innerHTML = `<div class="ppage"><p class="card">${esc(err.message)}</p></div>`;
      return;
    }
    if (stopped) return;
    document.title = `${t("pl_leaderboard")} · ${t(`game_${kind}`)}`;
    const tabs = GAMES.map((g) => `<a href="/leaderboard/${g}" class="${g === kind ? "on" : ""}" aria-current="${g === kind ? "page" : "false"}">${esc(t(`game_${g}`))}</a>`).join("");
    const rows = board.entries.map((e) =>
      `<tr><td class="num">${e.rank}</td><td><a href="/players/${encodeURIComponent(e.name)}">${esc(e.name)}</a></td>` +
      `<td class="num"><b>${fmt(e.rating)}</b></td><td class="num">${e.games}</td><td class="num">${e.wins}</td></tr>`).join("");
    const table = board.entries.length
      ? `<table class="plain leaderboard"><thead><tr><th class="num">${esc(t("pl_rank"))}</th><th>${esc(t("pl_player"))}</th>` +
        `<th class="num">${esc(t("pl_rating"))}</th><th class="num">${esc(t("pl_games"))}</th><th class="num">${esc(t("pl_wins"))}</th></tr></thead><tbody>${rows}</tbody></table>`
      : `<p class="muted">${esc(t("pl_nobody", { game: t(`game_${kind}`) }))}</p>`;
    const paging = board.total > PAGE ? `<div class="paging"><button id="lbprev" ${offset === 0 ? "disabled" : ""}>${esc(t("pl_prev"))}</button>` +
      `<span class="muted">${esc(t("pl_page", { from: offset + 1, to: offset + board.entries.length, total: board.total }))}</span>` +
      `<button id="lbnext" ${offset + PAGE >= board.total ? "disabled" : ""}>${esc(t("pl_next"))}</button></div>` : "";
    el.innerHTML = `<div class="ppage board"><nav class="crumbs"><a href="/">${esc(t("pl_back"))}</a></nav>
      <section class="card"><h2>${esc(t("pl_leaderboard"))}</h2><nav class="tabs">${tabs}</nav>${table}${paging}
      <p class="muted small">${esc(t("pl_rating_note"))}</p></section></div>`;
    const prev = el.querySelector("#lbprev"), next = el.querySelector("#lbnext");
    if (prev) prev.addEventListener("click", () => { offset = Math.max(0, offset - PAGE); draw(); });
    if (next) next.addEventListener("click", () => { offset += PAGE; draw(); });
  }
  draw();
  return { stop() { stopped = true; } };
}
