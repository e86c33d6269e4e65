"""The English build's page renders, lent to the page guard (issue 21).

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
* no ``href``/``src`` of the page has a path without a scheme or host (the rewrite makes a
  relative path of every one it changes; a page with any, changed or not, is not lent).

The HTML is kept; its structure (``guard.structure``) is parsed only when the guard asks for the
page (a cached rebuild's stored verdicts ask for none). The capture wraps ``page.render``
(as ``reload.RenderMemo`` does), so it sees the render itself, before any plugin's
``on_page_content``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ..pipeline.guard import Structure, extensions_fingerprint, structure


class EnglishRenders:
    """The English build's page renders, by renderer fingerprint and Markdown."""

    def __init__(self) -> None:
        self.renders: dict[str, dict[str, str]] = {}  # fingerprint -> Markdown -> HTML

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
            original(config, files)
            if page.markdown is not None and page.content is not None:
                fingerprint = extensions_fingerprint(list(config.markdown_extensions), config.mdx_configs)
                self.renders.setdefault(fingerprint, {})[page.markdown] = page.content

        page.render = render  # type: ignore[method-assign]


class _Lent(Mapping[str, Structure]):
    """Renders as the guard's structures; a render with a link MkDocs may have rewritten is absent."""

    def __init__(self, renders: dict[str, str]) -> None:
        self.renders = renders

    def __getitem__(self, markdown: str) -> Structure:
        found = structure(self.renders[markdown])
        if not all(_kept_by_mkdocs(link) for link in found.links):
            raise KeyError(markdown)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self.renders)

    def __len__(self) -> int:
        return len(self.renders)


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
