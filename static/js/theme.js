// The theme: the phone's own (prefers-color-scheme) until the switch in the header chooses
// light or dark, which this phone then remembers (localStorage). Loaded in the <head> without
// defer, so that data-theme is on <html> before the first paint and a dark page never flashes
// light; the switch itself is wired once the page is parsed.
(function () {
  var KEY = "companion-theme";
  var root = document.documentElement;
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  var chosen = null;
  try { chosen = window.localStorage.getItem(KEY); } catch (e) { /* storage blocked: follow the phone */ }
  if (chosen === "dark" || chosen === "light") root.setAttribute("data-theme", chosen);

  function isDark() {
    var theme = root.getAttribute("data-theme");
    return theme ? theme === "dark" : dark.matches;
  }

  function show() {
    document.querySelectorAll("[data-theme-switch]").forEach(function (button) {
      button.setAttribute("aria-pressed", isDark() ? "true" : "false");
      button.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    show();
    document.addEventListener("click", function (event) {
      var button = event.target.closest("[data-theme-switch]");
      if (!button) return;
      var theme = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", theme);
      try { window.localStorage.setItem(KEY, theme); } catch (e) { /* kept for this page only */ }
      show();
    });
    if (dark.addEventListener) dark.addEventListener("change", show);
  });
})();
