/* Standings at once. When a deal is saved from a form whose score preview is on screen
   (the engine's scores, totals and places for exactly what is typed: the preview box
   below the fields), the standings show the preview's totals and places as the request
   leaves, a round trip before the server's answer. The answer then replaces them as
   always; a refused save (409/422) brings the server's sheet with its message, and a
   failed one (no network, an error) puts the standings back as they were while net.js
   and queue.js say what happened. The page works without this file. */
(function () {
  "use strict";

  function serial(form) {
    var data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    return new URLSearchParams(data).toString();
  }

  function isDealForm(elt) { return !!elt && elt.matches && elt.matches("#deal-form form"); }

  /* The preview box remembers what it was computed from. */
  document.addEventListener("htmx:configRequest", function (event) {
    var box = event.detail.elt;
    if (!box.classList || !box.classList.contains("deal-preview-box")) { return; }
    var form = box.closest("form");
    if (form) { box.dataset.previewOf = serial(form); }
  });

  function previewRows(form) {
    var box = form.querySelector(".deal-preview-box");
    var table = box && box.querySelector("table#deal-preview");
    if (!table || box.classList.contains("htmx-request") || box.dataset.previewOf !== serial(form)) {
      return null;  // no preview, or not of what is typed now
    }
    var rows = {};
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      var cells = tr.querySelectorAll("td");
      rows[tr.querySelector("th").textContent.trim()] = {
        total: cells[1].textContent.trim(), place: parseInt(cells[2].textContent, 10),
        placeText: cells[2].textContent.trim()  // the ordinal as the language writes it
      };
    });
    return rows;
  }

  function nameOf(item) { return item.querySelector("b").childNodes[0].textContent.trim(); }

  document.addEventListener("htmx:beforeSend", function (event) {
    var form = event.detail.elt;
    var list = document.querySelector("#standings ol.standings");
    if (!isDealForm(form) || !list) { return; }
    var rows = previewRows(form);
    var items = Array.prototype.slice.call(list.children);
    if (!rows || !items.length || items.some(function (item) { return !rows[nameOf(item)]; })) { return; }
    form.dataset.standingsBefore = list.innerHTML;
    items.forEach(function (item) {
      var row = rows[nameOf(item)];
      item.firstElementChild.textContent = row.placeText;
      item.lastElementChild.textContent = row.total;
      item.dataset.place = String(row.place);
    });
    items.sort(function (a, b) {
      return (a.dataset.place - b.dataset.place) ||
        nameOf(a).toLowerCase().localeCompare(nameOf(b).toLowerCase());
    }).forEach(function (item) { list.appendChild(item); });
    list.setAttribute("data-optimistic", "");
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (!isDealForm(form) || form.dataset.standingsBefore === undefined) { return; }
    var before = form.dataset.standingsBefore;
    delete form.dataset.standingsBefore;
    var list = document.querySelector("#standings ol.standings[data-optimistic]");
    if (list && !event.detail.successful) {  // still ours: the save did not go through
      list.innerHTML = before;
      list.removeAttribute("data-optimistic");
    }
  });
})();
