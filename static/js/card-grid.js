/* Score sheet, card grid (X nimmt!, 11 nimmt!): a card ticked for one player is greyed out and
   locked in every other player's grid, so it cannot be given to two players. The server checks
   the same (a card twice in a deal is refused); the grid works without this file.
   Also: opening one score's breakdown (<details class="why">) closes any other open one. */
(function () {
  "use strict";

  function sync(form, value) {
    var boxes = form.querySelectorAll('.grid-box[value="' + value + '"]');
    var owner = null;
    boxes.forEach(function (box) { if (box.checked) { owner = box; } });
    boxes.forEach(function (box) {
      var other = owner !== null && box !== owner && !box.checked;
      box.disabled = other;
      if (box.nextElementSibling) { box.nextElementSibling.classList.toggle("taken", other); }
    });
  }

  function lock(root) {
    if (!root.querySelectorAll) { return; }
    root.querySelectorAll(".grid-card.taken").forEach(function (label) {
      var box = label.previousElementSibling;
      if (box && !box.checked) { box.disabled = true; }
    });
  }
  if (window.htmx) { window.htmx.onLoad(lock); }

  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("grid-box") || !box.form) { return; }
    sync(box.form, box.value);
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
