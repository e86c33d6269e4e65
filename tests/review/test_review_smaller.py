"""Smaller review fixes: a change of spaces only keeps a review, a rejected site-wide entry is
told once, the report names the site and no absolute path."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.store import entry_state
from tests.plugin_sites import build_in_process, write_site

TEXT = "Run the build, then open the site."
TEXT_ZH = "运行构建，然后打开站点。"
CODE = "Run `mkdocs build` now."
CODE_ZH = "现在运行 `mkdocs build`。"
PAGES = {
    "index.md": f"# Home\n\n{TEXT}\n\n{CODE}\n\n!!! note\n    Take care.\n",
    "other.md": "# Other\n\nMore text.\n\n!!! note\n    Take care too.\n",
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "report": "zh-report.json"})
    build_in_process(config)
    assert _review(config, "sync") == 0
    _accept(config, "index.md.po", {TEXT: TEXT_ZH, CODE: CODE_ZH})
    return config


def _review(config: Path, *args: str) -> int:
    return cli_main(["review", *args, "-f", str(config)])


def _accept(config: Path, name: str, texts: dict[str, str]) -> None:
    path = config.parent / "translations" / "zh" / name
    po = polib.pofile(str(path))
    for msgid, msgstr in texts.items():
        entry = po.find(msgid)
        entry.msgstr, entry.flags = msgstr, []
    po.save(str(path))


def _report(config: Path) -> dict[str, dict[str, int]]:
    return json.loads((config.parent / "zh-report.json").read_text(encoding="utf-8"))["pages"]  # type: ignore[no-any-return]


def test_a_change_of_spaces_only_keeps_the_review_in_the_build_check_and_sync(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = site.parent / "docs" / "index.md"
    spaced = TEXT.replace(" the ", "  the ").replace(", ", ",\t")  # renders the same
    page.write_text(page.read_text().replace(TEXT, spaced))
    build_in_process(site)
    html = (site.parent / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert TEXT_ZH in html
    assert _report(site)["index.md"]["reviewed"] == 2 and _report(site)["index.md"]["stale_reviews"] == 0
    capsys.readouterr()
    assert _review(site, "check", "--max-stale", "0") == 0
    assert _review(site, "sync") == 0
    po = polib.pofile(str(site.parent / "translations" / "zh" / "index.md.po"))
    entry = po.find(spaced)
    assert entry is not None and entry.msgstr == TEXT_ZH and entry_state(entry) == "reviewed"
    assert not [e for e in po if e.obsolete]


def test_spaces_inside_a_code_span_are_the_codes_own(site: Path) -> None:
    page = site.parent / "docs" / "index.md"
    changed = CODE.replace("`mkdocs build`", "`mkdocs  build`")
    page.write_text(page.read_text().replace(CODE, changed))
    build_in_process(site)
    assert _report(site)["index.md"]["stale_reviews"] == 1 and _report(site)["index.md"]["rejected_reviews"] == 0
    assert _review(site, "sync") == 0
    entry = polib.pofile(str(site.parent / "translations" / "zh" / "index.md.po")).find(changed)
    assert entry.msgstr == CODE_ZH and entry_state(entry) == "stale" and entry.previous_msgid == CODE


def test_a_rejected_site_wide_entry_is_told_and_counted_once(
    site: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    _accept(site, "site.po", {"Note": '注"意'})  # a quote would end the admonition title
    with caplog.at_level(logging.WARNING):
        build_in_process(site)
    told = [r.getMessage() for r in caplog.records if "site.po:" in r.getMessage() and "rejected" in r.getMessage()]
    assert len(told) == 1, told
    pages = _report(site)
    assert sum(p["rejected_reviews"] for p in pages.values()) == 1
    capsys.readouterr()
    assert _review(site, "check", "--max-rejected", "0") == 1
    out = capsys.readouterr().out
    assert out.count("msgid 'Note': rejected") == 1 and "1 rejected" in out


def test_the_report_is_titled_by_site_name_and_names_files_relative_to_the_project(site: Path) -> None:
    out = site.parent / "report.html"
    assert _review(site, "report", "-o", str(out)) == 0
    text = out.read_text(encoding="utf-8")
    assert "<title>Translation review: Demo Docs</title>" in text
    assert "translations/zh/index.md.po: " in text and str(site.parent) not in text


def test_two_rejected_entries_of_one_msgid_are_told_apart_by_their_context(tmp_path: Path) -> None:
    from mkdocs_zh_translate.review.status import ReviewFile, rejection_lines

    po = polib.POFile()
    for ctx in ("heading", "table_cell"):
        po.append(polib.POEntry(msgid="Run `x`", msgctxt=ctx, msgstr="运行"))
    rejected = {(ctx, "Run `x`"): ["lost the code `x`"] for ctx in ("heading", "table_cell")}
    lines = rejection_lines([ReviewFile(tmp_path / "a.md.po", "a.md", po, rejected)])
    assert len(lines) == len(set(lines)) == 2
    assert "(msgctxt 'heading')" in lines[0] and "(msgctxt 'table_cell')" in lines[1]
