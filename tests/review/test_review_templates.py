"""``review sync --templates``: one ``.pot`` per PO file for Weblate/Crowdin components, with
the PO files' own keys, kept byte for byte while the English is unchanged, removed (only ours)
when its page is gone."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.review.units import entry_key
from tests.plugin_sites import PAGES, build_in_process, write_site


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo"})


def _sync(config: Path, *extra: str) -> int:
    return cli_main(["review", "sync", "-f", str(config), *extra])


def test_templates_hold_the_po_files_keys_with_empty_translations(site: Path) -> None:
    root = site.parent
    build_in_process(site)
    assert _sync(site) == 0
    assert not (root / "translations" / "templates").exists()  # only when asked for
    assert _sync(site, "--templates") == 0
    review, templates = root / "translations" / "zh", root / "translations" / "templates"
    pos = sorted(p.relative_to(review) for p in review.rglob("*.po"))
    pots = sorted(p.relative_to(templates) for p in templates.rglob("*.pot"))
    assert pots == [p.parent / (p.name.removesuffix(".po") + ".pot") for p in pos]
    for rel in pos:
        po = polib.pofile(str(review / rel))
        pot = polib.pofile(str(templates / rel.parent / (rel.name.removesuffix(".po") + ".pot")))
        assert [entry_key(e) for e in pot] == [entry_key(e) for e in po if not e.obsolete]
        assert all(e.msgstr == "" and not e.fuzzy for e in pot)
        assert [e.occurrences for e in pot] == [e.occurrences for e in po if not e.obsolete]
        assert pot.metadata["X-Generator"].startswith("mkdocs-zh-translate") and "Language" in pot.metadata


def test_an_unchanged_site_rewrites_no_template_and_a_gone_page_loses_only_ours(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = site.parent
    build_in_process(site)
    assert _sync(site, "--templates") == 0
    templates = root / "translations" / "templates"
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in templates.rglob("*.pot")}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")  # a later day: dates must not move
    assert _sync(site, "--templates") == 0
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in templates.rglob("*.pot")} == before
    foreign = templates / "theirs.pot"
    foreign.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n', encoding="utf-8")
    (root / "docs" / "guide" / "usage.md").unlink()
    build_in_process(site)
    assert _sync(site, "--templates") == 0
    assert not (templates / "guide" / "usage.md.pot").exists()
    assert foreign.exists() and (templates / "index.md.pot").exists()


@pytest.mark.skipif(shutil.which("msgcat") is None or shutil.which("msgmerge") is None, reason="gettext not installed")
def test_gettext_tools_leave_templates_alone_and_merge_them_into_the_po_files(site: Path) -> None:
    root = site.parent
    build_in_process(site)
    assert _sync(site, "--templates") == 0
    pot = root / "translations" / "templates" / "index.md.pot"
    po = root / "translations" / "zh" / "index.md.po"
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    cat = subprocess.run(["msgcat", str(pot)], capture_output=True, text=True, env=env, check=True)
    assert cat.stdout == pot.read_text(encoding="utf-8")
    merged = subprocess.run(["msgmerge", "--quiet", str(po), str(pot)], capture_output=True, text=True, env=env)
    assert merged.returncode == 0, merged.stderr
    new = polib.pofile(merged.stdout)
    assert not [e for e in new if e.obsolete]  # every PO entry is in the template
    assert {e.msgid: e.msgstr for e in new} == {e.msgid: e.msgstr for e in polib.pofile(str(po))}
