// The guided first game: at a tutorial table (/game/<id>?tutorial=1, made by
// POST /api/tutorial: you against three easy bots, the dice seeded) a guide above the
// table walks a new player through one round, building by building: on each of your
// turns it names the next building in order (Templum, Senatus, Castrum, Forum), says
// how it takes dice and what it gives (help.js, the rules page's own words), and
// suggests a placement the server lists as legal; "Show me" selects it on the table.
// During the evaluation it says which building hands out what. The page's moves are the
// table's own (game.js): the guide only reads the updates (the "alea:update" event of
// table.js) and never decides or guesses a rule.

import { BUILDINGS, pick } from "./help.js";
import { BUILDING_NAMES } from "./i18n.js";
import { esc } from "./pieces.js";

/** Buildings in the order the guide visits them (the Latrina takes what none can). */
export const ORDER = ["T", "S", "C", "F"];

// What the guide says, in English and Italian; {…} are filled in.
export const GUIDE = {
  title: { en: "Your first game", it: "La tua prima partita" },
  welcome: {
    en: "Welcome! You play one round against three bots, placing dice building by building. The guide says what each building wants; the table only lets you make legal moves.",
    it: "Benvenuto! Giochi un round contro tre bot, piazzando i dadi edificio per edificio. La guida spiega cosa vuole ogni edificio; il tavolo ti permette solo mosse valide.",
  },
  step: { en: "Step {n} of 4: the {name}", it: "Passo {n} di 4: {name}" },
  step_latrine: { en: "The Latrina", it: "La Latrina" },
  latrine: {
    en: "No other building can take these dice: they go to the Latrina, which gives a re-roll token to whoever has the fewest dice there.",
    it: "Nessun altro edificio può prendere questi dadi: vanno nella Latrina, che dà un gettone per rilanciare a chi ne ha meno lì.",
  },
  try: { en: "With your roll, try {dice} in the {name}.", it: "Con il tuo tiro, prova {dice} in {name}." },
  other: {
    en: "The {name} cannot take any of these dice now; try {dice} in the {other}.",
    it: "{name} ora non può prendere nessuno di questi dadi; prova {dice} in {other}.",
  },
  show: { en: "Show me", it: "Mostrami" },
  place: { en: "Then press the Place button under your dice.", it: "Poi premi il pulsante Piazza sotto i tuoi dadi." },
  wait: {
    en: "The bots are placing their dice: watch where they go. Your next roll comes on your turn.",
    it: "I bot piazzano i loro dadi: guarda dove li mettono. Il tuo prossimo tiro arriva al tuo turno.",
  },
  evaluation: {
    en: "Everyone has placed all their dice: the buildings are evaluated in order, Templum, Senatus, Castrum, Forum, Latrina.",
    it: "Tutti hanno piazzato tutti i dadi: gli edifici vengono valutati in ordine, Templum, Senatus, Castrum, Forum, Latrina.",
  },
  choose: { en: "Your choice at the {name}: pick one of the offered options.", it: "Scegli a {name}: prendi una delle opzioni offerte." },
  done: {
    en: "You have played your first round! The game goes on for the remaining rounds; the rules page has everything else.",
    it: "Hai giocato il tuo primo round! La partita continua per i round che restano; la pagina delle regole ha tutto il resto.",
  },
  rules: { en: "All the rules", it: "Tutte le regole" },
  hide: { en: "Hide the guide", it: "Nascondi la guida" },
};

const CHOICE_PHASES = { "senate-choice": "S", "castrum-choice": "C", "forum-choice": "F" };

function fill(pair, values) {
  return pick(pair).replace(/\{(\w+)\}/g, (_, k) => (k in values ? String(values[k]) : `{${k}}`));
}

/** The placement the guide suggests among `legal` for building `key`: the fewest dice
 * (so dice are left for the next buildings), then the highest values. */
export function suggestion(legal, key) {
  const options = legal.filter((a) => a.startsWith(`${key}:`)).map((a) => a.slice(2));
  options.sort((a, b) => a.length - b.length || b.localeCompare(a));
  return options.length ? `${key}:${options[0]}` : null;
}

/** What the guide says for one update: {html, move} (move: the suggested action or null). */
export function guideFor(m, turn) {
  const v = m.view;
  if (!v) return { html: "", move: null };
  if (v.round > 1 || m.status === "finished") {
    return { html: `<p>${esc(pick(GUIDE.done))} <a href="/rules">${esc(pick(GUIDE.rules))}</a></p>`, move: null };
  }
  const legal = m.legal || [];
  if (v.phase === "placement" && legal.length) {
    const step = Math.min(Math.max(turn, 1), ORDER.length);
    const key = ORDER[step - 1];
    const building = BUILDINGS.find((b) => b.key === key);
    const name = BUILDING_NAMES[key];
    let move = suggestion(legal, key);
    let html = `<h3>${esc(fill(GUIDE.step, { n: step, name }))}</h3>` +
      `<p><b>${esc(name)}.</b> ${esc(pick(building.place))}</p>`;
    if (move) {
      html += `<p class="try">${esc(fill(GUIDE.try, { dice: move.slice(2).split("").join("-"), name }))}</p>`;
    } else {
      const other = ORDER.map((k) => suggestion(legal, k)).find(Boolean) || suggestion(legal, "L");
      move = other;
      if (other && other[0] === "L") {
        html = `<h3>${esc(pick(GUIDE.step_latrine))}</h3><p>${esc(pick(GUIDE.latrine))}</p>`;
      } else if (other) {
        html += `<p class="try">${esc(fill(GUIDE.other, { name, dice: other.slice(2).split("").join("-"), other: BUILDING_NAMES[other[0]] }))}</p>`;
      }
    }
    if (move) html += `<p><button type="button" class="primary" data-tutorial-show="${esc(move)}">${esc(pick(GUIDE.show))}</button> ${esc(pick(GUIDE.place))}</p>`;
    return { html, move };
  }
  const choosing = CHOICE_PHASES[v.phase];
  if (choosing && legal.length) {
    const building = BUILDINGS.find((b) => b.key === choosing);
    return {
      html: `<h3>${esc(pick(GUIDE.evaluation))}</h3><p>${esc(fill(GUIDE.choose, { name: BUILDING_NAMES[choosing] }))}</p>` +
        `<p><b>${esc(BUILDING_NAMES[choosing])}.</b> ${esc(pick(building.evaluate))}</p>`,
      move: null,
    };
  }
  if (v.phase === "placement") return { html: `<p>${esc(pick(GUIDE.wait))}</p>`, move: null };
  return { html: `<p>${esc(pick(GUIDE.evaluation))}</p>`, move: null };
}

/** Start the guide above the table in `root` (the game page's element). */
export function startTutorial(root) {
  const panel = document.createElement("aside");
  panel.className = "tutorial";
  panel.id = "tutorial";
  panel.setAttribute("aria-live", "polite");
  root.parentNode.insertBefore(panel, root);
  const S = { turn: 0, mine: false, last: null, hidden: false };

  function render() {
    const body = S.last ? guideFor(S.last, S.turn).html : "";
    panel.hidden = S.hidden;
    panel.dataset.turn = String(S.turn); // your placement turns so far (the step)
    panel.innerHTML = `<div class="tutorial-head"><b>${esc(pick(GUIDE.title))}</b>` +
      `<button type="button" class="small" data-tutorial-hide="1">${esc(pick(GUIDE.hide))}</button></div>` +
      `<div class="tutorial-body">${S.turn <= 1 ? `<p class="welcome">${esc(pick(GUIDE.welcome))}</p>` : ""}${body}</div>`;
  }

  function onUpdate(e) {
    const m = e.detail;
    const v = m.view;
    // A new turn of yours in the placement: the next building.
    const mine = Boolean(v && v.phase === "placement" && (m.legal || []).length);
    if (mine && !S.mine) S.turn += 1;
    S.mine = mine;
    S.last = m;
    render();
  }

  function onClick(e) {
    const show = e.target.closest("[data-tutorial-show]");
    if (show) {
      const chip = document.querySelector(`.tray [data-select="${CSS.escape(show.dataset.tutorialShow)}"]`);
      if (chip) chip.click();
      return;
    }
    if (e.target.closest("[data-tutorial-hide]")) {
      S.hidden = true;
      render();
    }
  }

  root.addEventListener("alea:update", onUpdate);
  panel.addEventListener("click", onClick);
  render();
  return {
    stop() {
      root.removeEventListener("alea:update", onUpdate);
      panel.remove();
    },
  };
}
