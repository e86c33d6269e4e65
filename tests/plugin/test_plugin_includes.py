"""Pages assembled by markdown-include (``{!file!}``) are translated with the text they include;
an include that cannot be resolved is named (the page, the file) and fails a strict build."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin.includes import IncludeExpander
from tests.plugin_sites import Html, build_in_process, run_mkdocs, write_site

pytest.importorskip("markdown_include")

README = "# Demo project\n\nThe project turns notes into pages.\n\n## Install it\n\nRun the installer.\n"
USAGE = "Usage is simple: run the command.\n\n{!parts/note.md!}\n"
NOTE = "A nested note about the cache.\n"
PAGES = {
    "index.md": "{!README.md!}\n",
    "guide.md": "# Guide\n\nOwn text of the guide.\n\n{!parts/usage.md!}\n",
    "lines.md": "# Lines\n\n{!README.md!lines=3}\n",
}
EXTENSIONS = [{"markdown_include.include": {"base_path": "includes"}}]


def _write_includes(root: Path) -> None:
    (root / "includes" / "parts").mkdir(parents=True)
    (root / "includes" / "README.md").write_text(README, encoding="utf-8")
    (root / "includes" / "parts" / "usage.md").write_text(USAGE, encoding="utf-8")
    (root / "includes" / "parts" / "note.md").write_text(NOTE, encoding="utf-8")


def test_expander_follows_the_sites_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_includes(tmp_path)
    monkeypatch.chdir(tmp_path)
    expander = IncludeExpander(
        ["toc", "markdown_include.include"], {"markdown_include.include": {"base_path": "includes"}}
    )
    assert expander.expand("{!README.md!}\n") == (README.strip() + "\n", None)
    assert expander.expand("{!README.md!lines=3}\n")[0] == "The project turns notes into pages.\n"
    assert "A nested note" in expander.expand("{!parts/usage.md!}")[0]
    offset = IncludeExpander(
        ["markdown_include.include"], {"markdown_include.include": {"base_path": "includes", "headingOffset": 1}}
    )
    assert offset.expand("{!README.md!}")[0].startswith("## Demo project")
    text, error = expander.expand("Text.\n\n{!missing.md!}\n")
    assert text == "Text.\n\n{!missing.md!}\n" and error and "missing.md" in error
    assert IncludeExpander(["toc"], {}).expand("{!README.md!}") == ("{!README.md!}", None)
    # an include extension whose expansion the plugin does not reproduce: named where used
    other = IncludeExpander(["mdx_include"], {})
    assert other.unknown("Text {! file.md !}") == ["mdx_include"] and other.unknown("Text.") == []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("includes")
    _write_includes(root)
    write_site(root, pages=PAGES, extra_config={"markdown_extensions": EXTENSIONS})
    proc = run_mkdocs(root, "--strict")
    assert proc.returncode == 0, proc.stderr
    return root


def test_included_text_is_translated_in_the_chinese_site(site: Path) -> None:
    home = Html(site / "site" / "zh" / "index.html")
    assert f"{PSEUDO_OPEN}The project turns notes into pages." in home.text
    assert f"{PSEUDO_OPEN}Demo project" in home.text
    assert "本页由机器翻译" in home.source and "本页未翻译" not in home.source
    en = Html(site / "site" / "index.html")
    assert "The project turns notes into pages." in en.text and PSEUDO_OPEN not in en.text
    assert [a.get("id") for a in home.find("h2")] == [a.get("id") for a in en.find("h2")] == ["install-it"]
    guide = Html(site / "site" / "zh" / "guide" / "index.html")
    assert f"{PSEUDO_OPEN}Usage is simple" in guide.text and f"{PSEUDO_OPEN}A nested note" in guide.text
    lines = Html(site / "site" / "zh" / "lines" / "index.html")
    assert f"{PSEUDO_OPEN}The project turns notes into pages." in lines.text and "installer" not in lines.text
    assert "{!" not in home.source + guide.source + lines.source


def test_the_report_counts_the_included_segments(site: Path) -> None:
    pages = json.loads((site / ".zh-translate-cache" / "report.json").read_text(encoding="utf-8"))["pages"]
    assert pages["index.md"]["segments"] >= 4 and pages["guide.md"]["segments"] >= 4


def _missing_site(tmp_path: Path, **options: object) -> Path:
    _write_includes(tmp_path)
    pages = {"index.md": "# Home\n\nOwn text of the page.\n\n{!gone.md!}\n"}
    return write_site(
        tmp_path, pages=pages, plugin={"backend": "pseudo", **options}, extra_config={"markdown_extensions": EXTENSIONS}
    )


def test_an_include_that_cannot_be_resolved_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _missing_site(tmp_path)
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING):
        build_in_process(config)
    named = [r.getMessage() for r in caplog.records if "gone.md" in r.getMessage()]
    assert len(named) == 1 and "index.md" in named[0] and "kept in English" in named[0]


def test_an_include_that_cannot_be_resolved_fails_a_strict_build(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _missing_site(tmp_path, strict=True)
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build_in_process(config)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("index.md" in e and "gone.md" in e for e in errors), errors
    assert not (tmp_path / "site" / "zh" / "index.html").exists()


def test_an_include_that_cannot_be_resolved_fails_mkdocs_strict(tmp_path: Path) -> None:
    _missing_site(tmp_path)  # the plugin's own `strict` off: MkDocs' --strict counts the warning
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode != 0 and "index.md" in proc.stderr and "gone.md" in proc.stderr, proc.stderr


def test_the_files_read_beyond_docs_dir_are_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a CI cache key must cover besides docs_dir: included files (markdown-include and
    snippets, nested ones too) and the override templates."""
    from mkdocs.config import load_config

    from mkdocs_zh_translate.plugin.sources import read_beyond_docs

    _write_includes(tmp_path)
    (tmp_path / "snips").mkdir()
    (tmp_path / "snips" / "shared.md").write_text("Shared snippet text.\n", encoding="utf-8")
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text('{% extends "base.html" %}', encoding="utf-8")
    pages = {**PAGES, "snip.md": '# Snip\n\n--8<-- "shared.md"\n'}
    extensions = [*EXTENSIONS, {"pymdownx.snippets": {"base_path": ["snips"]}}]
    config_file = write_site(
        tmp_path,
        pages=pages,
        extra_config={"markdown_extensions": extensions, "theme": {"name": "mkdocs", "custom_dir": "overrides"}},
    )
    monkeypatch.chdir(tmp_path)
    plugin = build_in_process(config_file)
    listed = read_beyond_docs(load_config(config_file=str(config_file)), plugin.pipeline.included_files())
    root = tmp_path.resolve()
    assert [p.relative_to(root).as_posix() for p in listed] == [
        "includes/README.md",
        "includes/parts/note.md",
        "includes/parts/usage.md",
        "overrides/main.html",
        "snips/shared.md",
    ]


def test_review_status_lists_the_included_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mkdocs_zh_translate.cli.app import main

    _write_includes(tmp_path)
    config = write_site(tmp_path, pages=PAGES, extra_config={"markdown_extensions": EXTENSIONS})
    monkeypatch.chdir(tmp_path)
    assert main(["review", "sync", "-f", str(config)]) == 0
    po = (tmp_path / "translations" / "zh" / "index.md.po").read_text(encoding="utf-8")
    assert 'msgid "The project turns notes into pages."' in po
    capsys.readouterr()
    assert main(["review", "status", "-f", str(config)]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in capsys.readouterr().out.splitlines() if line.endswith("%")}
    assert "index.md" in rows and int(rows["index.md"][5]) + int(rows["index.md"][2]) >= 4  # missing + machine


def test_a_translation_never_includes_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chinese build runs markdown-include and snippets again, over translated text: an
    include statement that a model (or a reviewer) writes must stay text. (The splice escapes
    the braces and angle brackets a translation adds; this pins that for include syntax.)"""
    from mkdocs_zh_translate.pipeline import lazy
    from tests.fakes import Scripted

    _write_includes(tmp_path)
    (tmp_path / "includes" / "secret.txt").write_text("TOP SECRET TOKEN\n", encoding="utf-8")

    def rule(text: str) -> str:
        if text == "Own text of the guide.":
            return '--8<-- "secret.txt"'
        if text == "The project turns notes into pages.":
            return "See {!secret.txt!} now."
        return text.upper()

    (tmp_path / "model").mkdir()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: Scripted(rule))
    monkeypatch.chdir(tmp_path)
    extensions = [*EXTENSIONS, {"pymdownx.snippets": {"base_path": ["includes"]}}]
    config = write_site(
        tmp_path,
        pages=PAGES,
        plugin={"backend": "onnx", "model": str(tmp_path / "model")},
        extra_config={"markdown_extensions": extensions},
    )
    build_in_process(config)
    for page in ("index.html", "guide/index.html"):
        zh = Html(tmp_path / "site" / "zh" / page)
        assert "TOP SECRET" not in zh.source, page
    assert "See {!secret.txt!} now." in Html(tmp_path / "site" / "zh" / "index.html").text
    assert '--8<-- "secret.txt"' in Html(tmp_path / "site" / "zh" / "guide" / "index.html").text
