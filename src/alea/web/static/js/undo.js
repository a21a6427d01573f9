// Undo of your own last decision: a button shown only while the server says this seat may
// take it back (`undo` in its update: nothing has happened since but that decision, see
// docs/server.md). The rule is the server's (alea.undo); this page never guesses it.

import { addStrings, t } from "./i18n.js";
import { esc } from "./pieces.js";

addStrings({
  en: {
    undo_button: "Undo my last move",
    undo_hint: "Nothing has happened since your last move: you may take it back.",
  },
  it: {
    undo_button: "Annulla la mia ultima mossa",
    undo_hint: "Dopo la tua ultima mossa non è successo nulla: puoi riprenderla.",
  },
});

/** The undo bar in `el`, kept in step with the table `table` (see table.js). */
export function undoBar(el, table) {
  const T = table.state;
  let asked = null; // the version an undo was sent for (one click, one request)

  el.addEventListener("click", (e) => {
    if (!e.target.closest("[data-undo]") || T.closed) return;
    asked = T.version;
    table.send({ type: "undo", version: T.version });
    update();
  });

  function update() {
    const allowed = T.status === "active" && T.message && T.message.undo === true;
    if (asked !== null && asked !== T.version) asked = null;
    if (!allowed) {
      el.hidden = true;
      el.innerHTML = "";
      return;
    }
    el.hidden = false;
    const busy = asked === T.version ? "disabled" : "";
    el.innerHTML = `<p>${esc(t("undo_hint"))}</p>` +
      `<button class="undo" data-undo="1" ${busy}>↶ ${esc(t("undo_button"))}</button>`;
  }

  return { update };
}
