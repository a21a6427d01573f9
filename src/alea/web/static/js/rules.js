// The illustrated rules page (/rules): drawn from help.js, the same content as the in-game
// help by tap, in the language chosen (shared with every other page).

import "./score-strings.js";
import { initialLanguage, language, setLanguage, t } from "./i18n.js";
import { pick, rulesPage, TEXT } from "./help.js";

const root = document.getElementById("app");

function render() {
  document.title = `${pick(TEXT.title)} · Alea Iacta Est`;
  document.getElementById("langs").innerHTML = ["it", "en"].map((l) =>
    `<button type="button" class="lang ${l === language() ? "on" : ""}" data-lang="${l}" aria-pressed="${l === language()}">${l.toUpperCase()}</button>`).join("");
  document.getElementById("scorer-link").textContent = t("scorer_link");
  root.innerHTML = rulesPage();
}

document.getElementById("langs").addEventListener("click", (e) => {
  const b = e.target.closest("[data-lang]");
  if (!b || b.dataset.lang === language()) return;
  setLanguage(b.dataset.lang);
  render();
});

setLanguage(initialLanguage());
render();
if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
