// Who sits where, as the server tells it: every message about a game carries `seats`
// (`seat`, `colour`, `kind`, `level`, `name`, `claimed`, `connected`, `replaced`; see
// docs/server.md). Names and colours are read from there, never from tables of our own,
// so both games (and any game the server adds) look the way the server says.

import { t } from "./i18n.js";

/** A seat's name: the one the server sends, else "Bot (level)" or "Seat n". */
export function seatName(seats, seat) {
  const s = seats && seats[seat];
  if (!s) return t("seat_n", { n: seat + 1 });
  if (s.name) return s.name;
  return s.kind === "bot" ? `${t("seat_bot")} (${t(`level_${s.level || "medium"}`)})` : t("seat_n", { n: seat + 1 });
}

/** A seat's colour (a CSS class of app.css), or "" when the server has named none. */
export function seatColour(seats, seat) {
  const s = seats && seats[seat];
  return (s && s.colour) || "";
}
