"""A reviewed translation either ships or is rejected with a warning: the review check and the
splice apply one rule (a person's long wording is not a model's runaway output)."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.segment import from_readable, segment_markdown
from tests.plugin_sites import build_in_process, write_site

LONG_FAQ = "常见问题解答（Frequently Asked Questions）。"  # 35 characters for a 3-character heading
PAGE = "# FAQ\n\nSome text here.\n\n![A logo](img/logo.png)\n"


def _site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: dict[str, str], **options: object) -> Path:
    monkeypatch.chdir(tmp_path)
    plugin = {"backend": "pseudo", "report": "zh-report.json", **options}
    config = write_site(tmp_path, pages={"index.md": PAGE}, plugin=plugin)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True, exist_ok=True)
    po = polib.POFile()
    for msgid, msgstr in entries.items():
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    po.save(str(review / "index.md.po"))
    return config


def test_a_long_reviewed_heading_ships_and_check_agrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(LONG_FAQ) == 35 and len(LONG_FAQ) > 3 * len("FAQ") + 20  # the model's runaway limit
    config = _site(tmp_path, monkeypatch, {"FAQ": LONG_FAQ}, strict=True)
    build_in_process(config)  # strict: nothing left behind
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert LONG_FAQ in html and ">FAQ<" not in html
    report = json.loads((tmp_path / "zh-report.json").read_text(encoding="utf-8"))
    assert report["pages"]["index.md"]["reviewed"] == 1 and report["totals"]["left_behind"] == 0
    capsys.readouterr()
    assert cli_main(["review", "check", "--max-rejected", "0", "-f", str(config)]) == 0
    out = capsys.readouterr().out
    assert "0 rejected: ok" in out and "rejected (" not in out


def test_the_review_check_asks_the_splice_so_a_review_it_accepts_is_never_dropped() -> None:
    page = segment_markdown(PAGE)
    heading = page.segments[0]
    parsed = from_readable(heading, LONG_FAQ)
    assert parsed.problems == []
    assert page.splice([parsed.text, None, None]) == PAGE  # as machine text: runaway, kept English
    reviewed = type(page)(page.source, page.segments, frozenset({0}))
    assert LONG_FAQ in reviewed.splice([parsed.text, None, None])  # a person's: ships


def test_a_review_the_page_cannot_hold_is_rejected_naming_the_po_line_and_fails_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    # an image's alt text is an attribute value: a "!" or "*" would end or break it
    config = _site(tmp_path, monkeypatch, {"A logo": "标志!"})
    build_in_process(config)
    assert "index.md.po:" in caplog.text and "reviewed translation rejected (has characters" in caplog.text
    report = json.loads((tmp_path / "zh-report.json").read_text(encoding="utf-8"))
    assert report["pages"]["index.md"]["rejected_reviews"] == 1 and report["totals"]["left_behind"] >= 1
    capsys.readouterr()
    assert cli_main(["review", "check", "--max-rejected", "0", "-f", str(config)]) == 1
    assert "1 rejected" in capsys.readouterr().out
    strict = _site(tmp_path, monkeypatch, {"A logo": "标志!"}, strict=True)
    with pytest.raises(Abort):
        build_in_process(strict)
