// The lobby's "Start a match" form: show only the chosen game's options, and offer only the
// player counts that game is played with. Without scripts every game's options stay shown.
(function () {
  "use strict";
  const game = document.getElementById("id_variant");
  const players = document.getElementById("id_players");
  if (!game || !players) return;
  function update() {
    let counts = [];
    document.querySelectorAll("fieldset[data-game]").forEach((box) => {
      const chosen = box.dataset.game === game.value;
      box.hidden = !chosen;
      box.disabled = !chosen;
      if (chosen) counts = box.dataset.players.split(" ");
    });
    Array.from(players.options).forEach((option) => {
      option.hidden = option.disabled = !counts.includes(option.value);
    });
    if (players.selectedOptions[0] && players.selectedOptions[0].disabled) {
      const first = Array.from(players.options).find((option) => !option.disabled);
      if (first) players.value = first.value;
    }
  }
  game.addEventListener("change", update);
  update();
})();
