// El Capitán Alatriste's table: after this phone's duel, combat, game of dice, bullfight or Act of
// Faith (a form marked data-al-result), the result (#al-result, in the pushed part) is brought
// into view: the form's button was far from it. A refusal is brought into view the same way.
// #table's data-al-shown then holds the version shown, for the browser tests to wait on.
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;
  var sent = null;  // the form of this phone's move waiting for its answer

  // The result's top just under the "now" line, stuck to the top of the screen once scrolled,
  // which would cover its heading.
  function below(element) {
    var now = document.getElementById("now");
    var top = (now ? now.getBoundingClientRect().height : 0) + 16;
    window.scrollBy(0, element.getBoundingClientRect().top - top);
  }

  // A die's face, once chosen, is cleared by tapping it again, or by Delete or Backspace on it:
  // the faces are radio buttons, which a tap only ever sets. A die given by mistake would
  // otherwise stay in the form (and one die of a pair alone is refused).
  var pressed = null;  // the face the finger went down on, when it was the chosen one
  function isFace(element) {
    return !!(element && element.matches && element.matches(".al-die input[type=radio]"));
  }
  function clearFace(input) {
    input.checked = false;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  document.body.addEventListener("pointerdown", function (event) {
    var face = event.target.closest && event.target.closest(".al-die .al-face");
    var input = face && face.querySelector("input");
    pressed = input && input.checked ? input : null;
  });
  document.body.addEventListener("click", function (event) {
    if (!isFace(event.target)) return;
    if (event.target === pressed) clearFace(event.target);
    pressed = null;
  });
  document.body.addEventListener("keydown", function (event) {
    pressed = null;  // a key's click (Space) chooses, never clears
    if (event.key !== "Delete" && event.key !== "Backspace") return;
    if (!isFace(event.target) || !event.target.checked) return;
    event.preventDefault();
    clearFace(event.target);
  });

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.tagName === "FORM" && form.closest("#panel")) sent = form;
  });

  // afterRequest comes after the answer is swapped in (or left out, when the stream brought the
  // same version first): either way the page now shows this move's result.
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = sent;
    sent = null;
    if (!form || !event.detail.xhr) return;
    var refused = event.detail.xhr.status >= 400;
    var shown = refused ? document.querySelector("#panel .error")
      : form.hasAttribute("data-al-result") ? document.getElementById("al-result") : null;
    if (refused && shown) shown.scrollIntoView({ block: "nearest" });
    if (!refused && shown) below(shown);
    table.dataset.alShown = table.dataset.version || "";
  });
})();
