"""``site_name`` is a brand: a one-word name stays as written in every zh ``<title>`` and header;
a descriptive name of several words is translated (tests/plugin/test_plugin_build.py), a
multi-word brand is kept by the glossary, and ``overrides: site_name`` sets any name."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, page_pairs, run_mkdocs, write_site


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_one_word_site_name_stays_in_every_title(tmp_path: Path, theme: str) -> None:
    write_site(tmp_path, theme=theme, extra_config={"site_name": "Pydantic"})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    for _en, zh in page_pairs(tmp_path / "site"):
        doc = Html(zh)
        title = doc.source.split("<title>", 1)[1].split("</title>", 1)[0]
        assert title.endswith("Pydantic"), title
        assert f"{PSEUDO_OPEN}Pydantic" not in doc.source
        assert PSEUDO_OPEN in doc.text  # the page itself is translated


def test_glossary_keeps_a_multi_word_brand(tmp_path: Path) -> None:
    write_site(tmp_path, theme="material", extra_config={"site_name": "Material for MkDocs"})
    glossary = tmp_path / "translations" / "zh" / "glossary.yml"
    glossary.parent.mkdir(parents=True)
    glossary.write_text("keep: [Material for MkDocs]\n", encoding="utf-8")
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    zh = Html(tmp_path / "site" / "zh" / "index.html")
    title = zh.source.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "Material for MkDocs" in title, title
