// Every page: the member's live notices (an invitation arrives by the socket of #notices, see
// accounts/notices.py), the table's sounds, and whether the table may move. The member's
// settings are on <body>: data-motion="off" (no motion) and data-sounds="on" (sounds).
(function () {
  "use strict";
  const body = document.body;
  const calm = window.matchMedia("(prefers-reduced-motion: no-preference)");

  // Motion only when the device does not ask for less and the member has not switched it off.
  function motionOn() {
    return calm.matches && body.dataset.motion !== "off";
  }

  // Sounds are made here (WebAudio), never fetched. Browsers keep audio shut until the page's
  // first click or key press: the context is made then, and a sound asked for before is skipped.
  let audio = null;
  function unlock() {
    if (body.dataset.sounds !== "on") return; // no sound asked for: no audio at all
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      audio = new Context();
    }
    if (audio.state === "suspended") audio.resume();
  }
  ["pointerdown", "keydown"].forEach((name) => {
    document.addEventListener(name, unlock, { capture: true, passive: true });
  });
  const TUNES = {
    turn: [[660, 0, 0.12]], // one soft note: your move
    invitation: [[523, 0, 0.14], [784, 0.16, 0.22]], // two rising notes: someone calls you
  };
  let lastSound = null;
  function chime(kind) {
    if (body.dataset.sounds !== "on") return false;
    lastSound = kind; // what was asked for, for the browser tests (audio may still be shut)
    body.dataset.lastSound = kind;
    if (!audio || audio.state !== "running") return false;
    const now = audio.currentTime;
    (TUNES[kind] || TUNES.turn).forEach(([freq, start, length]) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.05);
    });
    return true;
  }

  // Notices: a new one may chime; "Dismiss" takes it away. One notice per match, and none on
  // the pages that already show it (the match itself, or the end panel that offers the rematch).
  const notices = document.getElementById("notices");
  if (notices) {
    notices.addEventListener("htmx:wsAfterMessage", () => {
      const seen = new Set();
      let fresh = false;
      Array.from(notices.querySelectorAll(".notice")).reverse().forEach((notice) => {
        const here = (notice.dataset.shownOn || "").split(" ").includes(window.location.pathname);
        if (seen.has(notice.dataset.match) || here) {
          notice.remove();
        } else if (!notice.dataset.heard) {
          notice.dataset.heard = "1";
          fresh = true;
        }
        seen.add(notice.dataset.match);
      });
      if (fresh) chime("invitation");
    });
    notices.addEventListener("click", (event) => {
      const button = event.target.closest("[data-notice-dismiss]");
      if (button) button.closest(".notice").remove();
    });
  }

  window.clubTable = { motionOn, chime, get lastSound() { return lastSound; } };
})();
