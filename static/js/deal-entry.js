/* Score sheet, entering a deal. The sheet works without this file; it only smooths these things:
   - Card grid (X nimmt!, 11 nimmt!): a card ticked for one player is greyed out and locked in
     every other player's grid (the server refuses a card twice in a deal all the same).
   - Score breakdowns (<details class="why">): opening one closes any other open one.
   - Values taken over from a table helper leave the address once they are in the form.
   - The score preview (.deal-preview-box) is a look-ahead, not a change: offline it is not sent,
     and a failed preview never reaches the error toasts or the offline queue (net.js, queue.js),
     which would otherwise take the deal form for a deal to be saved. Its "server cannot be
     reached" lasts only until the server answers again: then the preview is asked anew. */
(function () {
  "use strict";

  /* A card is a checkbox inside its label (.gc) in a .cards-1-100 grid. */
  function sync(form, value) {
    var boxes = form.querySelectorAll('.cards-1-100 input[value="' + value + '"]');
    var owner = null;
    boxes.forEach(function (box) { if (box.checked) { owner = box; } });
    boxes.forEach(function (box) {
      var other = owner !== null && box !== owner && !box.checked;
      box.disabled = other;
      box.parentElement.classList.toggle("taken", other);
    });
  }

  function lock(root) {
    if (!root.querySelectorAll) { return; }
    root.querySelectorAll(".gc.taken > input").forEach(function (box) {
      if (!box.checked) { box.disabled = true; }
    });
  }
  if (window.htmx) { window.htmx.onLoad(lock); }

  /* Values taken over from a helper arrive in the address (?s0-yellow=2…): once they are in the
     form, the address loses them, so reloading after the save does not fill the next deal. */
  document.addEventListener("DOMContentLoaded", function () {
    if (location.search && document.querySelector("#deal-form[data-prefilled]")) {
      history.replaceState(history.state, "", location.pathname + location.hash);
    }
  });

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.closest || !box.closest(".cards-1-100") || !box.form) { return; }
    sync(box.form, box.value);
  });

  function isPreview(event) {
    var elt = (event.detail && event.detail.requestConfig && event.detail.requestConfig.elt) ||
      (event.detail && event.detail.elt);
    return !!(elt && elt.classList && elt.classList.contains("deal-preview-box"));
  }
  function quietly(event) {
    if (!isPreview(event)) { return; }
    event.stopImmediatePropagation();  // window, capture phase: before net.js and queue.js see it
    var box = event.detail.requestConfig ? event.detail.requestConfig.elt : event.detail.elt;
    if (box && box.dataset.unreachable) {
      box.innerHTML = "";
      var hint = document.createElement("p");
      hint.className = "small text-body-secondary mb-0";
      hint.textContent = box.dataset.unreachable;
      box.appendChild(hint);
      box.dataset.stale = "1";
    }
  }
  function askAgain() {
    if (navigator.onLine === false) { return; }
    document.querySelectorAll(".deal-preview-box[data-stale]").forEach(function (box) {
      delete box.dataset.stale;
      htmx.trigger(box, "kr:retry");
    });
  }
  window.addEventListener("online", askAgain);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;  // any answer of the server (a poll's 304 too): it is reachable
    if (xhr && xhr.status > 0 && !isPreview(event)) { askAgain(); }
  });
  window.addEventListener("htmx:confirm", function (event) {
    if (!isPreview(event) || navigator.onLine !== false) { return; }
    event.preventDefault();
    quietly(event);
  }, true);
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    window.addEventListener(name, quietly, true);
  });

  document.addEventListener("click", function (event) {
    var summary = event.target.closest ? event.target.closest(".why > summary") : null;
    if (!summary) {
      if (!event.target.closest || !event.target.closest(".why")) {
        document.querySelectorAll("details.why[open]").forEach(function (open) { open.open = false; });
      }
      return;
    }
    var mine = summary.parentElement;
    document.querySelectorAll("details.why[open]").forEach(function (open) {
      if (open !== mine) { open.open = false; }
    });
  });
})();
