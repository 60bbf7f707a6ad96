// The service worker (served at /sw.js by companion/pwa.py, registered by static/js/pwa.js).
// It keeps the app shell and every static file this phone loaded (their names carry a hash of
// their content, so a kept copy is never stale) and the last copy of each page opened, which it
// shows when the network is gone. Posts, event streams, polls and the API always go to the
// network: a move is never answered from a copy (static/js/offline.js keeps one tapped offline).
"use strict";
const VERSION = "{{ version }}";
const SHELL = {{ shell_json|safe }};
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const LOGOUT = "{% url 'logout' %}";
const STATIC_CACHE = "static-" + VERSION;
const PAGES_CACHE = "pages";  // static/js/offline.js saves the table as last shown here too
const PAGES_KEPT = 30;
// Its sentences come translated from companion/pwa.py (the extraction reads only .html and .py).
const OFFLINE_TITLE = "{{ offline_title|escapejs }}";
const OFFLINE_TEXT = "{{ offline_text|escapejs }}";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE)
    .then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("static-") && name !== STATIC_CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Signing out forgets the pages kept for the account.
  if (request.method === "POST" && url.pathname === LOGOUT) {
    event.waitUntil(caches.delete(PAGES_CACHE));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      await cache.put(request, response.clone());
      forgetOldest(cache);
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    return kept ? markedCopy(kept) : offlinePage();
  }
}

// The page kept, marked as a copy (static/js/offline.js then says the table is offline).
async function markedCopy(response) {
  const html = (await response.text()).replace(/<html\b(?![^>]*data-copy)/, "<html data-copy");
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function forgetOldest(cache) {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PAGES_KEPT))
    .map((key) => cache.delete(key)));
}

function offlinePage() {
  const escape = (text) => text.replace(/[&<>"]/g, (c) => "&#" + c.charCodeAt(0) + ";");
  const css = SHELL.find((url) => url.endsWith(".css")) || "";
  const html = "<!doctype html><html lang=\"{{ lang }}\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>" + escape(OFFLINE_TITLE) + "</title><link rel=\"stylesheet\" href=\"" + css + "\">" +
    "</head><body><main><h1>" + escape(OFFLINE_TITLE) + "</h1><p id=\"offline\" class=\"notice\" role=\"status\">" +
    escape(OFFLINE_TEXT) + "</p></main></body></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
