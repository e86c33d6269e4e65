"""MkDocs hook the corpus harness adds to every site: marks where a page's body starts and ends.

Comparing whole HTML files would compare nav, footer and theme chrome, which the Chinese build
changes on purpose (translated nav titles, language switcher, ``lang``). The body as MkDocs
hands it to the theme is what the translation touches, so the harness compares only that. The
hook runs last (priority -1000), after every plugin's ``on_page_content``.
"""

from __future__ import annotations

from typing import Any

from mkdocs.plugins import event_priority

BEGIN = "<!--zh-realsites:begin-->"
END = "<!--zh-realsites:end-->"


@event_priority(-1000)
def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return f"{BEGIN}{html}{END}"
