/* Table Top Cribbage and CrossCrib: arrow keys move between the squares you may choose.
   The squares are ordinary buttons (Tab and Enter work without this); this only adds
   moving up, down, left and right to the nearest open square in that direction. */
(function () {
  "use strict";
  var STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    var here = event.target;
    if (!step || !here.matches || !here.matches(".tt-grid button.tt-square")) return;
    var row = Number(here.dataset.row), col = Number(here.dataset.col);
    var best = null, bestScore = Infinity;
    here.closest(".tt-grid").querySelectorAll("button.tt-square").forEach(function (other) {
      var dr = Number(other.dataset.row) - row, dc = Number(other.dataset.col) - col;
      var ahead = dr * step[0] + dc * step[1];
      if (ahead <= 0) return;
      var aside = Math.abs(dr * step[1]) + Math.abs(dc * step[0]);
      var score = ahead + 2 * aside;
      if (score < bestScore) { best = other; bestScore = score; }
    });
    if (best) { event.preventDefault(); best.focus(); }
  });
})();
