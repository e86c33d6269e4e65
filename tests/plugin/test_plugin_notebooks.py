"""Notebook pages (mkdocs-jupyter) are covered like Markdown pages: their Markdown cells are
translated (code cells, outputs and metadata as they were), cached, reviewable in a PO file; a
page the plugin cannot translate carries no "translated" banner and is named."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from mkdocs.exceptions import Abort

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin import notebooks
from tests.plugin_sites import Html, build_in_process, run_mkdocs, write_site

pytest.importorskip("mkdocs_jupyter")

CODE = "print('keep <me> & exact')"
NOTEBOOK: dict[str, Any] = {
    "cells": [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["# Demo notebook\n", "\n", "This notebook demonstrates the cache."],
        },
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {"tags": ["keep"]},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["keep <me> & exact\n"]}],
            "source": [CODE],
        },
        {"cell_type": "markdown", "metadata": {}, "source": "## Second part\n\nThe second cell explains the output."},
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
PAGES = {"index.md": "# Home\n\nSee the example notebook.\n"}
NAV = [{"Home": "index.md"}, {"Example": "examples/demo.ipynb"}]


def _site(root: Path, **options: object) -> Path:
    (root / "docs" / "examples").mkdir(parents=True)
    (root / "docs" / "examples" / "demo.ipynb").write_text(json.dumps(NOTEBOOK, indent=1), encoding="utf-8")
    plugin = {"backend": "pseudo", **options}
    config = write_site(root, pages=PAGES, plugin=plugin, extra_config={"nav": NAV})
    # its render cache inside the test's folder, whatever the current directory
    jupyter = f"- mkdocs-jupyter:\n    execute: false\n    cache_dir: {root / '.cache' / 'mkdocs-jupyter'}\n"
    text = config.read_text(encoding="utf-8").replace("- search\n", "- search\n" + jupyter)
    config.write_text(text, encoding="utf-8")
    return config


def test_cells_are_taken_apart_and_put_back() -> None:
    source = json.dumps(NOTEBOOK, indent=1)
    joined = notebooks.markdown_cells(source)
    assert joined is not None and "This notebook demonstrates the cache." in joined and CODE not in joined
    translated = joined.replace("Second part", "第二部分 { #second-part }").replace("The second", "第二个")
    back = notebooks.translated_notebook(source, translated)
    assert back is not None
    cells = json.loads(back)["cells"]
    assert cells[1] == NOTEBOOK["cells"][1]  # code, outputs, metadata: as they were
    assert cells[0]["source"] == NOTEBOOK["cells"][0]["source"]  # a list stays a list of lines
    assert cells[2]["source"] == "## 第二部分\n\n第二个 cell explains the output."  # the pin is taken off
    assert json.loads(back)["metadata"] == NOTEBOOK["metadata"]
    assert notebooks.translated_notebook(source, "one cell only") is None
    assert notebooks.markdown_cells("# not json") is None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("notebooks")
    _site(root)
    proc = run_mkdocs(root, "--strict")
    assert proc.returncode == 0, proc.stderr
    return root


def test_a_notebook_page_is_translated_like_a_markdown_page(site: Path) -> None:
    zh = Html(site / "site" / "zh" / "examples" / "demo" / "index.html")
    en = Html(site / "site" / "examples" / "demo" / "index.html")
    assert "This notebook demonstrates the cache." in en.text and PSEUDO_OPEN not in en.text
    assert f"{PSEUDO_OPEN}This notebook demonstrates the cache." in zh.text
    assert f"{PSEUDO_OPEN}The second cell explains the output." in zh.text
    assert f"{PSEUDO_OPEN}Demo notebook" in zh.text
    assert "本页由机器翻译" in zh.source and "本页未翻译" not in zh.source
    assert zh.pre_blocks() == en.pre_blocks()  # code and outputs byte-identical
    assert "{ #" not in zh.text
    # the headings keep their English ids, in the page, its anchor links and its toc
    assert zh.heading_ids() == en.heading_ids() and "second-part" in en.heading_ids()
    assert sorted(set(zh.attr("a", "href")) & {"#second-part", "#demo-notebook"}) == ["#demo-notebook", "#second-part"]
    # the nav and the page title come from the translated notebook (mkdocs-jupyter titles the
    # page with its first heading, in the nav too)
    assert "Demo notebook" in Html(site / "site" / "index.html").text
    assert f"{PSEUDO_OPEN}Demo notebook" in Html(site / "site" / "zh" / "index.html").text
    assert f"{PSEUDO_OPEN}Demo notebook" in zh.source.split("<title>")[1].split("</title>")[0]
    # each build keeps its own mkdocs-jupyter renders: neither evicts the other's
    assert len(list((site / ".cache" / "mkdocs-jupyter").glob("*.json"))) == 1
    assert len(list((site / ".cache" / "mkdocs-jupyter" / "zh").glob("*.json"))) == 1
    # nothing was written into docs_dir
    assert sorted(p.name for p in (site / "docs" / "examples").iterdir()) == ["demo.ipynb"]


def test_the_notebook_is_reviewable_in_a_po_file_and_the_review_wins(tmp_path: Path) -> None:
    from mkdocs_zh_translate.cli.app import main

    config = _site(tmp_path)
    assert main(["review", "sync", "-f", str(config)]) == 0
    po = tmp_path / "translations" / "zh" / "examples" / "demo.ipynb.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgid "This notebook demonstrates the cache."' in text and "print(" not in text
    text = text.replace(
        'msgid "This notebook demonstrates the cache."\nmsgstr ""',
        'msgid "This notebook demonstrates the cache."\nmsgstr "本笔记本演示缓存。"',
    )
    po.write_text(text, encoding="utf-8")
    build_in_process(config)
    zh = Html(tmp_path / "site" / "zh" / "examples" / "demo" / "index.html")
    assert "本笔记本演示缓存。" in zh.text


def test_a_jupytext_notebook_is_translated_too(tmp_path: Path) -> None:
    """mkdocs-jupyter also renders ``.py`` notebooks (jupytext): their Markdown cells are
    translated the same way, the code as written."""
    config = _site(tmp_path)
    (tmp_path / "docs" / "examples" / "script.py").write_text(SCRIPT, encoding="utf-8")
    _add_nav(config, "- Script: examples/script.py\n")
    build_in_process(config)
    zh = Html(tmp_path / "site" / "zh" / "examples" / "script" / "index.html")
    en = Html(tmp_path / "site" / "examples" / "script" / "index.html")
    assert f"{PSEUDO_OPEN}This script explains the cache." in zh.text and "本页由机器翻译" in zh.source
    assert zh.pre_blocks() == en.pre_blocks() and "print(1)" in en.text
    assert zh.ids() == en.ids()  # the cell ids nbconvert makes up per render are the English ones


# A hook that renders its page from elsewhere than the page's Markdown, as mkdocs-jupyter does.
FOREIGN_HOOK = """
def on_pre_page(page, config, files):
    if page.file.src_uri == "other.md":
        def render(config, files):
            page.content = "<p>Text from a database, not from the Markdown.</p>"
            page.toc = []
        page.render = render
    return page
"""


def test_a_page_the_plugin_cannot_translate_has_no_translated_banner_and_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = _site(tmp_path)
    (tmp_path / "docs" / "other.md").write_text("# Other\n\nThe Markdown nobody shows.\n", encoding="utf-8")
    (tmp_path / "foreign_hook.py").write_text(FOREIGN_HOOK, encoding="utf-8")
    _add_nav(config, "- Other: other.md\n")
    config.write_text(config.read_text(encoding="utf-8") + "hooks:\n- foreign_hook.py\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        build_in_process(config)
    named = [r.getMessage() for r in caplog.records if "other.md" in r.getMessage()]
    assert len(named) == 1 and "kept in English" in named[0] and "foreign_hook" in named[0]
    zh = Html(tmp_path / "site" / "zh" / "other" / "index.html")
    assert "Text from a database" in zh.text and PSEUDO_OPEN + "Text" not in zh.text
    assert "本页未翻译" in zh.source and "本页由机器翻译" not in zh.source
    report = json.loads((tmp_path / ".zh-translate-cache" / "report.json").read_text(encoding="utf-8"))
    assert report["pages"]["other.md"]["left_behind"] == 1 and report["pages"]["other.md"]["segments"] == 0
    with pytest.raises(Abort):
        build_in_process(config, strict=True)


SCRIPT = "# %% [markdown]\n# This script explains the cache.\n\n# %%\nprint(1)\n"


def _add_nav(config: Path, entry: str) -> None:
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("- Example: examples/demo.ipynb\n", "- Example: examples/demo.ipynb\n" + entry), encoding="utf-8"
    )


def test_an_executed_notebook_reads_the_files_beside_it(tmp_path: Path) -> None:
    """With ``execute: true`` the Chinese copy runs where it is written: the files beside the
    original notebook are there too, so its outputs are the English ones."""
    pytest.importorskip("ipykernel")
    config = _site(tmp_path)
    (tmp_path / "docs" / "examples" / "data.txt").write_text("numbers from the data file\n", encoding="utf-8")
    notebook = json.loads(json.dumps(NOTEBOOK))
    notebook["cells"][1].update(source=["print(open('data.txt').read())"], outputs=[], execution_count=None)
    (tmp_path / "docs" / "examples" / "demo.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    config.write_text(config.read_text(encoding="utf-8").replace("execute: false", "execute: true"), encoding="utf-8")
    build_in_process(config)
    en = Html(tmp_path / "site" / "examples" / "demo" / "index.html")
    zh = Html(tmp_path / "site" / "zh" / "examples" / "demo" / "index.html")
    assert "numbers from the data file" in en.text
    assert "numbers from the data file" in zh.text and "No such file" not in zh.text
    assert f"{PSEUDO_OPEN}This notebook demonstrates the cache." in zh.text


def test_model_output_in_a_notebook_is_text_never_markup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """nbconvert renders a Markdown cell's raw HTML: a translation's markup must arrive escaped."""
    from mkdocs_zh_translate.pipeline import lazy
    from tests.fakes import Scripted

    hostile = Scripted(lambda text: text + ' <img src=x onerror="alert(1)"><script>alert(2)</script>')
    (tmp_path / "model").mkdir()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: hostile)
    config = _site(tmp_path, backend="onnx", model=str(tmp_path / "model"))
    build_in_process(config)
    zh = (tmp_path / "site" / "zh" / "examples" / "demo" / "index.html").read_text(encoding="utf-8")
    assert "This notebook demonstrates the cache." in zh and hostile.calls
    assert "<img src=x" not in zh and "<script>alert(2)" not in zh
    assert "&lt;img src=x" in zh and "&lt;script&gt;alert(2)" in zh  # shown as text


def test_other_plugins_read_the_notebooks_own_file(tmp_path: Path) -> None:
    """Only mkdocs-jupyter reads the translated copy: a git date plugin dates the notebook in the
    Chinese site from its own, committed file (a copy outside the repository has no history)."""
    import os
    import subprocess

    pytest.importorskip("mkdocs_git_revision_date_localized_plugin")
    config = _site(tmp_path)
    text = config.read_text(encoding="utf-8").replace(
        "- search\n", "- search\n- git-revision-date-localized:\n    type: iso_date\n"
    )
    config.write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-03-05T12:00:00", "GIT_COMMITTER_DATE": "2026-03-05T12:00:00"}
    for args in (
        ["init", "-q"],
        ["add", "docs", "mkdocs.yml"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env=env)
    build_in_process(config, strict=True)
    zh = Html(tmp_path / "site" / "zh" / "examples" / "demo" / "index.html")
    assert f"{PSEUDO_OPEN}This notebook demonstrates the cache." in zh.text


def test_cells_that_do_not_fit_keep_the_notebook_english_and_named() -> None:
    from mkdocs_zh_translate.pipeline.pages import PageJob, PageResult
    from mkdocs_zh_translate.plugin.sources import PageSources

    sources = PageSources()
    source = json.dumps(NOTEBOOK)
    sources.notebooks["demo.ipynb"] = source
    joined = notebooks.markdown_cells(source)
    assert joined is not None
    results = {"demo.ipynb": PageResult("one cell, the marker lost", segments=3)}
    sources.merge(results, {"demo.ipynb": PageJob("demo.ipynb", "docs/demo.ipynb", joined)})
    assert not results["demo.ipynb"].translated and "docs/demo.ipynb" in results["demo.ipynb"].warnings[0]
    assert "demo.ipynb" not in sources.translated
    fits = {"demo.ipynb": PageResult(joined.replace("The second", "第二个"), segments=3)}
    sources.merge(fits, {"demo.ipynb": PageJob("demo.ipynb", "docs/demo.ipynb", joined)})
    assert fits["demo.ipynb"].translated and "第二个" in sources.translated["demo.ipynb"]
