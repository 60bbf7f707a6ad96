// The live table: fragments pushed over the page's event stream (htmx SSE extension) are swapped
// into their sections; a panel with a half-filled form is never wiped; where the stream fails,
// the page polls with ETag.
(function () {
  "use strict";
  var table = document.getElementById("table");
  if (!table) return;
  // panel_live: the part of a game's panel every phone sees alike (games/<game>/panel_live.html).
  var SECTIONS = ["scoreboard", "now", "log", "undo", "panel", "panel_live"];
  var pendingPanel = null;
  var deferred = {};  // section -> the push held while a form of this phone's in it is on its way
  // The version each section shows: a push no newer than that is skipped (after our own move,
  // the stream brings the same fragments again).
  var shown = {};
  SECTIONS.forEach(function (name) { shown[name] = version(); });
  var pollTimer = null;
  var failures = 0;

  function version() { return parseInt(table.dataset.version || "0", 10); }

  // A form being filled in holds this phone's panel back. A refused one (own_move.js) holds back
  // the panel a poll brings, drawn for no other reason than the catch-up; a pushed panel was
  // drawn because what it shows changed, and replaces it.
  function panelDirty(polled) {
    var panel = document.getElementById("panel");
    return !!(panel && panel.querySelector(polled ? "[data-dirty], [data-refused]" : "[data-dirty]"));
  }

  function place(name, html, at, polled) {
    var section = document.getElementById(name);
    if (!section) return;
    if (name === "panel" && panelDirty(polled)) {
      pendingPanel = { html: html, at: at };
      showNotice();
      return;
    }
    // A section holding this phone's form on its way is not replaced under it: its answer
    // would then find no form to land by (htmx swaps it inside #live, not over it) and none of
    // the page's handlers would hear of it. The push is placed once the answer is in, if it is
    // still newer than what the answer brought.
    if (section.querySelector(".htmx-request")) {
      deferred[name] = { html: html, at: at };
      return;
    }
    shown[name] = Math.max(shown[name] || 0, at);
    swapSection(section, html);
    if (name === "now") announce(at);
    if (name === "undo") say(undoNews());
    if (name === "scoreboard") {
      follow();
      whilePlaying();
    }
    // The game's own script may bring this phone's result into view again.
    if (name === "panel") table.dispatchEvent(new CustomEvent("companion:controls", { bubbles: true }));
  }

  // The undo button and the Redo are drawn once for every phone; each is for the host's phone
  // and those its data-by names ("seated", "seat-1", "guest-17"; services.undo_phones and
  // move_phones). A guest's phone does not show one it would only be refused; the server still
  // decides, and refuses it with the same sentence when it comes all the same (no script).
  function forThisPhone(section) {
    if (!section || table.hasAttribute("data-host")) return;
    var mine = [];
    if (table.dataset.viewer !== undefined) mine.push("seated", "seat-" + table.dataset.viewer);
    if (table.dataset.guest) mine.push("guest-" + table.dataset.guest);
    section.querySelectorAll("form[data-by]").forEach(function (form) {
      form.hidden = !form.dataset.by.split(" ").some(function (word) {
        return mine.indexOf(word) !== -1;
      });
    });
  }
  forThisPhone(document.getElementById("undo"));

  // A refusal is the answer to this phone's own tap: a push of another phone's move, landing
  // just after it, must not take the sentence away before it is read. One said in the section
  // (the now line, the undo button) stays where it was until this phone sends a move again; one
  // under a form goes with the form (a refused form is held as half filled, with its sentence,
  // by own_move.js, so a whole panel pushed waits for it; a form drawn anew has nothing left of
  // what the sentence was about).
  // (own_move.js hears of each swap, to give the focus back where the section took it away.)
  var REFUSAL = '.error[role="alert"]';
  function swapSection(section, html) {
    var kept = Array.prototype.filter.call(section.querySelectorAll(REFUSAL), function (refusal) {
      return !refusal.closest("form");
    }).map(function (refusal) { return placeOf(refusal, section); });
    // What this phone unfolded (the log's earlier lines, a game's folded part) stays unfolded.
    var unfolded = Array.prototype.map.call(section.querySelectorAll("details[open][id]"),
                                            function (details) { return details.id; });
    table.dispatchEvent(new CustomEvent("companion:swapping", { detail: { section: section } }));
    htmx.swap(section, html, { swapStyle: "innerHTML" });
    unfolded.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && section.contains(details)) details.open = true;
    });
    kept.forEach(function (place) { putBack(place, section); });
    withToken(section);
    forThisPhone(section);
    table.dispatchEvent(new CustomEvent("companion:swapped", { detail: { section: section } }));
  }

  // A pushed fragment is rendered without a request, so its plain forms (the rematch, posted
  // without htmx) carry no CSRF token: the page's own (in <body hx-headers>) goes in.
  function withToken(section) {
    var token = null;
    try {
      token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
    } catch (error) { return; }
    if (!token) return;
    section.querySelectorAll("form").forEach(function (form) {
      if (form.method !== "post" || form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.prepend(input);
    });
  }

  // What the table's now line says, said once per version to a screen reader: by #now itself
  // (aria-live) when a push changes it in place, by #announce when this phone's own answer
  // brings a new #live (a live region that arrives already filled is not read).
  // "Ben undid: …" (beside its Redo) and "Ana redid: …" are said through #announce too, once,
  // when new: on the other phones as it is pushed, on the phone that undid instead of the now
  // line.
  var announcer = document.getElementById("announce");
  var announced = version();
  function announce(at, fromAnswer) {
    // This phone's own undo (or Redo) is told even when a push said its version's now line
    // first (the push's undo section waited for the answer, which brought it).
    var news = fromAnswer ? undoNews() : "";
    if (at <= announced && !news) return;
    announced = Math.max(announced, at);
    var now = document.getElementById("now");
    if (!fromAnswer || !now) return;
    say(news || words(now));
  }
  function words(element) { return element.textContent.replace(/\s+/g, " ").trim(); }
  function say(text) {
    if (!announcer || !text) return;
    announcer.textContent = "";  // the same words again (the same move made again) are read
    window.requestAnimationFrame(function () { announcer.textContent = text; });
  }
  // An undo's or a Redo's news is known by its words and its move (data-news): the same move
  // undone again after a Redo is a new move (a new number), its news new too.
  var newsShown = currentNews().key;
  function currentNews() {
    var news = document.querySelector("#undo [data-news]");
    if (!news) return { key: "", text: "" };
    var text = words(news);
    return { key: news.dataset.news + "|" + text, text: text };
  }
  // The undo's or the Redo's news when it is not the one shown before (else "").
  function undoNews() {
    var news = currentNews();
    var fresh = news.key !== newsShown;
    newsShown = news.key;
    return fresh ? news.text : "";
  }

  function placeDeferred() {
    var waiting = deferred;
    deferred = {};
    Object.keys(waiting).forEach(function (name) {
      if (waiting[name].at > (shown[name] || 0)) place(name, waiting[name].html, waiting[name].at);
    });
  }
  document.body.addEventListener("htmx:afterRequest", placeDeferred);
  document.body.addEventListener("htmx:sendError", placeDeferred);
  // Where a refusal sits: the path of child positions from its section.
  function placeOf(refusal, section) {
    var path = [];
    for (var node = refusal; node !== section; node = node.parentElement) {
      path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
    }
    return { refusal: refusal, path: path };
  }
  function putBack(place, section) {
    if (section.querySelector(REFUSAL)) return;  // a sentence of its own is there
    var parent = section;
    for (var i = 0; i < place.path.length - 1; i++) {
      parent = parent.children[place.path[i]];
      if (!parent) return;
    }
    parent.insertBefore(place.refusal, parent.children[place.path[place.path.length - 1]] || null);
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (!form || form.tagName !== "FORM") return;
    document.querySelectorAll("#live " + REFUSAL).forEach(function (refusal) { refusal.remove(); });
  });

  function showNotice() {
    var notice = document.getElementById("moved-on");
    if (notice) notice.hidden = false;
  }

  function applyPendingPanel() {
    var notice = document.getElementById("moved-on");
    if (notice) notice.hidden = true;
    if (pendingPanel === null) return;
    var pending = pendingPanel;
    pendingPanel = null;
    document.querySelectorAll("#panel [data-dirty], #panel [data-refused]").forEach(function (form) {
      delete form.dataset.dirty;
      delete form.dataset.refused;
    });
    place("panel", pending.html, pending.at);
  }

  // A form being filled in is marked dirty until it is sent.
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);
  function markDirty(event) {
    var form = event.target.closest && event.target.closest("#panel form");
    if (form && !form.hasAttribute("data-live-preview")) form.dataset.dirty = "1";
  }
  document.addEventListener("submit", function (event) {
    if (!event.target.dataset) return;
    delete event.target.dataset.dirty;
    delete event.target.dataset.refused;
  }, true);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#moved-on button")) applyPendingPanel();
  });

  // The stream: every message is handled here, never swapped into the feed element itself.
  document.body.addEventListener("htmx:sseBeforeMessage", function (event) {
    event.preventDefault();
    var message = event.detail;
    if (message.type === "seats") return refreshSeats();
    var seen = parseInt(message.lastEventId || "0", 10);
    if (message.type === "version") {
      if (seen > version()) table.dataset.version = String(seen);
      return;
    }
    if (seen && seen <= (shown[message.type] || 0)) return;
    table.dataset.version = String(Math.max(seen, version()));
    place(message.type, message.data, seen);
  });
  // data-stream says whether the page's stream is open ("open") or down ("down"): the browser
  // tests wait on it, and a quiet banner tells the table while it is down and when it is back.
  var everOpen = false;
  var banner = document.getElementById("connection");
  var bannerTimer = null;
  function connection(up) {
    if (!banner) return;
    window.clearTimeout(bannerTimer);
    if (!up) {
      banner.textContent = banner.dataset.down;
      banner.hidden = false;
      return;
    }
    if (banner.hidden) return;
    banner.textContent = banner.dataset.back;
    bannerTimer = window.setTimeout(function () { banner.hidden = true; }, 2500);
  }
  document.body.addEventListener("htmx:sseOpen", function () {
    failures = 0;
    everOpen = true;
    table.dataset.stream = "open";
    connection(true);
    stopPolling();
  });
  document.body.addEventListener("htmx:sseClose", function () {
    table.dataset.stream = "down";
    connection(false);
  });
  document.body.addEventListener("htmx:sseError", function () {
    table.dataset.stream = "down";
    if (everOpen) connection(false);
    failures += 1;
    // A stream that never opened (a proxy that buffers it, say) will not: poll at once. One
    // that worked gets a few tries to come back first.
    if (failures >= 3 || !everOpen) startPolling();
  });

  // The answer to our own move: the stream may have brought the same version first (it often
  // is faster than the answer); then swapping again would only close what the player opened.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "live" || event.detail.xhr.status >= 300) return;
    // "No, keep playing" and a question before a move (end the game? undo a phone's move?) are
    // always shown.
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "get") return;
    if (/^\s*<div id="live"[^>]*\bdata-asks\b/.test(event.detail.serverResponse || "")) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    var answered = found ? parseInt(found[1], 10) : 0;
    // Older than what the pushes have brought since (another phone moved meanwhile): swapped
    // in, it would show the table as it was. This phone's own controls are fetched again.
    var stale = answered < version() || SECTIONS.every(function (name) {
      return !document.getElementById(name) || (shown[name] || 0) >= answered;
    });
    if (answered && stale) {
      event.detail.shouldSwap = false;
      applyPendingPanel();
      // The pushes replace the sections, not what the answer alone takes away: the question
      // this answer settles ("End the game?", "Undo a phone's move?").
      var asked = document.getElementById("confirm");
      if (asked) asked.remove();
    }
  });

  // After our own move, the #live answer carries the new version.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    // Only a new #live carries a version; a pushed section swapped in place (htmx.swap fires
    // this too) must not set the page back to the version #live was first rendered at.
    if (!event.detail.target || event.detail.target.id !== "live") return;
    pendingPanel = null;  // the answer brought a fresher panel than the one held back
    forThisPhone(document.getElementById("undo"));
    var notice = document.getElementById("moved-on");
    if (notice) notice.hidden = true;
    var live = document.getElementById("live");
    if (live && live.dataset.version) {
      var answered = parseInt(live.dataset.version, 10);
      var known = version();
      table.dataset.version = String(Math.max(answered, known));
      // Every section is now as the answer drew it.
      SECTIONS.forEach(function (name) { shown[name] = answered; });
      var xhr = event.detail.xhr;
      var posted = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
      // (A push that brought this version first has had the now line say it: announce skips.)
      if (posted && xhr && xhr.status < 300 && !live.hasAttribute("data-asks")) {
        announce(answered, true);
      }
      // A refusal drawn before pushes this page has shown since: the sentence stays (it is
      // kept across what comes), the table catches up at once.
      if (answered < known) poll(true);
    }
  });

  // A phone took a seat, or one was freed: the host's invite bar and "Free its seat", a seatless
  // phone's seat choice and the board's join code are drawn again from the page as it is now. A
  // seat taken is no new version (the other phones' open forms stay good), so no push brings
  // them. A phone whose own seat was freed is drawn again whole: its controls were its seat's.
  // data-seats counts the redraws: the browser tests wait on it.
  var SEAT_SLOTS = ["invite-slot", "seat-free-slot", "seat-choice-slot", "seat-move-slot",
                    "keep-slot"];
  var seatsFetching = false;
  var seatsAgain = false;
  function refreshSeats() {
    if (seatsFetching) {
      seatsAgain = true;
      return;
    }
    seatsFetching = true;
    fetch(table.dataset.poll, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var drawn = doc.getElementById("table");
        if (drawn && drawn.dataset.viewer !== table.dataset.viewer) {
          window.location.reload();
          return;
        }
        SEAT_SLOTS.forEach(function (id) {
          var fresh = doc.getElementById(id);
          var slot = document.getElementById(id);
          if (!fresh || !slot) return;
          var focused = slot.contains(document.activeElement) && document.activeElement.id;
          slot.innerHTML = fresh.innerHTML;
          htmx.process(slot);
          if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
        });
        whilePlaying();
        table.dataset.seats = String(parseInt(table.dataset.seats || "0", 10) + 1);
      })
      .catch(function () {})
      .then(function () {
        seatsFetching = false;
        if (seatsAgain) {
          seatsAgain = false;
          refreshSeats();
        }
      });
  }

  // Polling with ETag, where streams are unavailable or keep failing.
  function poll(fresh) {
    var headers = { "HX-Request": "true", "HX-Target": "live" };
    // fresh: the page shows older than its ETag says (an old answer swapped in over pushes).
    if (fresh !== true) headers["If-None-Match"] = '"' + table.dataset.etag + '"';
    // Never kept by the browser: the fragment and the whole page share an ETag, so a fragment
    // kept would be what a reload of the page is answered with (304).
    return fetch(table.dataset.poll, { headers: headers, credentials: "same-origin",
                                       cache: "no-store" })
      .then(function (response) {
        if (response.status !== 200) return;
        table.dataset.etag = (response.headers.get("ETag") || "").replace(/^W\//, "")
          .replace(/"/g, "");
        return response.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var live = doc.getElementById("live");
          var polled = live ? parseInt(live.dataset.version || "0", 10) : 0;
          if (polled) table.dataset.version = String(polled);
          SECTIONS.forEach(function (name) {
            var fresh = doc.getElementById(name);
            if (!fresh || polled <= (shown[name] || 0)) return;
            place(name, fresh.innerHTML, polled, true);
          });
        });
      })
      .catch(function () {});
  }
  function startPolling() {
    if (!pollTimer) pollTimer = window.setInterval(poll, 3000);
  }
  function stopPolling() {
    if (pollTimer) window.clearInterval(pollTimer);
    pollTimer = null;
  }
  if (!window.EventSource) startPolling();

  // A phone that slept may have missed pushes: catch up at once when it comes back.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") poll();
  });
  window.addEventListener("online", poll);

  // A rematch: every phone at the finished table follows to the new one.
  var following = false;
  function follow() {
    var link = document.querySelector("#scoreboard [data-follow]");
    // Once: each fragment of the same push settles and asks again, and a second assign would
    // abort the first navigation.
    if (!link || following) return;
    following = true;
    // The board follows to the new game's board, not to a table it has no access to.
    window.location.assign(table.dataset.followTo || link.href);
  }
  document.body.addEventListener("htmx:afterSettle", follow);
  follow();

  // The game over (pushed, or the host's own move): what only serves a game in play (the
  // invite, the seat choice, the host's seat and language) goes, as a new page would leave it out.
  // A phone's "Keep this in my history" card is its own, not the pushed card's: fetched once the
  // game is seen to end here.
  var overSeen = !!document.querySelector("#scoreboard #game-over");
  function whilePlaying() {
    var over = !!document.querySelector("#scoreboard #game-over");
    if (over && !overSeen) {
      overSeen = true;
      refreshSeats();
    }
    document.querySelectorAll("[data-while-playing]").forEach(function (section) {
      section.hidden = over;
    });
    document.querySelectorAll("[data-when-over]").forEach(function (badge) {
      badge.hidden = !over;
    });
  }
  document.body.addEventListener("htmx:afterSettle", whilePlaying);

})();
