"""The Sphinx loop end to end: gettext -> sphinx-intl update -> po fill -> Chinese HTML.

Every link, role, reference and literal of the English HTML must be present and resolving in
the Chinese HTML, and at least 97% of the catalog entries filled, with the pseudo backend
(through the console script), with a stand-in translator that writes Han characters next to
markup, and with the tiny ONNX test model.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pofill import fill
from tests.fakes import HanTranslator
from tests.sphinx_helpers import CONTENT_PAGES, broken_links, page_facts, prepare, run, sphinx

pytest.importorskip("sphinx")
pytest.importorskip("sphinx_intl")

MIN_FILLED = 0.97
CJK = "[\u4e00-\u9fff]"


def _cli(*args: str, cwd: Path, xdg: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    env["XDG_CACHE_HOME"] = str(xdg or cwd.parent / "xdg")  # the default cache of a Sphinx project
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_zh_translate", *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env
    )


def _fill_share(project: Path) -> tuple[int, int]:
    """(entries with a translation, all entries) over the project's zh_CN catalogs."""
    import polib

    done = total = 0
    for po_file in (project / "locale").rglob("*.po"):
        for entry in polib.pofile(str(po_file)):
            if entry.obsolete or not entry.msgid:
                continue
            total += 1
            done += bool(entry.msgstr)
    return done, total


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project through ``gettext`` and ``sphinx-intl update``, with its English HTML:
    made once for the module (neither depends on what a test fills in) and copied by each test."""
    project = prepare(tmp_path_factory.mktemp("prepared"))
    warnings = sphinx(project, "html", "_build/en")
    assert not warnings, warnings
    assert broken_links(project / "_build/en") == []
    return project


def _project(prepared: Path, tmp: Path) -> Path:
    """A copy of the prepared project in ``tmp``; Sphinx's saved environments stay behind, so a
    later ``sphinx`` run reads every source afresh, as in a new project."""
    project = tmp / "project"
    shutil.copytree(prepared, project, ignore=shutil.ignore_patterns(".doctrees"))
    return project


def _check_html(project: Path, *, marked: str | None, english_changed: bool = False) -> None:
    """The zh HTML (fuzzy translations allowed) against the English HTML: the prepared one, or
    one built now when the test changed the English sources."""
    en = project / "_build/en"
    if english_changed:
        en_warn = sphinx(project, "html", "_build/en")
        assert not en_warn, en_warn
        assert broken_links(en) == []
    zh = project / "_build/zh"
    zh_warn = sphinx(project, "html", "_build/zh", "-D", "language=zh_CN", "-D", "gettext_allow_fuzzy_translations=1")
    assert not zh_warn, zh_warn  # no inconsistent references, no broken inline markup
    assert broken_links(zh) == []
    for page in CONTENT_PAGES:
        e, z = page_facts(en / page), page_facts(zh / page)
        assert z.hrefs == e.hrefs, page  # every link and role, same count, same target
        assert z.code == e.code, page  # every literal, role target, kbd and code block
        assert e.ids <= z.ids, sorted(e.ids - z.ids)  # every anchor still there
        if marked is not None:
            assert re.search(marked, z.text), page
            # no stray reST markup in the rendered text (a sign of broken inline markup)
            assert "``" not in z.text and ":ref:" not in z.text and "]_" not in z.text and "\\ " not in z.text


@pytest.mark.slow
def test_pseudo_backend_through_the_console_script(tmp_path: Path, prepared: Path) -> None:
    project = _project(prepared, tmp_path)
    proc = _cli("po", "fill", "locale", "--backend", "pseudo", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "0 failed validation" in proc.stdout
    # never inside the Sphinx source directory (no checkout around it: the user's cache)
    assert not (project / ".zh-translate-cache").exists()
    assert len(list((tmp_path / "xdg/mkdocs-zh-translate/po-fill").glob("project-*"))) == 1
    done, total = _fill_share(project)
    assert total >= 35 and done / total >= MIN_FILLED, (done, total)
    _check_html(project, marked="\u300c")
    # a second run changes nothing and is answered from the cache
    before = {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
    proc = _cli("po", "fill", "locale", "--backend", "pseudo", cwd=project)
    assert "0 filled" in proc.stdout and "(0 changed)" in proc.stdout
    assert before == {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}


@pytest.mark.slow
def test_han_text_next_to_markup_still_renders(tmp_path: Path, prepared: Path) -> None:
    project = _project(prepared, tmp_path)
    lazy = LazyTranslator(lambda *a, **k: HanTranslator())
    summary = fill([project / "locale"], TranslatorSpec("pseudo", None), cache_dir=tmp_path / "cache", lazy=lazy)
    assert summary.failed == []
    assert summary.filled / summary.entries >= MIN_FILLED
    _check_html(project, marked=CJK)
    usage = (project / "_build/zh/usage.html").read_text(encoding="utf-8")
    assert '<strong>' in (project / "_build/zh/install.html").read_text(encoding="utf-8")
    assert 'href="#event-loop"' in usage


@pytest.mark.slow
def test_tiny_onnx_model(tmp_path: Path, prepared: Path) -> None:
    from tests.models import tiny_onnx_model  # a plain import: a broken helper fails, never skips

    model = tiny_onnx_model()
    project = _project(prepared, tmp_path)
    proc = _cli("po", "fill", "locale", "--backend", "onnx", "--model", str(model), cwd=project)
    assert proc.returncode == 0, proc.stderr
    done, total = _fill_share(project)
    assert done / total >= MIN_FILLED, (done, total, proc.stdout, proc.stderr)
    _check_html(project, marked=CJK)


@pytest.mark.slow
def test_round_trip_through_sphinx_intl_and_refresh_after_a_source_change(tmp_path: Path, prepared: Path) -> None:
    project = _project(prepared, tmp_path)
    catalogs = sorted((project / "locale").rglob("*.po"))
    before = {p: p.read_text(encoding="utf-8") for p in catalogs}
    lazy = LazyTranslator(lambda *a, **k: HanTranslator())
    spec = TranslatorSpec("pseudo", None)
    fill([project / "locale"], spec, cache_dir=tmp_path / "cache", lazy=lazy)
    for path in catalogs:  # only msgstr lines, flag lines and our markers differ
        old, new = before[path].splitlines(), path.read_text(encoding="utf-8").splitlines()
        it = iter(new)
        assert all(any(line == n for n in it) for line in old if line != 'msgstr ""' and not line.startswith("#, "))
        extra = [line for line in new if line not in old]
        assert all(line.startswith(("msgstr", '"', "#, fuzzy", "# zh-translate: machine")) for line in extra), extra

    # a reviewer accepts one entry; the author rewrites a paragraph; the catalogs are updated
    usage = project / "locale/zh_CN/LC_MESSAGES/usage.po"
    text = usage.read_text(encoding="utf-8")
    text = text.replace('#, fuzzy\nmsgid "Basic usage"', 'msgid "Basic usage"')
    usage.write_text(text, encoding="utf-8")
    rst = project / "usage.rst"
    rst.write_text(rst.read_text(encoding="utf-8").replace("The loop is single-threaded.", "The loop is single-threaded; it never blocks."), encoding="utf-8")
    sphinx(project, "gettext", "_build/gettext")
    run([sys.executable, "-m", "sphinx_intl", "update", "-p", "_build/gettext", "-d", "locale", "-l", "zh_CN"], project)
    import polib

    po = polib.pofile(str(usage))
    changed = po.find("The loop is single-threaded; it never blocks.")
    assert changed is not None and "fuzzy" in changed.flags and changed.msgstr  # babel's fuzzy match
    assert changed.tcomment.startswith("zh-translate: machine")  # our marker survived the update
    summary = fill([project / "locale"], spec, cache_dir=tmp_path / "cache", lazy=lazy, refresh=True)
    assert summary.refreshed == 1 and summary.reviewed == 1
    po = polib.pofile(str(usage))
    assert po.find("The loop is single-threaded; it never blocks.").msgstr == HanTranslator().translate(
        ["The loop is single-threaded; it never blocks."]
    )[0]
    assert po.find("Basic usage").msgstr and "fuzzy" not in po.find("Basic usage").flags
    _check_html(project, marked=CJK, english_changed=True)


def _statistics(project: Path) -> list[str]:
    import shutil

    if not shutil.which("msgfmt"):
        pytest.skip("GNU gettext's msgfmt is not installed")
    lines = []
    for po_file in sorted((project / "locale").rglob("*.po")):
        proc = subprocess.run(["msgfmt", "-c", "--statistics", "-o", "/dev/null", str(po_file)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        lines.append(proc.stderr.strip().splitlines()[-1])
    return lines


@pytest.mark.slow
def test_translated_entries_build_without_allow_fuzzy_and_refresh_after_a_source_change(tmp_path: Path, prepared: Path) -> None:
    import polib

    project = _project(prepared, tmp_path)
    (tmp_path / ".git").mkdir()  # a checkout around the Sphinx project: the cache goes beside it
    proc = _cli("po", "fill", "locale", "--translated", "--backend", "pseudo", "-v", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert f"cache: {tmp_path.resolve() / '.zh-translate-cache'}" in proc.stderr
    assert not (project / ".zh-translate-cache").exists()
    stats = _statistics(project)
    assert stats and all(re.fullmatch(r"\d+ translated messages?\.", line) for line in stats), stats
    warnings = sphinx(project, "html", "_build/zh", "-D", "language=zh_CN")  # no gettext_allow_fuzzy_translations
    assert not warnings, warnings
    for page in CONTENT_PAGES:
        assert "\u300c" in page_facts(project / "_build/zh" / page).text, page

    # the author rewrites a sentence: sphinx-intl marks the entry fuzzy and keeps our comment
    rst = project / "usage.rst"
    rst.write_text(rst.read_text(encoding="utf-8").replace(
        "The loop is single-threaded.", "The loop is single-threaded; it never blocks."), encoding="utf-8")
    sphinx(project, "gettext", "_build/gettext")
    run([sys.executable, "-m", "sphinx_intl", "update", "-p", "_build/gettext", "-d", "locale", "-l", "zh_CN"], project)
    usage = project / "locale/zh_CN/LC_MESSAGES/usage.po"
    changed = polib.pofile(str(usage)).find("The loop is single-threaded; it never blocks.")
    assert changed is not None and "fuzzy" in changed.flags
    assert changed.tcomment.startswith("zh-translate: machine translated ")
    proc = _cli("po", "fill", "locale", "--translated", "--refresh", "--backend", "pseudo", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "(1 refreshed)" in proc.stdout, proc.stdout
    changed = polib.pofile(str(usage)).find("The loop is single-threaded; it never blocks.")
    assert changed.msgstr == "\u300cThe loop is single-threaded; it never blocks.\u300d" and "fuzzy" not in changed.flags
    assert all(re.fullmatch(r"\d+ translated messages?\.", line) for line in _statistics(project))
    sphinx(project, "html", "_build/zh", "-D", "language=zh_CN")
    assert "\u300cThe loop is single-threaded; it never blocks.\u300d" in page_facts(project / "_build/zh/usage.html").text
