"""Material's version selector (mike) on the Chinese pages.

mike deploys each version's ``site/`` to ``/<version>/`` and keeps one ``versions.json`` at the
root of the deployment. Material's selector finds that file one level above the site's base
(``new URL("../versions.json", config.base)``) and builds every link the same way
(``../<version>/``), so on a Chinese page, whose base is ``/<version>/zh/``, it asks for
``/<version>/versions.json`` (a 404: no selector) and would link to ``/<version>/<other>/``.

The Chinese pages therefore get their own small selector: Material's is switched off in the
page's ``__config`` (its ``version`` set to null, so it makes no request), and a script reads
``versions.json`` two levels up, draws the same markup Material draws (its CSS styles it, its
translations label it), and sends a reader who picks a version to the Chinese twin of the page
in that version: the same page if it exists there, else that version's Chinese home, else
(a version built before the site had a Chinese edition) that version's English home. It also
shows Material's "outdated version" banner as Material would. Version names and titles come
from ``versions.json``, which the deployment writes: they are inserted as text, never as HTML.
"""

from __future__ import annotations

import json
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from . import htmledit
from .site import is_material

_SCRIPT = r"""
(function () {
  var data = __DATA__;
  var config = JSON.parse(document.getElementById("__config").textContent);
  var zhRoot = new URL(config.base, window.location.href);
  var versionRoot = new URL("../", zhRoot);
  var deployRoot = new URL("../", versionRoot);
  var current = decodeURIComponent(versionRoot.pathname.split("/").slice(-2)[0]);
  function make(tag, cls, text) {
    var node = document.createElement(tag);
    node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function exists(url) {
    return fetch(url, { method: "HEAD" }).then(function (r) { return r.ok; }, function () { return false; });
  }
  function zhHome(version) { return new URL(version + "/" + data.prefix + "/", deployRoot); }
  function go(version) {
    var home = zhHome(version);
    var here = window.location.pathname;
    var same = new URL(here.indexOf(zhRoot.pathname) === 0 ? here.slice(zhRoot.pathname.length) : "", home);
    same.search = window.location.search;
    same.hash = window.location.hash;
    exists(same).then(function (found) {
      if (found) return same.href;
      return exists(home).then(function (zh) { return zh ? home.href : new URL(version + "/", deployRoot).href; });
    }).then(function (href) { window.location.href = href; });
  }
  function label(node, version) {
    node.appendChild(document.createTextNode(String(version.title)));
    var aliases = version.aliases || [];
    if (data.alias && aliases.length) node.appendChild(make("span", "md-version__alias", String(aliases[0])));
    return node;
  }
  fetch(new URL("versions.json", deployRoot)).then(function (r) {
    return r.ok ? r.json() : [];
  }).then(function (versions) {
    if (!Array.isArray(versions) || !versions.length) return;
    var active = versions.filter(function (v) {
      return v.version === current || (v.aliases || []).indexOf(current) >= 0;
    })[0] || versions[0];
    var button = label(make("button", "md-version__current"), active);
    button.setAttribute("aria-label", (config.translations || {})["select.version"] || "");
    var list = make("ul", "md-version__list");
    versions.forEach(function (v) {
      if (v.properties && v.properties.hidden) return;
      var link = label(make("a", "md-version__link"), v);
      link.href = zhHome(v.version).href;
      link.addEventListener("click", function (event) {
        if (event.metaKey || event.ctrlKey) return;
        event.preventDefault();
        go(v.version);
      });
      var item = make("li", "md-version__item");
      item.appendChild(link);
      list.appendChild(item);
    });
    var box = make("div", "md-version");
    box.appendChild(button);
    box.appendChild(list);
    var topic = document.querySelector(".md-header__topic");
    if (topic) topic.appendChild(box);
    var defaults = [].concat(data["default"] || "latest");
    var names = (active.aliases || []).concat(active.version);
    var current_is_default = defaults.some(function (d) {
      return names.some(function (n) { return new RegExp(d, "i").test(n); });
    });
    if (!current_is_default) {
      document.querySelectorAll("[data-md-component=outdated]").forEach(function (node) { node.hidden = false; });
    }
  }).catch(function () {});
})();
"""


def _json_for_script(value: object) -> str:
    """JSON that cannot end a ``<script>`` element or open a comment (as Jinja's ``tojson``)."""
    text = json.dumps(value, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")


def _config_script(output: str) -> tuple[int, int, dict[str, Any], int] | None:
    """The span of the text of Material's ``<script id="__config">``, its JSON, and where
    ``</body>`` starts (one pass over the page's tags)."""
    opened: int | None = None
    found: tuple[int, int, dict[str, Any]] | None = None
    for tag in htmledit.tags(output):
        if tag.name == "body" and tag.end_tag and found is not None:
            return (*found, tag.start)
        if tag.name != "script" or found is not None:
            continue
        ident = tag.attrs.get("id")
        if opened is None and not tag.end_tag and ident is not None and ident.value == "__config":
            opened = tag.end
        elif opened is not None and tag.end_tag:
            try:
                values = json.loads(output[opened : tag.start])
            except ValueError:
                return None
            if not isinstance(values, dict):
                return None
            found = (opened, tag.start, values)
    return None


def uses_mike(config: MkDocsConfig) -> bool:
    """Whether Material's version selector is configured, with mike as the provider."""
    version = config.extra.get("version") if is_material(config) else None
    return isinstance(version, dict) and version.get("provider") == "mike"


def mike_selector(output: str, config: MkDocsConfig, prefix: str) -> str:
    """A Chinese page of a mike-versioned Material site with the selector described above;
    ``prefix`` is the Chinese site's directory under each version. Other pages unchanged."""
    if not uses_mike(config):
        return output
    found = _config_script(output)
    if found is None:
        return output
    start, end, values, body = found
    version = values.get("version")
    if not isinstance(version, dict):  # mike's `version_selector: false`: no selector wanted
        return output
    values["version"] = None
    data = {"prefix": prefix, "alias": bool(version.get("alias")), "default": version.get("default")}
    script = "<script>" + _SCRIPT.replace("__DATA__", _json_for_script(data)) + "</script>"
    return htmledit.apply(output, [(start, end, _json_for_script(values)), (body, body, script)])
