/* The score pad: beside every points input (data-signed), a ± button and steppers of -5, -1, +1
 * and +5, counted on from what the field holds (a typed sum, "12+7", is its total first), as a
 * paper pad is used. An iPhone's numeric pad has no minus key, so negative points could not be
 * typed there; the ± button flips the sign of what is typed (or of what is typed next when the
 * field is empty). Without this file the inputs still take what is typed, a sum included (the
 * server adds it up). The buttons' names are the panel's data-sign-label and data-steps-label
 * (translated in the template). */
(function () {
  "use strict";

  function addToggles(root) {
    root.querySelectorAll("input[data-signed]").forEach(function (input) {
      if (input.dataset.signedReady) return;
      input.dataset.signedReady = "1";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary pad-sign";
      button.textContent = "±";
      // The button's name in the page's language, from the panel's template.
      var named = input.closest("[data-sign-label]");
      button.setAttribute("aria-label", named ? named.dataset.signLabel : "±");
      button.dataset.signFor = input.id;
      input.insertAdjacentElement("afterend", button);
      var steps = document.createElement("div");
      steps.className = "pad-steps";
      steps.setAttribute("role", "group");
      var labelled = input.closest("[data-steps-label]");
      steps.setAttribute("aria-label", labelled ? labelled.dataset.stepsLabel : "±");
      [-5, -1, 1, 5].forEach(function (step) {
        var stepper = document.createElement("button");
        stepper.type = "button";
        stepper.className = "secondary pad-step";
        stepper.textContent = (step < 0 ? "\u2212" : "+") + Math.abs(step);
        stepper.dataset.step = String(step);
        stepper.dataset.stepFor = input.id;
        steps.appendChild(stepper);
      });
      button.insertAdjacentElement("afterend", steps);
    });
  }

  // What a field holds, as a total: "", a number, or a sum of whole numbers ("12+7-3").
  function total(text) {
    var written = text.replace(/\u2212/g, "-").replace(/\s+/g, "");
    if (written === "") return 0;
    if (!/^[+-]?\d+([+-]\d+)*$/.test(written)) return null;
    return written.match(/[+-]?\d+/g).reduce(function (sum, term) { return sum + Number(term); }, 0);
  }

  document.addEventListener("click", function (event) {
    var stepper = event.target.closest && event.target.closest("button[data-step-for]");
    if (!stepper) return;
    var input = document.getElementById(stepper.dataset.stepFor);
    var now = input && total(input.value);
    if (now === null || now === undefined) return;  // not a number: left as typed, for the server to say
    input.value = String(now + Number(stepper.dataset.step));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-sign-for]");
    if (!button) return;
    var input = document.getElementById(button.dataset.signFor);
    if (!input) return;
    var value = input.value.trim();
    if (value === "") {
      // A number input cannot hold a lone "-": flip the sign of what is typed next instead.
      input.dataset.negative = input.dataset.negative === "1" ? "" : "1";
      button.setAttribute("aria-pressed", String(input.dataset.negative === "1"));
    } else if (total(value) !== null) {
      input.value = String(-total(value));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    input.focus();
  });

  // A sign chosen before typing applies to the first digits typed.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[data-signed]") || input.dataset.negative !== "1")
      return;
    if (input.value !== "" && /^\d+$/.test(input.value)) {
      delete input.dataset.negative;
      input.value = "-" + input.value;
      var button = document.querySelector('button[data-sign-for="' + input.id + '"]');
      if (button) button.setAttribute("aria-pressed", "false");
    }
  }, true);

  addToggles(document);
  new MutationObserver(function () { addToggles(document); })
    .observe(document.body, { childList: true, subtree: true });
})();
