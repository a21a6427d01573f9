// The evaluation shown as it happens: a panel beside the tray adds one step at a time
// (evaluation.js says what each step is), and the building being evaluated glows. The
// panel keeps its own DOM, so a step already shown is not animated again when the rest of
// the page is redrawn. With `prefers-reduced-motion` every step appears at once, still.

import { t } from "./i18n.js";
import { esc } from "./pieces.js";
import { evaluationSteps } from "./evaluation.js";
import { reducedMotion } from "./motion.js";

const STEP_MS = 900; // between two steps shown
const LINGER_MS = 8000; // the panel stays this long after the Latrina

export function evaluationPanel(el, onStep) {
  let round = null;
  const shown = new Set();
  let primed = false;
  let timer = null;
  let hideAt = 0;
  let hideTimer = null;
  let steps = [];
  let lastBuilding = null;

  function clear() {
    el.innerHTML = "";
    el.hidden = true;
    shown.clear();
    lastBuilding = null;
  }

  function line(step) {
    const li = document.createElement("li");
    li.dataset.key = step.key;
    li.className = `b${step.building} ${step.pending ? "pending" : ""} ${primed && !reducedMotion() ? "fresh" : ""}`;
    li.innerHTML = `<span class="evb">${esc(t(`eval_step_${step.building}`))}</span> ${step.html}`;
    return li;
  }

  // Shows the next step not shown yet; true if one was.
  function showNext() {
    const list = el.querySelector("ol");
    if (!list) return false;
    const keys = new Set(steps.map((s) => s.key));
    for (const li of [...list.children]) if (!keys.has(li.dataset.key)) li.remove();
    const next = steps.find((s) => !shown.has(s.key));
    if (!next) return false;
    shown.add(next.key);
    list.appendChild(line(next));
    lastBuilding = next.building;
    return true;
  }

  function drain() {
    if (timer) return;
    if (!primed || reducedMotion()) {
      while (showNext()) { /* all at once */ }
      finish();
      return;
    }
    if (!showNext()) { finish(); return; }
    onStep(lastBuilding);
    timer = setTimeout(() => { timer = null; drain(); }, STEP_MS);
  }

  function finish() {
    onStep(lastBuilding);
  }

  /** Draws the latest round's evaluation from `view` and `log`; call on every update. */
  function update(view, log, seats, hide = false) {
    const accounts = (view && view.evaluations) || [];
    const account = accounts[accounts.length - 1];
    if (!account) { clear(); primed = true; return; }
    if (account.round !== round) {
      clear();
      round = account.round;
      el.innerHTML = `<h4>${esc(t("eval_title", { n: account.round }))}</h4><ol></ol>`;
      // The panel scrolls, so it takes the keyboard focus too (and is named for it).
      el.setAttribute("aria-label", t("eval_title", { n: account.round }));
    }
    steps = evaluationSteps(account, log, seats);
    const over = account.end !== null && account.end !== undefined;
    // A page opened long after an evaluation does not show it (the log keeps it).
    if (!primed && over && log.length > account.end + 2 * view.players + 4) {
      primed = true;
      clear();
      round = account.round;
      hideAt = 0;
      return;
    }
    if (!over) hideAt = 0;
    else if (!hideAt) hideAt = Date.now() + LINGER_MS + STEP_MS * steps.filter((s) => !shown.has(s.key)).length;
    if (hide || (over && Date.now() > hideAt && !timer)) {
      // Out of sight, the steps are taken as shown: none plays later, out of its time.
      clearTimeout(timer);
      timer = null;
      while (showNext()) { /* shown at once */ }
      el.hidden = true;
      primed = true;
      return;
    }
    el.hidden = false;
    drain();
    primed = true;
    if (over) {
      clearTimeout(hideTimer);
      hideTimer = setTimeout(() => { el.hidden = true; onStep(null); }, Math.max(0, hideAt - Date.now()));
    }
  }

  return {
    update,
    /** The building being evaluated now (for the board's glow), or null. */
    building: () => (el.hidden ? null : lastBuilding),
    stop() { clearTimeout(timer); clearTimeout(hideTimer); },
  };
}
