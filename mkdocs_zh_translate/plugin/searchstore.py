"""Material's search entries of a page, as a later process takes them back from the machine cache.

A Traditional variant's build keeps its pages' search entries between processes (hookmemo.py).
What comes back from the cache is not trusted more than the cache: a file anyone could have
written (a CI cache restored from elsewhere) puts text into pages, never markup (translations
are escaped, reviews checked). So an entry is taken back only if it holds what Material's
indexer (``material.plugins.search``, at a release of ``speedups.TESTED``) writes for that page:

* ``title`` and ``text``: text escaped by the indexer (no ``<`` or ``>`` of its own) and the bare
  tags it keeps (``<p>``, ``<code>``, ``<pre>``, lists, ``<sub>``, ``<sup>``), nothing else;
* ``location``: the page's URL, or the page's URL and a fragment without quotes, angle
  brackets or spaces;
* ``tags`` and ``boost``: what the page's metadata gives, computed here again.

The page's content, which the indexer also edits (its ``data-search-*`` attributes removed), is
not stored at all: it is edited here as the indexer edits it. Anything else, and the page is
indexed by Material as always.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mkdocs.structure.pages import Page

# The tags Material's search parser keeps in an entry's text (its ``Parser.keep``), bare.
_KEPT_TAG = re.compile(r"</?(?:p|code|pre|li|ol|ul|sub|sup)>")
# What the indexer removes from the page's content (``SearchPlugin.on_page_context``).
_SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")
_UNSAFE_FRAGMENT = re.compile(r"[\s\"'<>`]")


def strip_search_attributes(content: str) -> str:
    """``content`` as Material's indexer leaves it."""
    return _SEARCH_ATTRIBUTE.sub("", content)


def checked(entries: object, page: Page) -> list[dict[str, Any]] | None:
    """``entries`` (read back from the cache) when each is one Material's indexer could have
    written for ``page`` (see the module's docstring); None otherwise."""
    if not isinstance(entries, list):
        return None
    extra = _extra_fields(page)
    if extra is None:
        return None
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) != {"location", "title", "text", *extra}:
            return None
        if any(entry[name] != value for name, value in extra.items()):
            return None
        if not (_plain(entry["title"]) and _plain(entry["text"]) and _on_page(entry["location"], page.url)):
            return None
    return entries


def _plain(value: object) -> bool:
    return isinstance(value, str) and not any(c in _KEPT_TAG.sub("", value) for c in "<>")


def _on_page(location: object, url: str) -> bool:
    if not isinstance(location, str) or not location.startswith(url):
        return False
    rest = location[len(url):]
    return rest == "" or (rest.startswith("#") and not _UNSAFE_FRAGMENT.search(rest))


def _extra_fields(page: Page) -> dict[str, Any] | None:
    """The ``tags`` and ``boost`` the indexer adds to each entry of ``page`` (as JSON reads them
    back), None when they would not read back the same."""
    fields: dict[str, Any] = {}
    tags = page.meta.get("tags")
    if isinstance(tags, list):
        fields["tags"] = [str(name) for name in tags if name and isinstance(name, (str, int, float, bool))]
    search = page.meta.get("search") or {}
    if not isinstance(search, dict):
        return None
    if "boost" in search:
        fields["boost"] = search["boost"]
    try:
        return dict(json.loads(json.dumps(fields, allow_nan=False)))
    except (TypeError, ValueError):
        return None
