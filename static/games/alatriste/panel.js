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
