// Dado Romano's rules help: one content module for the rules page (/rules, its Dado Romano
// part) and the in-game help of the Dado Romano table (the "Rules" box, with the figure
// being played marked). Every text is in English and Italian and follows RULES.md Part B
// (the section is named beside each entry). The figures' names and effects are the
// engine's (alea.romano.combinations and alea.romano.texts); a browser test checks that
// this table says exactly what the engine says.

import { language } from "./i18n.js";
import { esc } from "./pieces.js";

// The text of an {en, it} pair in the current language (as help.js's pick, which imports
// this module).
const pick = (pair) => pair[language()] ?? pair.en;

// RULES.md B4: [pair, figure, effect].
export const FIGURES = [
  ["1-1", "Vespasianus", {"en": "roll both dice again", "it": "tira di nuovo entrambi i dadi"}],
  ["1-2", "Iuvenalis", {"en": "riddle: +10 if solved", "it": "indovinello: +10 se risolto"}],
  ["1-3", "Iulius Caesar", {"en": "+5", "it": "+5"}],
  ["1-4", "Messalina", {"en": "may challenge an opponent to swap totals", "it": "può sfidare un avversario per scambiare i punteggi"}],
  ["1-5", "Quintus Ennius", {"en": "roll the second die again", "it": "ritira il secondo dado"}],
  ["1-6", "Octavius Augustus", {"en": "roll three times and add the sum", "it": "tira tre volte e somma i numeri"}],
  ["2-1", "Constantinus", {"en": "-5", "it": "-5"}],
  ["2-2", "Claudius", {"en": "roll twice more and add the sum", "it": "tira altre due volte e somma i numeri"}],
  ["2-3", "Quintilianus", {"en": "+20", "it": "+20"}],
  ["2-4", "Tacitus", {"en": "+10", "it": "+10"}],
  ["2-5", "Lucanus", {"en": "riddle: +20 if solved", "it": "indovinello: +20 se risolto"}],
  ["2-6", "Iustinianus", {"en": "score back to 0", "it": "si torna a zero punti"}],
  ["3-1", "Seneca", {"en": "roll again: add 6 x the number", "it": "tira ancora: aggiungi 6 x il numero"}],
  ["3-2", "Nero", {"en": "eliminated! Later turns: try to come back", "it": "eliminato! Nei turni seguenti può tentare di rientrare"}],
  ["3-3", "Cicero", {"en": "-10", "it": "-10"}],
  ["3-4", "Marcus Aurelius", {"en": "subtract the sum of the next opponent's two rolls", "it": "sottrai la somma dei due tiri del prossimo avversario"}],
  ["3-5", "Commodus", {"en": "question: back to 0 if wrong", "it": "domanda: torni a zero se sbagli"}],
  ["3-6", "Domitianus", {"en": "-3", "it": "-3"}],
  ["4-1", "Tiberius", {"en": "roll once: 1-3 lose that many, 4-6 gain that many", "it": "tira una volta: da 1 a 3 li perdi, da 4 a 6 li guadagni"}],
  ["4-2", "Romulus", {"en": "+40", "it": "+40"}],
  ["4-3", "Nerva", {"en": "+4 (the number on the first die)", "it": "+4 (il numero del primo dado)"}],
  ["4-4", "Titus", {"en": "question: gain half your score if right", "it": "domanda: se rispondi bene guadagni metà dei tuoi punti"}],
  ["4-5", "Agrippina", {"en": "riddle: back to 0 if not solved", "it": "indovinello: torni a zero se non lo risolvi"}],
  ["4-6", "Vergilius", {"en": "add 6, then double the score", "it": "aggiungi 6, poi raddoppia il punteggio"}],
  ["5-1", "Caracalla", {"en": "skip your next turn", "it": "salti il prossimo turno"}],
  ["5-2", "Scipio Africanus", {"en": "+10", "it": "+10"}],
  ["5-3", "Catilina", {"en": "-8", "it": "-8"}],
  ["5-4", "Crassus", {"en": "score halved", "it": "punteggio dimezzato"}],
  ["5-5", "Traianus", {"en": "+30", "it": "+30"}],
  ["5-6", "Porcius Cato", {"en": "question: +10 if right, -2 if wrong", "it": "domanda: +10 se giusta, -2 se sbagliata"}],
  ["6-1", "Aurelianus", {"en": "riddle: +10 if solved, no penalty", "it": "indovinello: +10 se risolto, nessuna penalità"}],
  ["6-2", "Antoninus Pius", {"en": "-8 (the two numbers rolled)", "it": "-8 (i due numeri usciti)"}],
  ["6-3", "Drusus Claudianus", {"en": "question: +15 if right", "it": "domanda: +15 se giusta"}],
  ["6-4", "Hadrianus", {"en": "score set to 149", "it": "punteggio portato a 149"}],
  ["6-5", "Titus Livius", {"en": "score set to 170", "it": "punteggio portato a 170"}],
  ["6-6", "Agrippa", {"en": "riddle: +15 if solved", "it": "indovinello: +15 se risolto"}],
];

// RULES.md B1-B3, B5, B6.
export const ROMANO = {
  title: { en: "How to play Dado Romano", it: "Come si gioca a Dado Romano" },
  intro: {
    en: "A party dice game for two or more players with one die. Reach exactly 150 points: a player who ends a turn on exactly 150 wins at once. (B1)",
    it: "Un gioco di dadi da festa per due o più giocatori con un dado. Arriva esattamente a 150 punti: chi finisce un turno esattamente a 150 vince subito. (B1)",
  },
  turn_title: { en: "A turn", it: "Un turno" },
  turn: {
    en: "Players take turns in a fixed order. On your turn you roll the die twice: the ordered pair (first roll, second roll) is a figure of Roman history, and its effect applies. Online, press Roll for each die. (B2)",
    it: "Si gioca a turno in un ordine fisso. Nel tuo turno tiri il dado due volte: la coppia ordinata (primo lancio, secondo lancio) è una figura della storia romana, e il suo effetto si applica. Online, premi Lancia per ogni dado. (B2)",
  },
  declaration_title: { en: "The third turn: a declaration", it: "Il terzo turno: una dichiarazione" },
  declaration: {
    en: "On your third turn, first declare the two numbers you will roll, in order. Both right: +50; exactly one of the two positions right: +10; neither: −30. The figure's effect applies as well. Skipped turns and turns spent out of the game do not count. (B2, B6)",
    it: "Al tuo terzo turno, dichiara prima i due numeri che tirerai, in ordine. Entrambi giusti: +50; esattamente una delle due posizioni giusta: +10; nessuno: −30. Si applica anche l'effetto della figura. I turni saltati e quelli passati fuori dal gioco non contano. (B2, B6)",
  },
  ceiling_title: { en: "Above 150", it: "Sopra 150" },
  ceiling: {
    en: "If your score is above 150 at the start of a turn, every change to it during that turn is inverted: points gained are subtracted and points lost are added. Effects that set a score (to 0, 149 or 170) are never inverted. Scores may fall below zero. (B3, B6)",
    it: "Se all'inizio di un turno il tuo punteggio è sopra 150, ogni variazione in quel turno è invertita: i punti guadagnati si tolgono e quelli persi si aggiungono. Gli effetti che impostano un punteggio (a 0, 149 o 170) non si invertono mai. Il punteggio può scendere sotto zero. (B3, B6)",
  },
  riddles_title: { en: "Riddles and questions", it: "Indovinelli e domande" },
  riddles: {
    en: "Some figures pose a riddle or a question. The software asks one from its bank with four answers to choose from, and everyone sees whether the answer was right and what the right answer was; or a person referees, poses their own and marks the answer right or wrong. (B5)",
    it: "Alcune figure pongono un indovinello o una domanda. Il programma ne pesca uno dal suo archivio con quattro risposte tra cui scegliere, e tutti vedono se la risposta era giusta e quale era quella giusta; oppure una persona fa da arbitro, pone i propri e giudica la risposta giusta o sbagliata. (B5)",
  },
  time_title: { en: "The time limit", it: "Il limite di tempo" },
  time: {
    en: "When the time limit (one hour unless chosen) has passed, the last round is declared: everyone finishes the round, then the player closest to 150, above or below, wins; ties share the victory. (B1)",
    it: "Quando il tempo (un'ora se non scelto diversamente) è scaduto, si dichiara l'ultimo giro: tutti finiscono il giro, poi vince chi è più vicino a 150, sopra o sotto; i pari merito condividono la vittoria. (B1)",
  },
  figures_title: { en: "The figures", it: "Le figure" },
  pair: { en: "Rolls", it: "Lanci" },
  figure: { en: "Figure", it: "Figura" },
  effect: { en: "Effect", it: "Effetto" },
  help: { en: "Rules", it: "Regole" },
  full_rules: { en: "All the rules", it: "Tutte le regole" },
};

const SECTIONS = ["turn", "declaration", "ceiling", "riddles", "time"];

/** The table of the 36 figures; `current` (a pair such as "4-2") is marked. */
export function figureTable(current = "") {
  const rows = FIGURES.map(([pair, name, effect]) =>
    `<tr data-pair="${pair}" class="${pair === current ? "current" : ""}"><td>${esc(pair)}</td><td>${esc(name)}</td><td>${esc(pick(effect))}</td></tr>`).join("");
  return `<table class="figures"><thead><tr><th scope="col">${esc(pick(ROMANO.pair))}</th><th scope="col">${esc(pick(ROMANO.figure))}</th>` +
    `<th scope="col">${esc(pick(ROMANO.effect))}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Dado Romano's rules: the page's section (h2 headings) or the table's help box (h3). */
export function romanoRules(current = "", level = 2) {
  const h = `h${level}`;
  const sub = `h${level + 1}`;
  return `<section class="romano-rules" id="romano"><${h}>${esc(pick(ROMANO.title))}</${h}><p class="intro">${esc(pick(ROMANO.intro))}</p>` +
    SECTIONS.map((k) => `<${sub} id="romano-${k}">${esc(pick(ROMANO[`${k}_title`]))}</${sub}><p>${esc(pick(ROMANO[k]))}</p>`).join("") +
    `<${sub} id="romano-figures">${esc(pick(ROMANO.figures_title))}</${sub}>${figureTable(current)}</section>`;
}
