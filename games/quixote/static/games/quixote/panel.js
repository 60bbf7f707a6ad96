// Don Quixote's panel: steppers and chips over the plain inputs (the form works without this).
// Loaded once in the page head; it listens on the document, so panels htmx swaps in work too.
(function () {
  document.documentElement.classList.add("qx-js");

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

  // After this phone's own move, its result in view: the refusal next to the form, else the
  // table's next step (the field to fill, "Turn card 1 of 7", who is still to score). Saving a
  // round at the foot of a long form would otherwise leave the next step above the screen.
  function showResult() {
    var target = document.querySelector("#live .error") || document.getElementById("qx-turn")
      || document.getElementById("qx-now");
    if (!target) return;
    var box = target.getBoundingClientRect();
    var now = document.getElementById("now");
    var covered = now ? now.getBoundingClientRect().bottom : 0;  // the sticky "now" line
    if (box.top < covered || box.top > window.innerHeight - 60) {
      target.scrollIntoView({ block: "start" });
    }
    // Which version's result is in view (the browser tests wait on it).
    var table = document.getElementById("table");
    if (table) table.dataset.qxShown = table.dataset.version;
  }
  // The page may still change after the answer (the stream's pushes, this phone's panel among
  // them when a round ends): until this phone types again, each change brings the result back
  // in view.
  var moved = false;
  function afterMove() {
    if (moved) window.requestAnimationFrame(showResult);
  }
  // Noted as the request leaves: by the answer, the form has been swapped out of the page.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.hasAttribute && form.hasAttribute("data-qx-move")) moved = true;
  });
  document.body.addEventListener("htmx:afterRequest", afterMove);
  document.body.addEventListener("htmx:afterSettle", afterMove);
  document.addEventListener("input", function () { moved = false; }, true);

  // This phone's score forms pushed when a round ends (static/js/table.js).
  document.body.addEventListener("companion:controls", afterMove);
})();
