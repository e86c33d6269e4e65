"""A reviewer's fuzzy draft (edited, left "needs work") survives an English change and prune."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.drafts import DRAFT_MARK
from mkdocs_zh_translate.review.store import entry_state
from tests.plugin_sites import build_in_process, write_site

FIRST = "First paragraph of the guide."
SECOND = "Second paragraph of the guide, about the cache."
DRAFT = "指南第二段（草稿），关于缓存。"
PAGES = {
    "index.md": "# Home\n\nWelcome.\n",
    "guide.md": f"# Guide\n\n{FIRST}\n\n{SECOND}\n",
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Built and synced; a reviewer edited SECOND's machine text and left it fuzzy."""
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    build_in_process(config)
    assert _review(config, "sync") == 0
    po = polib.pofile(str(_guide_po(config)))
    entry = po.find(SECOND)
    assert entry.fuzzy and entry.msgstr and entry.msgstr != DRAFT  # machine text
    entry.msgstr = DRAFT  # edited, "needs work": still fuzzy
    po.save(str(_guide_po(config)))
    return config


def _review(config: Path, *args: str) -> int:
    return cli_main(["review", *args, "-f", str(config)])


def _guide_po(config: Path) -> Path:
    return config.parent / "translations" / "zh" / "guide.md.po"


def _edit(config: Path, page: str, old: str, new: str) -> None:
    path = config.parent / "docs" / page
    path.write_text(path.read_text().replace(old, new))


def test_a_draft_follows_its_changed_english_as_a_suggestion(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    changed = SECOND.replace("about the cache", "about the build cache")
    _edit(site, "guide.md", SECOND, changed)
    _edit(site, "guide.md", FIRST, "The very first paragraph of this guide.")  # machine text only
    build_in_process(site)
    assert _review(site, "sync") == 0
    po = polib.pofile(str(_guide_po(site)))
    entry = po.find(changed)
    assert entry.msgstr == DRAFT and entry.fuzzy and entry.previous_msgid == SECOND
    assert entry_state(entry) == "suggested"  # awaiting a reviewer; no review went stale
    assert not [e for e in po if e.obsolete and e.msgstr == DRAFT]  # taken over, not left behind
    assert [e.msgid for e in po if e.obsolete] == [FIRST]  # machine text goes obsolete as before
    capsys.readouterr()
    assert _review(site, "check", "--max-stale", "0") == 0


def test_a_draft_whose_english_went_is_kept_by_prune_and_offered_by_the_memory(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _edit(site, "guide.md", f"\n{SECOND}\n", "")
    assert _review(site, "sync") == 0
    gone = [e for e in polib.pofile(str(_guide_po(site))) if e.obsolete]
    assert [(e.msgid, e.msgstr) for e in gone] == [(SECOND, DRAFT)] and DRAFT_MARK in gone[0].tcomment
    capsys.readouterr()
    assert _review(site, "prune") == 0
    assert "1 obsolete draft(s) kept" in capsys.readouterr().out
    kept = [e for e in polib.pofile(str(_guide_po(site))) if e.obsolete]
    assert [(e.msgid, e.msgstr) for e in kept] == [(SECOND, DRAFT)]
    # near-identical English elsewhere: the memory offers the draft as a suggestion
    _edit(site, "index.md", "Welcome.", SECOND.replace(".", "!"))
    assert _review(site, "sync") == 0
    offered = polib.pofile(str(site.parent / "translations" / "zh" / "index.md.po")).find(SECOND.replace(".", "!"))
    assert offered.msgstr == DRAFT and entry_state(offered) == "suggested" and offered.previous_msgid == SECOND


def test_a_draft_accepted_later_loses_its_marker(site: Path) -> None:
    _edit(site, "guide.md", f"\n{SECOND}\n", "")
    assert _review(site, "sync") == 0
    _edit(site, "guide.md", FIRST, f"{FIRST}\n\n{SECOND}")  # the text comes back: the draft with it
    assert _review(site, "sync") == 0
    po = polib.pofile(str(_guide_po(site)))
    entry = po.find(SECOND)
    assert entry.msgstr == DRAFT and entry.fuzzy and DRAFT_MARK in entry.tcomment
    entry.flags = []  # the reviewer accepts it
    po.save(str(_guide_po(site)))
    assert _review(site, "sync") == 0
    entry = polib.pofile(str(_guide_po(site))).find(SECOND)
    assert entry_state(entry) == "reviewed" and DRAFT_MARK not in (entry.tcomment or "")
