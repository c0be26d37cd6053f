/* Sharing a game night's tally (templates/companion/groups/night_detail.html).
   "Share as text" opens the phone's share sheet (Web Share API) and copies the text where
   there is none; "Share as picture" shares the image card as a file where the browser can
   (navigator.canShare({files})). Copying works on plain HTTP too, where browsers offer
   neither navigator.share nor navigator.clipboard: the text area is selected and copied
   with document.execCommand("copy"). Without JavaScript the text area and the picture's
   link do the same by hand; the buttons stay hidden. */
(function () {
  "use strict";

  function setup(root) {
    var textArea = root.querySelector(".share-text");
    var status = root.querySelector("[data-share-status]");
    var imageLink = root.querySelector("[data-image-link]");
    var title = root.dataset.title || document.title;

    function say(message) { status.textContent = message; }

    function selectText() {
      textArea.focus();
      textArea.select();
      textArea.setSelectionRange(0, textArea.value.length);
    }

    // The old way, for plain HTTP: copy what is selected. Says what happened either way.
    function copyBySelection() {
      selectText();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
      say(copied ? root.dataset.copied : root.dataset.selected);
    }

    function copy() {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(textArea.value).then(
          function () { say(root.dataset.copied); },
          copyBySelection
        );
      } else {
        copyBySelection();
      }
    }

    function aborted(error) { return error && error.name === "AbortError"; }

    var shareText = root.querySelector("[data-share-text]");
    shareText.hidden = false;
    shareText.addEventListener("click", function () {
      if (!navigator.share) { copy(); return; }
      navigator.share({ title: title, text: textArea.value }).catch(function (error) {
        if (!aborted(error)) { copy(); }  // refused (not a user's cancel): copy instead
      });
    });

    var copyButton = root.querySelector("[data-tally-copy]");
    copyButton.hidden = false;
    copyButton.addEventListener("click", copy);

    var shareImage = root.querySelector("[data-share-image]");
    var probe = typeof File === "function" && new File([""], "card.png", { type: "image/png" });
    if (!navigator.share || !navigator.canShare || !probe || !navigator.canShare({ files: [probe] })) {
      return;  // no sharing of files here: the picture's link remains
    }
    shareImage.hidden = false;
    shareImage.addEventListener("click", function () {
      fetch(imageLink.href, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) { throw new Error(String(response.status)); }
          return response.blob();
        })
        .then(function (blob) {
          var file = new File([blob], imageLink.dataset.fileName, { type: "image/png" });
          return navigator.share({ title: title, files: [file] });
        })
        .catch(function (error) {
          if (!aborted(error)) { say(root.dataset.imageFailed); }
        });
    });
  }

  document.querySelectorAll("[data-tally-share]").forEach(setup);
})();
