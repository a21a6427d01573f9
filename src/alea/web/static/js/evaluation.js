// The evaluation of a round, step by step: Templum, Senatus, Castrum, Forum, Latrina
// (RULES.md §3.2), each step a sentence saying who got what and why. Everything comes from
// what the server sent this seat: the view's public account of each evaluated round
// (`evaluations`: rankings, tiles kept and discarded, tokens) and the log's choices
// (`K:`, `P:`, `N:`, shown as `K:?` where the card is another seat's secret).

import "./show-strings.js";
import { t } from "./i18n.js";
import { anyCard, diceRow, esc, fortuna, token } from "./pieces.js";
import { seatColour, seatName } from "./seats.js";

function who(seats, seat) {
  return `<span class="who ${seatColour(seats, seat)}" title="${esc(seatName(seats, seat))}">${esc(seatName(seats, seat))}</span>`;
}

function tiles(values) {
  return values.length ? values.map((v) => fortuna(v, "mini")).join("") : esc(t("eval_nothing"));
}

function chosen(event) {
  const card = event.slice(2);
  return card === "?" ? esc(t("eval_a_card")) : anyCard(card);
}

/**
 * The steps of one round's `account` as far as `log` ([event, actor] pairs) has come, in
 * the order of evaluation. Each step is {key, building, html, at, pending}: `key` changes
 * when the step does (a choice made), `at` is the log index the step belongs before (for
 * the log; null for a step the log tells itself, a choice), and the first step still
 * waiting for a choice is the last one given: the buildings are evaluated in order.
 */
export function evaluationSteps(account, log, seats) {
  const steps = [];
  const start = account.start;
  const stop = account.end === null || account.end === undefined ? log.length : account.end;
  const events = [];
  for (let i = start; i < Math.min(stop, log.length); i++) events.push([log[i][0], log[i][1], i]);
  const dice = (values, seat) => diceRow(values, seatColour(seats, seat), "mini");
  const rank = (i) => esc(t("eval_rank", { n: i + 1 }));

  for (const g of account.temple || []) {
    steps.push({
      key: `T${g.seat}`, building: "T", at: start,
      html: t(g.lead ? "eval_T_lead" : "eval_T", {
        who: who(seats, g.seat), dice: dice(g.dice, g.seat), kept: tiles(g.kept), discarded: tiles(g.discarded),
      }),
    });
    if (g.bonus) {
      const draw = events.find(([ev]) => ev.startsWith("fortuna:"));
      if (!draw) return pending(steps, { key: `Tb${g.seat}`, building: "T" });
      steps.push({
        key: `Tb${g.seat}`, building: "T", at: draw[2] + 1,
        html: t("eval_T_bonus", { who: who(seats, g.seat), tile: tiles([Number(draw[0].slice(8))]) }),
      });
    }
  }

  const cards = events.filter(([ev]) => ev.startsWith("K:"));
  for (const [i, s] of (account.senate || []).entries()) {
    const words = { who: who(seats, s.seat), rank: rank(i), dice: dice(s.dice, s.seat) };
    if (!s.takes) {
      steps.push({ key: `S${s.seat}`, building: "S", at: start, html: t("eval_S_latrine", words) });
      continue;
    }
    const took = cards.find(([, actor]) => actor === s.seat);
    if (!took) {
      // A taker the deck ran out on: once anything later happened, it simply had no card.
      const later = events.some(([ev]) => /^[PN]:/.test(ev));
      if (later || (account.end !== null && account.end !== undefined)) continue;
      return pending(steps, { key: `S${s.seat}`, building: "S", html: t("eval_S_choosing", words) });
    }
    steps.push({ key: `S${s.seat}+`, building: "S", at: null, html: t("eval_S_took", { ...words, card: chosen(took[0]) }) });
  }

  const provinces = events.filter(([ev]) => ev.startsWith("P:"));
  let won = 0;
  for (const [i, c] of (account.castrum || []).entries()) {
    const words = { who: who(seats, c.seat), rank: rank(i), dice: dice(Array(c.count).fill(c.value), c.seat) };
    if (!c.wins) {
      steps.push({ key: `C${c.seat}.${c.value}`, building: "C", at: start, html: t("eval_C_latrine", words) });
      continue;
    }
    const took = provinces[won++];
    if (!took) return pending(steps, { key: `C${c.seat}.${c.value}`, building: "C", html: t("eval_C_choosing", words) });
    steps.push({ key: `C${c.seat}.${c.value}+`, building: "C", at: null, html: t("eval_C_took", { ...words, card: chosen(took[0]) }) });
  }

  const patricians = events.filter(([ev]) => ev.startsWith("N:"));
  for (const [i, f] of (account.forum || []).entries()) {
    const words = { who: who(seats, f.seat), col: i + 1, dice: dice([f.value], f.seat) };
    const took = patricians[i];
    if (!took) return pending(steps, { key: `F${i}`, building: "F", html: t("eval_F_choosing", words) });
    steps.push({ key: `F${i}+`, building: "F", at: null, html: t("eval_F_took", { ...words, card: chosen(took[0]) }) });
  }

  if (account.end === null || account.end === undefined) return steps;
  const latrine = account.latrine || [];
  let any = false;
  for (const [seat, n] of latrine.entries()) {
    if (!n) continue;
    any = true;
    steps.push({
      key: `L${seat}`, building: "L", at: account.end,
      html: t("eval_L", { who: who(seats, seat), n, tokens: `<span class="evtoken">${token(n)}</span>` }),
    });
  }
  if (!any) steps.push({ key: "L", building: "L", at: account.end, html: esc(t("eval_L_none")) });
  return steps;
}

function pending(steps, step) {
  steps.push({ at: null, html: "", ...step, pending: true });
  return steps;
}

/**
 * Lines for the log panel: `{index: [html <li>, ...]}`, each list shown before the log
 * entry at that index (or after the last entry). The choices are the log's own entries.
 */
export function evaluationLogLines(evaluations, log, seats) {
  const lines = {};
  const add = (at, html) => { (lines[at] = lines[at] || []).push(html); };
  for (const account of evaluations || []) {
    if (account.start > log.length) continue;
    add(account.start, `<li class="evalhead">${esc(t("eval_title", { n: account.round }))}</li>`);
    for (const step of evaluationSteps(account, log, seats)) {
      if (step.at === null || step.pending) continue;
      add(step.at, `<li class="eval b${step.building}" data-eval="${esc(step.key)}">` +
        `<span class="evb">${esc(t(`eval_step_${step.building}`))}</span> ${step.html}</li>`);
    }
  }
  return lines;
}
