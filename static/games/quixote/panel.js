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
      input.value = Math.max(0, value);
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
})();
