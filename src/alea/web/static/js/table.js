// A seat at one game's table, for the page of either game: the WebSocket and its
// reconnection, the log kept whole from the updates' deltas, recovery from errors, and the
// seat itself (its token in localStorage, claiming a seat or the referee role, `?watch=1`).
// The game's page draws the table from `state` whenever it is told to; this module draws
// nothing of the game (only the toasts every page shows and the "no such game" page).
// The messages are those of docs/server.md ("WebSocket protocol").

import { language, t } from "./i18n.js";
import { esc } from "./pieces.js";
import { api, forgetToken, loadToken, rememberColour, saveToken, toast } from "./util.js";

// Reconnecting: after 1 s, then 2, 4, 8 and every 10 s; back to 1 s once a socket opens.
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 10000;
// While the server reconnects to its database (`database_unavailable`), ask /api/health
// this often whether it answers again.
const STORAGE_POLL_MS = 2000;

/** The link that invites a friend to this game (they choose a free seat there). */
export function inviteLink(gameId) {
  return `${location.origin}/game/${encodeURIComponent(gameId)}`;
}

/**
 * Sits this page at game `gameId`'s table: with the seat token stored for the game, or as
 * a spectator when there is none or `watch` is set. `hooks` tell the page what happened:
 *   update(m, {changed, was})  after an `update` is taken in (`changed`: the version moved
 *                              on; `was`: the status before): draw the table from `state`;
 *   error(m)                   after an `error` was dealt with and shown;
 *   connection(conn)           "connecting", "connected", "disconnected" or "reconnecting"
 *                              (the socket is open but the server's database is not:
 *                              nothing can be saved until it is back).
 * Nothing is sent until `connect()`, so the page can build its DOM first.
 */
export function joinTable(root, gameId, { watch = false, update, error, connection } = {}) {
  const stored = watch ? null : loadToken(gameId);
  // What the server said last; the page reads it and never writes it.
  const state = {
    id: gameId,
    token: stored ? stored.token : null,
    seat: null, // this page's seat; null when watching or refereeing
    role: "spectator", // "player", "referee" (Dado Romano's human referee) or "spectator"
    conn: "connecting",
    skew: 0, // the server's clock minus this one, in seconds (from the welcome)
    version: 0,
    status: null,
    view: null,
    legal: [],
    seats: [],
    log: [], // every [event, actor] pair so far, as this seat may see them
    message: null, // the last update whole (takeover_at, clock, referee, exchange, ...)
    chat: [], // the chat lines this role may read, oldest first (js/social.js shows them)
    pending: false, // an action is on its way: no other until the server answers
    closed: false,
  };
  let ws = null;
  let retry = 0;
  let retryTimer = null;
  // Seconds the server asked us to wait (a "busy" refusal at a burst of openings).
  let busyFor = 0;
  let msgId = 0;
  let colourNoted = null;
  let storageTimer = null;
  let helloAgain = false;

  function setConn(conn) {
    state.conn = conn;
    if (connection) connection(conn);
  }

  function connect() {
    if (state.closed) return;
    setConn("connecting");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${proto}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
    ws = socket;
    socket.onopen = () => {
      retry = 0;
      helloAgain = false;
      hello(state.log.length); // only the entries this page lacks
    };
    socket.onmessage = (e) => {
      if (ws === socket && !state.closed) onMessage(JSON.parse(e.data));
    };
    socket.onclose = (e) => {
      if (ws !== socket || state.closed) return;
      state.pending = false;
      setConn("disconnected");
      if (e.code === 4404) return; // no such game: nothing to come back to
      // Close 1013 ("try again later"): the server is taking in a burst of players and
      // said when to come back; never sooner, so the burst is not made worse.
      const busy = e.code === 1013 ? busyFor * 1000 : 0;
      busyFor = 0;
      const wait = Math.max(Math.min(RETRY_FIRST_MS * 2 ** retry, RETRY_MAX_MS), busy);
      retry += 1;
      retryTimer = setTimeout(connect, wait);
    };
  }

  /** Sends `msg` if the socket is open; false when it is not (the message is dropped). */
  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function hello(since) {
    // Without a token a signed-in player's session cookie stands for their seat, unless
    // the page only watches.
    // The last entry this page holds: if an undo took it back meanwhile, the server sends
    // the whole log again rather than what follows a stale entry.
    const last = since > 0 && state.log[since - 1] ? { last: state.log[since - 1] } : {};
    send({ type: "hello", token: state.token, lang: language(), since, ...last, ...(watch ? { watch: true } : {}) });
  }

  function onMessage(m) {
    if (m.type === "welcome") {
      state.seat = m.seat;
      state.role = m.role || (m.seat === null ? "spectator" : "player");
      if (typeof m.server_time === "number") state.skew = m.server_time - Date.now() / 1000;
      // The chat so far for this role: the whole of it (a seat claimed reads more).
      if (Array.isArray(m.chat)) { state.chat = m.chat; chatChanged(m.chat, true); }
      setConn("connected");
    } else if (m.type === "update") {
      // A move of this page's own is acknowledged inside the update that shows it (m.acks):
      // the page follows the update alone, so it needs nothing more from the ack.
      onUpdate(m);
    } else if (m.type === "error" && m.code === "busy") {
      busyFor = Number(m.retry_after) || 1; // the close (1013) follows: see connect()
    } else if (m.type === "error") {
      onError(m);
    } else if (m.type === "chat") {
      const known = new Set(state.chat.map((l) => l.idx));
      const fresh = m.lines.filter((l) => !known.has(l.idx));
      state.chat = state.chat.concat(fresh);
      chatChanged(fresh, false);
    }
  }

  // For the table talk beside the table (js/social.js): the chat changed.
  function chatChanged(lines, whole) {
    root.dispatchEvent(new CustomEvent("alea:chat", { detail: { lines, whole } }));
  }

  function onUpdate(m) {
    // The log from `log_start` on replaces what this page holds from there: appended, or
    // the whole log after a sync. A gap (entries missed) asks for the whole log again.
    if (m.log_start <= state.log.length) state.log = state.log.slice(0, m.log_start).concat(m.log);
    else send({ type: "sync" });
    const changed = m.version !== state.version;
    const was = state.status;
    state.version = m.version;
    state.status = m.status;
    state.view = m.view;
    state.legal = m.legal;
    state.seats = m.seats;
    state.seat = m.seat;
    if (m.role) state.role = m.role;
    state.message = m;
    if (changed) state.pending = false;
    if (changed && state.conn === "reconnecting") storageBack(); // a move was saved: back
    noteColour();
    if (update) update(m, { changed, was });
    // For helpers beside the table (the tutorial's guide): every update, as an event.
    root.dispatchEvent(new CustomEvent("alea:update", { detail: m }));
  }

  // The lobby's "Your games" shows each game in the colour the server gave this seat.
  function noteColour() {
    if (!state.token || state.seat === null || state.seat === colourNoted) return;
    const colour = state.seats[state.seat] && state.seats[state.seat].colour;
    if (colour) rememberColour(gameId, colour);
    colourNoted = state.seat;
  }

  function onError(m) {
    state.pending = false;
    if (m.code === "no_such_game") {
      state.closed = true;
      root.innerHTML = `<div class="notfound"><h2>${esc(t("not_found"))}</h2><a href="/">${esc(t("home"))}</a></div>`;
      return;
    }
    let text = m.message || m.code;
    if (m.code === "bad_token") {
      // The stored token is not this game's (an old game, a reset server): watch instead.
      forgetToken(gameId);
      state.token = null;
      text = `${text} ${t("watching")}`;
      hello(0);
    } else if (m.code === "stale_version") {
      send({ type: "sync" }); // the update that moved it on may be late: ask for it now
    } else if (m.code === "database_unavailable") {
      reconnecting();
    }
    toast(text, "error");
    if (error) error(m);
  }

  // The server cannot reach its database: nothing was saved, and nothing can be until it
  // answers again. Say so, and ask the server's health check until it does.
  function reconnecting() {
    if (state.conn === "disconnected") return; // the socket's own reconnection goes on
    // Refused before the welcome: the hello itself must be said again once it is back.
    if (state.conn === "connecting") helloAgain = true;
    setConn("reconnecting");
    clearTimeout(storageTimer);
    storageTimer = setTimeout(async function poll() {
      if (state.closed || state.conn !== "reconnecting") return;
      try {
        const res = await fetch("/api/health", { cache: "no-store" });
        if (res.ok && (await res.json()).storage === "ok") return storageBack();
      } catch (err) { /* the server itself is away: the socket will say so */ }
      storageTimer = setTimeout(poll, STORAGE_POLL_MS);
    }, STORAGE_POLL_MS);
  }

  function storageBack() {
    clearTimeout(storageTimer);
    if (state.conn !== "reconnecting") return;
    if (helloAgain) {
      helloAgain = false;
      hello(state.log.length); // its welcome says "connected"
      return;
    }
    setConn("connected");
    send({ type: "sync" }); // whatever was saved meanwhile
  }

  /** Sends `action` if it is legal now and nothing else is on its way; true if sent. */
  function act(action) {
    if (state.pending || !state.legal.includes(action)) return false;
    msgId += 1;
    state.pending = send({ type: "action", action, version: state.version, id: msgId });
    return state.pending;
  }

  // A seat or the referee role: the token is kept for this game and the page joins with it.
  async function claimWith(path, name) {
    try {
      const res = await api(`/api/games/${encodeURIComponent(gameId)}/${path}`, { name });
      saveToken(gameId, res.token, res.seat ?? null);
      state.token = res.token;
      hello(state.log.length);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  return {
    state,
    connect,
    send,
    act,
    claim: (seat, name) => claimWith(`seats/${seat}/claim`, name),
    claimReferee: (name) => claimWith("referee/claim", name),
    fillBots: (level) => send(level ? { type: "fill_bots", level } : { type: "fill_bots" }),
    stop() {
      state.closed = true;
      clearTimeout(retryTimer);
      clearTimeout(storageTimer);
      if (ws) ws.close();
    },
  };
}
