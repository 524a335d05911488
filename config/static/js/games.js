// A game at the table with a bad signal (templates/games/game.html). Steps taken while the
// phone is offline wait on the phone (localStorage, per game) and are sent when the
// connection returns: one at a time, in the order they were taken, each on the version the
// one before made, so each is applied once. A step the other phone overtook is refused
// (409) or a step the rules refuse (400): sending stops there, and the steps not sent stay
// listed with the reason, nothing silently lost.
(() => {
  const game = document.getElementById("game");
  if (!game) return;
  const key = `onefinity-game-queue:${game.dataset.code}`;
  const stepsUrl = game.dataset.steps;
  const shown = document.getElementById("offline-queue");

  function load() {
    try {
      return JSON.parse(localStorage.getItem(key)) || { version: null, steps: [], refused: null };
    } catch {
      return { version: null, steps: [], refused: null };
    }
  }
  function save(queue) {
    localStorage.setItem(key, JSON.stringify(queue));
  }
  function pageVersion() {
    const turn = document.getElementById("turn");
    return turn ? Number(turn.dataset.version) : null;
  }
  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function show() {
    const queue = load();
    shown.replaceChildren();
    const lines = [];
    if (queue.steps.length) {
      lines.push(`${queue.steps.length} step${queue.steps.length === 1 ? "" : "s"} waiting for the connection:`);
    }
    if (queue.refused) lines.push(queue.refused.error);
    for (const line of lines) {
      const p = document.createElement("p");
      p.textContent = line;
      shown.append(p);
    }
    const list = queue.steps.length ? queue.steps : queue.refused ? queue.refused.steps : [];
    if (list.length) {
      const ol = document.createElement("ol");
      for (const step of list) {
        const li = document.createElement("li");
        li.textContent = step.words;
        ol.append(li);
      }
      shown.append(ol);
    }
    if (queue.refused) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = "Dismiss";
      button.addEventListener("click", () => {
        const latest = load();
        latest.refused = null;
        save(latest);
        show();
      });
      shown.append(button);
    }
    shown.hidden = !shown.childElementCount;
  }

  function enqueue(form, submitter) {
    const values = submitter ? new FormData(form, submitter) : new FormData(form);
    values.delete("csrfmiddlewaretoken");
    values.delete("version");
    const queue = load();
    if (!queue.steps.length) queue.version = pageVersion();
    const words = (submitter || form.querySelector("button")).textContent.replace(/\s+/g, " ").trim();
    queue.steps.push({ fields: [...values.entries()], words });
    queue.refused = null;
    save(queue);
    show();
  }

  // How long a step the server failed to take waits before it is sent again.
  const RETRY_MS = 1500;
  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (;;) {
        const queue = load();
        if (!queue.steps.length) return;
        const body = new URLSearchParams(queue.steps[0].fields);
        body.set("version", String(queue.version));
        let response;
        try {
          response = await fetch(stepsUrl, {
            method: "POST",
            body,
            credentials: "same-origin",
            headers: { Accept: "application/json", "X-CSRFToken": csrf() },
          });
        } catch {
          return; // still offline: the next "online" event sends them
        }
        if (response.status >= 500) {
          // The server failed to take it (nothing of it was kept): tried again shortly.
          setTimeout(flush, RETRY_MS);
          return;
        }
        if (response.ok) {
          const state = await response.json();
          queue.steps.shift();
          queue.version = state.version;
          save(queue);
          show();
          continue;
        }
        const answer = await response.json().catch(() => ({}));
        const why = answer.error || "The game refused the step.";
        queue.refused = {
          error: `Not sent: ${why}`,
          steps: queue.steps,
        };
        queue.steps = [];
        save(queue);
        show();
        return;
      }
    } finally {
      flushing = false;
    }
  }

  // Before htmx: a step taken offline, or while others wait, joins the queue.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-step")) return;
      if (navigator.onLine && !load().steps.length) return;
      event.preventDefault();
      event.stopPropagation();
      enqueue(form, event.submitter);
      if (navigator.onLine) flush();
    },
    true,
  );
  // The connection dropped while htmx sent a step: it waits too.
  document.addEventListener("htmx:sendError", (event) => {
    const form = event.detail.elt;
    if (form instanceof HTMLFormElement && form.hasAttribute("data-step")) enqueue(form, null);
  });
  // The server failed to take a step (a 5xx: its transaction was undone, or a proxy gave
  // up waiting): it waits in the queue and is sent again shortly, instead of being lost
  // without a word. Sent again after all, a step the server did keep is refused as stale
  // (the game's version moved on), and the queue says so.
  document.addEventListener("htmx:responseError", (event) => {
    const form = event.detail.elt;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-step") || status < 500) return;
    enqueue(form, null);
    setTimeout(flush, RETRY_MS);
  });
  // Keyboard: a button the step disabled (its action now costs too much) cannot take the
  // focus back after the region is drawn again; the turn's heading takes it instead.
  document.addEventListener("htmx:afterSettle", () => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const heading = document.getElementById("chosen-heading") || document.getElementById("turn-heading");
    if (heading) heading.focus({ preventScroll: true });
  });
  window.addEventListener("online", flush);
  show();
  flush();
})();
