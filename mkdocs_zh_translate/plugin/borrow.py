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

The structure (``guard.structure``) is kept, not the HTML. The capture wraps ``page.render``
(as ``reload.RenderMemo`` does), so it sees the render itself, before any plugin's
``on_page_content``.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from ..pipeline.guard import Structure, extensions_fingerprint, structure


class EnglishRenders:
    """Structures of the English build's page renders, by renderer fingerprint and Markdown."""

    def __init__(self) -> None:
        self.structures: dict[str, dict[str, Structure]] = {}  # fingerprint -> Markdown -> structure
        self.skipped = 0  # renders not lent: relative links (tests, log)

    def clear(self) -> None:
        self.structures.clear()
        self.skipped = 0

    def lent(self, fingerprint: str) -> dict[str, Structure]:
        """The structures of renders made with the renderer of this fingerprint, by Markdown."""
        return self.structures.setdefault(fingerprint, {})

    def attach(self, page: Page) -> None:
        """Keep the structure of ``page``'s render when the guard's render of it would be the same."""
        original: Callable[[MkDocsConfig, Files], None] = page.render

        def render(config: MkDocsConfig, files: Files) -> None:
            original(config, files)
            markdown = page.markdown
            if markdown is None or page.content is None:
                return
            found = structure(page.content)
            if not all(_kept_by_mkdocs(link) for link in found.links):
                self.skipped += 1
                return
            fingerprint = extensions_fingerprint(list(config.markdown_extensions), config.mdx_configs)
            self.structures.setdefault(fingerprint, {})[markdown] = found

        page.render = render  # type: ignore[method-assign]


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
