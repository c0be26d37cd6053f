/* Offline queue of the score sheet and the live mode: a deal (or a live tap) that cannot
   be sent is kept in localStorage per match and shown as a row "waiting for network". It
   is sent by itself when the network is back and on the next page load, in order, with the
   deal number it was typed for and its own key (the server records a repeat once), or a
   live tap with the revision it was based on. A refused send turns into an error row with
   the server's message and what was typed; only the user discards it.
   A deal form that another phone's save took away (sync.js) is kept too, if anything was
   typed into it: sent with "kept", the server only compares it with the sheet. The same
   entries as the saved deal are no error (nothing is lost); other entries become an error
   row, offering "as the next deal" only while the match takes another deal. */
(function () {
  "use strict";
  var K = window.Kartenrunde = window.Kartenrunde || {};
  var match = location.pathname.match(/^\/g\/\d+\/matches\/(\d+)\//);
  if (!match || !window.localStorage) { return; }
  var STORE = "kartenrunde:queue:" + match[1];
  var flushing = false;
  var timer = null;
  var nextHint = 0;  // the next deal number in the server's last answer

  function load() { try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; } }
  function store(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { return false; }
    render();
    return true;
  }
  function update(id, changes) {
    store(load().map(function (item) { return item.id === id ? Object.assign(item, changes) : item; }));
  }
  function remove(id) { store(load().filter(function (item) { return item.id !== id; })); }
  function field(item, name) {
    var pair = item.fields.filter(function (f) { return f[0] === name; })[0];
    return pair ? pair[1] : "";
  }
  function setField(item, name, value) {
    item.fields = item.fields.filter(function (f) { return f[0] !== name; }).concat([[name, String(value)]]);
  }
  function text(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }

  /* What was typed, per player, in the words of the form: "Anna: Hornochsen 5, X-Reihe 9". */
  function summary(form) {
    var lines = [], byName = {};
    form.querySelectorAll("input, select, textarea").forEach(function (el) {
      if (!el.name || /^(hidden|submit|button)$/.test(el.type) || el.closest(".stale-form")) { return; }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      var value = (el.value || "").trim();
      if (!value || (value === "0" && el.type !== "radio")) { return; }
      var block = el.closest(".player-block, .compact-row, fieldset");
      var who = text(block && block.querySelector("legend, .fw-bold"));
      var label = text(el.id && form.querySelector('label[for="' + el.id + '"]')) || (el.type === "checkbox" && el.closest("label") ? text(el.closest("label")) : "");
      if (who && label.indexOf(who + ":") === 0) { label = label.slice(who.length + 1).trim(); }
      var part = el.type === "radio" || el.type === "checkbox" ? label : (label ? label + " " : "") + value;
      if (!(who in byName)) { byName[who] = []; lines.push(who); }
      byName[who].push(part);
    });
    return lines.map(function (who) { return (who ? who + ": " : "") + byName[who].join(", "); });
  }

  function add(item) {
    var items = load();
    item.seq = items.reduce(function (top, i) { return Math.max(top, i.seq || 0); }, 0) + 1;
    items.push(item);
    return store(items);
  }

  /* Where a form posts. Not form.action: a form with an input named "action" (the live
     board's) gets that input from it. */
  function target(form) { return new URL(form.getAttribute("action") || "", location.href).href; }

  function dealItem(form, state, message) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") { fields.push([name, value]); }
    });
    var item = { kind: "deal", url: target(form), fields: fields, lines: summary(form), state: state, message: message || "" };
    item.number = parseInt(field(item, "number"), 10) || 0;
    item.id = field(item, "client_key") || K.newKey();
    setField(item, "client_key", item.id);
    return item;
  }

  function nextForm(form, number) {
    form.reset();
    form.dataset.dirty = "";
    form.querySelector("[name=number]").value = String(number + 1);
    form.querySelector("[name=client_key]").value = K.newKey();
    var heading = document.querySelector("#deal-form h2");
    if (heading) { heading.textContent = K.t("deal", { number: number + 1 }); }
  }

  /* Called by net.js for a failed htmx request: true when the queue took it over. */
  function takeFailed(event) {
    if (event.type === "htmx:responseError") { return false; }
    var form = K.source(event);
    if (form.tagName !== "FORM") { return false; }  // a deal or a tap is sent by its form
    var version = form.querySelector("[name=version]");
    if (form.closest("#deal-form") && form.querySelector("[name=client_key]") && !(version && version.value)) {
      var item = dealItem(form, "pending");
      if (!add(item)) { return false; }
      nextForm(form, item.number);
      K.toast(K.t("queued", { number: item.number }), { level: "warning", kind: "queued" });
      return true;
    }
    if (form.closest("#board")) {
      var fields = [];
      new FormData(form).forEach(function (value, name) { if (name !== "csrfmiddlewaretoken") { fields.push([name, String(value)]); } });
      var button = form.querySelector("button");
      var label = (button && button.getAttribute("aria-label")) || text(button);
      if (!add({ kind: "live", id: K.newKey(), url: target(form), fields: fields, revision: field({ fields: fields }, "revision"), lines: [label], state: "pending" })) { return false; }
      K.toast(K.t("queuedTap"), { level: "warning", kind: "queued" });
      return true;
    }
    return false;
  }

  /* Offline already: not even tried, straight into the queue. */
  document.addEventListener("htmx:confirm", function (event) {
    if (navigator.onLine !== false || event.detail.verb !== "post") { return; }
    if (takeFailed(event)) { event.preventDefault(); }
  });

  function refusal(html, item, status) {
    if (item.kind === "deal" && status === 409) {
      // A kept form: the server's words (they say whether the match takes another deal).
      var said = item.kept ? text(new DOMParser().parseFromString(html, "text/html").getElementById("notice")) : "";
      return said || K.t("recordedElsewhere", { number: item.number });
    }
    if (status === 403 || status === 404) { return K.t(status === 403 ? "forbidden" : "notFound"); }
    var doc = new DOMParser().parseFromString(html, "text/html");
    var found = Array.prototype.map.call(doc.querySelectorAll("#form-errors, .invalid-feedback, #deal-form [role=alert], #notice"), text);
    found = found.filter(function (line, i) { return line && found.indexOf(line) === i; });
    return found.length ? found.join(" ") : K.t("refusedDeal", { number: item.number });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(flush, 15000);
  }

  function send(item, revision) {
    var body = new URLSearchParams();
    item.fields.forEach(function (f) { body.append(f[0], f[1]); });
    if (revision !== null) { body.set("revision", revision); }
    if (K.changed) { K.changed(); }
    return fetch(item.url, { method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": K.csrf() } });
  }

  function flush() {
    if (flushing || navigator.onLine === false) { return Promise.resolve(); }
    var items = load().filter(function (i) { return i.state === "pending" || i.state === "sending"; });
    items.sort(function (a, b) { return (a.kind === "deal" && b.kind === "deal" ? a.number - b.number : 0) || a.seq - b.seq; });
    if (!items.length) { return Promise.resolve(); }
    flushing = true;
    K.hideToast("queued");  // the rows say how it goes from here
    var saved = false, answered = false, board = null, basedOn = null, revision = null, broken = false;
    function step(index) {
      if (index >= items.length) { return Promise.resolve(); }
      var item = items[index];
      if (item.kind === "live" && broken) {
        update(item.id, { state: "error", message: K.t("tapChainBroken") });
        return step(index + 1);
      }
      var chained = item.kind === "live" && basedOn !== null && item.revision === basedOn ? revision : null;
      update(item.id, { state: "sending" });
      return send(item, chained).then(function (response) {
        if (response.redirected && /\/accounts\/login\//.test(new URL(response.url).pathname)) {
          update(item.id, { state: "pending" });
          K.toast(K.t("loggedOut"), { action: function () { location.reload(); }, actionLabel: K.t("reload") });
          return null;
        }
        return response.text().then(function (html) {
          K.online(true);
          if (response.ok) {
            remove(item.id);
            saved = true;
            if (item.kept) {  // the same entries are on the sheet: say so, no error
              var said = text(new DOMParser().parseFromString(html, "text/html").getElementById("notice"));
              if (said) { K.toast(said, { level: "success", kind: "kept" }); }
            }
            if (item.kind === "live") {
              board = html;
              basedOn = item.revision;
              var rev = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=revision]");
              revision = rev ? rev.value : null;
            }
            return step(index + 1);
          }
          if (response.status >= 500) {
            update(item.id, { state: "pending", message: K.t("server") });
            later();
            return null;
          }
          var answer = new DOMParser().parseFromString(html, "text/html");
          // An all-zero deal is refused with a question; its row offers the server's "yes".
          var yes = item.kind === "deal" ? answer.querySelector("button[name=confirm_empty]") : null;
          update(item.id, { state: "error", message: refusal(html, item, response.status), confirm: yes ? text(yes) : "" });
          var sheet = answer.getElementById("sheet");
          if (sheet) { nextHint = parseInt(sheet.dataset.next, 10) || nextHint; }
          answered = true;
          if (item.kind === "live") { broken = true; board = html.indexOf('id="board"') >= 0 ? html : board; }
          return step(index + 1);
        });
      }, function () {
        update(item.id, { state: "pending" });
        K.online(false);
        later();
        return null;
      });
    }
    return step(0).then(function () {
      flushing = false;
      if (board && document.getElementById("board")) { htmx.swap("#board", board, { swapStyle: "outerHTML" }); }
      if ((saved || answered) && K.refreshSheet) { K.refreshSheet(); }
    }, function (err) { flushing = false; console.error(err); });
  }

  function resend(item) {
    if (item.kind === "deal") {
      item.fields = item.fields.filter(function (f) { return f[0] !== "kept"; });  // now a real save
      delete item.kept;
      var sheet = document.getElementById("sheet");
      var waiting = load().filter(function (i) { return i.kind === "deal" && i.state !== "error"; }).length;
      item.number = Math.max(parseInt(sheet && sheet.dataset.next, 10) || 0, nextHint, 1) + waiting;
      setField(item, "number", item.number);
      item.id = K.newKey();  // a new send: a new key
      setField(item, "client_key", item.id);
    } else {
      var current = document.querySelector("#board input[name=revision]");
      if (current) { item.revision = current.value; setField(item, "revision", current.value); }
    }
    item.state = "pending";
    item.message = "";
    return item;
  }

  function row(item) {
    var error = item.state === "error", el = K.el;
    var card = el("div", "card mb-2 queue-row " + (error ? "border-danger" : "border-warning"));
    card.dataset.state = item.state;
    var body = el("div", "card-body p-2", "", card);
    var head = el("div", "d-flex gap-2 align-items-center", "", body);
    el("strong", "", item.kind === "deal" ? K.t("deal", { number: item.number }) : item.lines[0], head);
    el("span", "badge ms-auto " + (error ? "text-bg-danger" : "text-bg-warning"),
      K.t(error ? "notSaved" : item.state === "sending" ? "sending" : "waiting"), head);
    if (item.kind === "deal") {
      var list = el("ul", "list-unstyled small mb-0 queue-entries", "", body);
      item.lines.forEach(function (line) { el("li", "", line, list); });
    }
    if (item.message) {
      var message = el("div", "small mt-1 " + (error ? "text-danger" : "text-body-secondary"), item.message, body);
      if (error) { message.setAttribute("role", "alert"); }
    }
    if (!error) { return card; }
    var actions = el("div", "d-flex gap-2 mt-2 flex-wrap", "", body);
    if (item.confirm) {
      el("button", "btn btn-sm btn-warning", item.confirm, actions).addEventListener("click", function () {
        setField(item, "confirm_empty", "1");
        update(item.id, { state: "pending", message: "", confirm: "", fields: item.fields });
        flush();
      });
    }
    var sheet = document.getElementById("sheet");
    // A deal only goes in as the next one while the sheet takes another deal (a page without
    // the sheet, the live board, cannot tell: the server says so if it does not).
    if (item.kind !== "deal" || !sheet || sheet.dataset.recording !== undefined) {
      el("button", "btn btn-sm btn-primary", K.t(item.kind === "deal" ? "asNext" : "retry"), actions)
        .addEventListener("click", function () {
          var items = load().filter(function (i) { return i.id !== item.id; });
          var again = resend(item);
          again.seq = items.reduce(function (top, i) { return Math.max(top, i.seq || 0); }, 0) + 1;
          items.push(again);
          store(items);
          flush();
        });
    }
    el("button", "btn btn-sm btn-outline-danger", K.t("discard"), actions)
      .addEventListener("click", function () { remove(item.id); });
    return card;
  }

  function render() {
    // A kept form being compared with the sheet is no news yet: shown only if refused.
    var items = load().filter(function (item) { return !(item.kept && item.state === "sending"); });
    var box = document.getElementById("net-queue");
    if (!items.length) { if (box) { box.remove(); } return; }
    if (!box) {
      box = K.el("section");
      box.id = "net-queue";
      box.setAttribute("aria-live", "polite");
    }
    var anchor = document.getElementById("deal-form") || document.querySelector("#sheet .sheet-scroll, #sheet table") || document.getElementById("board");
    if (anchor && box.nextElementSibling !== anchor) { anchor.parentNode.insertBefore(box, anchor); }
    if (!anchor && document.getElementById("sheet") && !box.parentNode) { document.getElementById("sheet").appendChild(box); }
    box.textContent = "";
    items.forEach(function (item) { box.appendChild(row(item)); });
  }

  /* A form another phone's save took away: compared by the server (never saved by it);
     nothing typed, nothing kept. */
  function keep(form) {
    var item = dealItem(form, "pending");
    if (!item.lines.length) { return; }
    item.kept = true;
    setField(item, "kept", "1");
    if (add(item)) { flush(); }
  }

  K.queue = {
    takeFailed: takeFailed,
    flush: flush,
    keep: keep,
  };
  document.addEventListener("htmx:afterSettle", render);
  window.addEventListener("online", flush);
  window.addEventListener("storage", function (event) { if (event.key === STORE) { render(); } });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { render(); flush(); });
  } else { render(); flush(); }
})();
