// Help by tap on the game's pages (touch screens have no tooltips): the header's Help button
// turns on help mode, in which tapping (or pressing Enter on) a building, a card or a tile shows
// what it does, from help.js, the same content as the rules page, instead of acting.
// The header also links the rules page and the scorer. Loaded by index.html beside app.js.

import "./score-strings.js";
import { t } from "./i18n.js";

// The help content is fetched the first time help mode is turned on, so the game page
// loads no more than it did before.
let help = null;

const links = document.getElementById("site-links");
let on = false;
let dialog = null;

function label() {
  // The help content is Alea Iacta Est's: a Dado Romano table gets no Help button.
  const romano = document.querySelector("#app > .romano") !== null;
  if (romano && on) setMode(false);
  links.innerHTML =
    (romano ? "" : `<button type="button" class="help-toggle" aria-pressed="${on}">${t("help_button")}</button>`) +
    `<a href="/rules" target="_self">${t("rules_link")}</a>` +
    `<a href="/score" target="_self">${t("scorer_link")}</a>`;
  const banner = document.getElementById("help-banner");
  if (banner) banner.textContent = t("help_on");
}

function setMode(value) {
  on = value;
  document.body.classList.toggle("help-mode", on);
  let banner = document.getElementById("help-banner");
  if (on && !banner) {
    banner = document.createElement("div");
    banner.id = "help-banner";
    banner.className = "help-banner";
    banner.setAttribute("role", "status");
    document.querySelector("header.site").after(banner);
  }
  if (!on && banner) banner.remove();
  label();
}

function show(html) {
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.className = "help-dialog";
    dialog.setAttribute("aria-label", t("help_button"));
    document.body.appendChild(dialog);
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog || e.target.closest("[data-help-close]")) dialog.close();
    });
  }
  const { pick, TEXT } = help;
  dialog.innerHTML = `${html}<div class="help-actions"><a href="/rules" target="_self">${pick(TEXT.full_rules)}</a>` +
    `<button type="button" data-help-close autofocus>${pick(TEXT.close)}</button></div>`;
  dialog.showModal();
}

links.addEventListener("click", async (e) => {
  if (!e.target.closest(".help-toggle")) return;
  if (!on && !help) help = await import("./help.js");
  setMode(!on);
});

// Capture phase: in help mode the tap explains instead of reaching the game's own handlers.
document.addEventListener("click", (e) => {
  if (!on || !help || !e.target.closest("#app")) return;
  const html = help.helpFor(e.target);
  if (!html) return;
  e.preventDefault();
  e.stopPropagation();
  show(html);
}, true);

document.addEventListener("keydown", (e) => {
  if (on && e.key === "Escape" && !(dialog && dialog.open)) setMode(false);
});

// app.js redraws the language switch on every change of page or language: relabel with it.
new MutationObserver(label).observe(document.getElementById("langs"), { childList: true });
new MutationObserver(() => {
  const romano = document.querySelector("#app > .romano") !== null;
  if (romano === !links.querySelector(".help-toggle")) return;
  label();
}).observe(document.getElementById("app"), { childList: true });
label();
