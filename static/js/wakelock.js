/* "Keep screen on" on the score sheet: the Screen Wake Lock API keeps the phone from
   dimming while the sheet is shown. The button (#wake-lock) stays hidden where the browser
   has no wake lock (e.g. plain HTTP); the lock is taken again when the page is shown again
   (browsers drop it when the page is hidden), and the choice is remembered on this phone. */
(function () {
  "use strict";
  var K = window.Kartenrunde = window.Kartenrunde || {};
  var button = document.getElementById("wake-lock");
  if (!button || !("wakeLock" in navigator)) { return; }
  var KEY = "kartenrunde:wake-lock";
  var lock = null;

  function wanted() { try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; } }
  function remember(on) { try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not remembered */ } }
  function show(on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.classList.toggle("active", on);
    button.title = on ? K.t("wakeOn") : button.dataset.offTitle;
  }
  function acquire(loud) {
    return navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      show(true);
      sentinel.addEventListener("release", function () { lock = null; show(false); });
    }, function () {
      show(false);
      if (loud) { K.toast(K.t("wakeFailed"), { level: "warning" }); }
    });
  }

  button.dataset.offTitle = button.title;
  button.hidden = false;
  button.disabled = false;  // drawn disabled: a tap before this script ran would be lost
  button.addEventListener("click", function () {
    if (lock) {
      remember(false);
      lock.release();
    } else {
      remember(true);
      acquire(true);
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && wanted() && !lock) { acquire(false); }
  });
  if (wanted()) { acquire(false); }
})();
