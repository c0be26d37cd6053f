/* Copy and share for links meant for another phone (invite links, table passes).
   Copy: the Clipboard API in a secure context (HTTPS, localhost); on plain HTTP, which
   `make run` serves on the LAN, the field is selected and document.execCommand("copy")
   copies it; where even that fails the button says the text is selected, ready for the
   phone's own "copy". Share: the Web Share API where the browser has it (only in a
   secure context); otherwise its button stays hidden. */
(function () {
  function legacyCopy() {
    try { return document.execCommand("copy"); } catch (err) { return false; }
  }

  function copy(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(input.value).then(
        function () { return true; },
        function () { return legacyCopy(); });
    }
    return Promise.resolve(legacyCopy());
  }

  function setup(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.onclick = function () {
        var input = document.querySelector(button.dataset.copy);
        copy(input).then(function (done) {
          button.textContent = done ? button.dataset.copied : button.dataset.selected;
        });
      };
    });
    if (!navigator.share) { return; }
    root.querySelectorAll("[data-share]").forEach(function (button) {
      button.hidden = false;
      button.onclick = function () {
        var input = document.querySelector(button.dataset.share);
        navigator.share({ title: button.dataset.title || document.title, url: input.value })
          .catch(function (err) {
            // Closing the share sheet is a choice, not a failure; anything else is shown.
            if (err && err.name !== "AbortError") { button.textContent = button.dataset.failed; }
          });
      };
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setup(document); });
  document.addEventListener("htmx:afterSwap", function (event) { setup(event.target); });
})();
