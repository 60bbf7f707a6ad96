// The table offline (loaded after table.js): while the connection is gone the page keeps showing
// the table as it last was and says so; a move tapped meanwhile is kept on this phone, with its
// Idempotency-Key, its form marked as waiting, and sent when the connection is back (the server
// records it once). What became of it is said in the notice until this phone sends another:
// sent, or not played and why (the table moved on meanwhile, or the rules refused it), with what
// it was, in the server's words (X-Kept-Refused): its form may be long gone. The notice's
// sentences come translated on this script's tag (templates/companion/table.html).
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
  var told = [];  // what became of the kept moves sent since this phone last sent one itself

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
    else show(offline() ? words.offline : told.join(" "));
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
    // The table it was tapped on (its newest move): what the server describes it against,
    // should the table have moved on by the time it arrives.
    var log = document.querySelector("#log [data-newest]");
    moves.push({ key: values.idempotency_key, path: config.path, values: values,
                 seen: log ? log.dataset.newest : "",
                 target: event.detail.target && event.detail.target.id ? "#" + event.detail.target.id : "#live",
                 swap: host ? host.getAttribute("hx-swap") : "innerHTML" });
    if (!keep(moves)) {
      show(words.lost);
      return;
    }
    // A second tap on the same form is the same move (table.js reuses a form's key).
    event.detail.elt.dataset.key = values.idempotency_key;
    waiting(event.detail.elt);
    told = [];
    state();
    later();
  });

  // The form of a kept move says it waits (the page shows the table as it was, the form as it
  // was filled in), until the kept moves are sent or a push draws the form anew.
  function waiting(form) {
    if (!form || form.tagName !== "FORM" || form.querySelector("[data-kept-waiting]")) return;
    var line = document.createElement("p");
    line.className = "muted";
    line.setAttribute("data-kept-waiting", "");
    line.textContent = words.waiting;
    form.appendChild(line);
  }
  function sentAll() {
    document.querySelectorAll("[data-kept-waiting]").forEach(function (line) { line.remove(); });
  }

  // Back online: the kept moves go in the order they were tapped, one at a time.
  function send() {
    var moves = outbox();
    if (sending || !moves.length || !navigator.onLine) return later();
    sending = true;
    state();
    var move = moves[0];
    htmx.ajax("POST", move.path, {
      source: table, target: move.target, swap: move.swap, values: move.values,
      headers: { "X-Offline-Replay": move.seen || "?" },
    }).then(function () {
      // Answered: recorded, or refused (said in the notice: below). Either way it is no longer
      // this phone's to keep.
      keep(outbox().filter(function (kept) { return kept.key !== move.key; }));
      if (!outbox().length) sentAll();
      sending = false;
      state();
      send();
    }, function () {
      sending = false;  // still no network: kept, tried again later
      state();
      later();
    });
  }
  // What became of a kept move, from its answer: recorded; refused, in the server's words
  // (not played, why, what it was); or a server error (5xx): said rather than dropped silently.
  document.body.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail.requestConfig;
    var xhr = event.detail.xhr;
    if (!config || !config.headers["X-Offline-Replay"] || !xhr || !xhr.status) return;
    var refused = xhr.getResponseHeader("X-Kept-Refused");
    if (refused) {
      try { told.push(decodeURIComponent(refused)); } catch (e) { told.push(words.refused); }
    } else if (xhr.status >= 500) {
      told.push(words.failed);
    } else if (xhr.status >= 400) {
      told.push(words.refused);
    } else if (!/^\s*<div id="live"[^>]*\bdata-asks\b/.test(xhr.responseText || "")) {
      // (A question asked before the move, "End the game?", is on the page: nothing to add.)
      told.push(words.sent);
    }
  });
  // This phone's own move: what became of the kept ones is old news.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post" || config.headers["X-Offline-Replay"]) return;
    if (!told.length) return;
    told = [];
    state();
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
