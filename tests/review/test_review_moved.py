"""A reviewed block moved verbatim to another page keeps its review in the build before any
`review sync`, and the build and `review check` count it the same way."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from tests.plugin_sites import build_in_process, write_site

NOTE = "Back up the cache directory before you upgrade."
NOTE_ZH = "升级前请备份缓存目录。"
ADMONITION = f"!!! warning \"Careful\"\n    {NOTE}\n"
PAGES = {
    "a.md": f"# Alpha\n\nThe first page.\n\n{ADMONITION}",
    "b.md": "# Beta\n\nThe second page.\n",
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "report": "zh-report.json"})
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "a.md.po"
    po = polib.pofile(str(path))
    for msgid, msgstr in ((NOTE, NOTE_ZH), ("Careful", "小心")):
        entry = po.find(msgid)
        entry.msgstr, entry.flags = msgstr, []
    po.save(str(path))
    return config


def _zh(config: Path, page: str) -> str:
    return (config.parent / "site" / "zh" / page / "index.html").read_text(encoding="utf-8")


def _report(config: Path) -> dict[str, dict[str, int]]:
    return json.loads((config.parent / "zh-report.json").read_text(encoding="utf-8"))["pages"]  # type: ignore[no-any-return]


def _check(config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = cli_main(["review", "check", "--max-stale", "0", "-f", str(config)])
    return code, capsys.readouterr().out


def test_a_moved_reviewed_admonition_ships_on_its_new_page_before_any_sync(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = site.parent / "docs"
    (docs / "a.md").write_text("# Alpha\n\nThe first page.\n")
    (docs / "b.md").write_text(f"# Beta\n\nThe second page.\n\n{ADMONITION}")
    build_in_process(site)
    assert NOTE_ZH in _zh(site, "b") and "小心" in _zh(site, "b") and NOTE_ZH not in _zh(site, "a")
    pages = _report(site)
    assert pages["b.md"]["reviewed"] == 2 and pages["a.md"]["stale_reviews"] == 0
    code, out = _check(site, capsys)
    assert code == 0 and "0 stale" in out  # check and build agree: reviewed where it stands
    assert cli_main(["review", "sync", "-f", str(site)]) == 0  # and sync puts it where the build found it
    entry = polib.pofile(str(site.parent / "translations" / "zh" / "b.md.po")).find(NOTE)
    assert entry.msgstr == NOTE_ZH and not entry.fuzzy
    build_in_process(site)
    assert NOTE_ZH in _zh(site, "b") and _report(site)["b.md"]["reviewed"] == 2


def test_a_copied_reviewed_admonition_is_not_a_move(site: Path) -> None:
    docs = site.parent / "docs"
    (docs / "b.md").write_text(f"# Beta\n\nThe second page.\n\n{ADMONITION}")  # a.md keeps its own
    build_in_process(site)
    assert NOTE_ZH in _zh(site, "a") and NOTE_ZH not in _zh(site, "b")  # as sync has it: a suggestion there
    assert _report(site)["b.md"]["reviewed"] == 0


def test_a_reviewed_paragraph_that_comes_back_is_reviewed_before_any_sync(site: Path) -> None:
    page = site.parent / "docs" / "a.md"
    text = page.read_text()
    page.write_text("# Alpha\n\nThe first page.\n")
    assert cli_main(["review", "sync", "-f", str(site)]) == 0  # the admonition's entries are obsolete now
    po = polib.pofile(str(site.parent / "translations" / "zh" / "a.md.po"))
    assert [e.msgstr for e in po if e.obsolete and e.msgid == NOTE] == [NOTE_ZH]
    page.write_text(text)
    build_in_process(site)
    assert NOTE_ZH in _zh(site, "a") and _report(site)["a.md"]["reviewed"] == 2
