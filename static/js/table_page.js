// The table's page, beside its live sections (table.js): a seat form leads back to the table's
// top, the share button, "Your turn" when the table waits for this phone's seat, and the screen
// kept on while the table is open.
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;

  // A seat taken or changed (forms marked data-to-table, at the page's foot or top) comes back
  // at the table's top, where this phone's own controls now are. The answer's address says so
  // (#table), but a page the service worker answers may lose the fragment, and the browser then
  // puts it back where the form was: the form leaves word here for the page it leads to.
  var TO_TABLE = "companion:to-table";
  document.addEventListener("submit", function (event) {
    if (!event.target.matches || !event.target.matches("form[data-to-table]")) return;
    try { sessionStorage.setItem(TO_TABLE, window.location.pathname); } catch (e) { /* private */ }
  }, true);
  (function toTheTable() {
    var wanted = null;
    try {
      wanted = sessionStorage.getItem(TO_TABLE);
      sessionStorage.removeItem(TO_TABLE);
    } catch (e) { return; }
    if (wanted !== window.location.pathname) return;
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    function go() { table.scrollIntoView({ block: "start" }); }
    if (document.readyState === "complete") go(); else window.addEventListener("load", go);
  })();

  // Share: the phone's own share sheet where there is one, else the link is copied.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var url = new URL(button.dataset.url || window.location.href, window.location.href).href;
    var shared = { title: button.dataset.title, text: button.dataset.text, url: url };
    if (navigator.share) {
      navigator.share(shared).catch(function () {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText((shared.text ? shared.text + " " : "") + url).then(function () {
        button.dataset.copied = "1";
        button.textContent = button.dataset.done || "Link copied";
      }).catch(function () {});
    }
  });

  // Its turn, its seal, its score: when the table waits for this phone's seat (the game's rules
  // say whom, on the now line: data-awaited), the tab's title starts with "Your turn", and the
  // phone vibrates once as it comes to be so, not again for every push while it stays so (where
  // the browser lets it: Chrome, once the page has been tapped). A switch in the table's
  // settings, kept on this phone, turns both off.
  var ALERTS = "companion:turn-alert";
  var turnAlert = document.getElementById("turn-alert");
  var alertSwitch = document.getElementById("turn-alert-switch");
  var title = document.title;
  var wasAwaited = null;  // not known before the page's first look: a page opened is looked at
  var alertsOff = false;
  try { alertsOff = window.localStorage.getItem(ALERTS) === "off"; } catch (e) { /* private */ }
  function seatAwaited() {
    var marked = document.querySelector("#now [data-awaited]");
    if (!marked || table.dataset.viewer === undefined) return false;
    return marked.dataset.awaited.split(" ").indexOf(table.dataset.viewer) !== -1;
  }
  function tellTurn() {
    var awaited = seatAwaited();
    var told = awaited && turnAlert && !alertsOff;
    document.title = told ? turnAlert.dataset.title + " · " + title : title;
    if (told && wasAwaited === false && navigator.vibrate) navigator.vibrate(200);
    wasAwaited = awaited;
  }
  if (turnAlert && alertSwitch) {
    alertSwitch.checked = !alertsOff;
    turnAlert.hidden = false;
    alertSwitch.addEventListener("change", function () {
      alertsOff = !alertSwitch.checked;
      try {
        if (alertsOff) window.localStorage.setItem(ALERTS, "off");
        else window.localStorage.removeItem(ALERTS);
      } catch (e) { /* private browsing: for this page only */ }
      tellTurn();
    });
  }
  // A push swaps the now line in (table.js), this phone's own answer the whole table.
  table.addEventListener("companion:swapped", tellTurn);
  document.body.addEventListener("htmx:afterSettle", tellTurn);
  tellTurn();

  // Keep the screen on while the table is open (Screen Wake Lock API, where there is one).
  var wakeLock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || (wakeLock && !wakeLock.released)) return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; })
      .catch(function () {});
  }
  keepAwake();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") keepAwake();
  });
})();
