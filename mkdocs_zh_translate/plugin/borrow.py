"""The English build's page renders, lent to the page guard.

The guard renders each translated page's English Markdown to compare the spliced page with it;
the English build has just rendered the same Markdown. MkDocs renders with the site's
``markdown_extensions`` and options, plus processors of its own that only read the tree (ids,
title, raw HTML anchors) and one that changes it: links and images with a relative path are
rewritten to their targets' URLs. So a page's render is the guard's own render exactly when

* the Markdown MkDocs rendered (``page.markdown`` after every plugin's ``on_page_markdown``)
  is the Markdown the guard is given: the lookup is by that exact text;
* the guard renders with the same extensions and options: renders are lent by the site's
  renderer fingerprint (:func:`extensions_fingerprint`) at render time, and only to a guard
  that renders with those extensions (``Pipeline.page_guard``: not where it stands a stub in
  for mkdocstrings; where it adds the heading-pins reader to a site whose attr_list is spelt
  ``markdown.extensions.attr_list``, attr_list runs first, at the same priority, and consumes
  every trailing ``{ ... }`` of a heading, so the reader never acts);
* the links MkDocs rewrote are put back as written: the render is watched
  (``_RelativePathTreeprocessor.path_to_url``, wrapped for the render's duration) and each
  rewrite is undone in the structure's link count; where that cannot be exact (a value with
  ``&``, ``<``, quotes or Markdown's placeholders, which serialising may change; a rewritten
  link inside a ``<pre>`` block, compared byte for byte) the page is not lent. A MkDocs
  without that processor: only pages with no link it may rewrite (no path without a scheme
  or host: the rewrite makes a quoted relative path of every link it changes) are lent.

The HTML is kept; its structure (``guard.structure``) is parsed only when the guard asks for the
page (a cached rebuild's stored verdicts ask for none). The capture wraps ``page.render``
(as ``reload.RenderMemo`` does), so it sees the render itself, before any plugin's
``on_page_content``.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from ..pipeline.guard import Structure, extensions_fingerprint, structure


class EnglishRenders:
    """The English build's page renders, by renderer fingerprint and Markdown."""

    def __init__(self) -> None:
        # fingerprint -> Markdown -> (HTML, MkDocs' link rewrites: (as written, as output))
        self.renders: dict[str, dict[str, tuple[str, list[tuple[str, str]] | None]]] = {}

    def clear(self) -> None:
        self.renders.clear()

    def lent(self, fingerprint: str) -> Mapping[str, Structure]:
        """The structures of renders made with the renderer of this fingerprint, by Markdown
        (parsed when asked for: a cached rebuild asks for none)."""
        return _Lent(self.renders.setdefault(fingerprint, {}))

    def attach(self, page: Page) -> None:
        """Keep ``page``'s render, by the Markdown it rendered and the renderer's fingerprint."""
        original: Callable[[MkDocsConfig, Files], None] = page.render

        def render(config: MkDocsConfig, files: Files) -> None:
            with _link_rewrites(page.file) as rewrites:
                original(config, files)
            if page.markdown is not None and page.content is not None:
                fingerprint = extensions_fingerprint(list(config.markdown_extensions), config.mdx_configs)
                self.renders.setdefault(fingerprint, {})[page.markdown] = (page.content, rewrites)

        render.__wrapped__ = original  # type: ignore[attr-defined]  # sources.foreign_renderer looks through
        page.render = render  # type: ignore[method-assign]


@contextlib.contextmanager
def _link_rewrites(file: File) -> Iterator[list[tuple[str, str]] | None]:
    """Every link MkDocs' relative-path processor rewrites in ``file``'s render, as (written,
    output); None where this MkDocs has no such processor to watch."""
    from mkdocs.structure import pages

    cls = getattr(pages, "_RelativePathTreeprocessor", None)
    method = getattr(cls, "path_to_url", None)
    if cls is None or method is None:
        yield None
        return
    seen: list[tuple[str, str]] = []

    def path_to_url(self: Any, url: str) -> str:
        new: str = method(self, url)
        if new != url and getattr(self, "file", None) is file:  # not another page's render
            seen.append((url, new))
        return new

    cls.path_to_url = path_to_url
    try:
        yield seen
    finally:
        cls.path_to_url = method


class _Lent(Mapping[str, Structure]):
    """Renders as the guard's structures: each link MkDocs rewrote put back as written; a render
    where that cannot be done exactly is absent (the guard renders the page itself)."""

    def __init__(self, renders: dict[str, tuple[str, list[tuple[str, str]] | None]]) -> None:
        self.renders = renders

    def __getitem__(self, markdown: str) -> Structure:
        html, rewrites = self.renders[markdown]
        found = structure(html)
        if rewrites is None:  # unwatched: only a page without a link MkDocs may rewrite
            if not all(_kept_by_mkdocs(link) for link in found.links):
                raise KeyError(markdown)
            return found
        links = _written(found, rewrites)
        if links is None:
            raise KeyError(markdown)
        return dataclasses.replace(found, links=links)

    def __iter__(self) -> Iterator[str]:
        return iter(self.renders)

    def __len__(self) -> int:
        return len(self.renders)


def _written(found: Structure, rewrites: list[tuple[str, str]]) -> Counter[str] | None:
    """The page's links with each rewrite undone; None when that is not exact: a value that
    serialising could change (``&``, ``<``, quotes, Markdown's placeholders), a rewritten link not among the
    page's links, or one that may sit inside a ``<pre>`` block (compared byte for byte)."""
    if any(ch in value for pair in rewrites for value in pair for ch in "&<>\"'\x02\x03"):
        return None
    links = Counter(found.links)
    links.subtract(new for _, new in rewrites)
    if any(count < 0 for count in links.values()):
        return None
    for _, new in rewrites:
        if any(new in block for block in found.pre):
            return None
    links.update(written for written, _ in rewrites)
    return +links


def _kept_by_mkdocs(link: str) -> bool:
    """Whether MkDocs left this ``href``/``src`` as written: it has a scheme or a host, or no
    path (a fragment or query only). What MkDocs rewrites (relative paths; absolute ones too,
    under ``validation: absolute_links: relative_to_docs``) becomes a relative path, quoted
    (``File.url``: no ``:``), so it never reads as having a scheme."""
    try:
        parts = urlsplit(link)
    except ValueError:
        return False
    return bool(parts.scheme or parts.netloc or not parts.path)
