// The site's only script besides htmx: conveniences that the pages work without, kept out
// of the HTML so the Content-Security-Policy can forbid inline scripts.
"use strict";

document.documentElement.classList.add("js");

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

// --- The list editor -------------------------------------------------------------------------
//
// Every change is a POST that redraws the editor region. htmx's own queue cannot serialise
// them: a queued request belongs to an element the previous answer has replaced, and htmx
// drops requests of removed elements (fast input was lost). So changes are queued here,
// with their form values taken when the player made them, and sent one at a time.
//
// Each change carries the version of the list the page showed (a compare-and-swap). A
// change queued behind one from this same tab saw the version before it; when that one is
// saved, the queued one is moved onto the new version, because this tab made both. A
// refusal (another tab changed the list) drops the queue: the player sees the latest list.

const editorState = {
  queue: [],
  waiting: new Map(), // changes held back a moment so quick ones merge (a class menu)
  sending: false,
  reissuing: false,
  chain: new Set(), // versions reached by this tab's own saved changes
  remembered: new Map(), // open or closed <details> of the editor, kept across redraws
  hadFocus: false,
  redrawing: false,
  lastAdd: new Map(),
};

function editor() {
  return document.getElementById("editor");
}

function markBusy() {
  const region = editor();
  if (!region) return;
  const busy = editorState.sending || editorState.queue.length > 0 || editorState.waiting.size > 0;
  if (busy) region.setAttribute("aria-busy", "true");
  else region.removeAttribute("aria-busy");
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
  if (editorState.sending || editorState.queue.length === 0) {
    markBusy();
    return;
  }
  const region = editor();
  if (!region) {
    editorState.queue = [];
    return;
  }
  const change = editorState.queue.shift();
  const version = change.values.get("version");
  if (version !== null && editorState.chain.has(version)) {
    change.values.set("version", region.dataset.version);
  }
  editorState.sending = true;
  markBusy();
  editorState.reissuing = true;
  try {
    htmx.ajax("POST", change.path, {
      source: "#editor",
      target: "#editor",
      swap: "outerHTML",
      values: withPageState(change.values),
    });
  } finally {
    editorState.reissuing = false;
  }
}

function flushWaiting() {
  for (const [key, held] of editorState.waiting) {
    clearTimeout(held.timer);
    editorState.waiting.delete(key);
    editorState.queue.push(held.change);
  }
}

document.addEventListener("htmx:confirm", (event) => {
  if (editorState.reissuing) return;
  const element = event.detail.elt;
  if (event.detail.verb !== "post" || !(element instanceof HTMLFormElement)) return;
  if (!element.closest("#editor")) return;
  event.preventDefault();
  const trigger = event.detail.triggeringEvent;
  const submitter = trigger && trigger.submitter;
  if (submitter && submitter.getAttribute("aria-disabled") === "true") return;
  let values;
  try {
    values = submitter ? new FormData(element, submitter) : new FormData(element);
  } catch {
    // Browsers before 2023 take no submitter: add the button's own name and value.
    values = new FormData(element);
    if (submitter && submitter.name) values.append(submitter.name, submitter.value);
  }
  const change = { path: event.detail.path, values };
  const key = element.dataset.coalesce;
  const delay = Number(element.dataset.delay || 0);
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
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const region = editor();
  if (!region || event.detail.target !== region) return;
  editorState.redrawing = true;
  editorState.hadFocus = region.contains(document.activeElement);
  for (const box of region.querySelectorAll("details[data-remember][id]")) {
    editorState.remembered.set(box.id, box.open);
  }
});

document.addEventListener("htmx:afterSwap", () => {
  const region = editor();
  if (!region || !editorState.redrawing) return;
  editorState.redrawing = false;
  for (const box of region.querySelectorAll("details[data-remember][id]")) {
    const open = editorState.remembered.get(box.id);
    if (open !== undefined && open !== box.open) box.open = open;
  }
  revealHelpers(region);
  markBusy();
  if (editorState.hadFocus && (!document.activeElement || document.activeElement === document.body)) {
    const fallback = region.dataset.focus && document.getElementById(region.dataset.focus);
    (fallback || region.querySelector("h1")).focus?.({ preventScroll: false });
  }
});

document.addEventListener("htmx:afterRequest", (event) => {
  // Every POST of the editor goes through the queue, one at a time: this is its answer.
  if (!editorState.sending) return;
  if (!event.detail.requestConfig || event.detail.requestConfig.verb !== "post") return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  const region = editor();
  if (status === 409 || status === 0 || status >= 500) {
    // Another tab changed the list, or the request failed: what was queued was made on a
    // page that is no longer current, so it is not sent.
    for (const held of editorState.waiting.values()) clearTimeout(held.timer);
    editorState.waiting.clear();
    editorState.queue = [];
    startChain();
  } else if (region) {
    editorState.chain.add(region.dataset.version);
  }
  editorState.sending = false;
  sendNext();
});

// A control the rules do not allow says why instead of acting; an adding button acts once
// per double click.
document.addEventListener(
  "click",
  (event) => {
    const button = event.target instanceof Element && event.target.closest("button");
    if (!button) return;
    if (button.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      event.stopImmediatePropagation();
      button.focus();
      return;
    }
    if (button.hasAttribute("data-once")) {
      // The second click of a double click, or a click on the same button (redrawn by
      // then) within a double click's time.
      const now = Date.now();
      const last = (button.id && editorState.lastAdd.get(button.id)) || 0;
      if (event.detail > 1 || now - last < 350) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      if (button.id) editorState.lastAdd.set(button.id, now);
    }
  },
  true,
);

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
