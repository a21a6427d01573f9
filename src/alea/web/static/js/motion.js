// Dice that move: a tumble for a new roll, and placed dice flying from the tray to their
// building (a FLIP animation with the Web Animations API). Nothing moves for a player who
// asked for less motion (`prefers-reduced-motion`); the CSS (show.css) agrees.

const ROLL_CLASS = "rolling";
const FLY_MS = 450;

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Tumbles the dice of a new roll in `container`. */
export function rollIn(container) {
  if (!container || reducedMotion()) return;
  container.querySelectorAll(".die").forEach((d, i) => {
    d.style.setProperty("--i", i);
    d.classList.add(ROLL_CLASS);
    d.addEventListener("animationend", () => d.classList.remove(ROLL_CLASS), { once: true });
  });
}

/** Where the tray's dice are now: [{value, selected, rect}], read before a redraw. */
export function trayDice(root) {
  return [...root.querySelectorAll(".tray .dice .die")].map((d) => ({
    value: Number(d.dataset.v),
    selected: d.classList.contains("selected"),
    rect: d.getBoundingClientRect(),
  }));
}

/**
 * Flies the dice of each new placement (`events`: [event, actor] pairs just added to the
 * log) from where they were in the tray (`before`, from trayDice) to their building.
 */
export function flyPlaced(root, before, events) {
  if (reducedMotion() || !before.length) return;
  const sources = [...before].sort((a, b) => Number(b.selected) - Number(a.selected));
  for (const [ev] of events) {
    const m = /^([TSCFL]):(\d+)$/.exec(ev);
    if (!m) continue;
    const building = root.querySelector(`.building[data-building="${m[1]}"]`);
    if (!building) continue;
    const targets = [...building.querySelectorAll(".recent .die, .die.recent")];
    for (const ch of m[2]) {
      const value = Number(ch);
      const ti = targets.findIndex((d) => m[1] === "L" || Number(d.dataset.v) === value);
      const si = sources.findIndex((s) => s.value === value);
      if (ti < 0 || si < 0) continue;
      const [target] = targets.splice(ti, 1);
      const [source] = sources.splice(si, 1);
      const to = target.getBoundingClientRect();
      const dx = source.rect.left + source.rect.width / 2 - (to.left + to.width / 2);
      const dy = source.rect.top + source.rect.height / 2 - (to.top + to.height / 2);
      const scale = source.rect.width / Math.max(1, to.width);
      target.classList.add("flying");
      const anim = target.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
        { duration: FLY_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
      anim.onfinish = () => target.classList.remove("flying");
    }
  }
}
