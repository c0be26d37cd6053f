/* Table mode of the score sheet: one tap in (full screen where the browser allows it),
   one tap or Escape out. The view itself is server-rendered inside the sheet partial
   (#table-view), so a refreshed sheet (saved deal, polling) refreshes it too; this file
   only toggles the html.table-mode class and the Fullscreen API. Without JavaScript the
   "Table mode" link opens ?view=table, a page that shows the same view. */
(function () {
  "use strict";
  var root = document.documentElement;

  function serverPage() { return root.classList.contains("table-page"); }

  function enter() {
    root.classList.add("table-mode");
    if (root.requestFullscreen && !document.fullscreenElement) {
      root.requestFullscreen().catch(function () { /* no full screen: the full-viewport layout stays */ });
    }
    var exit = document.querySelector("#table-view [data-table-mode='off']");
    if (exit) { exit.focus(); }
  }

  function leave() {
    root.classList.remove("table-mode");
    if (document.fullscreenElement && document.exitFullscreen) {
      document.exitFullscreen().catch(function () {});
    }
    var on = document.querySelector("[data-table-mode='on']");
    if (on) { on.focus(); }
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-table-mode]");
    if (!toggle || serverPage()) { return; }  // ?view=table: the links navigate
    event.preventDefault();
    if (toggle.getAttribute("data-table-mode") === "on") { enter(); } else { leave(); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !root.classList.contains("table-mode")) { return; }
    if (serverPage()) {
      var exit = document.querySelector("#table-view [data-table-mode='off']");
      if (exit) { window.location.href = exit.href; }
      return;
    }
    leave();
  });

  // Leaving full screen with the browser's own gesture (Escape, back swipe) leaves table mode too.
  document.addEventListener("fullscreenchange", function () {
    if (!document.fullscreenElement && root.classList.contains("table-mode") && !serverPage()) {
      root.classList.remove("table-mode");
    }
  });
})();
