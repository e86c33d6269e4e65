"""``md --variant`` and ``docs --variant``: the Traditional variants from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.pipeline import lazy as batch
from tests.plugin.test_plugin_variants import WordModel, _site

pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")

PAGE = "# Software\n\nThe default software uses `默认软件`, see [the cache](https://example.com/软件).\n"


def test_md_writes_the_taiwan_variant_prose_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (tmp_path / "model").mkdir()
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    args = ["md", str(page), "--backend", "onnx", "--model", str(tmp_path / "model")]
    assert main([*args, "--variant", "zh-TW"]) == 0
    out = capsys.readouterr().out
    assert "The 預設 軟體 uses `默认软件`, see [the 快取](https://example.com/软件)." in out
    assert main(args) == 0
    assert "The 默认 软件 uses" in capsys.readouterr().out  # without the flag: Simplified, as before


def test_md_refuses_an_unknown_variant_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["md", str(page), "--backend", "pseudo", "--variant", "zh-XX"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown Chinese variant 'zh-XX'" in err


def test_docs_writes_page_zh_tw_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path / "site", monkeypatch, ["zh-Hans", "zh-TW"], theme="mkdocs")
    out = tmp_path / "site" / "out"
    assert main(["docs", "-f", str(config), "--out", str(out), "--variant", "zh-TW"]) == 0
    text = (out / "guide" / "install.zh-TW.md").read_text(encoding="utf-8")
    assert "安裝" in text and "本頁由機器翻譯" in text and "安装" not in text
    assert not (out / "guide" / "install.zh.md").exists()


CATALOG = """\
msgid ""
msgstr ""
"Project-Id-Version: Widgets 1.0\\n"
"Language: {language}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

#: ../../usage.rst:9
msgid "The default software keeps ``默认软件`` in code."
msgstr ""
"""


def test_po_fill_fills_sphinx_zh_tw_catalogs_in_traditional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import polib

    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (tmp_path / "model").mkdir()
    catalogs = {}
    for folder, language in (("zh_CN", "zh_CN"), ("zh_TW", "zh_TW"), ("zh_HK", "")):
        path = tmp_path / "locales" / folder / "LC_MESSAGES" / "usage.po"
        path.parent.mkdir(parents=True)
        path.write_text(CATALOG.format(language=language), encoding="utf-8")
        catalogs[folder] = path
    args = ["po", "fill", str(tmp_path / "locales"), "--backend", "onnx", "--model", str(tmp_path / "model"),
            "--cache-dir", str(tmp_path / "cache")]
    assert main(args) == 0
    text = {folder: polib.pofile(str(path))[0].msgstr for folder, path in catalogs.items()}
    assert text["zh_CN"] == "The 默认 软件 keeps ``默认软件`` in code."
    assert text["zh_TW"] == "The 預設 軟體 keeps ``默认软件`` in code."  # s2twp, by its Language header
    assert text["zh_HK"] == "The 默認 軟件 keeps ``默认软件`` in code."  # s2hk, by its folder



def test_eval_scores_the_variant_against_traditional_references(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: WordModel())
    (tmp_path / "model").mkdir()
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("software\t軟體\ndefault cache\t預設 快取\n", encoding="utf-8")
    args = ["eval", "--references", str(tsv), "--backend", "onnx", "--model", str(tmp_path / "model"), "--json"]
    assert main([*args, "--variant", "zh-TW"]) == 0
    taiwan = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    simplified = json.loads(capsys.readouterr().out)
    assert taiwan["runs"][0]["chrf"] == 100.0
    assert simplified["runs"][0]["chrf"] < 50.0
