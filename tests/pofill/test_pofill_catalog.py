"""``po fill`` on PO files: in-place edits that keep every other byte, which entries are filled,
the machine marker and --refresh, plurals, validation failures, Markdown catalogs, bad input."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.glossary import load_glossary
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pofill import FillError, fill
from mkdocs_zh_translate.pofill.catalog import apply_edits, parse_catalog
from tests.fakes import Recorder

HEADER = """\
# Translations of the Widget Toolkit.
# Copyright (C) 2026, Sample Authors
#
msgid ""
msgstr ""
"Project-Id-Version: Widget Toolkit 1.0\\n"
"Language: zh_CN\\n"
"Plural-Forms: nplurals={n}; plural=0;\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Generated-By: Babel 2.19.0\\n"
"""

BODY = """
#: ../../usage.rst:9
msgid ""
"Create a window with :py:func:`widgets.create_window` and add a "
":term:`widget` to it. The :py:class:`widgets.Window` class keeps every "
":term:`layout <layout manager>` in order."
msgstr ""

#. extracted comment
#: ../../usage.rst:20
#, python-format
msgid "The format string ``\\"%s widgets\\"`` accepts one value."
msgstr ""

# a translator's own note
#: ../../usage.rst:25
msgid "Reviewed entry"
msgstr "已审校的条目"

#: ../../usage.rst:26
#, fuzzy
#| msgid "Old source text"
msgid "New source text"
msgstr "旧的人工译文"

#: ../../usage.rst:27
msgctxt "button"
msgid "Close"
msgstr ""

#: ../../usage.rst:28
msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""

#~ msgid "Gone"
#~ msgstr "消失"
"""


def _write(tmp: Path, text: str, name: str = "usage.po") -> Path:
    path = tmp / "locale" / "zh_CN" / "LC_MESSAGES" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def _fill(tmp: Path, translator: Recorder | None = None, **options: object):  # type: ignore[no-untyped-def]
    translator = translator or Recorder()
    lazy = LazyTranslator(lambda *a, **k: translator)
    options.setdefault("cache_dir", tmp / "cache")
    return fill([tmp / "locale"], TranslatorSpec("pseudo", None), lazy=lazy, **options)  # type: ignore[arg-type]


def _entries(path: Path) -> dict[tuple[str | None, str], polib.POEntry]:
    return {(e.msgctxt, e.msgid): e for e in polib.pofile(str(path)) if not e.obsolete}


def test_untouched_file_round_trips_byte_identical(tmp_path: Path) -> None:
    text = HEADER.format(n=1) + BODY
    for variant in (text, text.replace("\n", "\r\n")):
        assert apply_edits(parse_catalog(variant, "x.po"), []) == variant


def test_fills_only_open_entries_and_keeps_every_other_line(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    before = path.read_text(encoding="utf-8")
    summary = _fill(tmp_path)
    after = path.read_text(encoding="utf-8")
    assert (summary.filled, summary.reviewed, summary.fuzzy_kept, summary.failed) == (4, 1, 1, [])
    assert summary.translated_share() == 1.0
    entries = _entries(path)
    assert entries[(None, "Reviewed entry")].msgstr == "已审校的条目"
    assert "fuzzy" not in entries[(None, "Reviewed entry")].flags
    assert entries[(None, "New source text")].msgstr == "旧的人工译文"  # a person's fuzzy draft
    assert entries[("button", "Close")].msgstr == "文"
    plural = entries[(None, "%d file")]
    assert plural.msgstr_plural[0] == "%d 文"  # nplurals=1: the plural form's translation
    fmt = entries[(None, 'The format string ``"%s widgets"`` accepts one value.')]
    assert fmt.flags == ["fuzzy", "python-format"] and fmt.msgstr == '文 文 文 ``"%s widgets"`` 文 文 文.'
    assert fmt.tcomment.startswith("zh-translate: machine ")
    # every old line is still there, in order, except the empty msgstrs and flags we replaced
    old_lines = [line for line in before.splitlines() if line not in ('msgstr ""', 'msgstr[0] ""', "#, python-format")]
    assert "#, fuzzy, python-format" in after.splitlines()
    new_lines = iter(after.splitlines())
    assert all(any(line == new for new in new_lines) for line in old_lines)
    assert "#~ msgid \"Gone\"" in after and "# a translator's own note" in after
    if shutil.which("msgfmt"):
        proc = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_nothing_to_do_leaves_the_file_alone(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    _fill(tmp_path)
    data, mtime = path.read_bytes(), path.stat().st_mtime_ns
    translator = Recorder()
    summary = _fill(tmp_path, translator)
    assert summary.filled == 0 and summary.files_changed == 0
    assert path.read_bytes() == data and path.stat().st_mtime_ns == mtime
    assert translator.calls == []


def test_refresh_redoes_only_untouched_machine_text(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    _fill(tmp_path)
    text = path.read_text(encoding="utf-8")
    # a reviewer edits one machine entry but leaves it fuzzy, and accepts another
    text = text.replace('msgctxt "button"\nmsgid "Close"\nmsgstr "文"', 'msgctxt "button"\nmsgid "Close"\nmsgstr "关闭"')
    path.write_text(text, encoding="utf-8")
    po = polib.pofile(str(path))
    for entry in po:
        if entry.msgid == "%d file":
            entry.flags.remove("fuzzy")
    po.save(str(path))  # (polib re-wraps; fine for this test)
    summary = _fill(tmp_path, Recorder(mode="han"), refresh=True)
    entries = _entries(path)
    assert entries[("button", "Close")].msgstr == "关闭"  # edited: kept
    assert entries[(None, "%d file")].msgstr_plural[0] == "%d 文"  # reviewed now
    assert summary.refreshed == 0 and summary.already == 2  # same machine text: nothing to write
    summary = _fill(tmp_path, Recorder(mode="han"), refresh=True, cache_dir=tmp_path / "other-cache")
    assert summary.already == 2


def test_refresh_writes_new_machine_text(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    _fill(tmp_path)

    class Other(Recorder):
        fingerprint = "other-model"

        def translate(self, texts: Sequence[str]) -> list[str]:
            return [t + "（新）" for t in super().translate(texts)]

    lazy = LazyTranslator(lambda *a, **k: Other())
    spec = TranslatorSpec("onnx-test", str(tmp_path / "other-model"))  # see _refill
    summary = fill([tmp_path / "locale"], spec, cache_dir=tmp_path / "c2", lazy=lazy, refresh=True)
    assert summary.refreshed == 4
    assert _entries(path)[("button", "Close")].msgstr == "文（新）"


def test_plurals_with_several_forms_are_skipped_and_listed(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=2) + BODY)
    summary = _fill(tmp_path)
    line = _line(path, 'msgid "%d file"')
    assert [p.where.rsplit(":", 1)[1] for p in summary.skipped] == [str(line)]
    assert summary.skipped[0].where.endswith(f"usage.po:{line}")
    assert _entries(path)[(None, "%d file")].msgstr_plural[0] == ""


def _line(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(needle))


def test_validation_failures_stay_untranslated_and_are_listed(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    summary = _fill(tmp_path, Recorder(mode="drop"))
    failed = {p.msgid: p for p in summary.failed}
    assert 'The format string ``"%s widgets"`` accepts one value.' in failed
    where = failed['The format string ``"%s widgets"`` accepts one value.'].where
    assert where.endswith(":" + str(_line(path, 'msgid "The format string')))
    entries = _entries(path)
    assert entries[(None, 'The format string ``"%s widgets"`` accepts one value.')].msgstr == ""
    assert entries[("button", "Close")].msgstr == ""  # empty output: refused too
    assert entries[(None, "Reviewed entry")].msgstr == "已审校的条目"


@pytest.mark.parametrize(
    ("width_text", "width"),
    [("babel", 76), ("polib", 78), ("single", 0)],
)
def test_new_text_is_wrapped_like_the_file(tmp_path: Path, width_text: str, width: int) -> None:
    long_words = " ".join(["words"] * 40)
    po = polib.POFile(wrapwidth=78)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=1; plural=0;"}
    po.append(polib.POEntry(msgid=long_words + " one", msgstr="已译 " + long_words))
    po.append(polib.POEntry(msgid=long_words + " two", msgstr=""))
    if width_text == "polib":
        text = po.__unicode__()
    elif width_text == "babel":
        text = _write(tmp_path, HEADER.format(n=1) + BODY).read_text(encoding="utf-8")
        text += f'\nmsgid "{long_words} two"\nmsgstr ""\n'
    else:
        po.wrapwidth = 0
        text = po.__unicode__()
    assert parse_catalog(text, "x.po").width == width
    path = _write(tmp_path, text)
    _fill(tmp_path)
    new = path.read_text(encoding="utf-8")
    catalog = parse_catalog(new, "x.po")
    entry = next(e for e in catalog.entries if e.msgid == long_words + " two")
    first, end = next((a, b) for k, a, b in entry.keyword_lines if k == "msgstr")
    msgstr = [line.rstrip("\n") for line in catalog.lines[first:end]]
    if width:
        assert len(msgstr) > 2 and all(len(line) <= width for line in msgstr)
    else:
        assert len(msgstr) == 1
    assert entry.msgstr[None].startswith("文 文")


@pytest.mark.skipif(shutil.which("msgcat") is None, reason="GNU gettext tools not installed")
@pytest.mark.parametrize(("option", "width"), [([], 79), (["--width=60"], 60), (["--no-wrap"], 0)])
def test_gnu_gettext_widths(tmp_path: Path, option: list[str], width: int) -> None:
    source = tmp_path / "in.po"
    long_words = " ".join(["words"] * 40)
    source.write_text(HEADER.format(n=1) + BODY + f'\nmsgid "{long_words} two"\nmsgstr ""\n', encoding="utf-8")
    path = _write(tmp_path, "")
    subprocess.run(["msgcat", *option, "-o", str(path), str(source)], check=True, timeout=60)
    text = path.read_text(encoding="utf-8")
    assert apply_edits(parse_catalog(text, "x.po"), []) == text
    detected = parse_catalog(text, "x.po").width
    # the words of this file are all 5 letters: any width the file is consistent with will do
    assert detected == width if width in (0, 60) else 76 <= detected <= width
    _fill(tmp_path)
    new = path.read_text(encoding="utf-8")
    if width:
        assert max(len(line) for line in new.splitlines()) <= width
    proc = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_markdown_catalogs_reuse_the_segmenter(tmp_path: Path) -> None:
    text = HEADER.format(n=1) + """
msgid "Run `mkdocs build` to [build the site](build.md#top) **now**."
msgstr ""

msgid "```\\ncode only\\n```"
msgstr ""
"""
    path = _write(tmp_path, text)
    summary = _fill(tmp_path, fmt="md")
    assert summary.failed == []
    entries = _entries(path)
    assert entries[(None, "Run `mkdocs build` to [build the site](build.md#top) **now**.")].msgstr == (
        "文 `mkdocs build` 文 [文 文 文](build.md#top) **文**."
    )


def test_glossary_terms_are_fixed(tmp_path: Path) -> None:
    (tmp_path / "glossary.yml").write_text("keep: [Widget Toolkit]\nterms:\n  window: 窗口\n", encoding="utf-8")
    path = _write(tmp_path, HEADER.format(n=1) + 'msgid "Open a window in Widget Toolkit."\nmsgstr ""\n')
    _fill(tmp_path, glossary=load_glossary(tmp_path / "glossary.yml"))
    assert _entries(path)[(None, "Open a window in Widget Toolkit.")].msgstr == "文 文 窗口 文 Widget Toolkit."


def test_malformed_po_names_file_and_line(tmp_path: Path) -> None:
    _write(tmp_path, HEADER.format(n=1) + '\nmsgid "ok"\nmsgstr ""\n\nmsgid "broken\nmsgstr ""\n')
    with pytest.raises(FillError, match=r"usage\.po:\d+: "):
        _fill(tmp_path)


def test_a_failing_translator_changes_no_file(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    before = path.read_bytes()

    class Broken(Recorder):
        def translate(self, texts: Sequence[str]) -> list[str]:
            raise RuntimeError("out of memory")

    with pytest.raises(FillError, match="the translator failed: out of memory; no PO file was changed"):
        _fill(tmp_path, Broken())
    assert path.read_bytes() == before


def test_other_charsets_are_refused(tmp_path: Path) -> None:
    _write(tmp_path, (HEADER.format(n=1) + BODY).replace("charset=utf-8", "charset=ISO-8859-1"))
    with pytest.raises(FillError, match=r"usage\.po:1: declares charset ISO-8859-1"):
        _fill(tmp_path)


def test_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["po", "fill", str(tmp_path / "missing")]) == 2
    assert main(["po", "fill", str(tmp_path / "missing"), "--backend", "pseudo"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("mkdocs-zh-translate: error: ") and "--model" in err[0]
    assert "missing: no such file or directory" in err[1]
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert main(["po", "fill", str(tmp_path / "notes.txt"), "--backend", "pseudo"]) == 2
    assert "not a .po file" in capsys.readouterr().err


def test_cli_summary_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, HEADER.format(n=2) + BODY)
    code = main(["po", "fill", str(tmp_path / "locale"), "--backend", "pseudo", "--cache-dir", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert code == 0
    assert out.strip() == (
        "po fill: 1 files (1 changed), 6 entries: 3 filled, 1 reviewed kept, 1 fuzzy kept, "
        "1 skipped, 0 failed validation; 83% of entries translated"
    )
    assert err.startswith("skipped: ") and "usage.po:" in err


# -- --translated: machine entries written as translations, still known as ours ------------------


def _msgfmt_statistics(path: Path) -> str:
    proc = subprocess.run(["msgfmt", "-c", "--statistics", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr.strip().splitlines()[-1]  # (the test header lacks fields msgfmt -c asks for)


def test_translated_writes_translations_that_msgfmt_counts(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    summary = _fill(tmp_path, translated=True)
    assert (summary.filled, summary.reviewed, summary.fuzzy_kept, summary.failed) == (4, 1, 1, [])
    entries = _entries(path)
    fmt = entries[(None, 'The format string ``"%s widgets"`` accepts one value.')]
    assert fmt.flags == ["python-format"] and fmt.msgstr == '文 文 文 ``"%s widgets"`` 文 文 文.'
    assert fmt.tcomment.startswith("zh-translate: machine translated ")
    assert "fuzzy" not in entries[("button", "Close")].flags and entries[("button", "Close")].msgstr == "文"
    assert entries[(None, "New source text")].flags == ["fuzzy"]  # a person's draft stays theirs
    text = path.read_text(encoding="utf-8")
    assert "#, fuzzy\n" not in text.replace('#, fuzzy\n#| msgid "Old source text"', "")
    if shutil.which("msgfmt"):
        assert _msgfmt_statistics(path) == "5 translated messages, 1 fuzzy translation."
    # a second run leaves them alone and says so
    data = path.read_bytes()
    again = _fill(tmp_path, translated=True)
    assert (again.filled, again.already_translated, again.reviewed) == (0, 4, 1) and path.read_bytes() == data
    assert "4 machine kept" in again.line() and again.translated_share() == 1.0


class _Other(Recorder):
    fingerprint = "other-model"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [t + "（新）" for t in super().translate(texts)]


def _refill(tmp: Path, **options: object):  # type: ignore[no-untyped-def]
    lazy = LazyTranslator(lambda *a, **k: _Other())
    options.setdefault("cache_dir", tmp / "other-cache")
    # A model directory that is not there (the fake needs none): with no model at all the cache
    # key would fingerprint the working directory, in a checkout the whole tree with .venv/.cache.
    spec = TranslatorSpec("onnx-test", str(tmp / "other-model"))
    return fill([tmp / "locale"], spec, lazy=lazy, **options)  # type: ignore[arg-type]


def test_translated_refresh_never_overwrites_a_persons_edit(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    _fill(tmp_path, translated=True)
    text = path.read_text(encoding="utf-8")
    # a reviewer edits "Close" and accepts "%d file" as it is by deleting our comment
    text = text.replace('msgctxt "button"\nmsgid "Close"\nmsgstr "文"', 'msgctxt "button"\nmsgid "Close"\nmsgstr "关闭"')
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith('msgid "%d file"'))
    marker = next(i for i in range(at, 0, -1) if lines[i].startswith("# zh-translate: machine translated"))
    del lines[marker]
    path.write_text("".join(lines), encoding="utf-8")
    summary = _refill(tmp_path, translated=True, refresh=True)
    entries = _entries(path)
    assert entries[("button", "Close")].msgstr == "关闭"
    assert entries[(None, "%d file")].msgstr_plural[0] == "%d 文"
    assert summary.refreshed == 2 and summary.reviewed == 3  # the two untouched ones were redone
    fmt = entries[(None, 'The format string ``"%s widgets"`` accepts one value.')]
    assert fmt.msgstr.endswith("（新）") and fmt.flags == ["python-format"]
    assert fmt.tcomment.startswith("zh-translate: machine translated ")
    # without --translated the same entries are reviewed translations, never drafts of ours
    assert _refill(tmp_path, refresh=True, cache_dir=tmp_path / "c3").refreshed == 2


def test_translated_refresh_moves_fuzzy_drafts_and_keeps_accepted_ones(tmp_path: Path) -> None:
    path = _write(tmp_path, HEADER.format(n=1) + BODY)
    _fill(tmp_path)  # the default: fuzzy drafts
    po = polib.pofile(str(path))
    for entry in po:
        if entry.msgid == "%d file":
            entry.flags.remove("fuzzy")  # accepted by a reviewer: our marker stays, without "translated"
    po.save(str(path))
    summary = _fill(tmp_path, translated=True)
    assert summary.filled == 0 and summary.already == 3  # no --refresh: drafts stay drafts
    summary = _fill(tmp_path, translated=True, refresh=True)
    assert (summary.refreshed, summary.reviewed) == (3, 2)
    entries = _entries(path)
    assert "fuzzy" not in entries[("button", "Close")].flags
    assert entries[("button", "Close")].tcomment.startswith("zh-translate: machine translated ")
    assert entries[(None, "%d file")].tcomment.startswith("zh-translate: machine ")
    assert "translated" not in entries[(None, "%d file")].tcomment  # the accepted one: untouched
    # msgmerge marks a changed msgid fuzzy and keeps our comment: the entry is still ours
    text = path.read_text(encoding="utf-8").replace('msgctxt "button"', '#, fuzzy\n#| msgid "Shut"\nmsgctxt "button"')
    path.write_text(text, encoding="utf-8")
    summary = _refill(tmp_path, translated=True, refresh=True)
    close = _entries(path)[("button", "Close")]
    assert close.msgstr == "文（新）" and close.flags == [] and close.previous_msgid is None
    if shutil.which("msgfmt"):
        assert _msgfmt_statistics(path) == "5 translated messages, 1 fuzzy translation."


@pytest.mark.parametrize(
    ("layout", "source", "expected"),
    [
        (["repo/.git/", "repo/docs/conf.py"], "repo/docs", "repo/.zh-translate-cache"),
        (["repo/.git/", "repo/doc/source/conf.py"], "repo/doc/source", "repo/doc/.zh-translate-cache"),
        (["repo/.git/", "repo/conf.py"], "repo", "xdg"),  # the source dir is the checkout's root
        (["repo/conf.py"], "repo", "xdg"),  # no checkout: nothing above the source dir is ours
        (["conf.py", "repo/.git/"], "repo", "repo/.zh-translate-cache"),  # mdpo; a conf.py above the checkout
        (["repo/.git/", "repo/docs/mkdocs.yml"], "repo/docs", "repo/docs/.zh-translate-cache"),  # mdpo
    ],
)
def test_default_cache_stays_out_of_the_sphinx_source_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: list[str], source: str, expected: str
) -> None:
    from mkdocs_zh_translate.pofill.fill import default_cache_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for name in layout:
        target = tmp_path / name
        if name.endswith("/"):
            target.mkdir(parents=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("", encoding="utf-8")
    po_dir = tmp_path / source / "locale"
    po_dir.mkdir()
    found = default_cache_dir([po_dir])
    if expected == "xdg":
        assert found.parent == (tmp_path / "xdg/mkdocs-zh-translate/po-fill").resolve(), found
        assert found.name.startswith("repo-")
        assert default_cache_dir([po_dir / "zh_CN"]) == found  # one folder per source directory
    else:
        assert found == (tmp_path / expected).resolve()


# -- blank lines inside an entry ------------------------------------------------------------------


def test_blank_lines_inside_an_entry_are_read_across(tmp_path: Path) -> None:
    """msgfmt, the checker and polib read an entry across blank lines before its msgstr (between
    comments and msgid, between msgid and msgstr); the editor did not and crashed filling it."""
    body = (
        '\n#: ../../usage.rst:9\n#, python-format\n\nmsgid "Open %s widgets"\n\nmsgstr ""\n'
        '\n#: ../../usage.rst:10\nmsgid "Close the window"\n\n\nmsgstr ""\n\nmsgid "Done"\nmsgstr "完成"\n'
    )
    path = _write(tmp_path, HEADER.format(n=1) + body)
    summary = _fill(tmp_path)
    assert (summary.filled, summary.reviewed, summary.failed) == (2, 1, [])
    entries = _entries(path)
    assert entries[(None, "Open %s widgets")].msgstr == "文 %s 文"
    assert entries[(None, "Open %s widgets")].flags == ["fuzzy", "python-format"]  # one flag line, not two
    assert entries[(None, "Close the window")].msgstr == "文 文 文"
    assert entries[(None, "Done")].msgstr == "完成"
    text = path.read_text(encoding="utf-8")
    assert text.count("#,") == 2 and text.count("\n\n# zh-translate: machine ") == 2  # entries stay apart
    if shutil.which("msgfmt"):
        proc = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
