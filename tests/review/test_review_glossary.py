"""The glossary: kept terms protected like code, fixed terms, and cache keys that only
change for the segments a glossary entry touches."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.glossary import load_glossary
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob
from mkdocs_zh_translate.review.store import ReviewError
from tests.fakes import CountingTranslator, site_translator

PAGE = (
    "# MkDocs plugins\n\n"
    "The plugin reads the cache before it loads the model.\n\n"
    "MkDocs builds the site with `mkdocs build`.\n\n"
    "Nothing about terms here.\n"
)


def _run(tmp_path: Path, glossary_text: str | None, recorder: CountingTranslator) -> dict[str, str]:
    glossary_file = tmp_path / "glossary.yml"
    if glossary_text is None:
        glossary_file.unlink(missing_ok=True)
    else:
        glossary_file.write_text(glossary_text, encoding="utf-8")
    model = tmp_path / "model"
    model.mkdir(exist_ok=True)
    (model / "config.json").write_text("{}")
    machine = MachineCache(tmp_path / "cache")
    lazy = LazyTranslator(lambda *a, **k: recorder)
    site = site_translator(machine, lazy, TranslatorSpec("onnx", str(model)), glossary=load_glossary(glossary_file)
    )
    results, _strings, _stats = site.translate_pages([PageJob("p.md", "p.md", PAGE)])
    machine.close()
    return {"page": results["p.md"].markdown}


GLOSSARY = "keep: [MkDocs]\nterms:\n  cache: 缓存\n"


def test_kept_terms_reach_the_model_as_placeholders_and_fixed_terms_are_applied(tmp_path: Path) -> None:
    recorder = CountingTranslator()
    out = _run(tmp_path, GLOSSARY, recorder)["page"]
    assert not any("MkDocs" in t or "cache" in t for t in recorder.seen)
    assert "# MkDocs PLUGINS" in out  # kept as written, not upper-cased by the "model"
    assert "THE PLUGIN READS THE 缓存 BEFORE IT LOADS THE MODEL." in out
    assert "MkDocs BUILDS THE SITE WITH `mkdocs build`." in out


def test_a_glossary_change_retranslates_only_the_segments_it_touches(tmp_path: Path) -> None:
    first = CountingTranslator()
    _run(tmp_path, GLOSSARY, first)
    assert len(first.seen) == 4
    again = CountingTranslator()
    _run(tmp_path, GLOSSARY, again)
    assert again.seen == []  # all cached
    changed = CountingTranslator()
    out = _run(tmp_path, "keep: [MkDocs]\nterms:\n  cache: 高速缓存\n", changed)["page"]
    assert len(changed.seen) == 1 and "before it loads" in changed.seen[0]
    assert "高速缓存" in out
    removed = CountingTranslator()
    _run(tmp_path, "terms:\n  cache: 高速缓存\n", removed)  # MkDocs no longer kept
    assert len(removed.seen) == 2 and all("MkDocs" in t for t in removed.seen)


def test_a_term_the_model_drops_is_retranslated_without_protection(tmp_path: Path) -> None:
    class Dropper(CountingTranslator):
        def translate(self, texts: Sequence[str]) -> list[str]:
            self.seen.extend(texts)
            return [re.sub(r"<x\d+/>", "", t) if "<x" in t else t.upper() for t in texts]

    out = _run(tmp_path, "keep: [Nothing]\n", Dropper())["page"]
    assert "NOTHING ABOUT TERMS HERE." in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keep: [a\n", "glossary.yml:2: malformed YAML"),
        ("keep: MkDocs\n", "'keep:' must be a list"),
        ("terms: [a, b]\n", "'terms:' must map"),
        ("other: 1\n", "only 'keep:'"),
    ],
)
def test_a_malformed_glossary_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "glossary.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReviewError, match=re.escape(message)):
        load_glossary(path)


def test_site_build_and_sync_use_the_glossary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import polib

    from mkdocs_zh_translate.cli.app import main as cli_main
    from tests.plugin_sites import build_in_process, write_site

    monkeypatch.chdir(tmp_path)
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
    config = write_site(tmp_path, pages={"index.md": PAGE})
    build_in_process(config)
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "The plugin reads the 缓存 before it loads the model." in html  # pseudo keeps the rest
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    po = polib.pofile(str(review / "index.md.po"))
    entry = po.find("The plugin reads the cache before it loads the model.")
    assert entry.fuzzy and "缓存" in entry.msgstr  # machine text found under the glossary key
