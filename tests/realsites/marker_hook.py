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


# mkdocs-glightbox hands the content back as a whole document (``<html><head></head><body>…
# </body></html>``, selectolax's serialisation). Browsers and HTML parsers drop those nested tags,
# but a comment after ``</html>`` ends up after the page's own ``</html>`` when a later plugin
# re-parses the page (glightbox's ``on_post_page`` does): the end marker goes inside the wrapper.
_WRAPPER_END = "</body></html>"


@event_priority(-1000)
def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    stripped = html.rstrip()
    if stripped.endswith(_WRAPPER_END):
        cut = len(stripped) - len(_WRAPPER_END)
        return f"{BEGIN}{stripped[:cut]}{END}{stripped[cut:]}"
    return f"{BEGIN}{html}{END}"
