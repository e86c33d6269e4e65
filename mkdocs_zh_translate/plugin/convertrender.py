"""A variant's pages rendered by converting the Simplified renders of the same build.

A variant's nested build (``modes/variant.py``) renders every page again, although its Markdown
is the Simplified page's with the prose converted: Python-Markdown costs about a third of that
build. The Simplified build keeps each page's render (HTML, table of contents, title, anchors);
the variant build takes it, converted by the same OpenCC table, wherever that is exactly what
rendering the variant's Markdown gives:

* the variant's Markdown must be the Simplified Markdown converted as a whole (``prose``). It is
  not where a protected part holds Chinese that conversion would change (code, a URL: kept as
  written in the variant, so the whole-page conversion differs), where the page guard kept a
  different segment English, or where a review of the variant differs: such a page is rendered;
* every extension of the site is one whose render depends on the page alone (Python-Markdown's,
  pymdown-extensions', Material's and ours, ``reload._PAGE_LOCAL``): none of them treats one Han
  character otherwise than another, so converting the Han text of the output is converting it
  in the input. A site with mkdocstrings or autorefs renders every variant page; a render that
  included files (pymdownx.snippets, recorded as ``reload.py`` records them) is taken over only
  while no included file holds text the conversion would change (it is not the page's prose);
* only MkDocs at a tested version (it reaches into ``Page``'s render results, as ``reload.py``
  does), with the option ``speedups: auto``; ``off`` renders every page, with the same output.

The pages other plugins render (notebooks) are never taken over.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .reload import _PAGE_LOCAL, SNIPPETS, _module, _recording


@dataclass
class _Kept:
    snippets: list[str]  # the files the render included
    markdown: str
    url: str
    content: str
    toc: Any
    title: str | None
    anchors: set[str] | None
    links: dict[Any, dict[str, str]] | None


class ConvertedRenders:
    """The Simplified build's renders, handed to the variant builds converted."""

    def __init__(self) -> None:
        self.renders: dict[str, _Kept] = {}
        self._local: tuple[object, bool, bool] | None = None  # (config, page_local, snippets) of the build
        self.converted = 0  # variant pages taken over (tests, log)
        self.rendered = 0

    def keep(self, page: Page) -> None:
        """Keep ``page``'s render (the Simplified build)."""
        original: Callable[[MkDocsConfig, Files], None] = page.render

        def render(config: MkDocsConfig, files: Files) -> None:
            local, watch = self._extensions(config)
            if not local:
                original(config, files)
                return
            with _recording(page, None, watch) as recorded:
                original(config, files)
            if recorded.foreign or recorded.missing or page.markdown is None or page.content is None:
                return
            self.renders[page.file.src_uri] = _Kept(
                [path for path, _size, _mtime in recorded.snippets],
                page.markdown, page.file.url, page.content, copy.deepcopy(page.toc), page._title_from_render,
                set(page.present_anchor_ids) if page.present_anchor_ids is not None else None,
                {f: dict(links) for f, links in page.links_to_anchors.items()}
                if page.links_to_anchors is not None else None,
            )

        render.__wrapped__ = original  # type: ignore[attr-defined]  # sources.foreign_renderer looks through
        page.render = render  # type: ignore[method-assign]

    def convert(self, page: Page, convert: Callable[[str], str]) -> None:
        """Make ``page.render`` (a variant build's) take the kept render, converted, when that
        is what rendering the page would give (see the module's docstring)."""
        original: Callable[[MkDocsConfig, Files], None] = page.render
        kept = self.renders.get(page.file.src_uri)

        def render(config: MkDocsConfig, files: Files) -> None:
            if (kept is None or not self._extensions(config)[0] or page.file.url != kept.url
                    or page.markdown != convert(kept.markdown) or not _unchanged(kept.snippets, convert)):
                self.rendered += 1
                original(config, files)
                return
            self.converted += 1
            page.content = convert(kept.content)
            page.toc = copy.deepcopy(kept.toc)
            for item in _items(page.toc):
                item.title = convert(item.title)
            page._title_from_render = convert(kept.title) if kept.title is not None else None
            page.present_anchor_ids = {convert(a) for a in kept.anchors} if kept.anchors is not None else None
            page.links_to_anchors = (
                {f: {convert(a): link for a, link in links.items()} for f, links in kept.links.items()}
                if kept.links is not None else None
            )

        render.__wrapped__ = original  # type: ignore[attr-defined]
        page.render = render  # type: ignore[method-assign]

    def _extensions(self, config: MkDocsConfig) -> tuple[bool, bool]:
        """Whether the build's extensions all render from the page alone, and whether one is
        pymdownx.snippets: read once per build (naming an extension's module reads entry points)."""
        if self._local is None or self._local[0] is not config:
            modules = [_named_module(e) if isinstance(e, str) else _module(e) for e in config.markdown_extensions]
            local = all((m + ".").startswith(_PAGE_LOCAL) for m in modules)
            self._local = (config, local, SNIPPETS in modules)
        return self._local[1], self._local[2]


@lru_cache(maxsize=256)
def _named_module(name: str) -> str:
    """``reload._module`` of an extension named in mkdocs.yml, read once per process."""
    return _module(name)


def _unchanged(paths: list[str], convert: Callable[[str], str]) -> bool:
    """Whether the conversion leaves the text of every included file as it is."""
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        if convert(text) != text:
            return False
    return True


def _items(toc: Any) -> list[Any]:
    """Every entry of a table of contents, depth first."""
    found: list[Any] = []
    for item in toc or ():
        found.append(item)
        found.extend(_items(item.children))
    return found
