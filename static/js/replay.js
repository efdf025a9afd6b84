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
    // A link swapped in a moment ago is htmx's only once the swap settles (it wears htmx-added
    // until then): clicked before, it would load the whole page. Drop that press, as htmx drops
    // one made while a step is still on its way (hx-sync).
    if (link.classList.contains("htmx-added")) return;
    if (link.hasAttribute("href")) link.click();  // at either end the link has no href: nothing to do
  });
})();
