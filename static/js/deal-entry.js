/* Score sheet, entering a deal. The sheet works without this file; it only smooths these things:
   - Card grid (X nimmt!, 11 nimmt!): a card ticked for one player is greyed out and locked in
     every other player's grid (the server refuses a card twice in a deal all the same).
   - Number buttons (.chip-panels: 3 sind einer zuviel!, 13): the counts a colour has left,
     once the other players' are taken off what the deck holds, are shown; buttons above
     are struck through (the server refuses too many all the same). In 3 sind einer zuviel!
     a player whose counts leave all seven colours open took an interim scoring card
     (they had them open after their own last turn): the next card of 10/7/5/3 is filled
     in, marked as filled in, and stays as tapped once the player's bonus is tapped.
   - Score breakdowns (<details class="why">): opening one closes any other open one.
   - Values taken over from a table helper leave the address once they are in the form.
   - The score preview (.deal-preview-box) is a look-ahead, not a change: offline it is not sent,
     and a failed preview never reaches the error toasts or the offline queue (net.js, queue.js),
     which would otherwise take the deal form for a deal to be saved. Its "server cannot be
     reached" lasts only until the server answers again: then the preview is asked anew. */
(function () {
  "use strict";
  var K = window.Kartenrunde = window.Kartenrunde || {};

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

  /* ---- number buttons ---- */
  function chipValue(row) {
    var checked = row && row.querySelector("input:checked");
    return checked ? parseInt(checked.value, 10) || 0 : 0;
  }
  function setChip(row, value) {
    var input = row.querySelector('input[value="' + value + '"]');
    if (input && !input.checked) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  function strike(box) {
    var decks = {};
    box.querySelectorAll(".chip-row[data-deck]").forEach(function (row) {
      decks[row.dataset.field] = parseInt(row.dataset.deck, 10);
    });
    Object.keys(decks).forEach(function (name) {
      var rows = Array.prototype.slice.call(box.querySelectorAll('.chip-row[data-field="' + name + '"]'));
      var values = rows.map(chipValue);
      var total = values.reduce(function (a, b) { return a + b; }, 0);
      rows.forEach(function (row, i) {
        var left = decks[name] - (total - values[i]);
        row.querySelectorAll(".chip > input").forEach(function (input) {
          input.parentElement.classList.toggle("over", parseInt(input.value, 10) > left);
        });
      });
    });
  }
  function bonuses(box) {
    var name = box.dataset.autoBonus;
    if (!name) { return; }
    var rows = Array.prototype.slice.call(box.querySelectorAll('.chip-row[data-field="' + name + '"]'));
    rows.forEach(function (row) {
      var panel = row.closest(".chip-panel");
      var colours = Array.prototype.slice.call(panel.querySelectorAll(".chip-row[data-opens]"));
      var allOpen = colours.length > 0 && colours.every(function (c) { return chipValue(c) % 3 !== 0; });  // a total, or 0-2 open
      if (allOpen && !chipValue(row) && !row.dataset.declined) {
        var used = rows.map(chipValue);
        var free = Array.prototype.map.call(row.querySelectorAll(".chip > input"), function (i) { return parseInt(i.value, 10); })
          .filter(function (v) { return v && used.indexOf(v) < 0; })[0];
        if (free) { row.dataset.auto = "1"; setChip(row, free); }
      } else if (!allOpen && row.dataset.auto) {
        delete row.dataset.auto;
        setChip(row, 0);
      }
      var note = row.querySelector(".chip-note");
      if (row.dataset.auto && !note) {
        K.el("div", "chip-note", box.dataset.autoNote, row);
      } else if (!row.dataset.auto && note) { note.remove(); }
    });
    rows.forEach(function (row) {  // a card of the stack goes to one player only
      var others = rows.filter(function (r) { return r !== row; }).map(chipValue);
      row.querySelectorAll(".chip > input").forEach(function (input) {
        var value = parseInt(input.value, 10);
        input.parentElement.classList.toggle("over", value > 0 && others.indexOf(value) >= 0);
      });
    });
  }
  var filling = false;
  document.addEventListener("change", function (event) {
    var input = event.target;
    var box = input.closest && input.closest(".chip-panels");
    if (!box || filling) { return; }
    var row = input.closest(".chip-row");
    if (row && row.dataset.field === box.dataset.autoBonus) {  // tapped: the player's bonus is as tapped
      delete row.dataset.auto;
      if (chipValue(row)) { delete row.dataset.declined; } else { row.dataset.declined = "1"; }
    }
    filling = true;
    try { bonuses(box); strike(box); } finally { filling = false; }
  });
  function chipsReady(root) {
    if (!root.querySelectorAll) { return; }
    (root.matches && root.matches(".chip-panels") ? [root] : Array.prototype.slice.call(root.querySelectorAll(".chip-panels")))
      .forEach(strike);
  }
  if (window.htmx) { window.htmx.onLoad(chipsReady); }

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
