"""A variant's notebook pages (mkdocs-jupyter) show the variant's text: its own cells, converted
or reviewed, put back into the notebook the variant's build renders; the notebook's code and
outputs stay its bytes, the banner is the variant's. mkdocstrings' labels are the variant's
words too. (Nav and page titles, included files, admonition titles, interface strings, the 404
page and the banner are the variant's already: ``test_plugin_variants.py``.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline import lazy as batch
from tests.plugin.test_plugin_variants import WordModel
from tests.plugin_sites import Html, build_in_process, write_site

pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")
pytest.importorskip("mkdocs_jupyter")

CODE = "print('默认软件 <keep> & exact')"
NOTEBOOK: dict[str, Any] = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Software\n", "\n", "The default cache of the software."]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["默认软件 <keep> & exact\n"]}],
            "source": [CODE],
        },
        {"cell_type": "markdown", "metadata": {}, "source": "## Usage\n\nInstall the package."},
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def _notebook_site(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (root / "model").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "examples").mkdir(parents=True)
    (root / "docs" / "examples" / "demo.ipynb").write_text(json.dumps(NOTEBOOK, indent=1), encoding="utf-8")
    plugin = {"backend": "onnx", "model": "model", "variants": ["zh-Hans", "zh-TW"]}
    nav = [{"Welcome": "index.md"}, {"Example": "examples/demo.ipynb"}]
    config = write_site(root, theme="material", plugin=plugin, pages={"index.md": "# Welcome\n\nWelcome.\n"},
                        extra_config={"nav": nav})
    jupyter = f"- mkdocs-jupyter:\n    execute: false\n    cache_dir: {root / '.cache' / 'mkdocs-jupyter'}\n"
    config.write_text(config.read_text(encoding="utf-8").replace("- search\n", "- search\n" + jupyter),
                      encoding="utf-8")
    return config


def test_the_variants_notebook_page_is_the_variants_text_with_the_notebooks_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_in_process(_notebook_site(tmp_path, monkeypatch))
    site = tmp_path / "site"
    en = Html(site / "examples" / "demo" / "index.html")
    zh = Html(site / "zh" / "examples" / "demo" / "index.html")
    tw = Html(site / "zh-TW" / "examples" / "demo" / "index.html")
    assert "The 默认 缓存 of the 软件." in zh.text
    # s2twp: 默认 预设, 缓存 快取, 软件 軟體; the Simplified text is not what zh-TW shows
    assert "The 預設 快取 of the 軟體." in tw.text and "缓存" not in tw.text
    assert "安裝 the 軟體包." in tw.text  # the second cell too
    # code and outputs: the notebook's bytes in every site, Simplified characters included
    assert tw.pre_blocks() == zh.pre_blocks() == en.pre_blocks()
    assert any("默认软件" in block for block in tw.pre_blocks())
    assert tw.heading_ids() == en.heading_ids()
    assert "本頁由機器翻譯" in tw.source and "本页" not in tw.source  # the banner, the variant's own
    # the page title and its nav entry, which mkdocs-jupyter takes from the notebook's heading
    assert "軟體" in tw.source.split("<title>")[1].split("</title>")[0]
    assert "软件" not in Html(site / "zh-TW" / "index.html").text


def test_headings_nbconvert_gives_one_id_get_back_each_english_id() -> None:
    """nbconvert gives every all-Chinese heading ``id=""``: each heading, and its own anchor
    link, gets back the English id at its place (not the last one for all)."""
    from mkdocs_zh_translate.plugin import notebooks

    html = ('<h1 id="">软件<a class="anchor-link" href="#">¶</a></h1><p>x</p>'
            '<h2 id="">用法<a class="anchor-link" href="#">¶</a></h2><a href="#x-y">see</a>'
            '<h2 id="x-y">X y</h2>')
    back = notebooks.restore_ids(html, ["software", "usage", "x-y"])
    assert notebooks.heading_ids(back) == ["software", "usage", "x-y"]
    assert back.count('href="#software"') == 1 and back.count('href="#usage"') == 1
    assert '<a href="#x-y">see</a>' in back


def test_the_variants_review_of_a_notebook_cell_is_what_its_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_zh_translate.cli.app import main
    from tests.plugin.test_plugin_variants import _edit

    config = _notebook_site(tmp_path, monkeypatch)
    assert main(["review", "sync", "-f", str(config)]) == 0
    _edit(tmp_path / "translations" / "zh-TW" / "examples" / "demo.ipynb.po", "The default cache", "筆記本的審校譯文。")
    build_in_process(config)
    assert "筆記本的審校譯文。" in Html(tmp_path / "site" / "zh-TW" / "examples" / "demo" / "index.html").text
    assert "筆記本的審校譯文。" not in Html(tmp_path / "site" / "zh" / "examples" / "demo" / "index.html").text


@pytest.mark.parametrize("theme", ["material", "mkdocs"])
def test_mkdocstrings_labels_are_the_variants_words_as_the_simplified_sites_are_chinese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    """The handlers' Chinese labels ("Source code in": 源代码位于) are Simplified only: the
    variant's pages get them converted, not the English fallback (apilabels.py)."""
    pytest.importorskip("mkdocstrings_handlers.python")
    from mkdocs_zh_translate.pipeline.variants import Converter

    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (tmp_path / "model").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "softmod.py").write_text('"""The software module."""\n\n\ndef install(cache: int) -> None:\n'
                                                 '    """Install the software.\n\n    Args:\n        cache: The cache.\n'
                                                 '    """\n', encoding="utf-8")
    plugin = {"backend": "onnx", "model": "model", "variants": ["zh-Hans", "zh-TW"]}
    handler = {"default_handler": "python", "handlers": {"python": {"paths": [str(tmp_path / "pkg")]}}}
    config = write_site(tmp_path, theme=theme, plugin=plugin, pages={"index.md": "# Welcome\n\n::: softmod\n"},
                        extra_config={"plugins": ["search", {"mkdocstrings": handler}, {"zh-translate": plugin}]})
    labels = set(Path(tempfile.gettempdir()).glob("mkdocs-zh-translate-labels-*"))
    build_in_process(config, strict=True)  # strict: the handler warns of nothing
    assert set(Path(tempfile.gettempdir()).glob("mkdocs-zh-translate-labels-*")) == labels  # removed after
    site = tmp_path / "site"
    en, zh, tw = (Html(site / prefix / "index.html") for prefix in ("", "zh", "zh-TW"))
    assert "Source code in" in en.text and "源代码位于" in zh.text
    assert Converter("s2twp").prose("源代码位于") in tw.text and "Source code in" not in tw.text
    assert "源代码位于" not in tw.text
    assert tw.pre_blocks() == zh.pre_blocks()  # the source shown is the module's bytes
