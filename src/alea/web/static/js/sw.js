// The scorer's service worker (scope /score): once /score has loaded, the page, its scripts,
// styles and the box's contents (and the rules page) come from the cache when the network is
// down, so a table can keep tapping in its pieces offline. Scoring itself asks the server (the engine's optimiser);
// offline, the page keeps the entries and says so. Network first, so updates arrive at once.

const CACHE = "alea-scorer-v1";
const SHELL = [
  "/score", "/rules", "/static/score.webmanifest", "/static/favicon.svg",
  "/static/css/app.css", "/static/css/score.css",
  "/static/js/score.js", "/static/js/score-strings.js", "/static/js/rules.js", "/static/js/help.js",
  "/static/js/i18n.js", "/static/js/pieces.js", "/static/js/util.js",
  "/api/score/box",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (!SHELL.includes(url.pathname)) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
    }
    return response;
  }).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
});
