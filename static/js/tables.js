// Table maps. The hexes are SVG links, which htmx does not boost; their clicks go through
// htmx.ajax with the settings of the region around them (data-hx-target, data-hx-swap,
// data-hx-push-url on #table-view), so htmx is configured once, on the container, and every
// hex keeps a plain href that works without JavaScript. Kept out of the HTML: the site's
// Content-Security-Policy forbids inline scripts.
//
// In the editor (#table-view carries data-edit-url and data-version):
// - a click on a hex is one edit with the brush in the edit URL (cycle, paint, stamp a
//   piece, remove a piece); so is Enter on a focused hex, for keyboard users;
// - with a painting brush (data-drag="paint") a press, a drag across hexes and a release
//   paint every hex passed over, sent as one edit (the hexes show the stroke meanwhile);
// - with a piece brush (data-footprint: the piece's hexes, turned) the hexes it would cover
//   show under the pointer in its colours, outlined in red where it would hang off the
//   table; R turns the piece (the Rotate link).
// Edits are sent one at a time, each with the version the last answer drew: a quick second
// click waits for the first instead of being refused as coming from a stale page.
"use strict";

(() => {
  const spotOfHref = (link) =>
    new URL(link.getAttribute("href"), window.location.href).searchParams.get("hex");

  const hexOf = (link) => {
    const match = /^(-?\d+),(-?\d+)$/.exec(spotOfHref(link) || "");
    return match ? { q: match[1], r: match[2] } : null;
  };

  // A hex's "q,r" from its label ("q,r Kind"): the map's own coordinates, whatever the view.
  const spotOf = (link) => (link.getAttribute("aria-label") || "").split(" ")[0];

  const hexLink = (element) =>
    element instanceof Element ? element.closest("[data-table-map] a[href]") : null;

  const plainClick = (event) =>
    event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

  // --- Edits, one at a time ------------------------------------------------------------------

  const edits = { queue: [], sending: false };

  const sendNext = () => {
    if (edits.sending || !edits.queue.length || !window.htmx) return;
    const view = document.getElementById("table-view");
    if (!view || !view.dataset.version) {
      edits.queue.length = 0;
      return;
    }
    const edit = edits.queue.shift();
    edits.sending = true;
    // An answer for a region replaced meanwhile (a brush chosen, a view changed while the
    // edit was saved) is dropped: its target is gone, and swapping it would take the page's
    // live palette away with it (htmx moves the element an answer keeps, hx-preserve,
    // before it finds the target detached). The event fires on this detached element only.
    view.addEventListener("htmx:beforeSwap", (event) => {
      if (!view.isConnected) event.detail.shouldSwap = false;
    });
    const values = { ...edit.values, version: view.dataset.version };
    window.htmx
      .ajax("POST", edit.url, { source: view, values, push: "false" })
      .catch(() => {
        edits.queue.length = 0;
      })
      .finally(() => {
        edits.sending = false;
        sendNext();
      });
  };

  const edit = (url, values) => {
    edits.queue.push({ url, values });
    sendNext();
  };

  // Undo and redo (their buttons, Ctrl+Z) wait behind an edit still being saved, as a quick
  // second click does: sent at once, they would carry the version drawn before that edit
  // and be refused as if another tab had changed the table.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !window.htmx) return;
      if (!form.closest("#table-view .undo-redo")) return;
      event.preventDefault();
      event.stopPropagation();
      edit(form.getAttribute("action"), {});
    },
    true,
  );

  document.addEventListener("htmx:afterRequest", (event) => {
    // Another tab changed the table: the answer shows the latest; what waits was drawn on
    // the older one, so it is dropped rather than made over the other tab's change.
    if (event.detail.xhr && event.detail.xhr.status === 409) edits.queue.length = 0;
  });

  // --- Clicks ----------------------------------------------------------------------------------

  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || !plainClick(event) || !window.htmx) return;
    const link = hexLink(event.target);
    if (!link) return;
    const view = link.closest("#table-view");
    if (!view) return;
    event.preventDefault();
    const hex = hexOf(link);
    if (view.dataset.editUrl && hex) {
      // A pointer's click on a painting map was its stroke (sent on release); Enter on a
      // focused hex (detail 0) paints that hex.
      if (view.dataset.drag === "paint" && event.detail > 0) return;
      edit(view.dataset.editUrl, hex);
    } else {
      window.htmx.ajax("GET", link.getAttribute("href"), { source: link });
    }
  });

  // --- Strokes: press, drag, release ------------------------------------------------------------

  let stroke = null; // { url, links: Map(spot -> link), pointerId, x, y }

  const paintOver = (link) => {
    const spot = spotOf(link);
    if (!spot || stroke.links.has(spot)) return;
    stroke.links.set(spot, link);
    link.classList.add("stroke");
  };

  // Every hex under the pointer's path since the last move: a quick drag skips hexes
  // between two move events, so the path is walked in steps smaller than a hex.
  const walk = (x, y) => {
    const steps = Math.max(1, Math.ceil(Math.hypot(x - stroke.x, y - stroke.y) / 6));
    for (let step = 1; step <= steps; step += 1) {
      const at = document.elementFromPoint(
        stroke.x + ((x - stroke.x) * step) / steps,
        stroke.y + ((y - stroke.y) * step) / steps,
      );
      const link = hexLink(at);
      if (link && link.closest("#table-view")) paintOver(link);
    }
    stroke.x = x;
    stroke.y = y;
  };

  const dropStroke = () => {
    for (const link of stroke.links.values()) link.classList.remove("stroke");
    stroke = null;
  };

  document.addEventListener("pointerdown", (event) => {
    if (!event.isPrimary || event.button !== 0) return;
    // A stroke whose release never came (let go outside the window) is not made.
    if (stroke) dropStroke();
    const link = hexLink(event.target);
    const view = link && link.closest("#table-view");
    if (!view || view.dataset.drag !== "paint" || !view.dataset.editUrl) return;
    event.preventDefault(); // no text selection, no dragging the link away
    // A touch captures the pointer to the hex it started on; the path is found by position.
    if (link.hasPointerCapture && link.hasPointerCapture(event.pointerId)) {
      link.releasePointerCapture(event.pointerId);
    }
    stroke = {
      url: view.dataset.editUrl,
      links: new Map(),
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
    };
    paintOver(link);
  });

  document.addEventListener("pointermove", (event) => {
    if (stroke && event.pointerId === stroke.pointerId) walk(event.clientX, event.clientY);
  });

  document.addEventListener("pointerup", (event) => {
    if (!stroke || event.pointerId !== stroke.pointerId) return;
    walk(event.clientX, event.clientY);
    const hexes = [...stroke.links.keys()].join(" ");
    const url = stroke.url;
    stroke = null;
    if (hexes) edit(url, { hexes });
  });

  document.addEventListener("pointercancel", (event) => {
    if (stroke && event.pointerId === stroke.pointerId) dropStroke();
  });

  document.addEventListener("dragstart", (event) => {
    const view = hexLink(event.target)?.closest("#table-view");
    if (view && view.dataset.editUrl) event.preventDefault();
  });

  // --- Where a piece would land ---------------------------------------------------------------

  const ghost = { spot: null, links: [] };
  const maps = new WeakMap(); // map <svg> -> Map(spot -> link), made once per drawn map

  const linksOf = (svg) => {
    let found = maps.get(svg);
    if (!found) {
      found = new Map([...svg.querySelectorAll("a[aria-label]")].map((a) => [spotOf(a), a]));
      maps.set(svg, found);
    }
    return found;
  };

  const clearGhost = () => {
    for (const link of ghost.links) {
      link.classList.remove("ghost", "misfit", "image");
      link.querySelector("polygon")?.style.removeProperty("fill");
    }
    ghost.links = [];
  };

  const showGhost = (link) => {
    clearGhost();
    const view = link.closest("#table-view");
    const svg = link.closest("svg");
    if (!view || !svg || !view.dataset.footprint) return;
    ghost.spot = spotOf(link);
    const [q, r] = ghost.spot.split(",").map(Number);
    const links = linksOf(svg);
    let fits = true;
    // Each of the piece's hexes as "dq,dr,colour": where it lands, in the kind it will be.
    for (const cell of view.dataset.footprint.split(" ")) {
      const [dq, dr, colour] = cell.split(",");
      const covered = links.get(`${q + Number(dq)},${r + Number(dr)}`);
      if (!covered) {
        fits = false;
        continue;
      }
      ghost.links.push(covered);
      covered.classList.add("ghost");
      covered.querySelector("polygon")?.style.setProperty("fill", colour);
    }
    // With symmetric editing the piece's image lands too (data-image-of: the symmetry and
    // the sums of the board's extreme centres, the server's rule for a hex's image).
    if (fits && view.dataset.imageOf) {
      const [kind, sx, sy] = view.dataset.imageOf.split(",");
      const piece = [...ghost.links];
      for (const covered of piece) {
        const [cq, cr] = spotOf(covered).split(",").map(Number);
        const x = 2 * cq + cr;
        const y = 3 * cr;
        const ix = kind === "point" ? Number(sx) - x : x;
        const iy = Number(sy) - y;
        const image = links.get(`${(ix - iy / 3) / 2},${iy / 3}`);
        // A piece that would overlap its own image is refused, as the server refuses it.
        if (!image || piece.includes(image)) {
          fits = false;
          continue;
        }
        ghost.links.push(image);
        image.classList.add("ghost", "image");
        const fill = covered.querySelector("polygon")?.style.getPropertyValue("fill");
        if (fill) image.querySelector("polygon")?.style.setProperty("fill", fill);
      }
    }
    if (!fits) for (const covered of ghost.links) covered.classList.add("misfit");
  };

  const hovered = (event) => {
    const link = hexLink(event.target);
    if (link) showGhost(link);
  };
  document.addEventListener("pointerover", hovered);
  document.addEventListener("focusin", hovered);
  document.addEventListener("pointerout", (event) => {
    if (hexLink(event.target) && !hexLink(event.relatedTarget)) {
      clearGhost();
      ghost.spot = null;
    }
  });

  // After a redraw (a piece set down, a turn) the outline comes back where the pointer is.
  document.addEventListener("htmx:afterSettle", () => {
    ghost.links = [];
    const view = document.getElementById("table-view");
    if (!ghost.spot || !view) return;
    const link = [...view.querySelectorAll("[data-table-map] a[aria-label]")].find(
      (a) => spotOf(a) === ghost.spot,
    );
    if (link) showGhost(link);
  });

  // R turns the piece, as its Rotate link does.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "r" && event.key !== "R") return;
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.target instanceof Element && event.target.closest("input, textarea, select")) {
      return;
    }
    const rotate = document.querySelector("#table-view [data-rotate]");
    if (rotate) {
      event.preventDefault();
      rotate.click();
    }
  });
})();
