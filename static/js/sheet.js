/* Score sheet: − / + / +N buttons beside number fields. The form works without this. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
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
