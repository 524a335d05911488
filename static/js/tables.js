// Table maps. The hexes are SVG links, which htmx does not boost; their clicks go through
// htmx.ajax with the settings of the region around them (data-hx-target, data-hx-swap,
// data-hx-push-url on #table-view), so htmx is configured once, on the container, and every
// hex keeps a plain href that works without JavaScript. Kept out of the HTML: the site's
// Content-Security-Policy forbids inline scripts.
"use strict";

(() => {
  const hexOf = (link) => {
    const spot = new URL(link.getAttribute("href"), window.location.href).searchParams.get("hex");
    const match = /^(-?\d+),(-?\d+)$/.exec(spot || "");
    return match ? { q: match[1], r: match[2] } : null;
  };

  const plainClick = (event) =>
    event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !plainClick(event) || !window.htmx) return;
    const link = event.target.closest("[data-table-map] a[href]");
    if (!link) return;
    const view = link.closest("#table-view");
    if (!view) return;
    event.preventDefault();
    const hex = hexOf(link);
    if (view.dataset.editUrl && hex) {
      // The editor's terrain view: the click is the edit, sent with the version drawn.
      const values = { ...hex, version: view.dataset.version };
      window.htmx.ajax("POST", view.dataset.editUrl, { source: link, values, push: "false" });
    } else {
      window.htmx.ajax("GET", link.getAttribute("href"), { source: link });
    }
  });
})();
