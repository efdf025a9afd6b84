// The replay's keys: Left and Right step back and forward, Home and End jump to the start and
// the end. Each key follows the matching link of the step's controls (#replay-nav), so htmx
// swaps the step in place (or, without htmx, the link loads the page). Keys typed in a form
// field, or with a modifier held (Alt+Left is the browser's Back), are left alone.
//
// One step is asked for at a time (hx-sync on #replay). A key pressed while a step is on its
// way waits for it to land, then follows the controls that came with it: Left pressed twice
// goes back two steps, and End pressed during a step still goes to the end. At most a few keys
// wait (a key held down repeats faster than steps arrive); after a failed step none do.
(function () {
  "use strict";
  const LINKS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  const WAITING_MAX = 4;
  const STUCK_MS = 2000;  // a step that answered but never settled no longer holds the keys back
  const LANDING = "landing";
  let onItsWay = null;  // the request of the step on its way, LANDING, or null
  const waiting = [];

  function typing(target) {
    if (!(target instanceof Element)) return false;
    return target.isContentEditable || target.closest("input, select, textarea, [contenteditable]") !== null;
  }

  function inReplay(element) {
    return element instanceof Element && element.closest("#replay") !== null;
  }

  // Follow the key's link; false when there is nothing to follow.
  function follow(key) {
    const link = document.getElementById(LINKS[key]);
    const href = link && link.getAttribute("href");
    if (!href) return false;  // at either end the link has no href: nothing to do
    // Through htmx's own request (the link's hx-* settings: target, push-url, sync) rather than
    // a click: a link swapped in a moment ago is htmx's only once the swap settles, and a click
    // on it before then would load the whole page.
    if (window.htmx) window.htmx.ajax("GET", href, { source: link });
    else link.click();
    return true;
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    if (inReplay(event.detail.elt)) onItsWay = event.detail.xhr;
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr !== onItsWay) return;
    if (!event.detail.successful) {
      onItsWay = null;
      waiting.length = 0;
      return;
    }
    setTimeout(() => {
      if (onItsWay === xhr) onItsWay = null;
    }, STUCK_MS);
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    if (onItsWay === null || event.detail.xhr !== onItsWay) return;
    onItsWay = LANDING;  // htmx lets the next step go once this one's request has ended
    setTimeout(() => {
      onItsWay = null;
      // A waiting key with nothing to follow (Forward at the end) lets the next one go.
      while (waiting.length && !follow(waiting.shift()));
    });
  });

  document.addEventListener("keydown", (event) => {
    const id = LINKS[event.key];
    if (!id || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return;
    if (!document.getElementById(id)) return;
    event.preventDefault();  // Home and End would scroll the page; the arrows would too
    if (onItsWay !== null && window.htmx) {
      if (waiting.length < WAITING_MAX) waiting.push(event.key);
      return;
    }
    follow(event.key);
  });
})();
