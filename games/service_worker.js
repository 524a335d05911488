// The games' service worker (served as /games/sw.js: its scope is /games/). A game's page
// and the files it uses are kept as they were last loaded, so the page opens without a
// connection; everything is asked of the network first. Steps taken offline wait in the
// page (static/js/games.js), not here: this worker only keeps pages.
const CACHE = "onefinity-games-1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function keepable(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  // htmx's regions share their page's address: only whole pages and static files are kept.
  if (request.headers.get("HX-Request")) return false;
  return request.mode === "navigate" || url.pathname.startsWith("/static/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!keepable(request)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.status === 200) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request).then(
          (kept) => kept || caches.match(new URL(request.url).pathname) || Response.error(),
        ),
      ),
  );
});
