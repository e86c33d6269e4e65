// The review panel of `mkdocs-zh-translate review serve`: pick a segment on the rendered page,
// see its English, machine text, confidence, suggestions and glossary terms, edit or accept.
// Every value from the server is untrusted (PO files, glossary, model output): it is shown with
// textContent only, never as HTML. Writes carry the per-run token and a JSON body.
(function () {
  "use strict";
  var island = document.getElementById("zh-review-config");
  if (!island) return;
  var config = JSON.parse(island.textContent);
  var API = "/_review/api/";
  var KEY = "zh-review-pending";

  function call(path, body) {
    var init = { headers: { "X-Review-Token": config.token }, credentials: "same-origin" };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(API + path, init).then(function (r) {
      return r.json().then(function (v) { v.status = r.status; return v; });
    });
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function typing(event) {
    var t = event.target;
    return t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.isContentEditable);
  }

  if (config.queue) { queueKeys(); return; }
  if (!config.page) return;

  var seen = {};
  var segments = Array.prototype.filter.call(document.querySelectorAll("[data-zh-seg]"), function (n) {
    var id = n.getAttribute("data-zh-seg");
    if (seen[id]) return false;
    seen[id] = true;
    return true;
  });
  var current = -1;
  var data = null;

  var panel = el("aside", { id: "zh-review-panel", "aria-label": "Translation review", lang: "en" });
  panel.innerHTML =
    '<header><b>Review</b> <span class="zh-where"></span> <span class="zh-state"></span>' +
    ' <a href="/_review/queue" class="zh-queue">Queue (q)</a></header>' +
    '<section><h4>English</h4><div class="zh-english" lang="en"></div><div class="zh-previous"></div></section>' +
    '<section><h4>Machine <span class="zh-confidence"></span></h4><div class="zh-machine" lang="zh"></div></section>' +
    '<section class="zh-suggestions-box"><h4>Translation memory</h4><ul class="zh-suggestions"></ul></section>' +
    '<section class="zh-glossary-box"><h4>Glossary</h4><ul class="zh-glossary"></ul></section>' +
    '<section><h4>Reviewed</h4><div class="zh-reviewed" lang="zh"></div></section>' +
    '<section><h4>Your translation</h4><textarea class="zh-edit" lang="zh" rows="5" spellcheck="false"></textarea>' +
    '<div class="zh-message" role="alert"></div>' +
    '<div class="zh-buttons"><button type="button" class="zh-save">Save (Ctrl+Enter)</button>' +
    '<button type="button" class="zh-accept">Accept (a)</button></div>' +
    '<div class="zh-buttons"><button type="button" class="zh-prev">Previous (k)</button>' +
    '<button type="button" class="zh-next">Next (j)</button>' +
    '<button type="button" class="zh-worst">Next worst (w)</button></div></section>' +
    '<footer class="zh-help">Click a sentence to pick it. e: edit, Esc: leave the editor.</footer>';
  document.body.appendChild(panel);
  document.body.classList.add("zh-review-open");
  function part(name) { return panel.querySelector("." + name); }
  var edit = part("zh-edit");

  function show(message, good) {
    var box = part("zh-message");
    box.textContent = message || "";
    box.className = "zh-message" + (message ? (good ? " zh-good" : " zh-bad") : "");
  }

  function select(position, keepMessage) {
    if (position < 0 || position >= segments.length) return Promise.resolve();
    if (current >= 0) segments[current].classList.remove("zh-review-current");
    current = position;
    var node = segments[position];
    node.classList.add("zh-review-current");
    node.scrollIntoView({ block: "center" });
    if (!keepMessage) show("");
    var index = node.getAttribute("data-zh-seg");
    return call("segment?page=" + encodeURIComponent(config.page) + "&index=" + encodeURIComponent(index))
      .then(function (value) {
        if (value.status !== 200) { show(value.error || "cannot load this segment"); return; }
        data = value;
        render(index);
      });
  }

  function render(index) {
    part("zh-where").textContent = "#" + index + " (" + (current + 1) + "/" + segments.length + ")";
    var state = part("zh-state");
    state.textContent = data.state;
    state.className = "zh-state zh-state-" + data.state;
    part("zh-english").textContent = data.english;
    part("zh-previous").textContent = data.previous ? "Reviewed for: " + data.previous : "";
    part("zh-machine").textContent = data.machine || "(not in the machine cache)";
    part("zh-confidence").textContent = data.confidence === null ? "" : "confidence " + data.confidence;
    part("zh-reviewed").textContent = data.reviewed || "(not reviewed)";
    var list = part("zh-suggestions");
    list.textContent = "";
    data.suggestions.forEach(function (s) {
      var item = el("li", {}, null);
      item.appendChild(el("span", { class: "zh-score" }, s.score === null ? "" : s.score + "%"));
      item.appendChild(el("span", { lang: "zh", class: "zh-suggestion" }, " " + s.chinese));
      item.appendChild(el("div", { lang: "en", class: "zh-for" }, s.english));
      var use = el("button", { type: "button", class: "zh-use" }, "Use");
      use.addEventListener("click", function () { edit.value = s.chinese; edit.focus(); });
      item.appendChild(use);
      list.appendChild(item);
    });
    part("zh-suggestions-box").hidden = !data.suggestions.length;
    var terms = part("zh-glossary");
    terms.textContent = "";
    data.glossary.forEach(function (g) {
      terms.appendChild(el("li", {}, g.term + " \u2192 " + (g.chinese === null ? "(kept in English)" : g.chinese)));
    });
    part("zh-glossary-box").hidden = !data.glossary.length;
    edit.value = data.reviewed || data.current || data.machine || "";
  }

  function write(text) {
    if (!data || current < 0) return;
    var index = segments[current].getAttribute("data-zh-seg");
    var started = Date.now();
    show("Saving\u2026", true);
    call("save", { page: config.page, index: Number(index), text: text, version: data.version })
      .then(function (value) {
        if (!value.ok) { show(value.error || "not saved"); return; }
        sessionStorage.setItem(KEY, JSON.stringify({ page: config.page, index: index, started: started,
          rebuild: value.rebuild_ms }));
        location.reload();
      }, function () { show("the server did not answer: is review serve still running?"); });
  }

  function nextWorst() {
    call("queue").then(function (items) {
      var here = current >= 0 ? segments[current].getAttribute("data-zh-seg") : null;
      var next = items.filter(function (i) { return !(i.page === config.page && String(i.index) === here); })[0];
      if (!next) { show("Nothing left to review.", true); return; }
      if (next.page === config.page) { pick(String(next.index)); return; }
      location.href = next.url + "#zh-seg=" + next.index;
    });
  }

  function pick(index) {
    for (var i = 0; i < segments.length; i++) {
      if (segments[i].getAttribute("data-zh-seg") === index) return select(i);
    }
    return Promise.resolve();
  }

  segments.forEach(function (node, position) {
    node.addEventListener("click", function (event) {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      event.stopPropagation();
      select(position);
    });
  });
  part("zh-save").addEventListener("click", function () { write(edit.value); });
  part("zh-accept").addEventListener("click", function () { write(null); });
  part("zh-prev").addEventListener("click", function () { select(current - 1); });
  part("zh-next").addEventListener("click", function () { select(current + 1); });
  part("zh-worst").addEventListener("click", nextWorst);

  document.addEventListener("keydown", function (event) {
    if (typing(event)) {
      if (event.target === edit && event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        write(edit.value);
      } else if (event.key === "Escape") {
        event.target.blur();
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var action = { j: function () { select(current + 1); }, k: function () { select(current - 1); },
      a: function () { write(null); }, w: nextWorst, e: function () { edit.focus(); },
      q: function () { location.href = "/_review/queue"; } }[event.key];
    if (action) { event.preventDefault(); action(); }
  }, true);

  var pending = null;
  try { pending = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { pending = null; }
  sessionStorage.removeItem(KEY);
  var wanted = /#zh-seg=(\d+)/.exec(location.hash);
  if (pending && pending.page === config.page) {
    var took = Date.now() - pending.started;
    window.zhReviewRerender = took;
    pick(String(pending.index)).then(function () {
      show("Saved; page rebuilt in " + pending.rebuild + " ms, shown " + took + " ms after the save.", true);
    });
  } else if (wanted) {
    pick(wanted[1]);
  } else if (segments.length) {
    select(0);
  }

  function queueKeys() {
    var links = document.querySelectorAll("a.zh-queue-link");
    var at = 0;
    function move(i) { if (i >= 0 && i < links.length) { at = i; links[i].focus(); } }
    document.addEventListener("keydown", function (event) {
      if (event.key === "j") move(at + 1);
      else if (event.key === "k") move(at - 1);
    });
    move(0);
  }
})();
