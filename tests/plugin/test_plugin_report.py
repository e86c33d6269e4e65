"""The JSON report: written by each build, printed by ``docs``, ``po fill``, ``prefill`` and
``review status`` with ``--json``, one structure (``pipeline.report``) for all of them.

The site's numbers are known in advance: a fake model that loses every placeholder but
translates the words between them puts one sentence "in pieces"; the page ``guide.md`` has a
PO file with one usable review, one rejected review (it adds HTML) and two stale ones (one
already marked by ``review sync``, one whose English is gone from the page)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate import __version__
from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.logs import LOGGER_NAME
from mkdocs_zh_translate.pipeline.report import COUNT_KEYS, FORMAT
from tests.plugin.test_plugin_strict import STRICT_LINE, _site
from tests.plugin_sites import build_in_process

GUIDE = "# Guide\n\nFirst sentence.\n\nSecond sentence.\n"
GUIDE_PO = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    'msgid "First sentence."\nmsgstr "第一句。"\n\n'
    'msgid "Guide"\nmsgstr "指南 <b>x</b>"\n\n'
    'msgid "An old sentence."\nmsgstr "旧句。"\n\n'
    '#, fuzzy\n#| msgid "Second sentense."\nmsgid "Second sentence."\nmsgstr "第二句。"\n'
)


def _counts(**given: Any) -> dict[str, Any]:
    counts: dict[str, Any] = dict.fromkeys(COUNT_KEYS, 0)
    counts.update(given)
    counts.setdefault("fallbacks", {})
    return counts


# "Run `mkdocs build` now." in pieces; "Title" and "Plain text here." whole
INDEX = _counts(segments=3, translated=3, whole=2, pieces=1, fallbacks={"runs": 1})
# "First sentence." reviewed; "Guide" (review rejected) and "Second sentence." (stale) machine
GUIDE_COUNTS = _counts(segments=3, reviewed=1, translated=2, whole=2, rejected_reviews=1, stale_reviews=2, left_behind=1)
# the site's name and description, counted beside the pages (the run's segments count them too)
STRINGS = _counts(segments=2, translated=2, whole=2)


def _reviewed_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fragments: str = "upper", **options: Any) -> Path:
    config = _site(tmp_path, monkeypatch, fragments, **options)
    (tmp_path / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    review_dir = tmp_path / "translations" / "zh"
    review_dir.mkdir(parents=True, exist_ok=True)
    (review_dir / "guide.md.po").write_text(GUIDE_PO, encoding="utf-8")
    return config


def _check_structure(report: dict[str, Any], command: str) -> None:
    assert report["format"] == FORMAT
    assert report["tool"] == {"name": "mkdocs-zh-translate", "version": __version__}
    assert report["command"] == command
    totals = report["totals"]
    assert totals["pages"] == len(report["pages"])
    for key in COUNT_KEYS:
        assert totals[key] == sum(page[key] for page in report["pages"].values()), key


def _json_stdout(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = capsys.readouterr().out
    report: dict[str, Any] = json.loads(out)  # stdout holds the report and nothing else
    return report


def test_each_build_writes_its_report_and_the_summary_counts_reviews(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _reviewed_site(tmp_path, monkeypatch)
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        build_in_process(config)
    path = tmp_path / ".zh-translate-cache" / "report.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    _check_structure(report, "build")
    assert report["pages"] == {"index.md": INDEX, "guide.md": GUIDE_COUNTS, "site strings": STRINGS}
    assert report["run"]["translated"] == 7 and report["run"]["fallbacks"] == 1  # + site name, description
    summary = [r.getMessage() for r in caplog.records if "segments (" in r.getMessage()]
    assert len(summary) == 1 and ", 1 reviewed, 2 reviews stale (source changed; run review sync), " in summary[0]

    build_in_process(config)  # everything from the cache now
    again = json.loads(path.read_text(encoding="utf-8"))
    assert again["pages"]["index.md"] == {**INDEX, "translated": 0, "cached": 3}
    assert again["totals"]["translated"] == 0 and again["totals"]["cached"] == 7


def test_the_log_and_the_report_count_the_same_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An empty cache: the log's "from cache" is the report's ``cached`` (reviews are not cache
    hits), and the report's pages add up to the run's segments (site strings included)."""
    config = _reviewed_site(tmp_path, monkeypatch)
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        build_in_process(config)
    report = json.loads((tmp_path / ".zh-translate-cache" / "report.json").read_text(encoding="utf-8"))
    summary = next(r.getMessage() for r in caplog.records if "segments (" in r.getMessage())
    found = re.search(r"(\d+) segments \((\d+) unique\), (\d+) from cache, (\d+) translated", summary)
    assert found, summary
    assert int(found.group(3)) == report["totals"]["cached"] == report["run"]["from_cache"] == 0
    assert int(found.group(1)) == report["run"]["segments"] == report["totals"]["segments"] == 8
    assert report["totals"]["reviewed"] == 1 and ", 1 reviewed" in summary


def test_the_report_option_moves_or_turns_off_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path, monkeypatch, "upper", report="ci/zh-report.json")
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        build_in_process(config)
    pages = json.loads((tmp_path / "ci" / "zh-report.json").read_text(encoding="utf-8"))["pages"]
    assert pages == {"index.md": INDEX, "site strings": STRINGS}
    assert not (tmp_path / ".zh-translate-cache" / "report.json").exists()
    summary = next(r.getMessage() for r in caplog.records if "segments (" in r.getMessage())
    assert "reviewed" not in summary  # no PO files: nothing to say about reviews

    (tmp_path / "ci" / "zh-report.json").unlink()
    build_in_process(_site(tmp_path, monkeypatch, "upper", report=False))
    assert not (tmp_path / "ci" / "zh-report.json").exists()
    assert not (tmp_path / ".zh-translate-cache" / "report.json").exists()

    caplog.clear()
    with pytest.raises(Abort):  # MkDocs turns the plugin's error into one line and an abort
        build_in_process(_site(tmp_path, monkeypatch, "upper", report="docs/report.json"))
    assert any(re.search(r"option 'report': \S+report\.json: is inside docs_dir", r.getMessage()) for r in caplog.records)


def test_a_strict_build_writes_its_report_before_failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    config = _site(tmp_path, monkeypatch, "empty", strict=True)
    with pytest.raises(Abort):
        build_in_process(config)
    report = json.loads((tmp_path / ".zh-translate-cache" / "report.json").read_text(encoding="utf-8"))
    failure = next(m for r in caplog.records if (m := STRICT_LINE.search(r.getMessage())))
    assert report["totals"]["left_behind"] == int(failure.group(1)) == 1
    assert report["pages"]["index.md"] == _counts(
        segments=3, translated=3, whole=2, english=1, left_behind=1, fallbacks={"english": 1}
    )


def test_docs_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config = _reviewed_site(tmp_path, monkeypatch)
    assert cli_main(["docs", "-f", str(config), "--out", str(tmp_path / "out"), "--json"]) == 0
    report = _json_stdout(capsys)
    _check_structure(report, "docs")
    assert report["pages"] == {"index.md": INDEX, "guide.md": GUIDE_COUNTS, "site strings": STRINGS}
    assert report["run"]["translated_pages"] == 2 and report["run"]["files"]["written"] > 2


def test_prefill_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config = _reviewed_site(tmp_path, monkeypatch)
    assert cli_main(["prefill", "-f", str(config), "--json", "--no-progress"]) == 0
    report = _json_stdout(capsys)
    _check_structure(report, "prefill")
    assert report["pages"] == {"index.md": INDEX, "guide.md": GUIDE_COUNTS, "site strings": STRINGS}
    assert report["run"]["translated"] == 7


def test_po_fill_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _site(tmp_path, monkeypatch, "upper")  # the fake model
    po = tmp_path / "locale" / "index.po"
    po.parent.mkdir()
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Done by a person."\nmsgstr "人工译文。"\n\n'
        'msgid "Run ``mkdocs build`` now."\nmsgstr ""\n\n'
        'msgid "Plain text here."\nmsgstr ""\n\n'
        '#, fuzzy\n#| msgid "Old text."\nmsgid "New text."\nmsgstr "旧译文。"\n',
        encoding="utf-8",
    )
    args = ["po", "fill", str(po.parent), "--model", str(tmp_path / "model"), "--cache-dir", str(tmp_path / "c")]
    assert cli_main([*args, "--json"]) == 0
    report = _json_stdout(capsys)
    _check_structure(report, "po fill")
    [(name, counts)] = report["pages"].items()
    assert name.endswith("index.po")
    assert counts == _counts(segments=4, reviewed=1, translated=2, whole=1, pieces=1, stale_reviews=1,
                             fallbacks={"runs": 1})
    assert report["run"]["filled"] == 2 and report["run"]["fuzzy_kept"] == 1


def test_review_status_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    config = _reviewed_site(tmp_path, monkeypatch)
    assert cli_main(["review", "status", "-f", str(config), "--json"]) == 0
    report = _json_stdout(capsys)
    _check_structure(report, "review status")
    guide = next(counts for name, counts in report["pages"].items() if name.endswith("guide.md"))
    # the merged file: "An old sentence." becomes obsolete, "Second sentence." stays stale
    assert guide == _counts(segments=3, reviewed=1, rejected_reviews=1, stale_reviews=1, left_behind=1)
    index = next(counts for name, counts in report["pages"].items() if name.endswith("index.md"))
    assert index == _counts(segments=3, untranslated=3)  # nothing cached yet: missing entries
    assert report["run"]["obsolete"] == 1
