/* Score sheet: − / + / +N buttons beside number fields; after an htmx answer, the part
   that answers (the saved message, a question, the form to correct) is scrolled into view
   and focused. The pages work without this.
   The step buttons come disabled (a tap before this script runs would be lost) and are
   enabled here, on the page and in every part htmx brings. */
(function () {
  "use strict";
  function ready(root) {
    if (!root || !root.querySelectorAll) { return; }
    root.querySelectorAll("button[data-step][disabled]").forEach(function (button) {
      if (!button.closest("[aria-busy=true]")) { button.disabled = false; }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { ready(document); });
  document.addEventListener("htmx:load", function (event) { ready(event.target); });
  if (document.readyState !== "loading") { ready(document); }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) { return; }
    var field = button.closest(".entry-field");
    var input = field && field.querySelector("input");
    if (!input) { return; }
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
    input.value = Math.max(0, value);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();

(function () {
  "use strict";
  /* A saved deal's row is added to the table (out of band) marked as just saved: the row
     saved before it is not marked any more, as when the whole sheet is shown anew. */
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "deal-form") {
      /* The deal form a save replaces or deletes: its card grid (800 cards) goes first, in
         one step; htmx would clean up every card one by one (an event each). */
      target.querySelectorAll(".cards-1-100").forEach(function (grid) { grid.textContent = ""; });
      return;
    }
    if (!target || !target.matches || !target.matches(".sheet-table tbody")) { return; }
    target.querySelectorAll(".saved-row").forEach(function (row) {
      row.classList.remove("table-success", "saved-row");
      if (!row.classList.length) { row.removeAttribute("class"); }
    });
  });

  /* Marked by the server with data-focus: the notice after a save, a question, the edit form. */
  document.addEventListener("htmx:afterSettle", function (event) {
    var root = event.detail && event.detail.elt;
    if (!root || !root.querySelector) { return; }
    var config = event.detail.requestConfig;
    if (config && config.elt && config.elt.id === "sheet-poll") { return; }  // not the user's doing
    var target = root.matches && root.matches("[data-focus]") ? root : root.querySelector("[data-focus]");
    if (!target) { return; }
    target.scrollIntoView({ block: "start", behavior: "smooth" });
    target.focus({ preventScroll: true });
  });
})();
