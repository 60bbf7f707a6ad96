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
