// Knights & Damosels: tapping a greyed card shows why instead of posting (the server would
// refuse with the same sentence, which is what happens without JavaScript). Loaded once in the
// page head; it listens on the document, so panels that htmx swaps in need nothing more.
(function () {
  document.addEventListener("click", function (event) {
    var cell = event.target.closest(".kn-grant .kc");
    if (!cell) return;
    var form = cell.closest("form");
    var seat = form.querySelector("input[name=seat]:checked");
    var why = seat && cell.getAttribute("data-why" + seat.value);
    var box = form.querySelector(".kn-why");
    if (why) {
      event.preventDefault();
      if (box) box.textContent = why;
    } else if (box) {
      box.textContent = "";
    }
  }, true);
  document.addEventListener("change", function (event) {
    if (event.target.matches(".kn-grant input[name=seat]")) {
      var box = event.target.closest("form").querySelector(".kn-why");
      if (box) box.textContent = "";
    }
  });
})();

// After this phone's own move, its result in view: a refusal beside its form, or the round's
// worship once the last placement applied it (it heads the table's part, below the controls).
(function () {
  var RESULTS = { seal: "#kn-resolution", worship: "#kn-resolution", disaster: "#kn-resolution" };
  function bringIntoView(target) {
    var box = target.getBoundingClientRect();
    var now = document.getElementById("now");
    var covered = now ? now.getBoundingClientRect().bottom : 0;  // the sticky "now" line
    if (box.top < covered || box.top > window.innerHeight - 60) {
      window.scrollBy(0, box.top - covered - 8);
    }
  }
  // What this phone's last move should bring into view; kept until its next tap, as the page
  // may still change after the answer (the stream's pushes). The form
  // is read as it is sent: by the answer it has been swapped out of the page.
  var wanted = null;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM" || !form.closest("#knights")) return;
    var type = form.querySelector("input[name=type]");
    wanted = RESULTS[type && type.value] || "";
  });
  function showResult() {
    if (wanted === null) return;
    var target = document.querySelector("#panel .error")
      || (wanted && document.querySelector(wanted));
    if (target) bringIntoView(target);
  }
  function later() {
    window.requestAnimationFrame(showResult);
  }
  document.body.addEventListener("htmx:afterSettle", later);
  // This phone's controls pushed anew (static/js/table.js).
  document.body.addEventListener("companion:controls", later);
  document.addEventListener("pointerdown", function (event) {
    // The second tap of a double tap lands on the form being sent: still the same move.
    if (event.target.closest && event.target.closest("[aria-busy]")) return;
    wanted = null;
  }, true);

})();
