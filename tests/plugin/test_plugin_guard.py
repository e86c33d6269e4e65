"""The page guard inside a real ``mkdocs build``: a translation that changes what the page
renders (here a bare domain that magiclink turns into a link the English page does not have)
costs that sentence of English and one warning naming page and line; under the plugin's
``strict`` option it fails the build instead."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.pipeline import lazy, pages
from tests.fakes import Scripted
from tests.plugin_sites import build_in_process, write_site

PAGE = "# Title\n\nKeep this one.\n\nBreak me here.\n"


def _site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **options: object) -> Path:
    (tmp_path / "model").mkdir()
    breaker = Scripted(lambda t: t.upper() + (" www.example.org" if "Break" in t else ""))
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: breaker)
    return write_site(
        tmp_path,
        plugin={"backend": "onnx", "model": str(tmp_path / "model"), **options},
        pages={"index.md": PAGE},
        extra_config={"markdown_extensions": ["pymdownx.magiclink"]},
    )


def test_a_sentence_that_changes_the_page_stays_english_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path, monkeypatch)
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        plugin = build_in_process(config)
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "KEEP THIS ONE." in html and "Break me here." in html
    assert "example.org" not in html
    warnings = [r.getMessage() for r in caplog.records if "page structure" in r.getMessage()]
    assert len(warnings) == 1
    assert "index.md" in warnings[0] and "line 5" in warnings[0] and "example.org" in warnings[0]
    assert plugin.stats.guarded == 1


def test_under_strict_the_guard_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path, monkeypatch, strict=True)
    with pytest.raises(Abort):  # MkDocs turns the plugin's error into its build abort
        build_in_process(config)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("index.md" in m and "page structure" in m for m in errors)
    assert any("strict: 1 place(s) where English is left behind" in m for m in errors)
    assert not (tmp_path / "site" / "zh" / "index.html").exists()


def test_a_cached_rebuild_reuses_the_guard_verdicts_and_still_reverts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path, monkeypatch)
    first = build_in_process(config)
    assert first.stats.guard_renders > 2 and first.stats.guard_reused == 0
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=LOGGER_NAME):
        again = build_in_process(config)
    assert again.stats.guard_renders == 0 and again.stats.guard_reused == 1
    assert again.stats.guarded == 1  # the same segment, with the same one warning
    assert [r.getMessage() for r in caplog.records if "page structure" in r.getMessage()]
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "KEEP THIS ONE." in html and "Break me here." in html and "example.org" not in html


def test_other_markdown_extensions_guard_the_pages_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path, monkeypatch)
    build_in_process(config)
    config.write_text(config.read_text(encoding="utf-8").replace("- pymdownx.magiclink", "- pymdownx.magiclink\n- abbr"))
    again = build_in_process(config)
    assert "abbr" in config.read_text(encoding="utf-8")
    assert again.stats.guard_renders > 0 and again.stats.guard_reused == 0
    assert again.stats.guarded == 1


def test_a_serve_reload_guards_and_segments_only_the_edited_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    config_file = _site(tmp_path, monkeypatch)
    other = tmp_path / "docs" / "other.md"
    other.write_text("# Other\n\nA second page.\n", encoding="utf-8")
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    config = load_config(config_file=str(config_file))
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        build(config)
        other.write_text("# Other\n\nA second page, edited.\n", encoding="utf-8")
        segmented: list[str] = []
        real = pages.segment_markdown
        monkeypatch.setattr(pages, "segment_markdown", lambda text, **kw: segmented.append(text) or real(text, **kw))
        config = load_config(config_file=str(config_file))  # what `mkdocs serve` does per rebuild
        build(config)
        plugin = config.plugins["zh-translate"]
    finally:
        config.plugins.on_shutdown()
    assert plugin.stats.guard_reused == 1  # index.md: unchanged, its verdict stored
    assert plugin.stats.guard_renders == 2  # other.md alone: English and spliced, both pass
    assert plugin.stats.guarded == 1  # index.md's breaking sentence is still English
    assert segmented == ["# Other\n\nA second page, edited.\n"]  # nor segments the others again
    assert "EDITED." in (tmp_path / "site" / "zh" / "other" / "index.html").read_text(encoding="utf-8")
