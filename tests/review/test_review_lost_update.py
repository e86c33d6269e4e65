"""`review sync` never writes its plan over a PO file a reviewer saved while it ran."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review import sync
from tests.plugin_sites import build_in_process, write_site

PAGES = {
    "index.md": "# Home\n\nWelcome to the demo site.\n",
    "guide.md": "# Guide\n\nFirst paragraph of the guide.\n\nSecond paragraph of the guide.\n",
}
FIRST = "First paragraph of the guide."


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES)
    build_in_process(config)
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    return config


def _po_path(config: Path, name: str) -> Path:
    return config.parent / "translations" / "zh" / name


def _editor_save(path: Path, msgid: str, msgstr: str) -> None:
    """What Poedit and most editors do: write a temporary file beside it, rename it over."""
    po = polib.pofile(str(path))
    entry = po.find(msgid)
    entry.msgstr, entry.flags = msgstr, []
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".edit.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(str(po))
    os.replace(tmp, path)


def _change_pages(config: Path) -> None:
    """English edits that make the next sync rewrite both page files."""
    for name, old, new in (("guide.md", "Second paragraph", "Changed second paragraph"), ("index.md", "Welcome", "Hello")):
        page = config.parent / "docs" / name
        page.write_text(page.read_text().replace(old, new))


def _after_plan(monkeypatch: pytest.MonkeyPatch, hook: Callable[[int], None]) -> None:
    """Run ``hook(n)`` after the n-th plan is made, before anything is written."""
    real = sync.plan_sync
    calls = [0]

    def planned(*args: Any, **kwargs: Any) -> list[sync.Planned]:
        plans = real(*args, **kwargs)
        calls[0] += 1
        hook(calls[0])
        return plans

    monkeypatch.setattr(sync, "plan_sync", planned)


def test_a_reviewer_save_between_read_and_write_is_kept_and_merged(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = _po_path(site, "guide.md.po")
    _change_pages(site)
    _after_plan(monkeypatch, lambda n: _editor_save(guide, FIRST, "第一段。") if n == 1 else None)
    capsys.readouterr()
    assert cli_main(["review", "sync", "-f", str(site)]) == 0
    po = polib.pofile(str(guide))
    first = po.find(FIRST)
    assert first.msgstr == "第一段。" and not first.fuzzy  # the reviewer's save survived
    assert po.find("Changed second paragraph of the guide.") is not None  # and sync did its work (re-planned)
    assert "2 of" in capsys.readouterr().out


def test_a_file_that_keeps_changing_is_refused_in_one_line_and_never_overwritten(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    guide = _po_path(site, "guide.md.po")
    index = _po_path(site, "index.md.po")
    _change_pages(site)
    before_index = index.read_bytes()
    _after_plan(monkeypatch, lambda n: _editor_save(guide, FIRST, f"第{n}稿。"))
    capsys.readouterr()
    assert cli_main(["review", "sync", "-f", str(site)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "guide.md.po: changed on disk while the command ran" in err and "nothing written" in err
    assert polib.pofile(str(guide)).find(FIRST).msgstr == "第3稿。"  # the last save, as the editor wrote it
    assert index.read_bytes() == before_index  # all or nothing: no other file written either


def test_a_save_just_before_a_files_own_write_skips_that_file_only(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    index = _po_path(site, "index.md.po")
    _change_pages(site)
    real = sync.write_if_changed

    def write(path: Path, text: str) -> bool:
        if path.name == "guide.md.po":  # written first: the reviewer saves index.md.po meanwhile
            _editor_save(index, "Home", "首页")
        return real(path, text)

    monkeypatch.setattr(sync, "write_if_changed", write)
    capsys.readouterr()
    assert cli_main(["review", "sync", "-f", str(site)]) == 2
    err = capsys.readouterr().err
    assert "index.md.po: changed on disk" in err and "1 other file(s) written" in err and err.count("\n") == 1
    po = polib.pofile(str(index))
    assert po.find("Home").msgstr == "首页" and po.find("Hello to the demo site.") is None  # not overwritten
    assert polib.pofile(str(_po_path(site, "guide.md.po"))).find("Changed second paragraph of the guide.") is not None
    monkeypatch.setattr(sync, "write_if_changed", real)
    assert cli_main(["review", "sync", "-f", str(site)]) == 0  # the next run merges the save
    po = polib.pofile(str(index))
    assert po.find("Home").msgstr == "首页" and po.find("Hello to the demo site.") is not None


def test_prune_does_not_overwrite_a_save_either(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guide = _po_path(site, "guide.md.po")
    _change_pages(site)
    assert cli_main(["review", "sync", "-f", str(site)]) == 0  # the old second paragraph is obsolete now
    real = sync.plan_prune
    saved = []

    def planned(*args: Any, **kwargs: Any) -> list[sync.Planned]:
        plans = real(*args, **kwargs)
        if not saved:
            _editor_save(guide, FIRST, "第一段。")
            saved.append(1)
        return plans

    monkeypatch.setattr(sync, "plan_prune", planned)
    assert cli_main(["review", "prune", "-f", str(site)]) == 0
    po = polib.pofile(str(guide))
    assert po.find(FIRST).msgstr == "第一段。" and not [e for e in po if e.obsolete]


def test_an_editor_saving_from_another_thread_loses_nothing(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guide = _po_path(site, "guide.md.po")
    _change_pages(site)
    planned, saved = threading.Event(), threading.Event()

    def editor() -> None:
        try:
            if planned.wait(30):
                _editor_save(guide, FIRST, "第一段。")
        finally:
            saved.set()

    thread = threading.Thread(target=editor)
    thread.start()

    def hook(n: int) -> None:
        if n == 1:
            planned.set()
            saved.wait(30)  # sync goes on once the other thread's save is on disk

    _after_plan(monkeypatch, hook)
    try:
        assert cli_main(["review", "sync", "-f", str(site)]) == 0
    finally:
        planned.set()
        thread.join()
    assert polib.pofile(str(guide)).find(FIRST).msgstr == "第一段。"
