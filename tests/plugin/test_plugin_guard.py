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
from mkdocs_zh_translate.pipeline import lazy
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
