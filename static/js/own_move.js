// This phone's own move, for the player who made it by keyboard or with a screen reader, and for
// anyone whose move is refused. The answer replaces #live whole, and a push replaces a section:
// - focus goes back to the button pressed (or the same control), else to the now line, where it
//   was lost to the page's top;
// - a refused form comes back with what was entered in it (the dice, the bet, who joins) and its
//   folds open: the server draws every form as new.
// (What the move did is said by table.js, which knows which version the now line has said.)
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;
  var pending = null;  // the form this phone sent, as it was when sent
  var REFILLED = { 400: true, 403: true };  // a field or a seat refused; not a table moved on

  function formName(form) {
    var named = form.querySelector('input[name="form"]');
    return named ? named.value : null;
  }

  // Forms are known by their name (the `form` field) and, where two share one (each attack
  // card's), by their place among those.
  function formsNamed(name) {
    if (name === null) return [];
    return Array.prototype.map.call(
      document.querySelectorAll('#live form input[name="form"][value="' + CSS.escape(name) + '"]'),
      function (named) { return named.closest("form"); });
  }
  function formNamed(name, nth) {
    return formsNamed(name)[nth || 0] || null;
  }

  // A control is known again by its form's name, its own name and value, and its words.
  function keyOf(element) {
    var form = element.closest("form");
    var name = form ? formName(form) : null;
    return { id: element.id || null, form: name, nth: form ? formsNamed(name).indexOf(form) : 0,
             tag: element.tagName, name: element.getAttribute("name"), value: element.value,
             text: element.textContent.trim() };
  }

  function find(key, within) {
    if (key.id) return document.getElementById(key.id);
    // A form without a name (the undo button's) is looked for in the whole table.
    var scope = key.form !== null ? formNamed(key.form, key.nth)
      : within || document.getElementById("live");
    if (!scope) return null;
    var candidates = scope.querySelectorAll(key.tag);
    for (var i = 0; i < candidates.length; i++) {
      var candidate = candidates[i];
      if (candidate.getAttribute("name") === key.name && candidate.value === key.value
          && candidate.textContent.trim() === key.text) return candidate;
    }
    return null;
  }

  // The control used, else the now line (never another button: a second Enter would make
  // another move). A control in a closed fold or hidden takes no focus: the now line then.
  function focusOn(element) {
    if (element && !element.disabled) {
      element.focus({ preventScroll: true });
      if (document.activeElement === element) return;
    }
    var now = document.getElementById("now");
    if (!now) return;
    now.setAttribute("tabindex", "-1");
    now.focus({ preventScroll: true });
  }

  function lost() {
    return !document.activeElement || document.activeElement === document.body
      || !document.activeElement.isConnected;
  }

  // Taken as the form is sent (capture: before htmx reads it or disables its buttons).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest("#live")) return;
    var submitter = event.submitter || null;
    var name = formName(form);
    pending = {
      form: form, name: name, nth: formsNamed(name).indexOf(form),
      values: Array.from(new FormData(form).entries()),
      typed: typedById(form),
      fields: Array.prototype.map.call(form.elements, function (field) { return field.name; }),
      button: submitter ? keyOf(submitter) : null,
      focused: form.contains(document.activeElement),
      open: Array.prototype.map.call(form.querySelectorAll("details"), function (d) { return d.open; }),
      around: [], xhr: null,
    };
    for (var fold = form.closest("details"); fold; fold = fold.parentElement.closest("details")) {
      if (fold.id) pending.around.push(fold.id);
    }
  }, true);
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (!pending || event.detail.elt !== pending.form) return;
    var sent = pending;
    sent.xhr = event.detail.xhr;
    // The answer may not be swapped in (the stream brought its version first): the focus is
    // given back all the same once it is in, wherever the page left it.
    sent.xhr.addEventListener("loadend", function () {
      window.requestAnimationFrame(function () {
        if (sent.focused && lost()) focusAgain(sent);
      });
    });
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!pending || !target || target.id !== "live" || event.detail.xhr !== pending.xhr) return;
    var sent = pending;
    pending = null;
    var form = formNamed(sent.name, sent.nth);
    if (form && REFILLED[event.detail.xhr.status]) refill(form, sent);
    // A question before the move ("Undo Ben's move?", "End the game?") is drawn at the top of
    // the table, far above a button tapped low on the page: it comes into view, and takes the
    // focus (not its "Yes": a second Enter must not answer it).
    var live = document.getElementById("live");
    var asked = live && live.hasAttribute("data-asks") && document.getElementById("confirm");
    if (asked) {
      asked.setAttribute("tabindex", "-1");
      asked.focus({ preventScroll: true });
      asked.scrollIntoView({ block: "start" });
      asker = sent;
      return;
    }
    if (sent.focused) focusAgain(sent);
  });

  // "No" to a question: the table comes back without it, and so does the focus, to the button
  // that asked (Undo, End the game now), in view; it fell to the page's top.
  var asker = null;  // the form whose answer asked the question on the page
  var declining = null;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    declining = elt && elt.closest && elt.closest("#confirm") && elt.tagName === "A" ? asker : null;
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!declining || !target || target.id !== "live") return;
    var back = declining.button && find(declining.button);
    declining = asker = null;
    focusOn(back);
    if (back && document.activeElement === back) back.scrollIntoView({ block: "center" });
  });

  function focusAgain(sent) {
    focusOn(sent.button && find(sent.button));
  }

  // What was typed in each field that has an id, by that id: fields that share a name (the
  // pad's score of every seat, "scores[]") are told apart by it when the refused form comes
  // back drawn otherwise (a seat scored meanwhile has no field any more).
  function typedById(form) {
    var typed = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      var type = (field.type || "").toLowerCase();
      if (field.id && field.name && field.tagName !== "SELECT" && type !== "checkbox"
          && type !== "radio" && type !== "hidden") typed[field.id] = field.value;
    });
    return typed;
  }

  function refill(form, sent) {
    var given = {};
    sent.values.forEach(function (pair) {
      if (typeof pair[1] === "string") (given[pair[0]] = given[pair[0]] || []).push(pair[1]);
    });
    var changed = null;
    var nth = {};  // how many fields of each name were met so far
    Array.prototype.forEach.call(form.elements, function (field) {
      var at = nth[field.name] = (nth[field.name] || 0) + 1;
      var type = (field.type || "").toLowerCase();
      // Hidden fields are the server's (the version it answered at); buttons are not entries; a
      // field the sent form did not have is as the server drew it (a new seat's offer, say).
      if (!field.name || type === "hidden" || field.tagName === "BUTTON" || type === "submit"
          || sent.fields.indexOf(field.name) === -1) return;
      var values = given[field.name] || [];
      var before = type === "checkbox" || type === "radio" ? field.checked : field.value;
      if (type === "checkbox" || type === "radio") {
        field.checked = values.indexOf(field.value) !== -1;
      } else if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option) {
          option.selected = values.indexOf(option.value) !== -1;
        });
      } else if (field.id && Object.prototype.hasOwnProperty.call(sent.typed, field.id)) {
        field.value = sent.typed[field.id];
      } else if (values.length) {
        field.value = values[Math.min(at, values.length) - 1];
      }
      if ((type === "checkbox" || type === "radio" ? field.checked : field.value) !== before) {
        changed = field;
      }
    });
    // What the form shows from its fields (a preview, a running total) follows them. The form
    // is marked refused, not half filled: a push of this phone's panel, drawn for a table moved
    // on, replaces it (table.js).
    if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
    delete form.dataset.dirty;
    if (form.closest("#panel")) form.dataset.refused = "1";
    form.querySelectorAll("details").forEach(function (fold, i) {
      if (sent.open[i]) fold.open = true;
    });
    sent.around.forEach(function (id) {
      var fold = document.getElementById(id);
      if (fold && fold.tagName === "DETAILS") fold.open = true;
    });
  }

  // One tap, one move: each form sent carries a key of its own, the same for a second tap on
  // the same form (the server records the move once), and its buttons wait for the answer.
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + String(Math.random()).slice(2);
  }
  document.body.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt;  // a form's own post (not a preview inside it)
    if (!form || form.tagName !== "FORM" || event.detail.verb !== "post") return;
    if (!form.dataset.key) form.dataset.key = newKey();
    event.detail.parameters.idempotency_key = form.dataset.key;
  });
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM" || !form.dataset.key) return;
    form.setAttribute("aria-busy", "true");
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM" || !form.dataset.key) return;
    form.removeAttribute("aria-busy");
    form.querySelectorAll("button").forEach(function (button) { button.disabled = false; });
    // A refused move may be sent again, corrected: a new move, a new key.
    delete form.dataset.key;
  });

  // A control reached by Tab (Shift+Tab above all) stops below the sticky now line, not under
  // it: the page's scroll padding follows the line's height as it changes.
  function padForNow() {
    var now = document.getElementById("now");
    if (now) document.documentElement.style.scrollPaddingTop = (now.offsetHeight + 16) + "px";
  }
  padForNow();
  window.addEventListener("resize", padForNow);
  document.body.addEventListener("htmx:afterSettle", padForNow);
  table.addEventListener("companion:swapped", padForNow);

  // A push that replaces the section holding the focus (another phone's move, or this phone's
  // controls fetched again) gives the focus back to the same control in the new one.
  var held = null;
  table.addEventListener("companion:swapping", function (event) {
    held = event.detail.section.contains(document.activeElement) && document.activeElement !== document.body
      ? keyOf(document.activeElement) : null;
  });
  table.addEventListener("companion:swapped", function (event) {
    if (held && lost()) {
      var again = find(held, event.detail.section);
      if (again) again.focus({ preventScroll: true });
    }
    held = null;
  });
})();
