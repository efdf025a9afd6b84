// The replay's keys: Left and Right step back and forward, Home and End jump to the start and
// the end. Each key follows the matching link of the step's controls (#replay-nav), so htmx
// swaps the step in place (or, without htmx, the link loads the page). Keys typed in a form
// field, or with a modifier held (Alt+Left is the browser's Back), are left alone.
(function () {
  "use strict";
  const LINKS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };

  function typing(target) {
    if (!(target instanceof Element)) return false;
    return target.isContentEditable || target.closest("input, select, textarea, [contenteditable]") !== null;
  }

  document.addEventListener("keydown", (event) => {
    const id = LINKS[event.key];
    if (!id || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return;
    const link = document.getElementById(id);
    if (!link) return;
    event.preventDefault();  // Home and End would scroll the page; the arrows would too
    const href = link.getAttribute("href");
    if (!href) return;  // at either end the link has no href: nothing to do
    // Through htmx's own request (the link's hx-* settings: target, push-url, sync) rather than
    // a click: a link swapped in a moment ago is htmx's only once the swap settles, and a click
    // on it before then would load the whole page.
    if (window.htmx) window.htmx.ajax("GET", href, { source: link });
    else link.click();
  });
})();
