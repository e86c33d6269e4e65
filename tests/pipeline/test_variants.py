"""Traditional Chinese variants made from the Simplified translation (pipeline/variants.py).

The conversions are checked on real Chinese (OpenCC's tables are the point); the pipeline's
mechanics with a scripted "model" that writes Simplified Chinese words.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline import variants as variants_module
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.build import SiteInputs, build_pipeline, build_variant_pipeline
from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.origin import Origin
from mkdocs_zh_translate.pipeline.pages import PageJob, SiteTranslator
from mkdocs_zh_translate.pipeline.variants import (
    ConvertedReviewer,
    Converter,
    Variant,
    VariantError,
    parse_variants,
    variant_terms,
)

pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")

SPEC = TranslatorSpec("onnx", "model")
WORDS = {"software": "软件", "default": "默认", "program": "程序", "the": "", "network": "网络", "cache": "缓存"}


class SimplifiedModel:
    """Writes each known English word as Simplified Chinese; placeholders and the rest kept."""

    fingerprint = "simplified-test"

    def __init__(self) -> None:
        self.calls = 0

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.calls += 1
        out = []
        for text in texts:
            for english, chinese in WORDS.items():
                text = text.replace(english, chinese)
            out.append(text)
        return out


def test_s2twp_writes_taiwan_vocabulary_and_leaves_placeholders_alone() -> None:
    convert = Converter("s2twp")
    assert convert("软件的默认程序") == "軟體的預設程式"
    assert convert("<x1/>软件<g2>网络</g2><x3/>") == "<x1/>軟體<g2>網路</g2><x3/>"
    assert convert("plain ASCII <x1/>") == "plain ASCII <x1/>"


def test_each_table_is_its_regions_own() -> None:
    assert Converter("s2t")("软件") == "軟件"  # characters only
    assert Converter("s2hk")("软件") == "軟件"
    assert Converter("s2twp")("软件") == "軟體"  # Taiwan's word


def test_variant_terms_replace_the_converted_simplified_term() -> None:
    import re

    from mkdocs_zh_translate.pipeline.glossary import Glossary, Term

    base = Glossary([Term("cache", "缓存", re.compile("cache"))])
    own = Glossary([Term("cache", "暫存", re.compile("cache"))])
    terms = variant_terms(base, own)
    assert terms == {"缓存": "暫存"}
    assert Converter("s2twp", terms)("<x1/>缓存目录") == "<x1/>暫存目錄"


@pytest.mark.parametrize(
    ("value", "wanted"),
    [
        (["zh-Hans", "zh-XX"], "unknown Chinese variant 'zh-XX'"),
        ([{"code": "zh-TW", "table": "t2s"}], "unknown OpenCC table 't2s'"),
        (["zh-TW", "zh-TW"], "listed twice"),
        ("zh-TW", "expected a list"),
    ],
)
def test_a_bad_variant_is_one_line(value: object, wanted: str) -> None:
    with pytest.raises(VariantError, match=wanted):
        parse_variants(value)


def test_variants_parse_with_their_default_tables() -> None:
    assert parse_variants(["zh-Hans", "zh-TW", {"code": "zh-HK"}, {"code": "zh-Hant", "table": "s2tw"}]) == [
        Variant("zh-TW", "s2twp"), Variant("zh-HK", "s2hk"), Variant("zh-Hant", "s2tw")]
    assert parse_variants(["zh-Hans"]) == []


def test_missing_opencc_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opencc", None)
    variants_module._opencc.cache_clear()
    try:
        with pytest.raises(VariantError, match=r"pip install 'mkdocs-zh-translate\[hant\]'"):
            Converter("s2twp")("软件")
    finally:
        variants_module._opencc.cache_clear()


def _pipelines(tmp_path: Path, model: SimplifiedModel, reviews: object = None, own: object = None):
    machine = MachineCache(tmp_path / "cache")
    lazy = LazyTranslator()
    base = build_pipeline(SPEC, SiteInputs(cache=machine, reviews=reviews), lazy=lazy, load=lambda spec: model,
                          english_fallback=True)
    variant = build_variant_pipeline(base, Variant("zh-TW", "s2twp"), own_reviews=own)  # type: ignore[arg-type]
    return machine, base, variant


PAGE = "The software uses `软件 stays` and [the network](https://软件.example/默认).\n\n```\n默认 code\n```\n"


def test_a_variant_page_converts_prose_only_and_a_warm_rebuild_loads_no_model(tmp_path: Path) -> None:
    model = SimplifiedModel()
    machine, base, variant = _pipelines(tmp_path, model)
    job = PageJob("index.md", "index.md", PAGE)
    zh, _strings, _stats = SiteTranslator(base).translate_pages([job])
    tw, _strings, stats = SiteTranslator(variant).translate_pages([job])
    assert "软件" in zh["index.md"].markdown and "軟體" in tw["index.md"].markdown
    # code, inline code and URLs are byte-identical to the English page's
    for kept in ("`软件 stays`", "(https://软件.example/默认)", "```\n默认 code\n```"):
        assert kept in tw["index.md"].markdown
    assert model.calls == 1  # the variant took the Simplified pass's text, no model call of its own
    machine.close()

    # a new build over the same cache: neither the model nor OpenCC is needed
    def no_model(spec: object) -> SimplifiedModel:
        raise AssertionError("the model was loaded")

    machine = MachineCache(tmp_path / "cache")
    base = build_pipeline(SPEC, SiteInputs(cache=machine), load=no_model, english_fallback=True)
    variant = build_variant_pipeline(base, Variant("zh-TW", "s2twp"))
    converted: list[str] = []
    service = variant.service
    object.__setattr__(service, "convert", lambda text: converted.append(text) or text)
    again, _strings, stats = SiteTranslator(variant).translate_pages([job])
    assert again["index.md"].markdown == tw["index.md"].markdown
    assert converted == [] and stats.cached == stats.unique
    machine.close()


class Reviews:
    """A reviewer with one reviewed segment (index 0) of every page."""

    def __init__(self, text: str) -> None:
        self.text = text

    def pages(self, jobs, strings=()):  # type: ignore[no-untyped-def]
        from mkdocs_zh_translate.pipeline.variants import _PageReview

        return {src: _PageReview({0: Hit(self.text, None, Origin.REVIEWED)}) for src, *_rest in jobs}

    def page(self, *args):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    def strings(self, strings):  # type: ignore[no-untyped-def]
        return {}, []

    def has_files(self) -> bool:
        return True


def test_the_variants_own_review_wins_over_the_simplified_review_converted(tmp_path: Path) -> None:
    model = SimplifiedModel()
    job = PageJob("index.md", "index.md", "The software.\n")
    _m, base, variant = _pipelines(tmp_path, model, reviews=Reviews("这个软件。"))
    zh, _s, _st = SiteTranslator(base).translate_pages([job])
    tw, _s, _st = SiteTranslator(variant).translate_pages([job])
    assert zh["index.md"].markdown == "这个软件。\n"  # the Simplified review, untouched
    assert tw["index.md"].markdown == "這個軟體。\n"  # converted for the variant
    _m.close()
    _m, base, variant = _pipelines(tmp_path / "2", model, reviews=Reviews("这个软件。"), own=Reviews("本軟體。"))
    tw, _s, _st = SiteTranslator(variant).translate_pages([job])
    assert tw["index.md"].markdown == "本軟體。\n"
    _m.close()


def test_converted_reviewer_strings() -> None:
    class Strings(Reviews):
        def strings(self, strings):  # type: ignore[no-untyped-def]
            return dict.fromkeys(strings, self.text), []

    both = ConvertedReviewer(None, Strings("默认"), Converter("s2twp"))
    assert both.strings(["Default"]) == ({"Default": "預設"}, [])
    own = ConvertedReviewer(Strings("內定"), Strings("默认"), Converter("s2twp"))
    assert own.strings(["Default"]) == ({"Default": "內定"}, [])


# -- the model's own Traditional (``via: model`` / ``both``) --------------------------------


def test_the_engine_asks_a_multi_target_model_for_traditional(tmp_path: Path) -> None:
    from mkdocs_zh_translate.engine.errors import EngineError
    from mkdocs_zh_translate.engine.targets import target_prefix

    tokenizer = {"target_prefix": ">>cmn_Hans<<", "language_codes": [">>cmn_Hans<<", ">>cmn_Hant<<", ">>yue<<"]}
    assert target_prefix(tokenizer, None, tmp_path) == ">>cmn_Hans<<"
    assert target_prefix(tokenizer, "zh-Hans", tmp_path) == ">>cmn_Hans<<"
    assert target_prefix(tokenizer, "zh-Hant", tmp_path) == ">>cmn_Hant<<"
    with pytest.raises(EngineError, match="cannot be asked for zh-Hant"):
        target_prefix({"target_prefix": None, "language_codes": []}, "zh-Hant", tmp_path)


class TraditionalModel(SimplifiedModel):
    """The model asked for Traditional: generic Traditional words, and a mark to tell it by."""

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [t.replace("software", "軟件").replace("network", "網絡") + "【直】" for t in texts]


def _loader(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, traditional: bool) -> dict[str, int]:
    from mkdocs_zh_translate.pipeline import lazy as lazy_module
    from mkdocs_zh_translate.pipeline.translator import BackendError

    loads = {"zh-Hans": 0, "zh-Hant": 0}

    def load(backend: str, model: object, **options: object) -> SimplifiedModel:
        target = str(options.get("target") or "zh-Hans")
        loads[target] += 1
        if target == "zh-Hant" and not traditional:
            raise BackendError("model: this model cannot be asked for zh-Hant")
        return TraditionalModel() if target == "zh-Hant" else SimplifiedModel()

    monkeypatch.setattr(lazy_module, "load_translator", load)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model").mkdir(exist_ok=True)  # SPEC's model directory, relative
    return loads


@pytest.mark.parametrize("via", ["model", "both"])
def test_via_the_model_its_own_traditional_is_used_and_keyed_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, via: str
) -> None:
    loads = _loader(monkeypatch, tmp_path, traditional=True)
    machine = MachineCache(tmp_path / "cache")
    base = build_pipeline(SPEC, SiteInputs(cache=machine), english_fallback=True)
    variant = build_variant_pipeline(base, Variant("zh-TW", "s2twp", via))
    job = PageJob("index.md", "index.md", "The software on the network.\n")
    tw, _s, _st = SiteTranslator(variant).translate_pages([job])
    assert tw["index.md"].markdown == "The 軟體 on the 網路.【直】\n"  # the model's, in Taiwan's words
    assert loads == {"zh-Hans": 0, "zh-Hant": 1}
    convert = build_variant_pipeline(base, Variant("zh-TW", "s2twp"))  # another key: its own text
    tw, _s, _st = SiteTranslator(convert).translate_pages([job])
    assert "【直】" not in tw["index.md"].markdown and loads["zh-Hans"] == 1
    machine.close()


def test_both_falls_back_to_conversion_where_the_model_has_no_traditional(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _loader(monkeypatch, tmp_path, traditional=False)
    machine = MachineCache(tmp_path / "cache")
    base = build_pipeline(SPEC, SiteInputs(cache=machine), english_fallback=True)
    job = PageJob("index.md", "index.md", "The software on the network.\n")
    both = build_variant_pipeline(base, Variant("zh-TW", "s2twp", "both"))
    tw, _s, _st = SiteTranslator(both).translate_pages([job])
    assert tw["index.md"].markdown == "The 軟體 on  網路.\n"  # converted from the Simplified (its "the" dropped)
    from mkdocs_zh_translate.pipeline.lazy import TranslationFailed

    only = build_variant_pipeline(base, Variant("zh-HK", "s2hk", "model"))
    with pytest.raises(TranslationFailed, match="cannot be asked for zh-Hant"):
        SiteTranslator(only).translate_pages([job])
    machine.close()


def test_a_review_directory_without_po_files_is_not_read_per_page() -> None:
    """A variant's reviews often start empty (no ``translations/zh-TW/`` yet): the variant's
    pass does not walk every page through a layer that has no file to answer from."""

    class Empty(Reviews):
        read = 0

        def pages(self, jobs, strings=()):  # type: ignore[no-untyped-def]
            Empty.read += 1
            return super().pages(jobs, strings)

        def has_files(self) -> bool:
            return False

    reviewer = ConvertedReviewer(Empty("內定"), Reviews("默认"), Converter("s2twp"))
    found = reviewer.pages([("index.md", None, "index.md", 0)])  # type: ignore[list-item]
    assert found["index.md"].hits[0].text == "預設" and Empty.read == 0
    assert ConvertedReviewer(None, Empty("默认"), Converter("s2twp")).pages([("a.md", None, "a.md", 0)])["a.md"].hits == {}  # type: ignore[list-item]
