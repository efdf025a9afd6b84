// Kings Cribbage table: pick a rack tile, then a square; turn a 6/9; recall; a live preview
// of the tentative lay (an htmx call) before the lay is sent. The board and the rack are
// redrawn by the server after every move; tentative tiles are put back where they still fit.
(function () {
  "use strict";
  let selected = null; // id of the rack tile picked
  let placed = []; // [{id, face, row, col}]
  let turned = {}; // rack tile id -> face it will be laid as (6 <-> 9)
  let focusRow = 6;
  let focusCol = 6;

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const rankOf = (face) => (face[0] === "T" ? "10" : face[0]);
  // Words for screen readers come from the board's data attributes, in the page's language.
  const boardData = () => ($("[data-kings-board]") || { dataset: {} }).dataset;
  const fill = (template, fields) =>
    (template || "").replace(/\{(\w+)\}/g, (whole, key) => (key in fields ? fields[key] : whole));
  const suitWord = (face) => (face[1] === "L" ? boardData().wordLight : boardData().wordDark) || "";

  function faceOf(button) {
    return turned[button.dataset.id] || button.dataset.face;
  }

  function render() {
    const board = $("[data-kings-board]");
    if (!board) return;
    // drop placements whose tile or square has gone (the board was redrawn after a move)
    placed = placed.filter(
      (p) => $(`.rack-tile[data-id="${p.id}"]`) && squareAt(p.row, p.col) && !squareAt(p.row, p.col).classList.contains("sq-tile")
    );
    $$(".sq-empty", board).forEach((sq) => {
      const { row, col } = where(sq);
      const p = placed.find((t) => t.row === row && t.col === col);
      sq.classList.toggle("is-tentative", !!p);
      sq.classList.remove("suit-L", "suit-D");
      if (p) {
        sq.classList.add(`suit-${p.face[1]}`);
        sq.innerHTML = `<span class="tile-rank${"69".includes(p.face[0]) ? " underlined" : ""}">${rankOf(p.face)}</span>`;
        sq.setAttribute(
          "aria-label",
          fill(board.dataset.labelTentative, { row: p.row + 1, col: p.col + 1, colour: suitWord(p.face), rank: rankOf(p.face) })
        );
      } else if (sq.classList.contains("is-tentative") || sq.firstChild) {
        sq.textContent = "";
      }
      if (!p) sq.setAttribute("aria-label", fill(board.dataset.labelEmpty, { row: row + 1, col: col + 1 }));
    });
    $$(".rack-tile").forEach((b) => {
      const used = placed.some((p) => p.id === b.dataset.id);
      b.disabled = used;
      b.classList.toggle("is-used", used);
      b.setAttribute("aria-pressed", String(b.dataset.id === selected && !used));
      const face = faceOf(b);
      $(".tile-rank", b).textContent = rankOf(face);
    });
    if (selected && placed.some((p) => p.id === selected)) selected = null;
    const flip = $("[data-kings-flip]");
    if (flip) {
      const pick = selected && $(`.rack-tile[data-id="${selected}"]`);
      const lastFlip = placed.length && "69".includes(placed[placed.length - 1].face[0]);
      flip.disabled = !((pick && pick.dataset.flips === "1") || lastFlip);
    }
    const recall = $("[data-kings-recall]");
    if (recall) recall.disabled = placed.length === 0;
    $$("[data-kings-tiles]").forEach((holder) => {
      holder.innerHTML = "";
      placed.forEach((p) => {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = "tiles";
        input.value = `${p.row},${p.col}=${p.face}`;
        holder.appendChild(input);
      });
    });
    const lay = $("[data-kings-lay]");
    if (lay) lay.disabled = placed.length === 0 || lay.hasAttribute("data-not-turn");
    roving();
  }

  // Recall (or Escape) undoes the whole tentative turn: every tile back on the rack, and a 6 or 9
  // turned on the way shown as it was dealt again.
  function recallAll() {
    placed = [];
    selected = null;
    turned = {};
    changed();
  }

  function changed() {
    render();
    const form = $("#kings-preview-form");
    if (form && window.htmx) htmx.trigger(form, "kings-changed");
  }

  // A square is found by its place: its row's id (kings-row-N) and its place in the row.
  function squareAt(row, col) {
    const line = document.getElementById(`kings-row-${row}`);
    return (line && col >= 0 && line.children[col]) || null;
  }
  function where(sq) {
    const line = sq.parentElement;
    return { row: +line.id.slice("kings-row-".length), col: Array.prototype.indexOf.call(line.children, sq) };
  }

  function roving() {
    const squares = $$("[data-kings-board] button.sq-empty");
    squares.forEach((sq) => (sq.tabIndex = -1));
    let target = squareAt(focusRow, focusCol);
    if (!target || target.tagName !== "BUTTON") target = squares[0];
    if (target) target.tabIndex = 0;
  }

  document.addEventListener("click", (event) => {
    const tile = event.target.closest(".rack-tile");
    if (tile && !tile.disabled) {
      selected = selected === tile.dataset.id ? null : tile.dataset.id;
      render();
      return;
    }
    const sq = event.target.closest("[data-kings-board] button.sq-empty");
    if (sq) {
      const { row, col } = where(sq);
      focusRow = row;
      focusCol = col;
      const here = placed.findIndex((p) => p.row === row && p.col === col);
      if (here >= 0) {
        selected = placed[here].id;
        placed.splice(here, 1);
      } else if (selected) {
        const pick = $(`.rack-tile[data-id="${selected}"]`);
        placed.push({ id: selected, face: faceOf(pick), row, col });
        selected = null;
      }
      changed();
      return;
    }
    if (event.target.closest("[data-kings-flip]")) {
      const pick = selected && $(`.rack-tile[data-id="${selected}"]`);
      if (pick && pick.dataset.flips === "1") {
        turned[selected] = (faceOf(pick)[0] === "6" ? "9" : "6") + pick.dataset.face[1];
      } else if (placed.length) {
        const p = placed[placed.length - 1];
        p.face = (p.face[0] === "6" ? "9" : "6") + p.face[1];
        turned[p.id] = p.face;
      }
      changed();
      return;
    }
    if (event.target.closest("[data-kings-recall]")) recallAll();
  });

  document.addEventListener("keydown", (event) => {
    const sq = event.target.closest && event.target.closest("[data-kings-board] button.sq-empty");
    if (!sq) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      let { row, col } = where(sq);
      const [dr, dc] = moves[event.key];
      for (let i = 0; i < 13; i++) {
        row += dr;
        col += dc;
        const next = squareAt(row, col);
        if (!next) break;
        if (next.tagName === "BUTTON") {
          focusRow = row;
          focusCol = col;
          roving();
          next.focus();
          break;
        }
      }
    } else if (event.key === "Escape") {
      recallAll();
    }
  });

  // After a move (the forms post with hx-swap="none"; the new board arrives by socket or answer)
  document.body.addEventListener("htmx:afterSettle", () => render());
  document.body.addEventListener("htmx:wsAfterMessage", () => render());
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (form && form.id === "kings-lay" && event.detail.successful) {
      placed = [];
      selected = null;
      render();
    }
  });
  document.addEventListener("DOMContentLoaded", render);
  if (document.readyState !== "loading") render();
})();
