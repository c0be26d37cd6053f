/* No silent failure: every htmx request and every form shows that it is busy, cannot be
   sent twice, and tells the user when it fails (offline, timeout, 4xx/5xx, logged out),
   in a toast with "Try again" that keeps what was typed. Also registers the service
   worker (static/sw.js via /sw.js) where the browser allows it. Texts: #net-strings. */
(function () {
  "use strict";
  var K = window.Kartenrunde = window.Kartenrunde || {};
  var strings = null;

  K.t = function (key, values) {
    if (!strings) {
      var node = document.getElementById("net-strings");
      strings = node ? JSON.parse(node.textContent) : {};
    }
    var text = strings[key] || key;
    Object.keys(values || {}).forEach(function (name) { text = text.replace("%(" + name + ")s", values[name]); });
    return text;
  };
  /* The element that made the request (after HX-Retarget, detail.elt is the target). */
  K.source = function (event) {
    return (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
  };
  K.csrf = function () {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  };
  K.newKey = function () {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    if (window.crypto && crypto.getRandomValues) { crypto.getRandomValues(bytes); } else {
      for (var i = 0; i < 16; i++) { bytes[i] = Math.floor(Math.random() * 256); }
    }
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  };

  /* A write form's hidden fields that came empty: the sheet a poll gets is one text for every
     phone watching it (companion/shared_renders.py), so this page puts in its own CSRF token
     and a key made here, once per form (a repeated send of the form keeps its key). */
  K.fillForms = function (root) {
    if (!root || !root.querySelectorAll) { return; }
    var inputs = Array.prototype.slice.call(root.querySelectorAll("input[name=csrfmiddlewaretoken], input[name=client_key]"));
    if (root.matches && root.matches("input[name=csrfmiddlewaretoken], input[name=client_key]")) { inputs.push(root); }
    inputs.forEach(function (input) {
      if (!input.value) { input.value = input.name === "client_key" ? K.newKey() : K.csrf(); }
    });
  };
  document.addEventListener("DOMContentLoaded", function () { K.fillForms(document); });
  document.addEventListener("htmx:load", function (event) { K.fillForms(event.target); });
  /* At the swap itself, not only at htmx:load: that comes when the new content has settled
     (20 ms later), and a form shown meanwhile would have an empty key to read or send. */
  document.addEventListener("htmx:afterSwap", function () { K.fillForms(document); });
  document.addEventListener("htmx:oobAfterSwap", function () { K.fillForms(document); });
  document.addEventListener("submit", function (event) { K.fillForms(event.target); }, true);

  /* A new element with classes and text, added to parent (texts never go in as HTML). */
  K.el = function (tag, className, text, parent) {
    var node = document.createElement(tag);
    node.className = className || "";
    if (text) { node.textContent = text; }
    if (tag === "button") { node.type = "button"; }
    if (parent) { parent.appendChild(node); }
    return node;
  };

  /* ---- the toast: one at a time, at the bottom where the thumb is ---- */
  K.toast = function (message, options) {
    options = options || {};
    var box = document.getElementById("net-toast") || K.el("div", "net-toast", "", document.body);
    box.id = "net-toast";
    box.setAttribute("aria-live", "assertive");
    box.textContent = "";
    box.dataset.kind = options.kind || "";
    var level = options.level || "danger";
    var alert = K.el("div", "alert alert-" + level + " shadow d-flex flex-wrap align-items-center gap-2 mb-0 py-2", "", box);
    alert.setAttribute("role", "alert");
    K.el("span", "net-toast-text", message, alert);
    if (options.action) {
      K.el("button", "btn btn-sm ms-auto btn-" + level, options.actionLabel || K.t("retry"), alert)
        .addEventListener("click", function () { K.hideToast(); options.action(); });
    }
    var close = K.el("button", "btn-close" + (options.action ? "" : " ms-auto"), "", alert);
    close.setAttribute("aria-label", K.t("close"));
    close.addEventListener("click", K.hideToast);
    box.hidden = false;
  };
  K.hideToast = function (kind) {
    var box = document.getElementById("net-toast");
    if (box && (typeof kind !== "string" || box.dataset.kind === kind)) { box.hidden = true; box.textContent = ""; }
  };

  /* ---- busy: the sending form's buttons are disabled and the tapped one spins ---- */
  function busyButtons(elt) {
    var form = elt.tagName === "FORM" ? elt : elt.closest("form");
    var buttons = form ? Array.prototype.slice.call(form.querySelectorAll("button")) : [];
    if (elt.tagName === "BUTTON" && buttons.indexOf(elt) < 0) { buttons.push(elt); }
    return { holder: form || elt, buttons: buttons };
  }
  function setBusy(elt, submitter, on) {
    var busy = busyButtons(elt);
    if (on) { busy.holder.setAttribute("aria-busy", "true"); } else { busy.holder.removeAttribute("aria-busy"); }
    busy.buttons.forEach(function (button) {
      if (on) {
        button.dataset.wasDisabled = button.disabled ? "1" : "";
        button.disabled = true;
      } else if (button.dataset.wasDisabled !== undefined) {
        button.disabled = button.dataset.wasDisabled === "1";
        delete button.dataset.wasDisabled;
        button.classList.remove("is-busy");
      }
    });
    var spinning = submitter || (elt.tagName === "BUTTON" || elt.tagName === "A" ? elt : null);
    if (spinning && on) { spinning.classList.add("is-busy"); } else if (spinning) { spinning.classList.remove("is-busy"); }
  }
  function isPoll(elt) { return !!elt && /-poll$/.test(elt.id); }
  /* Requests the user made (a form, a button, a link), not background ones (the poll, a
     score preview while typing): only those show busy and speak up when they fail. */
  function byUser(elt) { return !!elt && /^(FORM|BUTTON|A)$/.test(elt.tagName) && !isPoll(elt); }
  K.byUser = byUser;

  /* How to send the same request again: the same button of the same form, or the same link. */
  function retryOf(detail) {
    var elt = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    var cfg = detail.requestConfig || {};
    var submitter = cfg.triggeringEvent && cfg.triggeringEvent.submitter;
    return function () {
      if (!document.body.contains(elt)) { return; }
      if (elt.tagName === "FORM") { elt.requestSubmit(submitter && elt.contains(submitter) ? submitter : undefined); } else { elt.click(); }
    };
  }

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    var holder = busyButtons(elt).holder;
    if (holder.getAttribute("aria-busy") === "true" && byUser(elt)) { event.preventDefault(); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!byUser(elt)) { return; }
    var cfg = event.detail.requestConfig || {};
    setBusy(elt, cfg.triggeringEvent && cfg.triggeringEvent.submitter, true);
    forgetNotices();
  });

  /* A notice lasts until the next action, no longer: the messages a page came with and the
     sheet's notice go when the user does something (its answer brings its own). */
  function forgetNotices() {
    var messages = document.getElementById("messages");
    if (messages) { messages.remove(); }
    var notice = document.querySelector("#sheet-notice #notice");
    if (notice) { notice.remove(); }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = K.source(event);
    if (byUser(elt)) { setBusy(elt, null, false); }
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0) { K.online(true); }
  });

  /* A request that ended on the login page: the session is gone. */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.responseURL && /\/accounts\/login\//.test(new URL(xhr.responseURL).pathname) &&
        !/\/accounts\/login\//.test(location.pathname)) {
      event.detail.shouldSwap = false;
      K.toast(K.t("loggedOut"), { action: function () { location.reload(); }, actionLabel: K.t("reload") });
      return;
    }
    if (event.detail.shouldSwap && (xhr.status === 409 || xhr.status === 422)) {
      K.afterRefusal = true;  // the swapped content carries the message: shown after the swap
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!K.afterRefusal) { return; }
    K.afterRefusal = false;
    var message = document.querySelector("#form-errors, .invalid-feedback.d-block, #deal-form [role=alert], #notice");
    if (message) { message.scrollIntoView({ block: "center", behavior: "smooth" }); }
  });

  function failed(event, key, values) {
    var elt = K.source(event);
    if (!byUser(elt)) { return; }
    if (K.queue && K.queue.takeFailed(event)) { return; }  // an offline deal or live tap: queued instead
    if (key === "notFound") {  // it is gone: sending it again would fail again, reloading shows why
      K.toast(K.t(key, values), { action: function () { location.reload(); }, actionLabel: K.t("reload") });
      return;
    }
    K.toast(K.t(key, values), { action: retryOf(event.detail) });
  }
  document.addEventListener("htmx:sendError", function (event) { K.online(false); failed(event, "offline"); });
  document.addEventListener("htmx:timeout", function (event) { failed(event, "timeout"); });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    var key = status === 503 ? "busy" : status >= 500 ? "server" : status === 403 ? "forbidden" : status === 404 ? "notFound" : "refused";
    failed(event, key, { status: status });
  });
  if (window.htmx) { htmx.config.timeout = 20000; }

  /* Plain forms (no htmx): busy while the next page loads; offline they are not sent at all. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.hasAttribute("hx-post") || form.hasAttribute("hx-get")) { return; }
    var submitter = event.submitter;
    if (submitter && (submitter.hasAttribute("hx-post") || submitter.hasAttribute("hx-get"))) { return; }
    if (navigator.onLine === false) {
      event.preventDefault();
      K.toast(K.t("offline"), { action: function () { form.requestSubmit(submitter || undefined); } });
      return;
    }
    if ((form.method || "get").toLowerCase() !== "post") { return; }  // a search or a download: no wait
    setTimeout(function () {  // after the submitter's value is taken, unless another script stopped it
      if (!event.defaultPrevented) { setBusy(form, submitter, true); }
    }, 0);
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) { return; }
    document.querySelectorAll("form[aria-busy=true]").forEach(function (form) { setBusy(form, null, false); });
  });

  /* ---- connection state: a line under the top bar while the sheet cannot be refreshed ---- */
  K.online = function (up) {
    var bar = document.getElementById("net-status");
    if (up) { if (bar) { bar.hidden = true; } return; }
    if (!document.getElementById("sheet") && !document.getElementById("board")) { return; }
    if (!bar) {
      bar = K.el("div", "net-status", K.t("stale"));
      bar.id = "net-status";
      bar.setAttribute("role", "status");
      document.body.insertBefore(bar, document.getElementById("main"));
    }
    bar.hidden = false;
  };
  window.addEventListener("offline", function () { K.online(false); });
  window.addEventListener("online", function () { K.online(true); });
  document.addEventListener("DOMContentLoaded", function () { if (navigator.onLine === false) { K.online(false); } });

  /* ---- service worker: only in a secure context (HTTPS or localhost) ---- */
  var PAGES = "kartenrunde-pages";
  if (window.isSecureContext && "serviceWorker" in navigator) {
    if (!document.body.dataset.user) {
      caches.delete(PAGES);  // logged out: no page of the account stays on the phone
    }
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register("/sw.js").then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (controlled || !document.body.dataset.user) { return; }
      // This page loaded before the worker took over: keep it and its files for offline use.
      var files = Array.prototype.map.call(document.querySelectorAll("script[src], link[rel=stylesheet]"),
        function (node) { return node.src || node.href; });
      var stored = new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        registration.active.postMessage({ store: files }, [channel.port2]);
      });
      return Promise.all([stored, caches.open(PAGES).then(function (cache) { return cache.add(location.href); })]);
    }).then(function () {
      document.documentElement.dataset.offlineReady = "1";
    }).catch(function (err) { console.warn("Service worker not available:", err); });
  }
})();
