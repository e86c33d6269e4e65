"""The page guard takes the English build's renders instead of rendering the English pages again
(issue 21), only where they are exactly its own render: the links MkDocs rewrote are put back as
written, a page where that cannot be exact is rendered by the guard, and so is every page when
the guard renders with other extensions. The Chinese site and the guard's verdicts are the same."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.pipeline import lazy
from tests.fakes import Scripted
from tests.plugin_sites import build_in_process, write_site

PAGES = {
    "index.md": "# Home\n\nSee [the site](https://example.org/) and [below](#more).\n\n## More\n\nText here.\n",
    "other.md": "# Other\n\nBack [home](index.md#more).\n\n![logo](img/logo.png)\n",
    "query.md": "# Query\n\nSee [other](other.md?a=1&b=2) now.\n",  # `&`: not undone exactly
}
NO_LENDING = "mkdocs_zh_translate.plugin.borrow.EnglishRenders.attach"


def _undated(html: bytes) -> bytes:
    """The page without MkDocs' build-time comment."""
    return b"\n".join(line for line in html.split(b"\n") if not line.startswith(b"Build Date UTC"))


def _build(
    root: Path, extensions: list[str], pages: dict[str, str] = PAGES, **plugin: object
) -> tuple[int, dict[str, bytes]]:
    config = write_site(root, pages=pages, extra_config={"markdown_extensions": extensions}, plugin=plugin or None)
    built = build_in_process(config)
    zh = root / "site" / "zh"
    files = {str(p.relative_to(zh)): _undated(p.read_bytes()) for p in sorted(zh.rglob("*.html"))}
    return built.stats.guard_renders, files


@pytest.mark.parametrize("attr_list", ["attr_list", "markdown.extensions.attr_list"])
def test_the_guard_renders_only_the_spliced_pages_it_can_borrow_the_english_render_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attr_list: str
) -> None:
    renders, html = _build(tmp_path / "lent", [attr_list])
    assert renders == 4  # index.md and other.md (its links put back): 1 each; query.md: 2
    monkeypatch.setattr(NO_LENDING, lambda self, page: None)
    own_renders, own_html = _build(tmp_path / "own", [attr_list])
    assert own_renders == 6
    assert html == own_html and len(html) >= 3  # the same Chinese site


def test_a_guard_with_the_heading_pins_reader_and_no_attr_list_renders_both(tmp_path: Path) -> None:
    renders, _ = _build(tmp_path, ["abbr"])
    assert renders == 6


def test_a_breaking_sentence_on_a_lent_page_is_reverted_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "model").mkdir()
    breaker = Scripted(lambda t: t.upper() + (" www.example.org" if "Break" in t else ""))
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: breaker)
    pages = {"index.md": "# Title\n\nKeep [this](other.md) one.\n\nBreak me here.\n", "other.md": "# Other\n"}
    runs = []
    for name in ("lent", "own"):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
            renders, html = _build(
                tmp_path / name,
                ["attr_list", "pymdownx.magiclink"],
                pages,
                backend="onnx",
                model=str(tmp_path / "model"),
            )
        warnings = [
            r.getMessage().replace(f"/{name}/", "/") for r in caplog.records if "page structure" in r.getMessage()
        ]
        runs.append((renders, html, warnings))
        monkeypatch.setattr(NO_LENDING, lambda self, page: None)
    (lent_renders, lent_html, lent_warnings), (own_renders, own_html, own_warnings) = runs
    assert len(lent_warnings) == 1 and "line 5" in lent_warnings[0] and lent_warnings == own_warnings
    assert lent_html == own_html and b"Break me here." in lent_html["index.html"]
    assert lent_renders == own_renders - 1  # other.md; index.md renders its English page to time the search
