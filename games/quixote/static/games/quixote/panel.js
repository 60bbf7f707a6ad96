// Don Quixote's panel: steppers and chips over the plain inputs (the form works without this).
// Loaded once in the page head; it listens on the document, so panels htmx swaps in work too.
(function () {
  document.documentElement.classList.add("qx-js");
  var table = document.getElementById("table");

  function tokens(value) {
    return value.replace(/;/g, " ; ").trim().split(/\s+/).filter(Boolean);
  }
  function join(parts) {
    return parts.join(" ").replace(/ ;/g, ";").trim();
  }
  var actions = {
    step: function (input, button) {
      var value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.by, 10);
      var most = input.max === "" ? Infinity : parseInt(input.max, 10);  // what the tiles hold
      input.value = Math.min(most, Math.max(0, value));
    },
    add: function (input, button) {
      input.value = join(tokens(input.value).concat([button.dataset.n]));
    },
    shield: function (input, button) {
      input.value = join(tokens(input.value).concat([button.dataset.n]));
    },
    group: function (input) {
      var parts = tokens(input.value);
      if (parts.length && parts[parts.length - 1] !== ";") parts.push(";");
      input.value = join(parts);
    },
    pop: function (input) {
      var parts = tokens(input.value);
      parts.pop();
      input.value = join(parts);
    },
  };
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-qx]");
    if (!button || !button.form) return;
    var input = button.form.elements[button.dataset.into];
    var action = actions[button.dataset.qx];
    if (!input || !action) return;
    event.preventDefault();
    action(input, button);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // The top of `target` on the screen, below the sticky "now" line, unless it is there already.
  function bringIntoView(target, room) {
    var box = target.getBoundingClientRect();
    var now = document.getElementById("now");
    var covered = now ? now.getBoundingClientRect().bottom : 0;  // the sticky "now" line
    if (box.top < covered || box.top > window.innerHeight - room) {
      target.scrollIntoView({ block: "start" });
    }
  }

  // This phone's own round to score, once its round is over (the last card turned here or on
  // another phone, or the page loaded then): the form's top at the top of the screen, where the
  // page's order alone left it below the scoreboard and the now line, or above the screen (the
  // phone that turned the card had scrolled down to it). It stays there as the pushes that
  // follow change the page (the now line above it grows with who is still to score) until the
  // player touches the page; then it is theirs to scroll. Whether it is new (this round's
  // first showing).
  var ownShown = null;
  var pinned = false;
  function showOwnRound() {
    var own = document.getElementById("qx-own");
    if (!own) {
      ownShown = null;
      pinned = false;
      return false;
    }
    var fresh = ownShown !== own.dataset.round;
    if (fresh) {
      ownShown = own.dataset.round;
      pinned = true;
    }
    if (pinned) bringIntoView(own, window.innerHeight / 2);
    return fresh;
  }
  ["pointerdown", "touchstart", "wheel", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () { pinned = false; },
                              { capture: true, passive: true });
  });

  // After this phone's own move, its result in view: the refusal next to the form, its own
  // round to score when the move ended the round, else the table's next step (the field to
  // fill, "Turn card 1 of 7", who is still to score) unless its own round still waits (the host
  // scoring another seat stays by the next seat's form). Saving a round at the foot of a long
  // form would otherwise leave the next step above the screen.
  function showResult() {
    var refusal = document.querySelector("#live .error");
    if (refusal) bringIntoView(refusal, 60);
    else if (!showOwnRound() && !document.getElementById("qx-own")) {
      var target = document.getElementById("qx-turn") || document.getElementById("qx-now");
      if (target) bringIntoView(target, 60);
    }
    // Which version's result is in view (the browser tests wait on it).
    if (table) table.dataset.qxShown = table.dataset.version;
  }
  // The page may still change after the answer (the stream's pushes, this phone's panel among
  // them when a round ends): until this phone types again, each change brings the result back
  // in view. A change this phone did not ask for shows its own round when it is new.
  var moved = false;
  function afterMove() {
    window.requestAnimationFrame(moved ? showResult : showOwnRound);
  }
  // Noted as the request leaves: by the answer, the form has been swapped out of the page.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.hasAttribute && form.hasAttribute("data-qx-move")) moved = true;
  });
  document.body.addEventListener("htmx:afterRequest", afterMove);
  document.body.addEventListener("htmx:afterSettle", afterMove);
  document.addEventListener("input", function () { moved = false; }, true);

  // This phone's score forms pushed when a round ends, and every section a push swapped in
  // (static/js/table.js).
  document.body.addEventListener("companion:controls", afterMove);
  if (table) table.addEventListener("companion:swapped", afterMove);

  // A page loaded while this phone's round waits to be scored: once the browser has put it
  // where it was (a reload keeps the place), the form at the top of the screen.
  if (document.readyState === "complete") showOwnRound();
  else window.addEventListener("load", showOwnRound);
})();
