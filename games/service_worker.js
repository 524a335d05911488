// The games' service worker, served as /games/sw.js with the whole site as its scope
// (Service-Worker-Allowed: /). It keeps, as they were last loaded, the pages a player needs
// at a table with a bad signal: a game's page, their lists' rosters and their event pages
// (the pairings), and the site's static files; everything is asked of the network first.
// Other pages are never kept. Logging out forgets everything kept. Steps taken offline
// wait in the page (static/js/games.js), not here.
const CACHE = "onefinity-games-1";
const KEPT_PAGES = [
  /^\/games\/[A-Za-z0-9_.-]+\/$/,
  /^\/forces\/\d+\/roster\/$/,
  /^\/events\/\d+\/me\/$/,
];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function keepable(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  // htmx's regions share their page's address: only whole pages and static files are kept.
  if (request.headers.get("HX-Request")) return false;
  if (url.pathname.startsWith("/static/")) return true;
  return request.mode === "navigate" && KEPT_PAGES.some((page) => page.test(url.pathname));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    event.waitUntil(caches.delete(CACHE));
    return;
  }
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
          (kept) => kept || caches.match(url.pathname) || Response.error(),
        ),
      ),
  );
});
