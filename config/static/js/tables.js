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

  // A hex's "q,r": the map's own coordinates, drawn on it, whatever the view (its name, its
  // title, is its place in a player's words: "Row 3 from side A, column 5: Open ground").
  const spotOf = (link) => link.querySelector("text.coord")?.textContent || "";

  const hexLink = (element) =>
    element instanceof Element ? element.closest("[data-table-map] svg a[href]") : null;

  const plainClick = (event) =>
    event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

  // --- Edits, one at a time ------------------------------------------------------------------

  const edits = { queue: [], sending: false };

  // The version of the table an answer for the region was drawn at (NaN if none).
  const versionOf = (text) => {
    const found =
      typeof text === "string" && /id="table-view"[^>]*?\sdata-version="(\d+)"/.exec(text);
    return found ? Number(found[1]) : NaN;
  };

  // A page (a brush, a view) asked for before an edit was saved, answered after the edit's
  // answer was put in: drawn at the older version, it would show the table without the
  // edit and make the next edit look stale. Asked again instead.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const view = document.getElementById("table-view");
    const detail = event.detail;
    if (!view || detail.target !== view || !detail.shouldSwap) return;
    if (!detail.requestConfig || detail.requestConfig.verb !== "get") return;
    if (versionOf(detail.serverResponse) < Number(view.dataset.version)) {
      detail.shouldSwap = false;
      window.htmx.ajax("GET", detail.pathInfo.finalRequestPath, { source: view });
    }
  });

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
    let dropped = NaN;
    const guard = (event) => {
      if (view.isConnected) return;
      event.detail.shouldSwap = false;
      dropped = versionOf(event.detail.serverResponse);
    };
    view.addEventListener("htmx:beforeSwap", guard);
    // The map the page shows (data-drawn): the answer is then only what changed on it.
    const values = { ...edit.values, version: view.dataset.version };
    if (view.dataset.drawn) values.drawn = view.dataset.drawn;
    window.htmx
      .ajax("POST", edit.url, { source: view, values, push: "false" })
      .catch(() => {
        edits.queue.length = 0;
      })
      .finally(() => {
        view.removeEventListener("htmx:beforeSwap", guard);
        edits.sending = false;
        // The region that replaced this one was drawn before the edit was saved: it is
        // drawn again (what waited was clicked on the older one, and is dropped).
        const shown = document.getElementById("table-view");
        if (shown && Number(shown.dataset.version) < dropped) {
          edits.queue.length = 0;
          window.htmx.ajax("GET", window.location.href, { source: shown, push: "false" });
          return;
        }
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

  // --- An edit's answer that patches the map -------------------------------------------------

  // The answer kept the page's map (hx-preserve) and carries, in a template, the hexes
  // drawn differently (data-at: their number in board order), the pieces' outlines and the
  // marks: put in, the map is the one the server drew (browser tests compare it with the
  // whole map of a fresh page).
  const patchMap = () => {
    const view = document.getElementById("table-view");
    const patch = view && view.querySelector("template[data-map-patch]");
    if (!patch) return;
    const svg = view.querySelector("[data-table-map] svg.table-map");
    const fresh = patch.content.firstElementChild;
    patch.remove();
    if (!svg || !fresh) return;
    // What this script drew on the map (a stroke, a piece's outline) goes first.
    clearGhost();
    // A stroke being dragged meanwhile keeps its hexes marked.
    const live = new Set(stroke ? stroke.links.values() : []);
    cleanMap(svg, live);
    const hexes = svg.querySelectorAll(":scope > a, :scope > g.hex");
    let focused = null;
    for (const part of [...fresh.children]) {
      if (part.hasAttribute("data-at")) {
        const old = hexes[Number(part.getAttribute("data-at"))];
        part.removeAttribute("data-at");
        if (!old) continue;
        if (old === document.activeElement) focused = part;
        // The map's one Tab stop stays where it was (see "The map, one Tab stop").
        if (old.hasAttribute("tabindex")) part.setAttribute("tabindex", old.getAttribute("tabindex"));
        old.replaceWith(part);
      } else if (part.classList.contains("pieces")) {
        svg.querySelector(":scope > g.pieces")?.replaceWith(part);
      } else if (part.classList.contains("marks")) {
        svg.querySelector(":scope > g.marks")?.remove();
        if (part.childElementCount) svg.querySelector(":scope > g.pieces")?.after(part);
      }
    }
    maps.delete(svg);
    grids.delete(svg);
    if (stroke) {
      for (const [spot, link] of stroke.links) {
        const now = link.isConnected ? link : linksOf(svg).get(spot);
        if (now) {
          now.classList.add("stroke");
          stroke.links.set(spot, now);
        }
      }
    }
    // A keyboard user's hex (Enter on it) keeps the focus after it is drawn again.
    if (focused) focused.focus();
  };
  document.addEventListener("htmx:afterSwap", patchMap);

  // Such an answer is put in around the page's map, which stays where it is: htmx's swap
  // of the region would move the map, and a moved 1,620-hex map costs the browser about
  // 70 ms of style and layout (an edited hex put in place, about 10). The region's other
  // parts are the answer's, and a palette the answer keeps (hx-preserve) stays too.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const view = document.getElementById("table-view");
    const text = event.detail.serverResponse;
    if (!view || event.detail.target !== view || !event.detail.shouldSwap) return;
    if (typeof text !== "string" || !text.includes("<template data-map-patch>")) return;
    const fresh = new DOMParser().parseFromString(text, "text/html").getElementById("table-view");
    const holder = view.querySelector(":scope > .map-and-facts");
    const map = holder && holder.querySelector(":scope > [data-table-map]");
    const svg = map && map.querySelector(":scope > svg.table-map");
    const freshHolder = fresh && fresh.querySelector(":scope > .map-and-facts");
    const freshMap = freshHolder && freshHolder.querySelector(":scope > [data-table-map]");
    const facts = holder && holder.querySelector(":scope > .facts");
    const freshFacts = freshHolder && freshHolder.querySelector(":scope > .facts");
    if (!svg || !freshMap || !facts || !freshFacts) return; // htmx swaps it (hx-preserve)
    event.detail.shouldSwap = false;
    // A control of the region with the focus (Undo, say) is drawn again: the focus goes to
    // its new self, as htmx's own swap does.
    const active = document.activeElement;
    const focused = active && active.id && view.contains(active) && !svg.contains(active);
    for (const name of view.getAttributeNames()) {
      if (!fresh.hasAttribute(name)) view.removeAttribute(name);
    }
    for (const name of fresh.getAttributeNames()) view.setAttribute(name, fresh.getAttribute(name));
    // The palette the answer keeps (hx-preserve): the page's own, where the answer has it.
    const palette = view.querySelector("#palette");
    const put = [];
    for (const node of [...view.childNodes]) if (node !== holder) node.remove();
    for (const node of [...fresh.childNodes]) {
      if (node === freshHolder) break;
      holder.before(node);
      put.push(node);
    }
    const kept = palette && view.querySelector("#palette[data-hx-preserve]");
    if (kept && kept !== palette) kept.replaceWith(palette);
    fitControls();
    facts.replaceWith(freshFacts);
    put.push(freshFacts);
    for (const node of [...map.childNodes]) if (node !== svg) node.remove();
    // What comes before the map (the link past it) stays before it.
    let before = true;
    for (const node of [...freshMap.childNodes]) {
      if (node instanceof Element && node.matches("svg")) {
        before = false;
        continue;
      }
      if (before) svg.before(node);
      else map.append(node);
      put.push(node);
    }
    for (const node of put) if (node instanceof Element) window.htmx.process(node);
    if (focused && !view.contains(document.activeElement)) {
      // Or, drawn disabled (Undo with nothing left to undo), the other of Undo and Redo.
      const again = document.getElementById(active.id);
      const next =
        again && !again.disabled ? again : view.querySelector(".undo-redo button:not([disabled])");
      next?.focus({ preventScroll: true });
    }
    patchMap();
    reshowGhost();
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
      found = new Map([...svg.querySelectorAll(":scope > a[href]")].map((a) => [spotOf(a), a]));
      maps.set(svg, found);
    }
    return found;
  };

  // A hex as the server drew it: without the outline's classes and colour (no empty style
  // left behind either: a patched map stays the server's).
  const undecorate = (link) => {
    link.classList.remove("ghost", "misfit", "image", "stroke");
    const polygon = link.querySelector("polygon");
    polygon?.style.removeProperty("fill");
    if (polygon && !polygon.getAttribute("style")) polygon.removeAttribute("style");
  };

  const clearGhost = () => {
    for (const link of ghost.links) undecorate(link);
    ghost.links = [];
  };

  // Everything this script drew on a map (an outline, a stroke), wherever it is: a page
  // restored from htmx's history holds what was drawn when it was saved.
  const cleanMap = (svg, keep = new Set()) => {
    for (const link of svg.querySelectorAll(".ghost, .stroke")) {
      if (!keep.has(link)) undecorate(link);
    }
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

  // A finger's tap focuses the hex it sets a piece down on: the outline follows a mouse or
  // the keyboard, not a finger that has gone.
  let touched = false;
  document.addEventListener("pointerdown", (event) => {
    touched = event.pointerType === "touch";
  });
  document.addEventListener("keydown", () => {
    touched = false;
  });

  const leave = () => {
    clearGhost();
    ghost.spot = null;
  };
  document.addEventListener("pointerover", (event) => {
    const link = hexLink(event.target);
    // Over anything but a hex (the pointer has left the map): no outline. (Its pointerout
    // may have gone to a hex an answer had replaced meanwhile.)
    if (!link) {
      if (ghost.spot) leave();
    } else if (event.pointerType !== "touch") {
      showGhost(link);
    }
  });
  document.addEventListener("focusin", (event) => {
    const link = hexLink(event.target);
    if (link && !touched) showGhost(link);
  });
  document.addEventListener("pointerout", (event) => {
    if (hexLink(event.target) && !hexLink(event.relatedTarget)) leave();
  });
  document.addEventListener("htmx:beforeHistorySave", () => {
    for (const svg of document.querySelectorAll("[data-table-map] svg")) cleanMap(svg);
  });

  // After a redraw (a piece set down, a turn) the outline comes back where the pointer is.
  function reshowGhost() {
    clearGhost();
    const view = document.getElementById("table-view");
    if (!ghost.spot || !view || touched) return;
    const link = [...view.querySelectorAll("[data-table-map] svg > a[href]")].find(
      (a) => spotOf(a) === ghost.spot,
    );
    if (link) showGhost(link);
  }
  document.addEventListener("htmx:afterSettle", reshowGhost);

  // --- The map, one Tab stop -------------------------------------------------------------------

  // A map's hexes are one stop in the Tab order (a roving tabindex: one hex has tabindex 0,
  // the others -1), so Tab reaches the map in one press and leaves it in one. The arrow keys
  // move between neighbouring hexes (Left and Right along a row, Up and Down to the row
  // above or below, Home and End to a row's ends); Enter or Space is a click on the hex (an
  // edit in the editor, with its queue; a line of fire on the other maps). Without
  // JavaScript every hex is a link in the Tab order, as it is drawn. The hex that is the
  // stop stays the stop when the map is drawn again, and keeps the focus if it had it.

  const hexesOf = (svg) => svg.querySelectorAll(":scope > a[href]");
  const stop = { path: "", index: 0 };
  const grids = new WeakMap(); // map <svg> -> { rows: Map(row -> [link]), at: Map(link -> info) }

  // Rows and columns from each hex's name (its title, "Row 3 from side A, column 5: …"), in
  // board order.
  const gridOf = (svg) => {
    let grid = grids.get(svg);
    if (grid) return grid;
    grid = { rows: new Map(), at: new Map() };
    let index = 0;
    for (const link of hexesOf(svg)) {
      const name = link.querySelector(":scope > title")?.textContent || "";
      const found = /^Row (\d+) from side A, column (\d+)/.exec(name);
      const row = found ? Number(found[1]) : 0;
      if (!grid.rows.has(row)) grid.rows.set(row, []);
      const cells = grid.rows.get(row);
      grid.at.set(link, { row, position: cells.length, index });
      cells.push(link);
      index += 1;
    }
    grids.set(svg, grid);
    return grid;
  };

  // Where a hex is across the map: its polygon's first corner (every hex's is the same
  // corner, so they compare as the centres do).
  const across = (link) =>
    Number.parseFloat(link.querySelector("polygon")?.getAttribute("points") || "0");

  const neighbour = (link, key) => {
    const grid = gridOf(link.closest("svg"));
    const here = grid.at.get(link);
    if (!here) return null;
    const row = grid.rows.get(here.row);
    if (key === "ArrowLeft") return row[here.position - 1] || null;
    if (key === "ArrowRight") return row[here.position + 1] || null;
    if (key === "Home") return row[0];
    if (key === "End") return row[row.length - 1];
    // Up or down: the nearest hex across in the next row that has hexes (of two as near,
    // the one in the same column, so that Down then Up comes back).
    const step = key === "ArrowUp" ? -1 : 1;
    const rows = [...grid.rows.keys()];
    const last = Math.max(...rows);
    for (let r = here.row + step; r >= 1 && r <= last; r += step) {
      const cells = grid.rows.get(r);
      if (!cells) continue;
      const x = across(link);
      let best = null;
      let score = Infinity;
      for (const cell of cells) {
        const info = grid.at.get(cell);
        const s = Math.abs(across(cell) - x) * 1000 + Math.abs(info.position - here.position);
        if (s < score) {
          best = cell;
          score = s;
        }
      }
      return best;
    }
    return null;
  };

  const makeStop = (link) => {
    const svg = link.closest("svg");
    for (const other of svg.querySelectorAll(':scope > a[tabindex="0"]')) {
      if (other !== link) other.setAttribute("tabindex", "-1");
    }
    link.setAttribute("tabindex", "0");
    const info = gridOf(svg).at.get(link);
    stop.path = window.location.pathname;
    stop.index = info ? info.index : 0;
  };

  // Every map on the page, as drawn: one stop, the one it had before if it is the same page.
  const prepareMaps = () => {
    for (const svg of document.querySelectorAll("[data-table-map] svg.table-map")) {
      const links = hexesOf(svg);
      if (!links.length || svg.querySelector(':scope > a[tabindex="0"]')) continue;
      const same = stop.path === window.location.pathname && stop.index < links.length;
      const chosen = links[same ? stop.index : 0];
      for (const link of links) link.setAttribute("tabindex", link === chosen ? "0" : "-1");
    }
  };

  document.addEventListener("keydown", (event) => {
    const link = hexLink(event.target);
    if (!link || event.target !== link || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault(); // not a scroll: a click on the hex, as Enter is
      link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
      return;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) {
      return;
    }
    event.preventDefault();
    const next = neighbour(link, event.key);
    if (!next) return;
    makeStop(next);
    next.focus();
  });

  // "Skip the map": the focus goes past it (to the facts), wherever the browser would start
  // its next Tab from a link to a part of the page.
  document.addEventListener("click", (event) => {
    const skip = event.target instanceof Element && event.target.closest("a.skip-map");
    const past = skip && document.getElementById(skip.getAttribute("href").slice(1));
    if (!past || !plainClick(event)) return;
    event.preventDefault();
    past.focus();
  });

  // "Skip to the map": the focus goes to the map's own stop (its hex in the Tab order), not
  // to the map's box, from which the next Tab would go to "Skip the map" first.
  document.addEventListener("click", (event) => {
    const skip = event.target instanceof Element && event.target.closest("a[data-to-map]");
    const map = skip && document.getElementById(skip.getAttribute("href").slice(1));
    if (!map || !plainClick(event)) return;
    const hex = map.querySelector('svg.table-map > a[tabindex="0"]');
    event.preventDefault();
    (hex || map).focus();
  });

  // A hex focused otherwise (clicked, tapped) becomes the stop.
  document.addEventListener("focusin", (event) => {
    const link = hexLink(event.target);
    if (link && link.getAttribute("tabindex") !== "0") makeStop(link);
  });

  // A region drawn again whole (not patched): the focused hex's place, to focus it again.
  let refocus = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    refocus = null;
    // (An answer that patches the map has been put in: its hexes keep the focus.)
    if (!event.detail.shouldSwap) return;
    const link = hexLink(document.activeElement);
    const target = event.detail.target;
    if (!link || !(target instanceof Element) || !target.contains(link)) return;
    const info = gridOf(link.closest("svg")).at.get(link);
    if (info) refocus = info.index;
  });
  document.addEventListener("htmx:afterSwap", () => {
    prepareMaps();
    fitControls();
    if (refocus === null || hexLink(document.activeElement)) return;
    const svg = document.querySelector("#table-view [data-table-map] svg.table-map");
    const link = svg && hexesOf(svg)[refocus];
    refocus = null;
    if (link) {
      makeStop(link);
      link.focus({ preventScroll: true });
    }
  });
  document.addEventListener("htmx:historyRestore", () => {
    prepareMaps();
    fitControls();
  });

  // --- The editing controls: open on a wide screen, folded on a narrow one ---------------------

  // They come open from the server (without JavaScript, and on a wide screen); on a narrow
  // screen they fold so that the map is on the first screen. Once the player opens or
  // closes them, they stay so when the region is drawn again.
  const narrow = window.matchMedia("(max-width: 40rem)");
  let controlsOpen = null;
  function fitControls() {
    const open = controlsOpen ?? !narrow.matches;
    for (const details of document.querySelectorAll("details[data-map-controls]")) {
      if (details.open !== open) details.open = open;
    }
  }
  document.addEventListener("click", (event) => {
    const summary = event.target instanceof Element && event.target.closest("summary");
    const details = summary && summary.parentElement;
    if (details && details.matches("details[data-map-controls]")) controlsOpen = !details.open;
  });
  narrow.addEventListener("change", fitControls);

  prepareMaps();
  fitControls();

  // R turns the piece, as its Rotate link does.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "r" && event.key !== "R") return;
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.target instanceof Element && event.target.closest("input, textarea, select")) {
      return;
    }
    const rotate = document.querySelector("#table-view [data-rotate]");
    if (!rotate) return;
    event.preventDefault();
    if (!window.htmx) {
      rotate.click();
      return;
    }
    // One turn at a time (a held key repeats): the next R turns the piece the answer drew.
    // Sent by htmx here, as a click on the link would be, even before htmx has taken up a
    // link just drawn (it does after its settle delay; a click then loaded the whole page).
    if (document.querySelector("#table-view.htmx-request, .htmx-request, .htmx-settling")) return;
    window.htmx.ajax("GET", rotate.getAttribute("href"), { source: rotate });
  });
})();
