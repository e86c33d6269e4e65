"""The page guard takes the English build's renders instead of rendering the English pages again
(issue 21), only where they are its own render: not for a page whose links MkDocs may have
rewritten, not when the guard renders with other extensions. The Chinese site is the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin_sites import build_in_process, write_site

PAGES = {
    "index.md": "# Home\n\nSee [the site](https://example.org/) and [below](#more).\n\n## More\n\nText here.\n",
    "other.md": "# Other\n\nBack [home](index.md).\n\n![logo](img/logo.png)\n",
}


def _build(root: Path, extensions: list[str]) -> tuple[int, dict[str, bytes]]:
    config = write_site(root, pages=PAGES, extra_config={"markdown_extensions": extensions})
    plugin = build_in_process(config)
    zh = root / "site" / "zh"
    files = {str(p.relative_to(zh)): _undated(p.read_bytes()) for p in sorted(zh.rglob("*.html"))}
    return plugin.stats.guard_renders, files


def _undated(html: bytes) -> bytes:
    """The page without MkDocs' build-time comment."""
    return b"\n".join(line for line in html.split(b"\n") if not line.startswith(b"Build Date UTC"))


@pytest.mark.parametrize("attr_list", ["attr_list", "markdown.extensions.attr_list"])
def test_pages_without_relative_links_borrow_the_english_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, attr_list: str
) -> None:
    renders, html = _build(tmp_path / "lent", [attr_list])
    assert renders == 3  # index.md: its spliced page only; other.md (relative links): both
    monkeypatch.setattr("mkdocs_zh_translate.plugin.borrow.EnglishRenders.attach", lambda self, page: None)
    own_renders, own_html = _build(tmp_path / "own", [attr_list])
    assert own_renders == 4
    assert html == own_html and html  # the same Chinese site


def test_a_guard_with_the_heading_pins_reader_and_no_attr_list_renders_both(tmp_path: Path) -> None:
    renders, _ = _build(tmp_path, ["abbr"])
    assert renders == 4
