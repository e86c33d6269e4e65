"""What the Chinese build keeps for ``review serve``: enough to build one page again.

MkDocs builds a whole site at a time; ``review serve`` rebuilds only the page a reviewer just
saved. So in review mode the nested Chinese build records its config, files, navigation and
Jinja environment here, and marks each page's segments (:mod:`..review.marks`) so that the
panel can find them. Every other build has no capture (``Kept.review`` is None) and runs as
before, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..review.marks import mark_html

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation


@dataclass
class ReviewCapture:
    """The last Chinese build's pieces (set by ``modes.nested.ChineseSite`` in review mode)."""

    config: MkDocsConfig | None = None
    files: Files | None = None
    nav: Navigation | None = None
    env: Any = None
    # The Chinese build's mode (a ``modes.base.Mode``), made current again for a page rebuild;
    # typed loosely because modes/base.py holds this capture (naming Mode here was an import cycle).
    mode: Any = None

    def started(self, config: MkDocsConfig, mode: Any) -> None:
        self.config, self.mode = config, mode

    def navigation(self, nav: Navigation, files: Files) -> None:
        self.nav, self.files = nav, files

    def environment(self, env: Any) -> None:
        self.env = env

    @staticmethod
    def content(html: str) -> str:
        """The page's rendered body with its segments pickable."""
        return mark_html(html)
