"""Re-wrapping a paragraph (mdformat, prettier, an editor's fill) changes no msgid: soft line
breaks are spaces in PO files, as mdpo and Sphinx write them, so no review goes stale."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.store import entry_state
from mkdocs_zh_translate.review.sync import merge
from mkdocs_zh_translate.review.units import Unit, page_units
from mkdocs_zh_translate.segment import from_readable, segment_markdown, soft_breaks_as_spaces
from tests.plugin_sites import build_in_process, write_site

PAGE = (
    "# Wrapped page\n\n"
    "The first paragraph spans\nthree source lines and has\n**bold words** inside it.\n\n"
    "A hard break ends this line  \nand a backslash ends this one\\\nbefore the last line.\n\n"
    "- A list item that\n  wraps onto a second line.\n\n"
    "Run `mkdocs\nbuild` to see [the\nsite](other.md).\n"
)
OTHER = "# Other\n\nNothing to see.\n"


def _rewrap(markdown: str) -> str:
    """Every paragraph of ``markdown`` re-flowed to one line, hard breaks kept: what a
    formatter does to a whole site."""
    return re.sub(r"(?<![ \\\n])\n(?=[a-z*`\[])", " ", markdown)


def test_soft_breaks_become_spaces_and_hard_breaks_stay() -> None:
    assert soft_breaks_as_spaces("one\ntwo") == "one two"
    assert soft_breaks_as_spaces("hard  \nbreak") == "hard  \nbreak"
    assert soft_breaks_as_spaces("back\\\nslash") == "back\\\nslash"
    assert soft_breaks_as_spaces("no break") == "no break"
    text = "a\nb  \nc\\\nd\ne"
    assert len(soft_breaks_as_spaces(text)) == len(text)  # positions stay valid


def test_msgids_of_a_rewrapped_page_are_unchanged() -> None:
    before = {u.key for u in page_units(segment_markdown(PAGE), "docs/index.md")[0]}
    after = {u.key for u in page_units(segment_markdown(_rewrap(PAGE)), "docs/index.md")[0]}
    assert _rewrap(PAGE) != PAGE and before == after
    assert (None, "The first paragraph spans three source lines and has **bold words** inside it.") in before
    assert any("this line  \nand a backslash ends this one\\\nbefore" in msgid for _c, msgid in before)


def test_a_reviewer_may_copy_a_wrapped_code_span_or_link_on_one_line() -> None:
    segment = segment_markdown("Run `mkdocs\nbuild` to see [the\nsite](other.md).\n").segments[0]
    parsed = from_readable(segment, "运行 `mkdocs build` 查看[网站](other.md)。")
    assert not parsed.problems, parsed.problems
    wrapped = from_readable(segment, "运行 `mkdocs\nbuild` 查看[网站](other.md)。")
    assert not wrapped.problems and wrapped.text == parsed.text


def test_an_older_file_with_soft_breaks_in_its_msgids_is_migrated_without_losing_a_review() -> None:
    old = polib.POFile()
    old.append(polib.POEntry(msgid="The first paragraph\nspans two lines.", msgstr="第一段跨两行。"))
    old.append(polib.POEntry(msgid="Machine\ntext.", msgstr="机器。", flags=["fuzzy"]))
    units = [
        Unit("The first paragraph spans two lines.", None, "x", "paragraph", None, [("docs/a.md", "3")]),
        Unit("Machine text.", None, "y", "paragraph", None, [("docs/a.md", "5")]),
    ]
    po = merge(old, units, {})
    reviewed, machine = po.find("The first paragraph spans two lines."), po.find("Machine text.")
    assert reviewed.msgstr == "第一段跨两行。" and entry_state(reviewed) == "reviewed"
    assert machine.msgstr == "机器。" and entry_state(machine) == "machine"
    assert not [e for e in po if e.obsolete]  # the old msgids were rewritten, not abandoned


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return write_site(tmp_path, pages={"index.md": PAGE, "other.md": OTHER}, plugin={"backend": "pseudo"})


def _approve_all(po_path: Path) -> dict[str, str]:
    """A reviewer approves every entry with text of their own; returns msgid -> msgstr."""
    po = polib.pofile(str(po_path))
    for entry in po:
        entry.msgstr = f"审阅{abs(hash(entry.msgid)) % 1000}：" + entry.msgid
        entry.flags = [f for f in entry.flags if f != "fuzzy"]
    po.save(str(po_path))
    return {e.msgid: e.msgstr for e in po}


def test_rewrapping_every_paragraph_keeps_every_review(site: Path) -> None:
    root = site.parent
    build_in_process(site)
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    po_path = root / "translations" / "zh" / "index.md.po"
    machine = polib.pofile(str(po_path))
    soft = [e.msgstr for e in machine if soft_breaks_as_spaces(e.msgstr) != e.msgstr]
    assert not soft, soft  # machine text as the msgid is written: gettext tools compare newlines
    approved = _approve_all(po_path)
    assert all("\n" not in m or "  \n" in m or "\\\n" in m for m in approved)  # no soft break in a msgid

    page = root / "docs" / "index.md"
    page.write_text(_rewrap(PAGE), encoding="utf-8")
    build_in_process(site)
    html = (root / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "审阅" in html and html.count("审阅") >= len(approved) - 1  # reviewed text everywhere
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    after = polib.pofile(str(po_path))
    states = [entry_state(e) for e in after if not e.obsolete]
    assert states and all(s == "reviewed" for s in states), states
    assert {e.msgid: e.msgstr for e in after if not e.obsolete} == approved
    assert not [e for e in after if e.obsolete]


def test_a_blank_line_is_not_a_soft_break() -> None:
    assert soft_breaks_as_spaces("one\n\ntwo") == "one\n\ntwo"
    assert soft_breaks_as_spaces("one\n   \ntwo\nthree") == "one\n   \ntwo three"
