/* The card picker: tap a rank, then a suit, to add that card to the text field (tap it again to
 * take it out). The field is what the form posts, and htmx asks the server for the running total
 * when it changes: nothing here counts. Without this file the field is typed by hand.
 *
 * Also: a move's section (<details>) opened by hand stays open when the live stream re-renders
 * the panel at the same version; after a new move it closes, as the server renders it.
 *
 * The running total is swapped into its own box beside the form's button, never over it (a
 * button replaced between a pointer's press and its release loses the click): its data-ready
 * says here whether the button may be pressed.
 *
 * And: each seat's controls are not pushed to the other phones, only the live part is; its
 * data-roller, data-acting, data-lottery and data-finished say whose roll and whose turn it is
 * now, copied here onto every seat's controls so that the CSS shows the moves that are theirs. */
(function () {
  document.documentElement.classList.add("rb-js-on");

  var opened = {};  // details id -> the version shown when it was opened

  function shownVersion() {
    var live = document.getElementById("live");
    return live ? live.dataset.version || "" : "";
  }

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("details.rb-move")) return;
    if (details.open) opened[details.id] = shownVersion(); else delete opened[details.id];
  }, true);

  function follow() {
    var live = document.querySelector(".rb-live");
    if (!live) return;
    document.querySelectorAll(".rb-controls[data-controls]").forEach(function (controls) {
      var seat = controls.dataset.controls;
      var acts = live.dataset.acting === seat;
      if (controls.hasAttribute("data-acts") && !acts) turnEnded(controls);
      if (controls.hasAttribute("data-own") && acts) {
        var notice = document.getElementById("not-sent");
        if (notice) notice.hidden = true;  // this seat's next turn: old news
      }
      controls.toggleAttribute("data-rolls", live.dataset.roller === seat);
      controls.toggleAttribute("data-acts", acts);
      controls.toggleAttribute("data-lottery", live.hasAttribute("data-lottery"));
      controls.toggleAttribute("data-finished", live.hasAttribute("data-finished"));
    });
  }

  // The turn ended (the next rabbit rolled) while this phone was filling in one of its moves:
  // the moves hide with the turn, so the phone says the half-entered move was not played, and
  // lets its controls be drawn again (a form being filled in holds them: table.js).
  function turnEnded(controls) {
    var unsent = controls.querySelectorAll(".rb-turn-moves form[data-dirty], .rb-turn-moves form[data-refused]");
    if (!unsent.length) return;
    // Left first: a field that loses the focus as it hides says "change", which marks its form
    // as being filled in again.
    if (controls.contains(document.activeElement)) document.activeElement.blur();
    unsent.forEach(function (form) {
      delete form.dataset.dirty;
      delete form.dataset.refused;
    });
    var notice = document.getElementById("not-sent");
    if (notice && controls.hasAttribute("data-own")) notice.hidden = false;
  }

  function restore() {
    follow();
    var version = shownVersion();
    Object.keys(opened).forEach(function (id) {
      var details = document.getElementById(id);
      if (opened[id] !== version) { delete opened[id]; return; }
      if (details && !details.open) details.open = true;
    });
  }
  new MutationObserver(restore).observe(document.body, { childList: true, subtree: true });
  follow();

  document.addEventListener("htmx:afterSwap", function (event) {
    var sum = event.detail.target;
    var box = sum && sum.parentElement;
    if (!box || !box.classList.contains("rb-total")) return;
    var summary = sum.querySelector("[data-ready]");
    // aria-disabled, not disabled: the button keeps its place in the tab order, and a screen
    // reader says it is unavailable beside the summary that says why.
    box.querySelectorAll(":scope > button").forEach(function (button) {
      button.setAttribute("aria-disabled", String(!!summary && summary.dataset.ready === "0"));
    });
  });
  // ...so the form is held back here (before htmx hears of it), from its button or from Enter.
  document.addEventListener("submit", function (event) {
    if (event.target.querySelector('.rb-total > button[aria-disabled="true"]')) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  function press(picker, rank) {
    picker.querySelectorAll("[data-rank]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.dataset.rank === rank));
    });
    if (rank) picker.dataset.rank = rank; else delete picker.dataset.rank;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-rank],[data-suit],[data-clear]");
    var picker = button && button.closest(".rb-picker");
    if (!picker) return;
    var input = picker.querySelector("[data-cards]");
    if (button.dataset.rank) { press(picker, button.dataset.rank); return; }
    if (button.hasAttribute("data-clear")) {
      input.value = "";
    } else {
      var rank = picker.dataset.rank;
      if (!rank) return;
      var card = rank + button.dataset.suit;
      if (picker.dataset.single) {
        input.value = card;
      } else {
        var cards = input.value.toUpperCase().split(/[\s,;+]+/).filter(Boolean);
        var at = cards.indexOf(card);
        if (at >= 0) cards.splice(at, 1); else cards.push(card);
        input.value = cards.join(" ");
      }
    }
    press(picker, null);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();
