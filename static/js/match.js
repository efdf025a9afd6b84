// The match page, for every game: connection state, seq gaps, the seq sent with each move, a
// "choose exactly N" picker for forms that ask for it, and the away countdown.
// Everything else is htmx: forms post moves, the socket swaps fragments out of band.
(function () {
  "use strict";
  const match = document.getElementById("match");
  if (!match) return;
  const conn = document.getElementById("conn-state");
  let lastSeq = currentSeq();
  // Words shown by this script come from the page (data-text-*), in the reader's language.
  const text = (name) => match.dataset["text" + name[0].toUpperCase() + name.slice(1)] || "";

  function currentSeq() {
    const marker = document.getElementById("match-seq");
    return marker ? parseInt(marker.dataset.seq, 10) : 0;
  }
  function setConn(state, text) {
    if (!conn) return;
    conn.dataset.state = state;
    conn.textContent = text;
  }
  function fetchBoard() {
    htmx.ajax("GET", match.dataset.boardUrl, { target: match, swap: "none" });
  }

  // Fragments carry the seq of the board they show. An answer that arrives after a newer push
  // (or a push after a newer answer) is older than the page: it must not overwrite it.
  function seqOf(html) {
    const found = /id="match-seq" data-seq="(\d+)"/.exec(html || "");
    return found ? parseInt(found[1], 10) : null;
  }
  function outdated(detail) {
    const seq = seqOf(detail.serverResponse);
    if (seq === null) return false;
    const ok = detail.xhr.status < 400;
    const isMove = (detail.requestConfig || {}).verb === "post";
    // The answer to a move, for the board the page already shows, adds nothing (the socket was
    // quicker) unless it carries an error; a board fetched to heal a gap always applies.
    return seq < currentSeq() || (isMove && ok && seq === currentSeq());
  }
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (outdated(event.detail)) event.detail.shouldSwap = false;
  });
  // A push often redraws the form that sent a move before the move's answer comes. htmx would
  // then look for the answer's out-of-band parts (the error line) only inside the detached form
  // (htmx:oobErrorNoTarget), and its events no longer reach the page: swap them in here.
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt;
    form.addEventListener("htmx:beforeSwap", (swap) => {
      if (form.isConnected) return;
      const wanted = swap.detail.shouldSwap && !outdated(swap.detail);
      swap.detail.shouldSwap = false;
      if (wanted) htmx.swap(match, swap.detail.serverResponse, { swapStyle: "none" });
    }, { once: true });
  });
  match.addEventListener("htmx:wsBeforeMessage", (event) => {
    const seq = seqOf(event.detail.message);
    if (seq !== null && seq < currentSeq()) {
      event.preventDefault();
      resync();
    }
  });

  // Every move is made on the board on show: send its seq (the form's own may be older).
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.verb === "post" && event.detail.path === match.dataset.moveUrl) {
      event.detail.parameters.seq = String(currentSeq());
    }
  });

  // Socket protocol: while the socket is live, a move's answer carries only the error line and
  // the seq to expect (X-Match-Seq); the board itself comes by the socket. If it does not come
  // soon, fetch it.
  let socketLive = false;
  let socket = null;
  match.addEventListener("htmx:wsOpen", (event) => {
    socketLive = true;
    socket = event.detail.socketWrapper;
  });
  match.addEventListener("htmx:wsClose", () => { socketLive = false; });
  // The socket sends only what changed since its last message. When the page took a board
  // from elsewhere (an answer, a board fetched to heal a gap) or passed over an older push, it
  // may hold what the socket never sent: ask for every region whole with the next push.
  function resync() {
    if (socketLive && socket) socket.send("resync");
  }
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (socketLive && event.detail.path === match.dataset.moveUrl) {
      event.detail.headers["X-Match-Socket"] = "open";
    }
  });
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && seqOf(xhr.responseText) !== null) resync(); // a board came with the answer
    const expected = xhr && parseInt(xhr.getResponseHeader("X-Match-Seq") || "", 10);
    if (expected > 0) {
      setTimeout(() => { if (currentSeq() < expected) fetchBoard(); }, 3000);
    }
  });

  match.addEventListener("htmx:wsConnecting", () => setConn("connecting", text("connecting")));
  match.addEventListener("htmx:wsOpen", () => setConn("live", text("live")));
  match.addEventListener("htmx:wsClose", () => setConn("reconnecting", text("reconnecting")));
  match.addEventListener("htmx:wsError", () => setConn("reconnecting", text("reconnecting")));
  match.addEventListener("htmx:wsAfterMessage", () => {
    const seq = currentSeq();
    if (seq > lastSeq + 1 && lastSeq > 0) fetchBoard(); // a message was lost: heal the board
    lastSeq = Math.max(lastSeq, seq);
  });
  document.body.addEventListener("htmx:afterSwap", () => {
    lastSeq = Math.max(lastSeq, currentSeq());
    updatePicker();
    markOver();
  });
  // Once the match is over the socket has nothing more to say: no "Live" badge.
  function markOver() {
    if (conn && document.querySelector("#status [data-over]")) conn.hidden = true;
  }
  // Keep a half-made choice when the hand is redrawn with the same pieces.
  let picked = [];
  const PICKS = "#hand form[data-need] input[type=checkbox]";
  document.body.addEventListener("htmx:oobBeforeSwap", () => {
    picked = Array.from(document.querySelectorAll(PICKS + ":checked"))
      .map((box) => box.name + "=" + box.value);
  });
  document.body.addEventListener("htmx:oobAfterSwap", () => {
    document.querySelectorAll(PICKS).forEach((box) => {
      if (picked.includes(box.name + "=" + box.value)) box.checked = true;
    });
    updatePicker();
    markOver();
  });

  // A form with data-need="N" asks for exactly N of its checkboxes: say how many are chosen
  // and enable its submit button ([data-pick-submit]) at the right number.
  function updatePicker() {
    document.querySelectorAll("form[data-need]").forEach((form) => {
      const need = parseInt(form.dataset.need, 10);
      const boxes = form.querySelectorAll("input[type=checkbox]");
      const chosen = Array.from(boxes).filter((b) => b.checked).length;
      const button = form.querySelector("[data-pick-submit]");
      const note = form.querySelector(".pick-count");
      if (button) button.disabled = chosen !== need;
      if (note) {
        note.textContent = text("chosen").replace("{chosen}", chosen).replace("{need}", need);
      }
      boxes.forEach((b) => {
        const label = b.closest("label");
        if (label) label.classList.toggle("is-selected", b.checked);
      });
    });
  }
  document.addEventListener("change", (event) => {
    if (event.target.matches("form[data-need] input[type=checkbox]")) updatePicker();
  });
  updatePicker();

  // Away players: count down to the moment the others may act.
  const asked = new Set();
  setInterval(() => {
    document.querySelectorAll("[data-away-left]").forEach((el) => {
      const limit = parseInt(el.dataset.awayLeft, 10);
      const seconds = parseInt(el.dataset.awaySeconds, 10) + 1;
      el.dataset.awaySeconds = seconds;
      const left = limit - seconds;
      el.textContent = left > 0
        ? text("away") + " · " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")
        : text("claimable");
      // The server decides who may claim: ask it once, when the countdown ends, so the
      // claim button appears without a reload.
      // (A second late, so the server's clock has passed the limit too.)
      const absence = el.dataset.seat + "@" + Math.round((Date.now() / 1000 - seconds) / 30);
      if (left <= -1 && !asked.has(absence)) {
        asked.add(absence);
        fetchBoard();
      }
    });
  }, 1000);
})();
