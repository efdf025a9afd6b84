// Show only the chosen game's options and the scoring settings for its kind of game; without
// script everything stays on show, each game's options under its own heading, and only the
// chosen game's are used.
(function () {
  var form = document.getElementById("t-new");
  var choice = form.querySelector("[name=variant]");
  var kinds = JSON.parse(document.getElementById("t-kinds").textContent);
  function show() {
    form.querySelectorAll("fieldset[data-variant]").forEach(function (set) {
      set.hidden = set.dataset.variant !== choice.value;
    });
    form.querySelectorAll("[data-kind]").forEach(function (field) {
      field.hidden = field.dataset.kind !== kinds[choice.value];
    });
  }
  choice.addEventListener("change", show);
  show();
})();
