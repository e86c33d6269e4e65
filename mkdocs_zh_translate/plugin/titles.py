"""Page titles that MkDocs makes up, in Chinese.

MkDocs takes a page's title from the nav, the front matter, or the page's first element when it
is an H1; failing all three it makes one from the file name (``getting-started.md`` becomes
"Getting started", ``guide/index.md`` "Index", the homepage "Home"). The first three reach the
Chinese site translated (nav titles and front matter as site strings, the H1 with the page);
the made-up one would stay English in the sidebar, the prev/next footer, ``<title>`` and the H1
Material writes for a page without one. The English build collects these titles, they are
translated with the site's strings (and reviewed in ``site.po`` like them), and the Chinese
build puts them back where MkDocs would have used the English one.

A related loss: front matter that is YAML only once a macro has run (``date: {{ now().year }}``)
fails MkDocs' parser, so the page loses its ``title`` and shows the block as text. The plugin
sees the Markdown after every other plugin: such a block, valid by then, is read as the page's
front matter in both builds (:func:`recover_front_matter`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mkdocs.structure.pages import Page
from mkdocs.utils import meta as meta_util

HOME_ZH = "首页"  # MkDocs' implicit "Home"


def _made_up(page: Page) -> bool:
    """Whether the title MkDocs shows for ``page`` is the one it makes from the file name."""
    return (
        "title" not in page.__dict__  # none from the nav (or another plugin)
        and "title" not in page.meta
        and page.content is not None  # rendered: the H1 (if any) is known
        and not page._title_from_render
    )


@dataclass
class MadeUpTitles:
    """The file-name titles of the English build's pages, to translate with the site strings."""

    found: dict[str, str] = field(default_factory=dict)  # src_uri -> title

    def collect(self, page: Page) -> None:
        if _made_up(page) and not page.is_homepage and isinstance(page.title, str) and page.title.strip():
            self.found[page.file.src_uri] = page.title

    def strings(self) -> list[str]:
        return list(dict.fromkeys(self.found.values()))

    def apply(self, page: Page, translated: dict[str, str]) -> None:
        """Give a Chinese page the translation of its made-up title (raw text: the caller
        escapes every zh title for the templates)."""
        if not _made_up(page):
            return
        if page.is_homepage:
            page.title = HOME_ZH
            return
        english = self.found.get(page.file.src_uri)
        if english is not None and english == page.title and english in translated:
            page.title = translated[english]


def recover_front_matter(markdown: str, page: Page) -> str:
    """``markdown`` without a leading YAML block that only parses now, after the other plugins
    (macros) ran, whose values become ``page.meta``; unchanged otherwise. Front matter MkDocs
    read itself is gone from ``markdown`` by now, so only such a block can still be there."""
    if page.meta or not markdown.startswith("---"):
        return markdown
    body, data = meta_util.get_data(markdown)
    if not data:
        return markdown
    page.meta = data
    return body
