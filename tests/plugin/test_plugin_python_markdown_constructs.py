"""Constructs Python-Markdown reads otherwise than CommonMark, in a real build: the zh page keeps
the English page's structure (tables, heading ids, code blocks) with its words translated, and
the page guard finds nothing to send back to English."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.pipeline import lazy
from tests.fakes import WordTranslator
from tests.plugin_sites import Html, build_in_process, write_site

PAGE = (
    "# Reference\n\n"
    "| Function | Remarks |\n"
    "|:-------:| :----- ----:|\n"
    "| Custom bulk query fields | Support display types |\n\n"
    "| Field | Type | Meaning |\n"
    "| ----- | ---- | ------- |\n"
    "| `path` | `str | list[str]` | Exact path match |\n"
    "| prompt_literal_start | `str` | Where the prompt starts |\n\n"
    "### Simple expansion: `{name}`\n\n"
    "Expands one name.\n\n"
    "/// note | ### Header in Title\n"
    "Some content here.\n"
    "///\n\n"
    "1) First step:\n"
    "       ```bash\n"
    "       pip install tool\n"
    "       ```\n\n"
    "2) Second step.\n\n"
    "To calculate this:  \n"
    "1. Identify all the claims in the response.  \n"
    "2. Check each claim against the context.\n\n"
    '<p align="center"><img src="img/logo.png" alt="Project logo"></p>\n'
)
EXTENSIONS = [
    "tables",
    "toc",
    "attr_list",
    "md_in_html",
    "pymdownx.superfences",
    "pymdownx.fancylists",
    "pymdownx.saneheaders",
    "pymdownx.blocks.admonition",
]


def test_the_zh_page_keeps_the_english_structure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "model").mkdir()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: WordTranslator())
    config = write_site(
        tmp_path,
        plugin={"backend": "onnx", "model": str(tmp_path / "model")},
        pages={"index.md": PAGE},
        extra_config={"markdown_extensions": EXTENSIONS},
    )
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        build_in_process(config)
    assert not [r.getMessage() for r in caplog.records if "page structure" in r.getMessage()]
    english = Html(tmp_path / "site" / "index.html")
    zh = Html(tmp_path / "site" / "zh" / "index.html")
    assert zh.heading_ids() == english.heading_ids()
    assert "simple-expansion-name" in zh.heading_ids() and "header-in-title" in zh.heading_ids()
    assert zh.pre_blocks() == english.pre_blocks() and len(english.pre_blocks()) == 1
    en_body, zh_body = _content(english), _content(zh)
    for tag in ("table", "td", "th", "h3", "p", "li", "br", "img"):
        assert _count(zh_body, tag) == _count(en_body, tag) > 0, tag
    assert zh.attr("img", "alt") != english.attr("img", "alt") == ["Project logo"]
    for words in ("Custom bulk query", "Exact path match", "Header in Title", "Simple expansion", "Identify all"):
        assert words in english.text and words not in zh.text, words
    assert "prompt_literal_start" in zh.text and "str | list[str]" in zh.text


def _content(page: Html) -> str:
    """The page's own content: from its first heading to the theme's footer."""
    source = page.source
    return source[source.index('<h1 id="reference"') : source.index("<footer")]


def _count(html: str, tag: str) -> int:
    return len(re.findall(rf"<{tag}[\s>/]", html))
