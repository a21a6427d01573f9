// The rules help: one content module for the illustrated rules page (/rules) and the
// in-game help by tap (helptap.js). Every text is in English and Italian and follows
// RULES.md (the section is named beside each entry); the pictures are drawn with pieces.js.

import { BUILDING_NAMES, language } from "./i18n.js";
import { diceRow, esc, fortuna, patrician, province, senateCard } from "./pieces.js";
import { romanoRules } from "./romano-help.js";

/** The text of a {en, it} pair in the current language. */
export function pick(pair) {
  return pair[language()] ?? pair.en;
}

const tokenPicture = () => '<span class="token" aria-hidden="true">↻</span>';

// RULES.md §3, §4: what each building takes and gives.
export const BUILDINGS = [
  {
    key: "T",
    gives: { en: "Fortuna tiles (4–5 players only)", it: "tessere Fortuna (solo con 4–5 giocatori)" },
    place: {
      en: "A group of dice one die bigger than the leading group, with a higher sum. With a group already there, add dice so that it becomes exactly that big.",
      it: "Un gruppo di dadi di un dado più grande del gruppo in testa, con somma maggiore. Chi ha già un gruppo aggiunge dadi finché ha esattamente quella grandezza.",
    },
    evaluate: {
      en: "Each die placed draws a hidden Fortuna tile. The biggest group keeps 2 of the tiles drawn this round, everyone else who drew keeps 1 (the highest are kept). If only one die was placed, its owner keeps the tile and draws one more.",
      it: "Ogni dado piazzato pesca una tessera Fortuna coperta. Il gruppo più grande tiene 2 delle tessere pescate nel round, ogni altro giocatore che ha pescato ne tiene 1 (si tengono le più alte). Se è stato piazzato un solo dado, il suo proprietario tiene la tessera e ne pesca un'altra.",
    },
    picture: () => `${diceRow([2, 3], "blue")} <span class="arrow" aria-hidden="true">→</span> ${diceRow([1, 4, 5], "green")} ${fortuna(3)}${fortuna(2)}`,
  },
  {
    key: "S",
    gives: { en: "Senate cards", it: "carte Senato" },
    place: {
      en: "One straight each (consecutive values, all different); extend it later at either end. No two players may have the same straight.",
      it: "Una scala a testa (valori consecutivi, tutti diversi); la si allunga poi da un capo o dall'altro. Due giocatori non possono avere la stessa scala.",
    },
    evaluate: {
      en: "Longest straight first, then highest value. The first draws 3 Senate cards, keeps 1 and passes 2 to the second, who keeps 1 (with 5 players the third takes the last). With 2 players only the first takes a card. Losing dice go to the Latrina.",
      it: "Vince la scala più lunga, poi il valore più alto. Il primo pesca 3 carte Senato, ne tiene 1 e passa le altre 2 al secondo, che ne tiene 1 (con 5 giocatori il terzo prende l'ultima). In 2 giocatori solo il primo prende una carta. I dadi perdenti vanno nella Latrina.",
    },
    picture: () => `${diceRow([2, 3, 4, 5], "brown")} ${senateCard("V")}`,
  },
  {
    key: "C",
    gives: { en: "province cards", it: "carte provincia" },
    place: {
      en: "Sets of equal dice. Each turn start one new set of a value you have no set of, or add dice to one of your sets. No two sets may have the same value and size.",
      it: "Set di dadi uguali. A ogni turno si inizia un nuovo set di un valore che non si ha, oppure si aggiungono dadi a un proprio set. Due set non possono avere lo stesso valore e la stessa grandezza.",
    },
    evaluate: {
      en: "Biggest set first, then highest value: each set in turn takes one of the revealed provinces. Sets that win nothing go to the Latrina.",
      it: "Prima il set più grande, poi il valore più alto: ogni set a turno prende una delle province scoperte. I set che non vincono nulla vanno nella Latrina.",
    },
    picture: () => `${diceRow([5, 5, 5], "yellow")} ${province("green4")}${province("grey0")}`,
  },
  {
    key: "F",
    gives: { en: "patricians", it: "patrizi" },
    place: {
      en: "One die of any value, or two dice that sum to 5 (1+4, 2+3). The row stays sorted low to high; dice pushed past the last column go to the Latrina.",
      it: "Un dado di qualsiasi valore, o due dadi che sommano 5 (1+4, 2+3). La fila resta in ordine crescente; i dadi spinti oltre l'ultima colonna vanno nella Latrina.",
    },
    evaluate: {
      en: "From left to right, each die's owner chooses one of the revealed patricians.",
      it: "Da sinistra a destra, il proprietario di ogni dado sceglie uno dei patrizi scoperti.",
    },
    picture: () => `${diceRow([1, 4], "gray")} ${patrician("redm3")}${patrician("bluew2")}`,
  },
  {
    key: "L",
    gives: { en: "re-roll tokens", it: "gettoni per rilanciare" },
    place: {
      en: "Exactly one die, and only when no other building can take one. Dice also arrive from the other buildings.",
      it: "Esattamente un dado, e solo se nessun altro edificio può accoglierne. Vi arrivano anche i dadi dagli altri edifici.",
    },
    evaluate: {
      en: "One re-roll token per die in the Latrina. A token re-rolls your dice before you place; two unused tokens score 1 point at the end.",
      it: "Un gettone per ogni dado nella Latrina. Un gettone fa rilanciare i propri dadi prima di piazzare; a fine partita due gettoni non usati valgono 1 punto.",
    },
    picture: () => `${diceRow([6], "green")} <span class="arrow" aria-hidden="true">→</span> ${tokenPicture()}`,
  },
];

// RULES.md §5.1: the places a patrician can go.
export const PLACES = [
  {
    key: "province",
    title: { en: "Province card", it: "Carta provincia" },
    text: {
      en: "Takes a man and/or a woman of its colour. Occupied: its value + the patricians' values; empty: value − 1.",
      it: "Accoglie un uomo e/o una donna del suo colore. Occupata: il suo valore + i valori dei patrizi; vuota: valore − 1.",
    },
    picture: () => `${province("red4")} ${patrician("redm2")}${patrician("redw3")} <b>= 9</b>`,
  },
  {
    key: "wild",
    title: { en: "Wild province (grey 0)", it: "Provincia jolly (grigia 0)" },
    text: {
      en: "Takes a man and/or a woman of any one colour. Occupied: 0 + values; empty: −1.",
      it: "Accoglie un uomo e/o una donna di un solo colore qualsiasi. Occupata: 0 + valori; vuota: −1.",
    },
    picture: () => `${province("grey0")} ${patrician("greenw2")} <b>= 2</b>`,
  },
  {
    key: "free",
    title: { en: "Free province (Senate XIII)", it: "Provincia libera (Senato XIII)" },
    text: {
      en: "Takes a man and/or a woman of any one colour. Occupied: 1 + values; empty: 0.",
      it: "Accoglie un uomo e/o una donna di un solo colore qualsiasi. Occupata: 1 + valori; vuota: 0.",
    },
    picture: () => `${senateCard("XIII")} ${patrician("bluem1")} <b>= 2</b>`,
  },
  {
    key: "border",
    title: { en: "Border province (Senate XII)", it: "Provincia di confine (Senato XII)" },
    text: {
      en: "Takes patricians of its two colours. One of each colour: 3 + values; otherwise 0 + values; empty: 0.",
      it: "Accoglie patrizi dei suoi due colori. Uno per colore: 3 + valori; altrimenti 0 + valori; vuota: 0.",
    },
    picture: () => `${senateCard("XII-red/orange")} ${patrician("redm1")}${patrician("orangew2")} <b>= 6</b>`,
  },
];

// RULES.md §5.2: what each Senate card scores at the end.
export const SENATE = [
  ["I", "1 + 1 for every 2 places you own (province cards, wild, free and border provinces, even empty).", "1 + 1 ogni 2 luoghi posseduti (carte provincia, province jolly, libere e di confine, anche vuote)."],
  ["II", "1 for every 2 patricians placed.", "1 ogni 2 patrizi piazzati."],
  ["III", "1 + 1 for each Senate card you own, this one included.", "1 + 1 per ogni carta Senato posseduta, questa compresa."],
  ["IV", "1 + 2 for every 3 Fortuna tiles (their values do not matter). Not in the deck with 2–3 players.", "1 + 2 ogni 3 tessere Fortuna (il loro valore non conta). Fuori dal mazzo in 2–3 giocatori."],
  ["V", "1 + 1 per couple (a man and a woman in one place).", "1 + 1 per coppia (un uomo e una donna nello stesso luogo)."],
  ["VI", "1 per colour among your placed patricians.", "1 per colore tra i patrizi piazzati."],
  ["VII", "1 per colour among your places, empty ones included; an empty wild or free province counts grey.", "1 per colore tra i tuoi luoghi, anche vuoti; una provincia jolly o libera vuota conta grigio."],
  ["VIII", "1 per province card holding at least one patrician.", "1 per carta provincia con almeno un patrizio."],
  ["IX", "1 per woman placed.", "1 per donna piazzata."],
  ["X", "1 per man placed.", "1 per uomo piazzato."],
  ["XI", "Each couple may take one more unplaced patrician of its colour beside it, scoring its value (it counts for nothing else).", "Ogni coppia può prendere accanto a sé un altro patrizio non piazzato del suo colore, che vale il suo valore (e non conta per altro)."],
  ["XII-red/orange", "Border province: a place for patricians of its two colours (six cards, one per pair of neighbouring colours).", "Provincia di confine: un luogo per patrizi dei suoi due colori (sei carte, una per coppia di colori vicini)."],
  ["XIII", "Free province: a place for a man and/or a woman of any one colour (two cards).", "Provincia libera: un luogo per un uomo e/o una donna di un solo colore (due carte)."],
].map(([card, en, it]) => ({ card, text: { en, it } }));

// RULES.md §5.3: the final score and the winner.
export const SCORING = {
  total: {
    en: ["Places: each province card, wild, free and border province with its patricians (see above).",
      "Senate cards I–XI.", "The values of your Fortuna tiles.", "1 point per 2 unused re-roll tokens."],
    it: ["Luoghi: ogni carta provincia, provincia jolly, libera e di confine con i suoi patrizi (vedi sopra).",
      "Carte Senato I–XI.", "I valori delle tue tessere Fortuna.", "1 punto ogni 2 gettoni non usati."],
  },
  arrangement: {
    en: "At the end everyone arranges their patricians in their places to score the most; among equal scores, the arrangement that leaves the most value unplaced. The scorer and the game find that arrangement for you.",
    it: "Alla fine ognuno sistema i propri patrizi nei propri luoghi per fare più punti; a parità di punti, la sistemazione che lascia fuori più valore. Il segnapunti e il gioco la trovano per te.",
  },
  winner: {
    en: "Highest score wins. Tied: the higher total value of unplaced patricians wins. Still tied: the victory is shared.",
    it: "Vince il punteggio più alto. In parità vince chi ha il valore più alto di patrizi non piazzati. Se ancora pari, la vittoria è condivisa.",
  },
  pieces: {
    en: "A place holds at most one man and one woman. Patricians are worth 1 to 3 (♂ man, ♀ woman); provinces 1 to 4.",
    it: "Un luogo accoglie al massimo un uomo e una donna. I patrizi valgono da 1 a 3 (♂ uomo, ♀ donna); le province da 1 a 4.",
  },
};

export const TEXT = {
  title: { en: "How to play Alea Iacta Est", it: "Come si gioca ad Alea Iacta Est" },
  intro: {
    en: "Each round, players take turns rolling their remaining dice and placing some of them in one of five buildings. When everyone has placed all their dice, the buildings are evaluated in order and hand out tiles and cards. After the last round the best arrangement of each player's pieces is scored.",
    it: "A ogni round i giocatori, a turno, tirano i dadi rimasti e ne piazzano alcuni in uno dei cinque edifici. Quando tutti hanno piazzato tutti i dadi, gli edifici vengono valutati in ordine e assegnano tessere e carte. Dopo l'ultimo round si conta la migliore sistemazione dei pezzi di ogni giocatore.",
  },
  turn_title: { en: "A turn", it: "Un turno" },
  turn: {
    en: "Roll all your unplaced dice. You may spend a re-roll token to roll any of them again, as often as you have tokens. Then place at least one die in exactly one building, following its rule; a die goes to the Latrina only when no other building can take one. When someone places their last die the go-round is finished and dice still unplaced go to the Latrina. Then the buildings are evaluated in order: Templum, Senatus, Castrum, Forum, Latrina.",
    it: "Tira tutti i tuoi dadi non piazzati. Puoi spendere un gettone per ritirarne quanti vuoi, tante volte quanti gettoni hai. Poi piazza almeno un dado in un solo edificio, secondo la sua regola; un dado va nella Latrina solo se nessun altro edificio può accoglierlo. Quando qualcuno piazza il suo ultimo dado si finisce il giro e i dadi non piazzati vanno nella Latrina. Poi gli edifici vengono valutati in ordine: Templum, Senatus, Castrum, Forum, Latrina.",
  },
  buildings: { en: "The buildings", it: "Gli edifici" },
  placement: { en: "Placement", it: "Piazzamento" },
  evaluation: { en: "Evaluation", it: "Valutazione" },
  gives: { en: "Gives", it: "Dà" },
  places: { en: "Where patricians go at the end", it: "Dove vanno i patrizi alla fine" },
  senate: { en: "Senate cards", it: "Carte Senato" },
  scoring: { en: "Final score", it: "Punteggio finale" },
  winner: { en: "The winner", it: "Il vincitore" },
  fortuna: { en: "Fortuna tile", it: "Tessera Fortuna" },
  fortuna_text: { en: "Worth its value (1–3) at the end. Hidden while you draw it; public once kept.", it: "Vale il suo valore (1–3) alla fine. Coperta mentre la peschi; scoperta una volta tenuta." },
  token: { en: "Re-roll token", it: "Gettone per rilanciare" },
  full_rules: { en: "All the rules", it: "Tutte le regole" },
  close: { en: "Close", it: "Chiudi" },
  scorer: { en: "Score a table-top game", it: "Conta i punti di una partita dal vivo" },
  romano: { en: "Dado Romano", it: "Dado Romano" },
};

function buildingSection(b, level = "h3") {
  return `<section class="help-item building-help" id="building-${b.key}">` +
    `<${level}>${esc(BUILDING_NAMES[b.key])} <span class="muted">· ${esc(pick(TEXT.gives))} ${esc(pick(b.gives))}</span></${level}>` +
    `<div class="picture" aria-hidden="true">${b.picture()}</div>` +
    `<p><b>${esc(pick(TEXT.placement))}.</b> ${esc(pick(b.place))}</p>` +
    `<p><b>${esc(pick(TEXT.evaluation))}.</b> ${esc(pick(b.evaluate))}</p></section>`;
}

function placeSection(p) {
  return `<section class="help-item" id="place-${p.key}"><h3>${esc(pick(p.title))}</h3>` +
    `<div class="picture" aria-hidden="true">${p.picture()}</div><p>${esc(pick(p.text))}</p></section>`;
}

function senateSection(s) {
  const num = s.card.split("-")[0];
  return `<section class="help-item senate-help" id="senate-${num}">` +
    `<div class="picture" aria-hidden="true">${senateCard(s.card)}</div>` +
    `<p><b>${esc(num)}</b> — ${esc(pick(s.text))}</p></section>`;
}

function scoringSection() {
  return `<ol class="total">${pick(SCORING.total).map((line) => `<li>${esc(line)}</li>`).join("")}</ol>` +
    `<p>${esc(pick(SCORING.arrangement))}</p><p>${esc(pick(SCORING.pieces))}</p>`;
}

/** The whole illustrated rules page (its <main> content). */
export function rulesPage() {
  return `<h1>${esc(pick(TEXT.title))}</h1><p class="intro">${esc(pick(TEXT.intro))}</p>` +
    `<nav class="toc" aria-label="${esc(pick(TEXT.title))}"><a href="#turn">${esc(pick(TEXT.turn_title))}</a><a href="#buildings">${esc(pick(TEXT.buildings))}</a>` +
    `<a href="#places">${esc(pick(TEXT.places))}</a><a href="#senate">${esc(pick(TEXT.senate))}</a>` +
    `<a href="#scoring">${esc(pick(TEXT.scoring))}</a><a href="#romano">${esc(pick(TEXT.romano))}</a><a href="/score">${esc(pick(TEXT.scorer))}</a></nav>` +
    `<h2 id="turn">${esc(pick(TEXT.turn_title))}</h2><p>${esc(pick(TEXT.turn))}</p>` +
    `<h2 id="buildings">${esc(pick(TEXT.buildings))}</h2><div class="help-grid">${BUILDINGS.map((b) => buildingSection(b)).join("")}</div>` +
    `<h2 id="places">${esc(pick(TEXT.places))}</h2><div class="help-grid">${PLACES.map(placeSection).join("")}</div>` +
    `<h2 id="senate">${esc(pick(TEXT.senate))}</h2><div class="help-grid senate-grid">${SENATE.map(senateSection).join("")}</div>` +
    `<h2 id="scoring">${esc(pick(TEXT.scoring))}</h2>${scoringSection()}` +
    `<h2 id="winner">${esc(pick(TEXT.winner))}</h2><p>${esc(pick(SCORING.winner))}</p>` +
    romanoRules();
}

/**
 * The help for one thing on the table, or null: `el` is the element tapped (a building, a
 * Senate card, a province, a patrician, a Fortuna tile or a token).
 */
export function helpFor(el) {
  const building = el.closest("[data-building]");
  if (building) {
    const b = BUILDINGS.find((x) => x.key === building.dataset.building);
    if (b) return buildingSection(b, "h2");
  }
  const card = el.closest(".senate[data-card]");
  if (card) {
    const num = card.dataset.card.split("-")[0];
    const s = SENATE.find((x) => x.card.split("-")[0] === num);
    if (s) return senateSection(s) + (num === "XII" || num === "XIII" ? placeSection(PLACES[num === "XII" ? 3 : 2]) : "");
  }
  const prov = el.closest(".province[data-card]");
  if (prov) return placeSection(prov.dataset.card === "grey0" ? PLACES[1] : PLACES[0]);
  if (el.closest(".patrician")) {
    return `<section class="help-item"><h2>${esc(pick(TEXT.places))}</h2><p>${esc(pick(SCORING.pieces))}</p>` +
      PLACES.map((p) => `<p><b>${esc(pick(p.title))}.</b> ${esc(pick(p.text))}</p>`).join("") + "</section>";
  }
  if (el.closest(".die")) {
    return `<section class="help-item"><h2>${esc(pick(TEXT.turn_title))}</h2><p>${esc(pick(TEXT.turn))}</p></section>`;
  }
  if (el.closest(".fortuna")) {
    return `<section class="help-item"><h2>${esc(pick(TEXT.fortuna))}</h2><p>${esc(pick(TEXT.fortuna_text))}</p>` +
      `<p>${esc(pick(BUILDINGS[0].evaluate))}</p></section>`;
  }
  if (el.closest(".token")) {
    return `<section class="help-item"><h2>${esc(pick(TEXT.token))}</h2><p>${esc(pick(BUILDINGS[4].evaluate))}</p></section>`;
  }
  return null;
}
