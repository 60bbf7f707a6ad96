/* The score pad: a ± button beside every points input (data-signed). An iPhone's numeric pad has
 * no minus key, so negative points could not be typed there; the button flips the sign of what
 * is typed (or starts a "-" when the field is empty). Without this file, the inputs still take a
 * typed minus where the keyboard has one. The button's name is the panel's data-sign-label
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
    });
  }

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
    } else {
      input.value = String(-Number(value));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    input.focus();
  });

  // A sign chosen before typing applies to the first digits typed.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[data-signed]") || input.dataset.negative !== "1")
      return;
    if (input.value !== "" && Number(input.value) > 0) {
      delete input.dataset.negative;
      input.value = String(-Number(input.value));
      var button = document.querySelector('button[data-sign-for="' + input.id + '"]');
      if (button) button.setAttribute("aria-pressed", "false");
    }
  }, true);

  addToggles(document);
  new MutationObserver(function () { addToggles(document); })
    .observe(document.body, { childList: true, subtree: true });
})();
