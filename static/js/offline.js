// The table offline (loaded after table.js): while the connection is gone the page keeps showing
// the table as it last was and says so; a move tapped meanwhile is kept on this phone, with its
// Idempotency-Key, and sent when the connection is back (the server records it once, and answers
// a move overtaken by another phone's with today's "Someone at the table changed this"). The
// notice's sentences come translated on this script's tag (templates/companion/table.html).
(function () {
  "use strict";
  var table = document.getElementById("table");
  var script = document.currentScript;
  if (!table || !script) return;
  var words = script.dataset;
  var OUTBOX = "companion:outbox:" + window.location.pathname;
  var PAGES_CACHE = "pages";  // the service worker's (templates/pwa/sw.js)
  var sending = false;
  var retryTimer = null;
  var failure = "";  // the sentence for a kept move the server failed to record

  var notice = document.getElementById("offline");
  if (notice) notice.remove();  // a copy saved while offline (below) carries the old one
  notice = document.createElement("p");
  notice.id = "offline";
  notice.className = "notice";
  notice.setAttribute("role", "status");
  notice.hidden = true;
  // Just before table.js's "Connection lost" toast, which the stylesheet hides while this
  // notice speaks: one sentence about the connection at a time, and this one says more.
  var toast = document.getElementById("connection");
  table.parentNode.insertBefore(notice, toast && toast.parentNode === table.parentNode ? toast : table);

  function outbox() {
    try { return JSON.parse(window.localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function keep(moves) {
    try {
      if (moves.length) window.localStorage.setItem(OUTBOX, JSON.stringify(moves));
      else window.localStorage.removeItem(OUTBOX);
      return true;
    } catch (e) { return false; }
  }

  // What the page says: offline or not, and how many moves wait on this phone.
  function show(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
    table.dataset.offline = offline() ? "1" : "";
    table.dataset.outbox = String(outbox().length);
  }
  // A copy the service worker served for want of a network (it marks it data-copy) is offline
  // until the page's stream opens again.
  var copy = document.documentElement.hasAttribute("data-copy");
  function offline() {
    return !navigator.onLine || (copy && table.dataset.stream !== "open");
  }
  function state() {
    // The phone online and the server not answering (restarting, the Wi-Fi's router down): not
    // "offline", which would send the player to check their phone.
    var kept = navigator.onLine && words.unreached ? words.unreached : words.kept;
    if (outbox().length) show(sending ? words.sending : kept);
    else show(offline() ? words.offline : failure);
  }
  document.body.addEventListener("htmx:sseOpen", function () {
    copy = false;
    state();
    send();
  });

  // A post that never reached the server (or whose answer never came back): kept, with the key
  // table.js gave its form, so that sending it again can only record it once.
  document.body.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post" || config.headers["X-Offline-Replay"]) return;
    var values = {};
    config.formData.forEach(function (value, name) {
      if (typeof value !== "string") return;
      if (name in values) values[name] = [].concat(values[name], value);
      else values[name] = value;
    });
    if (!values.idempotency_key) return;  // not a move form: nothing to keep
    var moves = outbox().filter(function (move) { return move.key !== values.idempotency_key; });
    var host = event.detail.elt.closest("[hx-swap]");
    moves.push({ key: values.idempotency_key, path: config.path, values: values,
                 target: event.detail.target && event.detail.target.id ? "#" + event.detail.target.id : "#live",
                 swap: host ? host.getAttribute("hx-swap") : "innerHTML" });
    if (!keep(moves)) {
      show(words.lost);
      return;
    }
    // A second tap on the same form is the same move (table.js reuses a form's key).
    event.detail.elt.dataset.key = values.idempotency_key;
    failure = "";
    state();
    later();
  });

  // Back online: the kept moves go in the order they were tapped, one at a time.
  function send() {
    var moves = outbox();
    if (sending || !moves.length || !navigator.onLine) return later();
    sending = true;
    state();
    var move = moves[0];
    htmx.ajax("POST", move.path, {
      source: table, target: move.target, swap: move.swap, values: move.values,
      headers: { "X-Offline-Replay": "1" },
    }).then(function () {
      // Answered: recorded, or refused with its sentence in the page (a 412 says someone at
      // the table changed this). Either way it is no longer this phone's to keep.
      keep(outbox().filter(function (kept) { return kept.key !== move.key; }));
      sending = false;
      state();
      send();
    }, function () {
      sending = false;  // still no network: kept, tried again later
      state();
      later();
    });
  }
  document.body.addEventListener("htmx:responseError", function (event) {
    // A server error (5xx) answering a kept move: say so rather than drop it silently.
    var config = event.detail.requestConfig;
    if (config && config.headers["X-Offline-Replay"]) failure = words.failed;
  });
  function later() {
    window.clearTimeout(retryTimer);
    if (outbox().length) retryTimer = window.setTimeout(send, 3000);
  }

  // The table as last shown, saved where the service worker looks for the page when offline.
  function save() {
    if (!window.caches || !("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    var html = "<!doctype html>\n" + document.documentElement.outerHTML
      .replace(/^<html\b/, "<html data-copy");
    caches.open(PAGES_CACHE).then(function (cache) {
      return cache.put(window.location.pathname, new Response(html, {
        headers: { "Content-Type": "text/html; charset=utf-8" } }));
    }).then(function () { table.dataset.saved = "1"; }).catch(function () {});
  }

  window.addEventListener("offline", function () { save(); state(); });
  window.addEventListener("online", function () { state(); send(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") save();
    else send();
  });
  state();
  send();
})();
