// The site's service worker, served as /games/sw.js with the whole site as its scope
// (Service-Worker-Allowed: /) and registered by every page a signed-in player opens
// (config/static/js/site.js). It keeps, as they were last loaded, the pages a player needs
// at a table with a bad signal: a game's page, the rosters (their lists', a shared one, an
// event's locked one), their event pages (the pairings, the rounds, the standings), the
// lists of their lists, events and games, and the site's static files. Everything is asked
// of the network first; the kept copy answers only when the network does not.
//
// Bounded: at most PAGES_KEPT pages and STATIC_KEPT static files, the least recently loaded
// forgotten first. Private: a page is kept only when it was the answer to its own address
// (never a sign-in page a redirect led to) and not marked no-store; signing out forgets
// everything kept, and so does a page drawn for nobody signed in or for another account
// (site.js asks, with {forget: true}). Steps taken offline wait in the page
// (static/js/games.js), not here.
const PAGES = "onefinity-pages-2";
const STATIC = "onefinity-static-2";
const PAGES_KEPT = 60;
const STATIC_KEPT = 40;
const KEPT_PAGES = [
  /^\/games\/$/,
  /^\/games\/[A-Za-z0-9_-]+\/$/,
  /^\/forces\/$/,
  /^\/forces\/\d+\/roster\/$/,
  /^\/s\/[A-Za-z0-9_-]+\/roster\/$/,
  /^\/events\/$/,
  /^\/events\/\d+\/me\/$/,
  /^\/events\/\d+\/rounds\/$/,
  /^\/events\/\d+\/rounds\/\d+\/$/,
  /^\/events\/\d+\/standings\/$/,
  /^\/events\/\d+\/lists\/[A-Za-z0-9_-]+\/$/,
];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) =>
  event.waitUntil(
    caches
      .keys()
      // The caches of an earlier version of this worker (onefinity-games-1...) go.
      .then((names) => Promise.all(names.filter((n) => n !== PAGES && n !== STATIC).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  ),
);

function forget() {
  return Promise.all([caches.delete(PAGES), caches.delete(STATIC)]);
}

function keptPage(url) {
  return url.origin === self.location.origin && KEPT_PAGES.some((page) => page.test(url.pathname));
}

function keepable(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return false;
  // htmx's regions share their page's address: only whole pages and static files are kept.
  if (request.headers.get("HX-Request")) return false;
  if (url.pathname.startsWith("/static/")) return true;
  return request.mode === "navigate" && keptPage(url);
}

async function keep(request, response) {
  if (response.status !== 200 || response.redirected) return;
  if (/no-store/i.test(response.headers.get("Cache-Control") || "")) return;
  const isStatic = new URL(request.url).pathname.startsWith("/static/");
  const cache = await caches.open(isStatic ? STATIC : PAGES);
  // Loaded again, it is the most recent: put last, and the oldest beyond the bound go.
  await cache.delete(request, { ignoreSearch: false, ignoreVary: true });
  await cache.put(request, response);
  const kept = await cache.keys();
  const bound = isStatic ? STATIC_KEPT : PAGES_KEPT;
  await Promise.all(kept.slice(0, Math.max(0, kept.length - bound)).map((old) => cache.delete(old)));
}

self.addEventListener("message", (event) => {
  const asked = event.data || {};
  if (asked.forget) {
    event.waitUntil(forget());
  } else if (typeof asked.keep === "string") {
    // The page that registered this worker was loaded before it could keep it: fetched
    // again now, as it is, to be readable offline too.
    const url = new URL(asked.keep, self.location.origin);
    if (!keptPage(url)) return;
    const request = new Request(url.href, { credentials: "same-origin" });
    event.waitUntil(
      fetch(request)
        .then((response) => keep(request, response))
        .catch(() => {}),
    );
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && url.pathname === "/accounts/logout/") {
    event.waitUntil(forget());
    return;
  }
  if (!keepable(request)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        const kept = keep(request, response.clone()).catch(() => {});
        try {
          event.waitUntil(kept);
        } catch {
          // The event is no longer extendable: the copy is written all the same.
        }
        return response;
      })
      .catch(() =>
        caches
          .match(request, { ignoreVary: true })
          .then((kept) => kept || caches.match(url.pathname, { ignoreVary: true }) || Response.error()),
      ),
  );
});
