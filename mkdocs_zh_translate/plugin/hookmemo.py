"""Under ``mkdocs serve``, reuse what known plugins' page hooks made of unchanged input.

A serve reload rebuilds every page of both sites although an edit changes one; after the
Markdown renders (``reload.py``), the most expensive steps left are other plugins' page hooks:
on the 309-page instructor site mkdocs-minify's HTML minifier and Material's search indexer
(an HTML parse of every page) cost more than the theme's templates. Both are functions of their
input alone, so their results are kept, in this process, by that input, and reused when the
same input comes again:

* **mkdocs-minify** ``on_post_page``: htmlmin of the page's HTML; key: the HTML and the
  plugin's options. The minified HTML is returned as the plugin would have returned it.
* **Material's search** ``on_page_context``: the index entries of a page and its content with
  the ``data-search-*`` attributes removed; key: everything the indexer reads (the page's
  content, URL, title, metadata and table of contents, the plugin's options). The entries are
  appended to the plugin's index, as the indexer would have appended them.

Anything else is left as it is: other plugins' hooks run as always, and a hook of one of these
plugins runs itself when its plugin is of another kind or release than the one described here
(the wrapped method must be the plugin class's own, of a release in ``speedups.TESTED``), under
``strict``, with ``--dirty`` (Material's search keeps a previous index then), and when Material's
search loads jieba dictionaries of the user's (files that may change between reloads). Results are kept per site
(English, Chinese) for the last build only, so memory stays at one build's worth.

A Traditional variant's site (``modes/variant.py``) also keeps its search entries between
processes: its build, a third site built in every ``mkdocs build``, stores them in the machine
cache (:meth:`HookMemo.dump`, one entry per variant, the last build's only) and the next build
reads them back (:meth:`HookMemo.restore`) while the packages that made them are at the same
versions. They are read from JSON, as the search index writes them: the same bytes. A page
takes them only where ``searchstore.py`` finds nothing in them that Material would not have
written (the cache can put text into a page, never markup); minify's HTML is not stored.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from ..pipeline.stable import parts_key, stable_text
from . import searchstore, speedups

_MINIFY = "mkdocs_minify_plugin.plugin"
_MATERIAL_SEARCH = "material.plugins.search.plugin"
# The plugins whose hooks are described above, by distribution; only the releases of
# ``speedups.TESTED`` are wrapped, others run as always.
_KNOWN = {_MINIFY: "mkdocs-minify-plugin", _MATERIAL_SEARCH: "mkdocs-material"}
#: The machine cache's name (``set_meta``) of a site's stored results, its code appended.
HOOKS_META = "pagehooks:"
# What the stored results depend on besides their keys: the hooks' code and jieba's segmentation
# (its dictionary ships with it) with the regex module Material finds Han text with.
_MAKERS = ("mkdocs", "mkdocs-material", "mkdocs-minify-plugin", "jieba", "backrefs")


class HookMemo:
    """The results of known plugins' page hooks in this process's previous build of one site."""

    def __init__(self) -> None:
        self._previous: dict[str, Any] = {}
        self._current: dict[str, Any] = {}
        self._stored: dict[str, Any] = {}  # search entries an earlier process stored (restore)
        self.reused = 0  # hook calls answered from the memo in the current build (tests, log)
        self.ran = 0

    def install(self, config: MkDocsConfig) -> None:
        """Wrap the known plugins' page hooks of this build's ``config`` (a new build starts)."""
        if self._current:
            self._previous = self._current
        self._current = {}
        self.reused = self.ran = 0
        if config.strict:
            self._previous.clear()
            return
        for plugin in config.plugins.values():
            module = type(plugin).__module__
            if not _known_release(module):
                continue
            if module == _MINIFY:
                self._wrap(config, "post_page", plugin, self._minify)
            elif module == _MATERIAL_SEARCH and not _search_reads_files(plugin):
                self._wrap(config, "page_context", plugin, self._search)

    def dump(self) -> str | None:
        """This build's search entries as one text for the machine cache, None when there are
        none (or one is no JSON value: it would not read back as the indexer made it)."""
        entries = {key: found[0] for key, found in self._current.items() if isinstance(found, tuple)}
        if not entries:
            return None
        try:
            return json.dumps({"makers": _makers(), "results": entries}, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            return None

    def restore(self, text: str | None) -> None:
        """Take the results of an earlier process's build (:meth:`dump`) as the previous
        build's, after :meth:`install`: unless a package that made them is at another version
        now, or the text is not what :meth:`dump` writes."""
        try:
            data = json.loads(text) if text else None
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("makers") != _makers():
            return
        results = data.get("results")
        if isinstance(results, dict):
            self._stored = results  # checked page by page when taken (searchstore.checked)

    def _from_store(self, key: str, page: Page) -> tuple[list[Any], str] | None:
        """The stored search entries of ``key``, with the content as the indexer leaves it,
        when they are what the indexer writes for ``page``."""
        entries = searchstore.checked(self._stored.pop(key, None), page)
        if entries is None or not isinstance(page.content, str):
            return None
        found = (entries, searchstore.strip_search_attributes(page.content))
        self._current[key] = found
        return found

    def _wrap(self, config: MkDocsConfig, event: str, plugin: Any, make: Callable[[Any, Any], Any]) -> None:
        method = getattr(plugin, f"on_{event}")
        if getattr(method, "__func__", None) is not getattr(type(plugin), f"on_{event}", None):
            return  # not the class's own method (patched by someone): leave it alone
        methods = config.plugins.events[event]
        for i, registered in enumerate(methods):
            if registered == method:
                wrapper = make(plugin, method)
                setattr(wrapper, "mkdocs_priority", getattr(method, "mkdocs_priority", 0))  # noqa: B010
                methods[i] = wrapper
                origin = config.plugins._event_origins.get(method)
                if origin is not None:
                    config.plugins._event_origins[wrapper] = origin

    def _lookup(self, key: str) -> Any:
        found = self._current.get(key)
        if found is None:
            found = self._previous.get(key)
            if found is not None:
                self._current[key] = found
        return found

    def _minify(self, plugin: Any, method: Callable[..., Any]) -> Callable[..., Any]:
        options = _Options(plugin)

        def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> Any:
            key = parts_key(("minify", options.text(), output))
            found = self._lookup(key)
            if found is not None:
                self.reused += 1
                return found
            result = method(output, page=page, config=config)
            self.ran += 1
            if isinstance(result, str):
                self._current[key] = result
            return result

        return on_post_page

    def _search(self, plugin: Any, method: Callable[..., Any]) -> Callable[..., Any]:
        options = _Options(plugin)

        def on_page_context(context: Any, *, page: Page, config: MkDocsConfig, nav: Any) -> Any:
            index = getattr(plugin, "search_index", None)
            entries = getattr(index, "entries", None)
            if not plugin.config.enabled or not isinstance(entries, list) or not isinstance(page.content, str):
                return method(context, page=page, config=config, nav=nav)
            key = parts_key((
                "search",
                options.text(),
                page.content,
                page.url,
                stable_text(page.title),
                stable_text(page.meta),
                _toc_text(page.toc),
            ))
            found = self._lookup(key)
            if found is None and self._stored:
                found = self._from_store(key, page)
            if found is not None:
                added, content = found
                entries.extend(copy.deepcopy(added))
                page.content = content
                self.reused += 1
                return None
            before = len(entries)
            result = method(context, page=page, config=config, nav=nav)
            self.ran += 1
            if result is None and index is plugin.search_index and entries is index.entries:
                self._current[key] = (copy.deepcopy(entries[before:]), page.content)
            return result

        return on_page_context


class _Options:
    """A plugin's options as a stable text, read at its first page (after every ``on_config``,
    which may fill in defaults)."""

    def __init__(self, plugin: Any) -> None:
        self.plugin = plugin
        self._text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = f"{type(self.plugin).__qualname__}\x01{stable_text(dict(self.plugin.config))}"
        return self._text


def _makers() -> list[str | None]:
    return [speedups.installed(name) for name in _MAKERS]


def _known_release(module: str) -> bool:
    return module in _KNOWN and speedups.tested(_KNOWN[module])


def _search_reads_files(plugin: Any) -> bool:
    """Material's search with jieba dictionaries of the user's: their files may change."""
    options = plugin.config
    return bool(options.get("jieba_dict") or options.get("jieba_dict_user"))


def _toc_text(toc: Any) -> str:
    """The table of contents as the search indexer reads it: ids, URLs, titles, nesting."""
    parts: list[str] = []

    def walk(items: Any, depth: int) -> None:
        for item in items:
            parts.append(f"{depth}\x01{item.id}\x01{item.url}\x01{item.title}")
            walk(item.children, depth + 1)

    walk(toc or [], 0)
    return "\x02".join(parts)
