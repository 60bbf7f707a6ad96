// Registers the service worker (/sw.js, served by companion/pwa.py) that keeps the app and the
// pages opened for when the connection drops. data-worker on <html> says how it went (the
// browser tests wait on it).
(function () {
  "use strict";
  var script = document.currentScript;
  var root = document.documentElement;
  if (!script || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(script.dataset.worker, { scope: "/" })
    .then(function () { return navigator.serviceWorker.ready; })
    .then(function () { root.dataset.worker = "ready"; })
    .catch(function () { root.dataset.worker = "failed"; });
})();
