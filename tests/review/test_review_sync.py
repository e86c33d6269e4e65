"""`review sync` / `prune` semantics (gettext msgmerge), file safety and bad input."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.store import entry_state, write_if_changed
from mkdocs_zh_translate.review.sync import merge
from mkdocs_zh_translate.review.units import Unit
from tests.plugin_sites import build_in_process, write_site


def _unit(msgid: str, line: int = 1) -> Unit:
    return Unit(msgid, None, msgid, "paragraph", None, [("docs/a.md", str(line))])


def _po(*entries: polib.POEntry) -> polib.POFile:
    po = polib.POFile()
    for e in entries:
        po.append(e)
    return po


def test_new_entries_are_fuzzy_machine_text_or_empty_when_not_cached() -> None:
    po = merge(None, [_unit("Hello world."), _unit("Not cached.")], {(None, "Hello world."): "你好世界。"})
    hello, other = po.find("Hello world."), po.find("Not cached.")
    assert hello.fuzzy and hello.msgstr == "你好世界。" and entry_state(hello) == "machine"
    assert not other.fuzzy and other.msgstr == "" and entry_state(other) == "missing"
    assert hello.occurrences == [("docs/a.md", "1")]


def test_reviewed_entries_are_never_overwritten_by_machine_text() -> None:
    old = _po(polib.POEntry(msgid="Hello world.", msgstr="你好，世界。"))
    po = merge(old, [_unit("Hello world.", 7)], {(None, "Hello world."): "MACHINE"})
    entry = po.find("Hello world.")
    assert entry.msgstr == "你好，世界。" and not entry.fuzzy and entry.occurrences == [("docs/a.md", "7")]


def test_changed_source_keeps_the_reviewed_text_as_a_fuzzy_suggestion() -> None:
    old = _po(polib.POEntry(msgid="Install the package from the project directory.", msgstr="从项目目录安装软件包。"))
    new = "Install the package from your project directory."
    po = merge(old, [_unit(new)], {(None, new): "MACHINE"})
    entry = po.find(new)
    assert entry.fuzzy and entry.msgstr == "从项目目录安装软件包。"
    assert entry.previous_msgid == "Install the package from the project directory."
    assert entry_state(entry) == "stale"
    assert not [e for e in po if e.obsolete]  # the old text moved into the suggestion
    # changed again before anyone reviewed: the suggestion still points at the reviewed source
    again = merge(po, [_unit("Install the package from your own project directory.")], {})
    entry = again.find("Install the package from your own project directory.")
    assert entry.previous_msgid == "Install the package from the project directory."
    assert entry.msgstr == "从项目目录安装软件包。"


def test_vanished_entries_become_obsolete_and_come_back_when_the_text_returns() -> None:
    old = _po(
        polib.POEntry(msgid="Kept.", msgstr="保留。"),
        polib.POEntry(msgid="A completely different removed sentence.", msgstr="删除的句子。"),
    )
    po = merge(old, [_unit("Kept.")], {})
    gone = [e for e in po if e.obsolete]
    assert [e.msgid for e in gone] == ["A completely different removed sentence."] and gone[0].msgstr == "删除的句子。"
    back = merge(po, [_unit("Kept."), _unit("A completely different removed sentence.")], {})
    entry = back.find("A completely different removed sentence.")
    assert not entry.obsolete and entry.msgstr == "删除的句子。" and not entry.fuzzy


def test_machine_only_entries_do_not_become_suggestions() -> None:
    old = _po(polib.POEntry(msgid="Install the package now.", msgstr="MACHINE OLD", flags=["fuzzy"]))
    po = merge(old, [_unit("Install the package later.")], {(None, "Install the package later."): "MACHINE NEW"})
    entry = po.find("Install the package later.")
    assert entry.msgstr == "MACHINE NEW" and entry.previous_msgid is None


def test_write_if_changed_is_atomic_and_skips_identical_content(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "a.po"
    assert write_if_changed(path, "one\n")
    stamp = path.stat().st_mtime_ns
    assert not write_if_changed(path, "one\n") and path.stat().st_mtime_ns == stamp
    assert write_if_changed(path, "two\n") and path.read_text() == "two\n"
    assert [p.name for p in path.parent.iterdir()] == ["a.po"]  # no temporary file left


PAGES = {
    "index.md": "# Home\n\nWelcome to the `demo` site. See [the guide](guide.md).\n\n!!! note\n    Take care.\n",
    "guide.md": "---\ntitle: The guide\n---\n\n# Guide\n\nFirst paragraph of the guide.\n\nSecond paragraph of the guide.\n",
}


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return write_site(tmp_path, pages=PAGES)


def _review(config: Path, *args: str) -> int:
    return cli_main(["review", *args, "-f", str(config)])


def test_sync_writes_page_and_site_files_with_references(small: Path) -> None:
    build_in_process(small)
    assert _review(small, "sync") == 0
    review = small.parent / "translations" / "zh"
    index = polib.pofile(str(review / "index.md.po"))
    entry = index.find("Welcome to the `demo` site. See [the guide](guide.md).")
    assert entry is not None and entry.fuzzy and entry.occurrences == [("docs/index.md", "3")]
    assert "`demo`" in entry.msgstr and "(guide.md)" in entry.msgstr
    site = polib.pofile(str(review / "site.po"))
    assert {e.msgid for e in site} >= {"Demo Docs", "Note", "The guide", "Docs about the cache"}


def test_sync_without_a_cache_writes_empty_entries(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _review(small, "sync") == 0
    po = polib.pofile(str(small.parent / "translations" / "zh" / "guide.md.po"))
    assert all(e.msgstr == "" and not e.fuzzy for e in po)
    assert "0 machine" in capsys.readouterr().out


def test_prune_removes_obsolete_entries_only(small: Path) -> None:
    build_in_process(small)
    _review(small, "sync")
    path = small.parent / "translations" / "zh" / "guide.md.po"
    po = polib.pofile(str(path))
    po.find("First paragraph of the guide.").msgstr = "第一段。"
    po.find("First paragraph of the guide.").flags = []
    po.save(str(path))
    page = small.parent / "docs" / "guide.md"
    page.write_text(page.read_text().replace("Second paragraph of the guide.\n", "Another text entirely, unrelated.\n"))
    _review(small, "sync")
    assert [e.msgid for e in polib.pofile(str(path)) if e.obsolete] == ["Second paragraph of the guide."]
    assert _review(small, "prune") == 0
    po = polib.pofile(str(path))
    assert not [e for e in po if e.obsolete] and po.find("First paragraph of the guide.").msgstr == "第一段。"


def test_a_malformed_po_file_is_reported_with_file_and_line_and_nothing_is_written(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_in_process(small)
    _review(small, "sync")
    review = small.parent / "translations" / "zh"
    good = review / "guide.md.po"
    bad = review / "index.md.po"
    before_good = good.read_bytes()
    bad.write_text('msgid "a"\nmsgstr "b"\n\nmsgid "c"\nmsgid "d"\n', encoding="utf-8")
    before_bad = bad.read_bytes()
    page = small.parent / "docs" / "guide.md"
    page.write_text(page.read_text().replace("First", "Very first"))  # guide.md.po would change
    capsys.readouterr()
    for action in ("sync", "status", "prune"):
        assert _review(small, action) == 2
        err = capsys.readouterr().err
        assert "index.md.po:5: malformed PO file" in err and "Traceback" not in err
        assert err.count("\n") == 1
    assert good.read_bytes() == before_good and bad.read_bytes() == before_bad


def test_the_build_reports_a_malformed_po_file_with_file_and_line(small: Path, caplog: pytest.LogCaptureFixture) -> None:
    from mkdocs.exceptions import Abort

    review = small.parent / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "index.md.po").write_text('msgid "a"\nmsgstr "b"\nnonsense here\n', encoding="utf-8")
    with pytest.raises(Abort):
        build_in_process(small)
    assert "translations/zh/index.md.po:3: malformed PO file" in caplog.text


def test_strict_turns_a_rejected_reviewed_translation_into_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs.exceptions import Abort

    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "strict": True})
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Welcome to the `demo` site. See [the guide](guide.md).", msgstr="欢迎。"))
    po.save(str(review / "index.md.po"))
    with pytest.raises(Abort):
        build_in_process(config)
    assert "index.md.po:" in caplog.text and "reviewed translation rejected (lost the code `demo`" in caplog.text


def test_sync_is_not_confused_by_a_missing_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _review(tmp_path / "nope.yml", "sync") == 2
    assert "nope.yml: no such config file" in capsys.readouterr().err  # as docs says it (one finder)


def test_files_written_by_sync_are_readable_by_others(small: Path) -> None:
    _review(small, "sync")
    path = small.parent / "translations" / "zh" / "index.md.po"
    assert os.stat(path).st_mode & 0o644 == 0o644


def test_a_sync_killed_midway_leaves_every_file_whole(
    small: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mkdocs_zh_translate import owned

    build_in_process(small)
    _review(small, "sync")
    review = small.parent / "translations" / "zh"
    before = {p: p.read_bytes() for p in review.rglob("*.po")}
    for name in ("index.md", "guide.md"):
        page = small.parent / "docs" / name
        page.write_text(page.read_text() + "\nOne more sentence.\n")
    real_fdopen = os.fdopen
    calls = []

    def dying_fdopen(fd: int, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(fd)
        if len(calls) == 2:  # the second file dies while being written
            os.close(fd)
            raise KeyboardInterrupt
        return real_fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(owned.os, "fdopen", dying_fdopen)  # every PO write goes through owned.atomic_write
    assert _review(small, "sync") == 130  # "interrupted", no traceback
    monkeypatch.undo()
    after = {p: p.read_bytes() for p in review.rglob("*.po")}
    assert set(after) == set(before)
    assert [p.name for p in review.iterdir() if p.name.startswith(".")] == []  # no temporary files
    changed = [p for p in after if after[p] != before[p]]
    assert len(changed) == 1
    for path in after:
        po = polib.pofile(str(path))  # every file parses
        assert len(po) > 0
    assert _review(small, "sync") == 0  # and the next sync finishes the job
    assert "One more sentence." in {e.msgid for e in polib.pofile(str(review / "guide.md.po"))}


def test_review_dir_option_is_used_and_may_not_be_inside_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs.exceptions import Abort

    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "review_dir": "i18n/po"})
    assert _review(config, "sync") == 0
    assert (tmp_path / "i18n" / "po" / "index.md.po").is_file()
    assert not (tmp_path / "translations").exists()
    inside = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "review_dir": "docs/po"})
    with pytest.raises(Abort):
        build_in_process(inside)
    assert "review_dir" in caplog.text and "inside docs_dir" in caplog.text


def test_no_model_and_no_cache_fails_unless_untranslated_is_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs.exceptions import Abort

    monkeypatch.chdir(tmp_path)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    po = polib.POFile()
    po.append(polib.POEntry(msgid="First paragraph of the guide.", msgstr="指南的第一段。"))
    po.save(str(review / "guide.md.po"))
    # by default a build that would ship English as Chinese fails, with one line that counts it
    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "onnx", "model": "no-such-model"})
    with pytest.raises(Abort):
        build_in_process(config)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and re.search(r"\d+ segments on 2 pages have no reviewed or cached", errors[0])
    assert "no-such-model" in errors[0] and "allow_untranslated: true" in errors[0]
    assert not (tmp_path / "site" / "zh").exists()
    caplog.clear()
    # a partial deploy when asked for: reviewed text used, the rest English, one warning a page
    config = write_site(
        tmp_path, pages=PAGES, plugin={"backend": "onnx", "model": "no-such-model", "allow_untranslated": True}
    )
    build_in_process(config)
    html = (tmp_path / "site" / "zh" / "guide" / "index.html").read_text(encoding="utf-8")
    assert "指南的第一段。" in html and "Second paragraph of the guide." in html
    kept = [r.getMessage() for r in caplog.records if "kept in English" in r.getMessage()]
    assert len(kept) == 2 and "no-such-model" in kept[0]  # one per page, naming the reason
    caplog.clear()
    strict = write_site(
        tmp_path,
        pages=PAGES,
        plugin={"backend": "onnx", "model": "no-such-model", "allow_untranslated": True, "strict": True},
    )
    with pytest.raises(Abort):
        build_in_process(strict)
    assert "kept in English" in caplog.text


def test_a_renamed_page_keeps_its_reviewed_translations(small: Path) -> None:
    build_in_process(small)
    _review(small, "sync")
    review = small.parent / "translations" / "zh"
    po = polib.pofile(str(review / "guide.md.po"))
    entry = po.find("First paragraph of the guide.")
    entry.msgstr, entry.flags = "指南的第一段。", []
    po.save(str(review / "guide.md.po"))
    docs = small.parent / "docs"
    (docs / "guide.md").rename(docs / "manual.md")
    assert _review(small, "sync") == 0
    moved = polib.pofile(str(review / "manual.md.po")).find("First paragraph of the guide.")
    assert moved.msgstr == "指南的第一段。" and not moved.fuzzy  # same source text: still reviewed
    assert moved.occurrences == [("docs/manual.md", "7")]
    old = polib.pofile(str(review / "guide.md.po"))
    assert all(e.obsolete for e in old)  # nothing deleted until prune
    assert _review(small, "prune") == 0
    assert not (review / "guide.md.po").exists()
