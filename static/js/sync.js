/* Live score sheet: #sheet-poll (in the sheet partial) asks for the sheet while the page is
   visible, sending the ETag of the sheet it shows; a running sheet's poll (data-wait) asks
   the server to hold it until the match's next change (KR-Wait), so another phone's save
   shows here at once; an unchanged sheet answers 304 without a body, and the next poll
   starts right away (after 2 s when the server could not hold it). A new sheet is swapped in, but a deal form that is in use (typed
   into, focused, or correcting a deal) stays as it is, and says so when its deal number
   was recorded on another phone meanwhile. The live board (#board-poll) polls the same
   way; it waits while a number is being typed into it.
   A fresh deal form (data-fresh: its entry mode) is kept as it came; a save sends that mode
   (KR-Fresh-Form), and when the next form would be the same fresh form the answer leaves it
   out and names the new number, key and heading (kr:form): the kept copy takes the form's
   place with them, as a reload would show it.
   The sheet's poll takes steps (KR-Steps): when other phones saved the next deals, the answer
   may be those saves' steps of the sheet, one after the other (KR-Step), the same changed parts
   out of band, without a form: a form in use stays as it is (marked when its number was
   taken), else the kept fresh form comes back with the next number (kr:form with "step"), or
   the sheet is asked for anew. */
(function () {
  "use strict";
  var K = window.Kartenrunde = window.Kartenrunde || {};
  var changes = 0;  // saves started on this page: a poll that began before one is outdated

  K.changed = function () { changes += 1; };
  K.pollDue = function () {
    return document.visibilityState === "visible" && navigator.onLine !== false &&
      !document.querySelector(".htmx-request");
  };
  K.refreshSheet = function () {
    var poll = document.getElementById("sheet-poll");
    if (poll) { htmx.trigger(poll, "kr:refresh"); }
  };

  function dealForm() { return document.querySelector("#deal-form form"); }
  function numberOf(form) { return parseInt((form.querySelector("[name=number]") || {}).value, 10); }
  /* A new deal's form: it has a key and no version (a correction's form has both). */
  function isNewDeal(form) {
    var version = form.querySelector("[name=version]");
    return !!form.querySelector("[name=client_key]") && !(version && version.value);
  }
  function inUse(form) {
    return form.dataset.dirty === "1" || form.contains(document.activeElement) || !isNewDeal(form);
  }
  function markDirty(event) {
    var form = event.target.closest && event.target.closest("#deal-form form");
    if (form && event.target.type !== "hidden") { form.dataset.dirty = "1"; }
  }
  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);

  var fresh = null;  // { mode, node }: a copy of the fresh deal form, as it came
  function keepFresh() {
    var section = document.getElementById("deal-form");
    var mode = section ? section.dataset.fresh : undefined;  // no deal form (finished, full): nothing to keep
    if (mode === undefined || (fresh && fresh.mode === mode)) { return; }
    var node = section.cloneNode(true);
    var form = node.querySelector("form");
    if (form) { form.reset(); delete form.dataset.dirty; }
    node.querySelectorAll(".stale-form").forEach(function (old) { old.remove(); });
    node.removeAttribute("hx-swap-oob");
    fresh = { mode: mode, node: node };
  }
  document.addEventListener("DOMContentLoaded", keepFresh);
  document.addEventListener("htmx:load", keepFresh);

  document.addEventListener("kr:form", function (event) {
    var next = event.detail;
    var old = document.getElementById("deal-form");
    if (!old || !next) { return; }
    var shown = old.querySelector("form");
    if (next.step) {  // another phone's save: a form in use here stays, else the fresh one in its mode
      if (shown && inUse(shown)) { return; }
      var mode = shown && shown.querySelector("[name=mode]");
      next = { mode: mode ? mode.value : (fresh && fresh.mode), number: next.number, key: "", heading: next.heading };
    }
    if (!fresh || fresh.mode !== next.mode) {  // not expected: then the sheet as the server has it
      if (shown) { delete shown.dataset.dirty; }
      if (old.contains(document.activeElement)) { document.activeElement.blur(); }
      var sheet = document.getElementById("sheet");
      if (sheet) { delete sheet.dataset.etag; }  // the whole sheet, not "not modified"
      K.refreshSheet();
      return;
    }
    var node = fresh.node.cloneNode(true);
    node.querySelector("h2").textContent = next.heading;
    node.querySelector("[name=number]").setAttribute("value", next.number);
    node.querySelector("[name=client_key]").setAttribute("value", next.key);
    old.replaceWith(node);
    htmx.process(node);
    htmx.trigger(node, "htmx:load");
  });

  /* A saved deal answers with the changed parts of the sheet only (out of band) and names the
     sheet's new ETag and next deal number in this event: the sheet shown is that version. */
  document.addEventListener("kr:sheet", function (event) {
    var sheet = document.getElementById("sheet");
    if (!sheet || !event.detail) { return; }
    if (event.detail.etag) { sheet.dataset.etag = event.detail.etag; }
    if (event.detail.next) { sheet.dataset.next = String(event.detail.next); }
  });

  /* A part of a save's answer found no place on this page: the page is older than the answer
     expects (loaded before an update of the app, say, when the deals table was not there yet
     before the first deal). The sheet anew, as the server has it. */
  document.addEventListener("htmx:oobErrorNoTarget", function () {
    var sheet = document.getElementById("sheet");
    if (sheet) { delete sheet.dataset.etag; }
    K.refreshSheet();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var cfg = event.detail;
    if (cfg.verb !== "get") {
      if (fresh && cfg.elt.closest && cfg.elt.closest("#deal-form") && cfg.elt.tagName === "FORM" && isNewDeal(cfg.elt)) {
        cfg.headers["KR-Fresh-Form"] = fresh.mode;  // the answer may leave the next form out
      }
      if (K.byUser(cfg.elt)) { K.changed(); }
      return;
    }
    if (isPoll(cfg.elt)) {
      cfg.elt.dataset.started = String(Date.now());
      if (cfg.elt.hasAttribute("data-wait")) { cfg.headers["KR-Wait"] = "1"; }
    }
    if (cfg.elt.id === "board-poll") {
      var board = document.getElementById("board");
      if (board && board.dataset.etag) { cfg.headers["If-None-Match"] = board.dataset.etag; }
      cfg.elt.dataset.changes = String(changes);
      return;
    }
    if (cfg.elt.id !== "sheet-poll") { return; }
    cfg.headers["KR-Steps"] = "1";
    var sheet = document.getElementById("sheet");
    if (sheet && sheet.dataset.etag) { cfg.headers["If-None-Match"] = sheet.dataset.etag; }
    var form = dealForm();
    var mode = form && form.querySelector("[name=mode]");
    if (mode && mode.value) { cfg.parameters.mode = mode.value; }  // a fresh form in the same entry mode
    cfg.elt.dataset.changes = String(changes);
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = K.source(event);
    if (!/^(sheet|board)-poll$/.test(elt.id) || !event.detail.shouldSwap) { return; }
    if (event.detail.xhr && event.detail.xhr.status === 410) { return; }  // deleted on another phone: say so
    if (elt.dataset.changes !== String(changes)) {  // a save answered meanwhile: its sheet is newer
      event.detail.shouldSwap = false;
      return;
    }
    if (elt.id === "board-poll") {
      var typing = document.activeElement;
      if (typing && typing.value && typing.closest && typing.closest("#board form")) { event.detail.shouldSwap = false; }
      return;
    }
    var form = dealForm();
    if (!form || !inUse(form)) { return; }
    var step = event.detail.xhr && event.detail.xhr.getResponseHeader("KR-Step");
    if (step) {  // the form stays, unless the match takes no further deal
      if (step === "end" && form.dataset.dirty === "1" && isNewDeal(form) && K.queue) { K.queue.keep(form); }
      return;
    }
    var html = event.detail.serverResponse;
    if (html.indexOf('id="deal-form"') >= 0) {
      event.detail.serverResponse = html.replace('id="deal-form"', 'id="deal-form" data-hx-preserve="true"');
    } else if (form.dataset.dirty === "1" && isNewDeal(form) && K.queue) {
      K.queue.keep(form);  // no form any more: what was typed is compared with the sheet, not lost
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    var sheet = document.getElementById("sheet");
    var form = dealForm();
    if (!sheet || !form || !isNewDeal(form)) { return; }
    var next = parseInt(sheet.dataset.next, 10);
    var number = numberOf(form);
    var old = form.querySelector(".stale-form");
    if (old && (number === next || form.dataset.dirty !== "1")) { old.remove(); }
    if (!(number < next) || form.querySelector(".stale-form")) { return; }
    var notice = K.el("div", "alert alert-warning py-2 stale-form d-flex flex-wrap gap-2 align-items-center");
    notice.setAttribute("role", "alert");
    K.el("span", "", K.t("staleForm", { number: number }), notice);
    K.el("button", "btn btn-sm btn-warning", K.t("useForNext", { number: next }), notice).addEventListener("click", function () {
      var now = parseInt(document.getElementById("sheet").dataset.next, 10);
      form.querySelector("[name=number]").value = String(now);
      var heading = document.querySelector("#deal-form h2");
      if (heading) { heading.textContent = K.t("deal", { number: now }); }
      notice.remove();
    });
    form.insertBefore(notice, form.firstElementChild);
  });

  /* A sheet (or board) replaced while its poll waits for an answer: that answer would come
     to an element no longer on the page (htmx looks its parts up there, and fails), and the
     new sheet's own poll takes over. That answer is left unused (htmx:beforeOnLoad cancelled:
     an abort would be logged as an error, and events of a detached element reach no
     document listener, so the element gets its own). */
  document.addEventListener("htmx:beforeCleanupElement", function (event) {
    if (isPoll(event.target)) {
      event.target.addEventListener("htmx:beforeOnLoad", function (late) { late.preventDefault(); });
    }
  });

  /* Leaving the page (a link, a form without htmx) cuts a held poll off: htmx would log that
     as an error (htmx:sendAbort). Its abort handler is dropped then: nothing waits for it. */
  var held = [];
  document.addEventListener("htmx:beforeSend", function (event) {
    held = held.filter(function (xhr) { return xhr.readyState !== 4; });  // the answered ones go
    if (isPoll(K.source(event))) { held.push(event.detail.xhr); }
  });
  window.addEventListener("beforeunload", function () {
    held.forEach(function (xhr) { xhr.onabort = null; });
  });

  /* A form sent without htmx (deleting the match, a rematch) leaves the page, but a held poll
     may be answered before it is gone: 410 when this very phone deleted the match, which the
     browser logs as a failed load. So it is cut off quietly at once. Should the page stay after
     all (the answer was a download, or it failed), the poll starts afresh a moment later. */
  document.addEventListener("submit", function (event) {
    if (event.defaultPrevented) { return; }  // htmx's own (and the offline queue's) sends
    var waiting = held.filter(function (xhr) { return xhr.readyState !== 4; });
    if (!waiting.length) { return; }
    waiting.forEach(function (xhr) { xhr.onabort = null; xhr.abort(); });
    held = [];
    setTimeout(function () {
      var poll = document.querySelector("#sheet-poll, #board-poll");
      if (!poll) { return; }
      var again = poll.cloneNode(true);  // htmx still counts the cut-off request: a new element
      again.classList.remove("htmx-request");
      poll.replaceWith(again);
      htmx.process(again);
      pollNext(again, 0);
    }, 5000);
  });

  function isPoll(elt) { return !!elt && /^(sheet|board)-poll$/.test(elt.id); }

  /* The next held poll: at once after one the server held (or after a new sheet came), 2 s
     after one it answered at once (it could not hold it, or the phone was offline). */
  function pollNext(elt, started) {
    var poll = elt && document.body.contains(elt) ? elt : document.querySelector("#sheet-poll, #board-poll");
    if (!poll || !poll.hasAttribute("data-wait")) { return; }
    var wait = Math.max(0, (started || 0) + 2000 - Date.now());
    setTimeout(function () {
      if (document.body.contains(poll) && K.pollDue()) { htmx.trigger(poll, "kr:poll"); }
    }, wait);
  }
  document.addEventListener("DOMContentLoaded", function () { pollNext(null, 0); });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var elt = K.source(event);
    if (!isPoll(elt)) { return; }
    var answered = xhr && (xhr.status === 304 || xhr.status === 200);
    if (answered && K.queue) {
      K.queue.flush();  // the server answers: send what waits
    }
    var started = parseInt(elt.dataset.started, 10) || 0;
    // Held for a while, or a new sheet (whose own poll takes over): at once; else in 2 s.
    pollNext(elt, answered && (xhr.status === 200 || Date.now() - started >= 1000) ? 0 : started);
  });
})();
