// The table's motion and voice, for every game's match page (after match.js and live.js).
//
// htmx replaces the table's regions whole, so nothing on the page "moves" by itself. Before the
// first out-of-band swap of a push (or of an answer) this takes a snapshot of where things are;
// once every region of it is in (a microtask later, before the page is painted) it compares:
// - a card (data-card) found once before and once now, somewhere else: it slides there (FLIP);
//   a new card with no twin inside [data-from="X"] slides in from where [data-source="X"] was;
//   new cards at the end of a [data-pile] slide in from the cards that left;
// - a front peg of the pegboard whose score went up moves along the track, leapfrogging from the
//   back hole through the holes at the turns (data-via), with the class pb-peg-moving meanwhile;
// - an .is-last thing that was not the last before and holds no card (a Kings tile just
//   laid) settles in;
// - [data-voice] callouts not heard before are said: once to screen readers (a polite live
//   region of their own), and with motion they pop up where they happen and fade; the show's
//   callouts (.callouts) follow one another;
// - the member's turn coming round may chime (live.js, the member's sound setting).
// Motion only with prefers-reduced-motion: no-preference and the member's setting on
// (live.js motionOn); it never holds a move back: everything is in place and usable at once,
// the motion only draws it coming from where it was.
(function () {
  "use strict";
  const match = document.getElementById("match");
  if (!match) return;
  const table = window.clubTable || { motionOn: () => false, chime: () => false };
  const CARDS = "#board [data-card], #hand [data-card]";
  const SLIDE_MS = 320;

  // One polite live region for the callouts, made now so that it is there before it speaks.
  const voiceLine = document.createElement("p");
  voiceLine.className = "sr-only";
  voiceLine.id = "table-voice";
  voiceLine.setAttribute("aria-live", "polite");
  match.prepend(voiceLine); // inside the page's main landmark, outside the swapped regions

  let pending = null;
  document.body.addEventListener("htmx:oobBeforeSwap", () => {
    if (pending) return;
    pending = snapshot();
    queueMicrotask(() => {
      const before = pending;
      pending = null;
      after(before);
    });
  });

  function yourTurn() {
    return Boolean(document.querySelector("#status.status-your-turn"));
  }

  function snapshot() {
    const shot = { turn: yourTurn(), moving: table.motionOn(), cards: new Map(), sources: {},
      pegs: {}, lasts: new Set(), piles: {} };
    if (!shot.moving) return shot;
    match.querySelectorAll(CARDS).forEach((el) => {
      const rects = shot.cards.get(el.dataset.card) || [];
      rects.push(el.getBoundingClientRect());
      shot.cards.set(el.dataset.card, rects);
    });
    match.querySelectorAll("[data-source]").forEach((el) => {
      shot.sources[el.dataset.source] = {
        rect: el.getBoundingClientRect(), cards: el.querySelectorAll(".playing-card").length,
      };
    });
    match.querySelectorAll(".pb-peg").forEach((el) => {
      shot.pegs[pegKey(el)] = { score: Number(el.dataset.score), x: Number(el.getAttribute("cx")),
        y: Number(el.getAttribute("cy")) };
    });
    match.querySelectorAll("#board .is-last").forEach((el) => shot.lasts.add(lastKey(el)));
    match.querySelectorAll("[data-pile]").forEach((el) => {
      shot.piles[el.dataset.pile] = el.querySelectorAll(".playing-card").length;
    });
    return shot;
  }

  function after(before) {
    if (before.moving && table.motionOn()) {
      slideCards(before);
      movePegs(before);
      settle(before);
    }
    voice(false);
    if (!before.turn && yourTurn()) table.chime("turn");
  }

  // ---- cards ----------------------------------------------------------------------------------
  function slideCards(before) {
    const now = new Map();
    match.querySelectorAll(CARDS).forEach((el) => {
      now.set(el.dataset.card, (now.get(el.dataset.card) || []).concat([el]));
    });
    const gone = [];
    before.cards.forEach((rects, key) => { if (!now.has(key)) gone.push(...rects); });
    now.forEach((els, key) => {
      const rects = before.cards.get(key);
      if (rects && rects.length === 1 && els.length === 1) {
        slide(els[0], rects[0], true);
      } else if (!rects) {
        els.forEach((el) => {
          const from = el.closest("[data-from]");
          const source = from && before.sources[from.dataset.from];
          if (source) slide(el, source.rect, false);
        });
      }
    });
    // New cards of a pile came from the cards that left, when as many left as came,
    // else from the [data-source] (another player's hand) that holds as many fewer.
    match.querySelectorAll("[data-pile]").forEach((pile) => {
      const added = Array.from(pile.querySelectorAll(".playing-card"))
        .slice(before.piles[pile.dataset.pile] || 0);
      if (!added.length) return;
      if (added.length === gone.length) {
        added.forEach((card, i) => slide(card, gone[i], true));
        return;
      }
      const giver = Object.keys(before.sources).find((key) => {
        const now = match.querySelector(`[data-source="${key}"]`);
        const fewer = now && before.sources[key].cards - now.querySelectorAll(".playing-card").length;
        return fewer === added.length;
      });
      if (giver) added.forEach((card) => slide(card, before.sources[giver].rect, false));
    });
  }

  function slide(el, from, sameSize) {
    const to = el.getBoundingClientRect();
    if (!to.width) return;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) + Math.abs(dy) < 4) return;
    const scale = sameSize ? Math.min(3, Math.max(0.3, from.width / to.width)) : 0.7;
    el.classList.add("is-moving");
    const run = el.animate(
      [{ translate: `${dx}px ${dy}px`, scale: String(scale) }, { translate: "0 0", scale: "1" }],
      { duration: SLIDE_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
    );
    const done = () => el.classList.remove("is-moving");
    run.onfinish = done;
    run.oncancel = done;
  }

  // ---- pegs -----------------------------------------------------------------------------------
  function pegKey(el) {
    return el.dataset.side + (el.classList.contains("pb-peg-front") ? "f" : "b");
  }

  function movePegs(before) {
    match.querySelectorAll(".pb-peg-front").forEach((peg) => {
      const side = peg.dataset.side;
      const front = before.pegs[side + "f"];
      const back = before.pegs[side + "b"];
      const score = Number(peg.dataset.score);
      if (!front || !(score > front.score)) return; // no move, or a new game from the start
      const end = { x: Number(peg.getAttribute("cx")), y: Number(peg.getAttribute("cy")) };
      const newBack = match.querySelector(`.pb-peg-back[data-side="${side}"]`);
      const leapfrog = back && newBack && Number(newBack.dataset.score) === front.score;
      const path = leapfrog ? [back, front] : [front];
      (peg.dataset.via || "").split(" ").filter(Boolean).forEach((pair) => {
        const [x, y] = pair.split(",").map(Number);
        path.push({ x, y });
      });
      path.push(end);
      walk(peg, path, score - (leapfrog ? back.score : front.score));
    });
  }

  function walk(peg, path, holes) {
    const lengths = [0];
    for (let i = 1; i < path.length; i++) {
      lengths.push(lengths[i - 1] + Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y));
    }
    const total = lengths[lengths.length - 1] || 1;
    const end = path[path.length - 1];
    const frames = path.map((p, i) => ({
      offset: lengths[i] / total,
      transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)`,
    }));
    peg.parentNode.appendChild(peg); // over the other pegs while it moves
    peg.classList.add("pb-peg-moving");
    const run = peg.animate(frames, {
      duration: Math.min(1100, 350 + 25 * holes), easing: "cubic-bezier(0.4, 0, 0.2, 1)",
    });
    const done = () => peg.classList.remove("pb-peg-moving");
    run.onfinish = done;
    run.oncancel = done;
  }

  // ---- things just laid (a card just played slides instead) ----------------------------------
  function lastKey(el) {
    if (el.dataset.row !== undefined) return `${el.dataset.row},${el.dataset.col}`;
    if (el.getAttribute("role") === "gridcell") { // a square of a grid: its place in it
      const line = el.parentElement;
      const index = (node) => Array.prototype.indexOf.call(node.parentElement.children, node);
      return `${index(line)},${index(el)}`;
    }
    return el.textContent;
  }

  function settle(before) {
    match.querySelectorAll("#board .is-last").forEach((el) => {
      if (el.querySelector("[data-card]") || before.lasts.has(lastKey(el))) return;
      el.classList.add("is-arriving");
      el.addEventListener("animationend", () => el.classList.remove("is-arriving"), { once: true });
    });
  }

  // ---- the voice of the table ---------------------------------------------------------------
  const heard = new Set();
  function sayOf(el) {
    if (el.matches(".callouts")) { // a shown hand: its name, what it makes, its points
      const shown = el.closest(".shown");
      const head = shown && shown.querySelector(".shown-head strong");
      const points = shown && shown.querySelector(".shown-points");
      const items = Array.from(el.children).map((item) => item.textContent.trim()).join(", ");
      return `${head ? head.textContent.trim() : ""}: ${items} (${points ? points.textContent : ""})`;
    }
    const said = el.querySelector(".say");
    return (said || el).textContent.trim();
  }

  function voice(first) {
    const fresh = [];
    match.querySelectorAll("[data-voice]").forEach((el) => {
      const key = el.dataset.voice + "|" + sayOf(el);
      if (heard.has(key)) {
        if (table.motionOn()) el.classList.add("is-said");
        return;
      }
      heard.add(key);
      if (!first) fresh.push(el);
    });
    if (!fresh.length) return;
    voiceLine.textContent = "";
    const words = fresh.map(sayOf).join(". ");
    setTimeout(() => { voiceLine.textContent = words; }, 60); // a change the reader announces
    if (!table.motionOn()) return;
    let delay = 0;
    fresh.forEach((el) => {
      const items = el.matches(".callouts") ? Array.from(el.children) : [el];
      el.classList.add("is-saying");
      el.setAttribute("aria-hidden", "true"); // drawn for the eyes; the live line says it
      items.forEach((item) => {
        item.style.animationDelay = `${delay}ms`;
        delay += items.length > 1 ? 650 : 900;
      });
      items[items.length - 1].addEventListener("animationend", () => {
        el.classList.remove("is-saying");
        el.classList.add("is-said");
      }, { once: true });
    });
  }

  voice(true); // what the page was drawn with has been said already
})();
