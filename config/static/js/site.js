// The site's only script besides htmx: conveniences that the pages work without, kept out
// of the HTML so the Content-Security-Policy can forbid inline scripts.
"use strict";

document.documentElement.classList.add("js");

// A moment the server wrote in UTC (utc_time) is shown in the reader's own time; its UTC
// stays in the tooltip. Pages whose regions are redrawn by htmx are done again after each.
function localTimes(root) {
  for (const time of root.querySelectorAll("time[data-local][datetime]")) {
    const moment = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) continue;
    time.title = time.textContent;
    time.textContent = moment.toLocaleString([], {
      day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
    });
    time.removeAttribute("data-local");
  }
}
localTimes(document);
document.addEventListener("htmx:afterSettle", () => localTimes(document));

// A refusal is drawn at the address its form was sent to (a 400 of POST .../report/). The
// page says where it lives, and the address bar is set to it: a reload then asks for the
// page again, not whether to send the form a second time.
const pageHome = document.querySelector("main [data-page-url]");
if (pageHome && location.pathname !== pageHome.dataset.pageUrl) {
  history.replaceState(history.state, "", pageHome.dataset.pageUrl + location.hash);
}

// --- The site's menu on a narrow screen ------------------------------------------------------
//
// A disclosure: the button says whether the links are shown; Escape hides them and gives
// focus back to the button, and so does leaving them. (On a wide screen the button is not
// drawn and the links always show.)

const menuButton = document.querySelector("button.menu-toggle[aria-controls]");
const mainNav = menuButton && document.getElementById(menuButton.getAttribute("aria-controls"));

function showMenu(open) {
  menuButton.setAttribute("aria-expanded", String(open));
  mainNav.classList.toggle("open", open);
}

if (menuButton && mainNav) {
  menuButton.hidden = false;
  menuButton.addEventListener("click", () => showMenu(menuButton.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || menuButton.getAttribute("aria-expanded") !== "true") return;
    event.preventDefault(); // the menu closes first (not a trooper's loadout)
    showMenu(false);
    menuButton.focus();
  });
  const header = menuButton.closest("header");
  header.addEventListener("focusout", (event) => {
    if (!header.contains(event.relatedTarget) && event.relatedTarget) showMenu(false);
  });
  document.addEventListener("click", (event) => {
    if (!header.contains(event.target)) showMenu(false);
  });
}

// --- Pages readable offline (the service worker, games/service_worker.js) -------------------
//
// Registered from every page a signed-in player opens, so that their rosters and event
// pages are readable in a hall without signal once they were opened, a game's page or not.
// A shared phone: what was kept is forgotten when the player signs out, when a page is
// drawn for nobody signed in (the session ended some other way), and when another account
// signs in; the steps a player's games kept waiting offline are theirs and go too, at the
// sign-out and when the account changes.

const OFFLINE_ACCOUNT = "onefinity-offline-account";
// Pages opened before the worker was ready to keep them (the first pages after signing in,
// opened one after the other): kept as soon as it is.
const OFFLINE_PENDING = "onefinity-offline-pending";

function remembered(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage refused (a private window): nothing is remembered, nothing to forget.
  }
  return null;
}

function forgetOffline(withSteps) {
  navigator.serviceWorker?.controller?.postMessage({ forget: true });
  if (withSteps) {
    try {
      for (const key of Object.keys(localStorage)) {
        if (key.startsWith("onefinity-game-queue:")) localStorage.removeItem(key);
      }
    } catch {
      // As above.
    }
    remembered(OFFLINE_ACCOUNT, null);
    remembered(OFFLINE_PENDING, null);
  }
  if (!window.caches) return Promise.resolve();
  return caches
    .keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("onefinity-")).map((n) => caches.delete(n))))
    .catch(() => {});
}

function offlinePages() {
  const body = document.body;
  if (!("serviceWorker" in navigator)) return;
  if (body.hasAttribute("data-signed-out")) {
    forgetOffline(false);
    return;
  }
  const { worker, account } = body.dataset;
  if (!worker || !account) return;
  const before = remembered(OFFLINE_ACCOUNT);
  const ready = before !== null && before !== account ? forgetOffline(true) : Promise.resolve();
  remembered(OFFLINE_ACCOUNT, account);
  let pending = [];
  try {
    pending = JSON.parse(remembered(OFFLINE_PENDING) || "[]").slice(-9);
  } catch {
    pending = [];
  }
  // A page the worker did not answer (its request went out before the worker was ready,
  // even if the worker took the page over since) is kept by asking for it again.
  const navigation = performance.getEntriesByType?.("navigation")?.[0];
  const answeredByWorker = Boolean(navigator.serviceWorker.controller) && (navigation?.workerStart || 0) > 0;
  if (!answeredByWorker) {
    pending = [...pending.filter((path) => path !== location.pathname), location.pathname];
    remembered(OFFLINE_PENDING, JSON.stringify(pending));
  }
  ready
    .then(() => navigator.serviceWorker.register(worker, { scope: "/" }))
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // The worker keeps (it asks the network again) the pages opened before it was
      // ready; it keeps only those it keeps when they are loaded.
      if (!pending.length || !registration.active) return;
      for (const path of pending) registration.active.postMessage({ keep: path });
      remembered(OFFLINE_PENDING, null);
    })
    .catch(() => {});
}
offlinePages();

// A page read without a connection says so: it is the copy this phone kept, and a form
// sent now would not reach the site (a game's steps wait on the phone: games.js).
function offlineNotice() {
  const main = document.querySelector("main");
  if (!main || !document.body.dataset.worker) return;
  const notice = document.createElement("p");
  notice.className = "notice offline-notice";
  notice.setAttribute("role", "status");
  notice.textContent =
    "You are offline: this is the copy this phone kept. Sending anything needs the connection back.";
  const shown = () => {
    notice.hidden = navigator.onLine;
  };
  shown();
  main.prepend(notice);
  window.addEventListener("online", shown);
  window.addEventListener("offline", shown);
}
offlineNotice();

document.addEventListener("submit", (event) => {
  if (event.target instanceof HTMLFormElement && event.target.hasAttribute("data-sign-out")) {
    forgetOffline(true);
  }
});

// A form that makes a record carries a one-time token (onefinity.once): sent twice from one
// showing of the page (a double tap), it makes one record. A page shown again by the back
// button is another showing, whose form makes another record: it gets tokens of its own.
function freshOnceTokens() {
  for (const field of document.querySelectorAll('input[name="once"]')) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    field.value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
}
window.addEventListener("pageshow", (event) => {
  const navigation = performance.getEntriesByType("navigation")[0];
  if (event.persisted || (navigation && navigation.type === "back_forward")) freshOnceTokens();
});

// --- Small conveniences ----------------------------------------------------------------------

function say(near, text) {
  const status = near && near.closest("section, form, div")?.querySelector(".copied");
  if (status) status.textContent = text;
}

async function copy(text, near) {
  try {
    await navigator.clipboard.writeText(text);
    say(near, "Copied.");
  } catch {
    say(near, "Copying is blocked here: select the text and copy it yourself.");
  }
}

document.addEventListener("click", (event) => {
  const target = event.target;
  if (!(target instanceof Element)) return;
  if (target.matches("[data-select-all]")) target.select();
  if (target.closest("[data-print]")) window.print();
  const copyButton = target.closest("[data-copy]");
  if (copyButton) {
    const field = document.querySelector(copyButton.dataset.copy);
    if (field) copy(field.value, copyButton);
  }
  const copyText = target.closest("[data-copy-text]");
  if (copyText && navigator.clipboard) {
    event.preventDefault();
    fetch(copyText.dataset.copyText, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response)))
      .then((text) => copy(text, copyText))
      .catch(() => say(copyText, "The text could not be fetched; open the link instead."));
  }
  const shareButton = target.closest("[data-share]");
  if (shareButton && navigator.share) {
    navigator.share({ title: shareButton.dataset.shareTitle, url: shareButton.dataset.share }).catch(() => {});
  }
});

// Buttons that need the browser's help appear only where it can give it.
function revealHelpers(root) {
  for (const button of root.querySelectorAll("[data-copy]")) {
    if (navigator.clipboard) button.hidden = false;
  }
  for (const button of root.querySelectorAll("[data-share]")) {
    if (navigator.share) button.hidden = false;
  }
}
revealHelpers(document);

// --- The round clock (events): the time left, from the end the page gives ---------------------

function tickClocks() {
  for (const clock of document.querySelectorAll("[data-ends-at]")) {
    const ends = new Date(clock.dataset.endsAt);
    if (Number.isNaN(ends.getTime())) continue;
    const left = Math.ceil((ends.getTime() - Date.now()) / 60000);
    const at = ends.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    clock.textContent =
      left > 0 ? `${left} minute${left === 1 ? "" : "s"} left (ends ${at})` : `time is up (ended ${at})`;
  }
}
tickClocks();
setInterval(tickClocks, 15000);
document.addEventListener("htmx:afterSwap", tickClocks);

// --- Live event pages: a notification when the player's round is up --------------------------
// The player's event page polls itself (htmx); when the newest round it shows changes while
// the page is in the background, and the player allowed it once, the browser says so.

let shownRound = document.querySelector("[data-notify-key]")?.dataset.notifyKey || "";

function offerNotifications(root) {
  const ask = root.querySelector("[data-notify-ask]");
  if (!ask || !("Notification" in window) || Notification.permission !== "default") return;
  ask.hidden = false;
  ask.querySelector("button")?.addEventListener("click", () => {
    Notification.requestPermission().finally(() => {
      ask.hidden = true;
    });
  });
}
offerNotifications(document);

document.addEventListener("htmx:afterSwap", (event) => {
  const root = event.target instanceof Element ? event.target.ownerDocument : document;
  offerNotifications(root);
  const newest = root.querySelector("[data-notify-key]");
  if (!newest) return;
  const key = newest.dataset.notifyKey || "";
  if (key && key !== shownRound) {
    shownRound = key;
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(newest.dataset.notify || "Your round is up.", { tag: key });
    }
  }
});

// --- The list editor -------------------------------------------------------------------------
//
// Every change is a POST that redraws the editor region. htmx's own queue cannot serialise
// them: a queued request belongs to an element the previous answer has replaced, and htmx
// drops requests of removed elements (fast input was lost). So changes are queued here,
// with their form values taken when the player made them, and sent one at a time, in the
// order they were made: every click counts (eight quick clicks on "+" are eight troopers).
//
// Each change carries the version of the list the page showed (a compare-and-swap). A
// change queued behind one from this same tab saw the version before it; when that one is
// saved, the queued one is moved onto the new version, because this tab made both. A
// refusal (another tab changed the list) drops the queue: the player sees the latest list.
//
// Opening a trooper's loadout (a panel beside the list, a sheet from the bottom on a phone)
// goes through the same queue: it is drawn after the changes made before it, and the
// changes after it redraw it.

const editorState = {
  queue: [],
  waiting: new Map(), // changes held back a moment so quick ones merge (a class menu)
  sending: null, // the element the change being sent came from (its answer's source)
  anchor: null, // the control in use and where it was on the screen, across a redraw
  chain: new Set(), // versions reached by this tab's own saved changes
  remembered: new Map(), // open or closed <details> of the editor, kept across redraws
  hadFocus: false,
  redrawing: false,
  panelScroll: null, // the loadout panel's key and scroll position across a redraw
  closed: "", // the trooper whose loadout was closed while a change was on its way
  refused: 0, // changes refused since the editor was last idle
};

function editor() {
  return document.getElementById("editor");
}

function loadoutPanel() {
  return document.getElementById("loadout");
}

function announce(text) {
  const status = document.getElementById("editor-status");
  if (status && status.textContent !== text) status.textContent = text;
}

function markBusy() {
  const region = editor();
  if (!region) return;
  const busy = editorState.sending !== null || editorState.queue.length > 0 || editorState.waiting.size > 0;
  const was = region.getAttribute("aria-busy") === "true";
  if (busy) region.setAttribute("aria-busy", "true");
  else region.removeAttribute("aria-busy");
  if (busy && !was) announce("Saving…");
  if (!busy && editorState.sending === null && document.getElementById("editor-status")?.textContent === "Saving…") {
    announce(editorState.refused ? "Not every change was made: see the message." : "Saved.");
    editorState.refused = 0;
  }
}

function startChain() {
  const region = editor();
  editorState.chain = new Set(region ? [region.dataset.version] : []);
}
startChain();

function withPageState(values) {
  const region = editor();
  if (!region) return values;
  values.delete("open");
  for (const row of region.querySelectorAll("details[data-key][open]")) {
    values.append("open", row.dataset.key);
  }
  const panel = loadoutPanel();
  if (panel) values.append("open", panel.dataset.key);
  // The odds panel keeps its question: sent along while it shows an answer.
  const odds = region.querySelector("#odds-form");
  if (odds && region.querySelector("#force-odds[data-asked]")) {
    for (const [name, value] of new FormData(odds)) {
      if (!values.has(name) || name === "combat" || name === "defense") values.append(name, value);
    }
  }
  return values;
}

function sendNext() {
  if (editorState.sending !== null || editorState.queue.length === 0) {
    markBusy();
    return;
  }
  const region = editor();
  if (!region) {
    editorState.queue = [];
    return;
  }
  const change = editorState.queue.shift();
  if (change.verb === "GET") {
    // A trooper's loadout, into the panel.
    const slot = document.getElementById("loadout-slot");
    if (!slot) return sendNext();
    editorState.sending = slot;
    markBusy();
    htmx.ajax("GET", change.path, { source: slot, target: slot, swap: "innerHTML" });
    return;
  }
  const version = change.values.get("version");
  if (version !== null && editorState.chain.has(version)) {
    change.values.set("version", region.dataset.version);
  }
  editorState.sending = region;
  markBusy();
  htmx.ajax("POST", change.path, {
    source: region,
    target: region,
    swap: "outerHTML",
    values: withPageState(change.values),
  });
}

function flushWaiting() {
  for (const [key, held] of editorState.waiting) {
    clearTimeout(held.timer);
    editorState.waiting.delete(key);
    editorState.queue.push(held.change);
  }
}

function queueForm(form, submitter) {
  if (submitter && submitter.getAttribute("aria-disabled") === "true") return;
  let values;
  try {
    values = submitter ? new FormData(form, submitter) : new FormData(form);
  } catch {
    // Browsers before 2023 take no submitter: add the button's own name and value.
    values = new FormData(form);
    if (submitter && submitter.name) values.append(submitter.name, submitter.value);
  }
  const change = { verb: "POST", path: form.dataset.hxPost, values };
  const key = form.dataset.coalesce;
  const delay = Number(form.dataset.delay || 0);
  if (key && delay > 0) {
    // Quick changes of one control (arrow keys on a class menu, ticks in a picker) make
    // one change: the last one, once the player pauses.
    const held = editorState.waiting.get(key);
    if (held) clearTimeout(held.timer);
    editorState.waiting.set(key, {
      change,
      timer: setTimeout(() => {
        editorState.waiting.delete(key);
        editorState.queue.push(change);
        sendNext();
      }, delay),
    });
    markBusy();
    return;
  }
  flushWaiting(); // what the player did first is sent first
  editorState.queue.push(change);
  sendNext();
}

// The editor's forms are sent by the queue, never by htmx's own triggers: htmx binds them
// only some milliseconds after each redraw, and a click in between was sent as a whole
// page (quick clicks reloaded the page). These listeners are on the document, before htmx.
function editorForm(element) {
  const form = element instanceof HTMLFormElement ? element : element instanceof Element ? element.closest("form") : null;
  return form && form.hasAttribute("data-hx-post") && form.closest("#editor") ? form : null;
}

document.addEventListener("submit", (event) => {
  const form = editorForm(event.target);
  if (!form) return;
  event.preventDefault();
  event.stopPropagation();
  queueForm(form, event.submitter);
}, true);

document.addEventListener("change", (event) => {
  const form = event.target instanceof Element && editorForm(event.target.form || event.target);
  if (!form || !/\bchange\b/.test(form.dataset.hxTrigger || "")) return;
  event.stopPropagation();
  queueForm(form, null);
}, true);

document.addEventListener("htmx:beforeSwap", (event) => {
  const region = editor();
  if (event.detail.target && event.detail.target.id === "loadout-slot" && event.detail.xhr.status >= 400) {
    // The trooper is gone (removed in another tab): nothing to open.
    event.detail.shouldSwap = false;
    return;
  }
  if (!region || event.detail.target !== region) return;
  editorState.redrawing = true;
  editorState.hadFocus = region.contains(document.activeElement);
  for (const box of region.querySelectorAll("details[data-remember][id]")) {
    editorState.remembered.set(box.id, box.open);
  }
  const panel = loadoutPanel();
  editorState.panelScroll = panel ? { key: panel.dataset.key, top: panel.scrollTop } : null;
  // The control the player is using stays where it is on the screen when the list above
  // it grows or shrinks: the next quick click lands on it again, not on what moved there.
  const anchor = [document.activeElement, lastTouched()].find(
    (element) => element && element.id && region.contains(element) && !element.closest("#loadout"),
  );
  editorState.anchor = anchor ? { id: anchor.id, top: anchor.getBoundingClientRect().top } : null;
});

document.addEventListener("htmx:afterSwap", (event) => {
  const region = editor();
  if (!region) return;
  if (event.detail.target && event.detail.target.id === "loadout-slot") {
    // A loadout just opened: the player reads it from its heading.
    editorState.closed = "";
    revealHelpers(event.detail.target);
    markOpenRow();
    loadoutPanel()?.scrollIntoView({ block: "nearest" });
    keepRowAboveSheet();
    document.getElementById("loadout-title")?.focus({ preventScroll: true });
    return;
  }
  if (!editorState.redrawing) return;
  editorState.redrawing = false;
  // The tab's title names the list as the heading does (a rename, or its undo, is a redraw).
  const named = region.dataset.pageTitle;
  const suffix = document.title.lastIndexOf(" · ");
  if (named && suffix >= 0) document.title = named + document.title.slice(suffix);
  for (const box of region.querySelectorAll("details[data-remember][id]")) {
    const open = editorState.remembered.get(box.id);
    if (open !== undefined && open !== box.open) box.open = open;
  }
  const panel = loadoutPanel();
  if (panel && panel.dataset.key === editorState.closed) {
    // Closed while this change was on its way: it stays closed.
    panel.remove();
    markOpenRow();
  } else if (panel && editorState.panelScroll && editorState.panelScroll.key === panel.dataset.key) {
    panel.scrollTop = editorState.panelScroll.top;
  }
  const anchor = editorState.anchor && document.getElementById(editorState.anchor.id);
  if (anchor) {
    const moved = anchor.getBoundingClientRect().top - editorState.anchor.top;
    if (moved) window.scrollBy({ top: moved, behavior: "instant" });
  }
  editorState.anchor = null;
  keepRowAboveSheet();
  revealHelpers(region);
  markBusy();
  if (editorState.hadFocus && (!document.activeElement || document.activeElement === document.body)) {
    const fallback = region.dataset.focus && document.getElementById(region.dataset.focus);
    (fallback || region.querySelector("h1")).focus?.({ preventScroll: false });
  }
});

document.addEventListener("htmx:afterRequest", (event) => {
  // The answer to the change the queue sent (one at a time): send the next.
  // (htmx tells a removed source's parent; the request's own record names the source.)
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (editorState.sending === null || source !== editorState.sending) return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  const wasGet = editorState.sending.id === "loadout-slot";
  const region = editor();
  if (status === 409 || status === 0 || status >= 500) {
    // Another tab changed the list, or the request failed: what was queued was made on a
    // page that is no longer current, so it is not sent.
    for (const held of editorState.waiting.values()) clearTimeout(held.timer);
    editorState.waiting.clear();
    editorState.queue = [];
    editorState.refused += 1;
    startChain();
  } else if (status >= 400) {
    if (!wasGet) editorState.refused += 1;
  } else if (region && !wasGet) {
    editorState.chain.add(region.dataset.version);
  }
  editorState.sending = null;
  sendNext();
});

// --- A trooper's loadout, one tap from its row -----------------------------------------------

// The row whose loadout is open is marked (the server marks it too, when it draws both).
function markOpenRow() {
  const panel = loadoutPanel();
  const open = panel ? panel.dataset.row : "";
  for (const row of document.querySelectorAll("#editor a.row")) {
    const current = row.id === open;
    row.closest(".row-item")?.classList.toggle("is-open", current);
    if (current) row.setAttribute("aria-current", "true");
    else row.removeAttribute("aria-current");
  }
}

// On a phone the loadout is a sheet over the bottom of the screen. It never hides the row it
// belongs to: the page scrolls the row to just below the sticky counters when the sheet
// covers it, and where the page cannot scroll that far (a row near its end) the sheet is
// made shorter, down to about half the screen.
const ROW_GAP = 8;
function keepRowAboveSheet() {
  const panel = loadoutPanel();
  if (!panel) return;
  panel.style.maxHeight = "";
  if (getComputedStyle(panel).position !== "fixed") return;
  const row = document.getElementById(panel.dataset.row);
  const line = row && (row.closest(".row-item") || row);
  if (!line) return;
  const bar = editor()?.querySelector(".counters-bar");
  const top = (bar ? bar.getBoundingClientRect().bottom : 0) + ROW_GAP;
  let box = line.getBoundingClientRect();
  if (box.top >= top && box.bottom <= panel.getBoundingClientRect().top - ROW_GAP) return;
  window.scrollBy({ top: box.top - top, behavior: "instant" });
  box = line.getBoundingClientRect();
  const room = window.innerHeight - box.bottom - ROW_GAP;
  if (panel.getBoundingClientRect().top < box.bottom + ROW_GAP) {
    panel.style.maxHeight = `${Math.max(room, window.innerHeight * 0.45)}px`;
  }
}

function openLoadout(link) {
  flushWaiting();
  editorState.queue.push({ verb: "GET", path: link.getAttribute("href") });
  sendNext();
}

function closeLoadout() {
  const panel = loadoutPanel();
  if (!panel) return;
  const row = document.getElementById(panel.dataset.row);
  if (editorState.sending !== null || editorState.queue.length > 0) editorState.closed = panel.dataset.key;
  panel.remove();
  markOpenRow();
  // Focus goes back to the trooper's line (when it is still in the list).
  (row || editor()?.querySelector("h1"))?.focus();
}

document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target : null;
  if (!target || !target.closest("#editor")) return;
  const close = target.closest("[data-close-loadout]");
  if (close) {
    event.preventDefault();
    closeLoadout();
    return;
  }
  const link = target.closest("a[data-loadout]");
  if (link) {
    event.preventDefault();
    openLoadout(link);
  }
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.defaultPrevented || !loadoutPanel()) return;
  event.preventDefault();
  closeLoadout();
});

// A control the rules do not allow says why instead of acting.
document.addEventListener(
  "click",
  (event) => {
    const button = event.target instanceof Element && event.target.closest("button");
    if (!button) return;
    if (rescue && button.id === rescue.id) {
      clearTimeout(rescue.timer); // the browser clicked it itself
      rescue = null;
    }
    if (button.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      event.stopImmediatePropagation();
      button.focus();
    }
  },
  true,
);

// A click whose button was redrawn between press and release (the answer to the previous
// click came in meanwhile) is lost by the browser with a mouse, or with the space bar: the
// press and the release fell on two elements. It is made here on the button now in its
// place (with a finger, the browser makes it itself).
let pressed = null;
let rescue = null;
let touched = null; // the last control of the editor pressed, by mouse, finger or pen

function lastTouched() {
  return touched && touched.isConnected ? touched : touched && document.getElementById(touched.id);
}

function pressedButton(target) {
  const button = target instanceof Element && target.closest("#editor button[id]");
  return button ? { id: button.id, element: button } : null;
}

function rescueClick(was) {
  if (!was || was.element.isConnected) return;
  rescue = {
    id: was.id,
    timer: setTimeout(() => {
      const now = rescue && document.getElementById(rescue.id);
      rescue = null;
      if (now && now.matches("#editor button") && !now.disabled) now.click();
    }, 0),
  };
}

document.addEventListener("pointerdown", (event) => {
  const button = pressedButton(event.target);
  touched = button ? button.element : null;
  pressed = event.pointerType === "touch" ? null : button;
}, true);
document.addEventListener("pointerup", (event) => {
  const was = pressed;
  pressed = null;
  if (!was || was.element.isConnected) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  if (under && under.closest("button")?.id === was.id) rescueClick(was);
}, true);
document.addEventListener("keydown", (event) => {
  if (event.key === " " && !event.repeat) pressed = pressedButton(event.target);
}, true);
document.addEventListener("keyup", (event) => {
  if (event.key !== " ") return;
  const was = pressed;
  pressed = null;
  if (was && event.target instanceof Element && event.target.id === was.id) rescueClick(was);
}, true);

// Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y) undo and redo, except while typing in a text field,
// where they undo the typing.
document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key !== "z" && key !== "y") return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.matches("input:not([type=checkbox]):not([type=radio]), textarea"))) return;
  const redo = key === "y" || event.shiftKey;
  const button = document.getElementById(redo ? "redo" : "undo");
  if (!button) return;
  event.preventDefault();
  if (!button.disabled) button.click();
});
