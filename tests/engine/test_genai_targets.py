"""A decoder-only model asked for a Chinese variant by name (the engine option ``target``):
the prompt names the variant as the family's ``PromptForm.target_names`` does, as data the
export wrote; the variants' ``via: model`` asks for each variant so, keyed per variant; a model
whose prompt names no such variant is refused in one line when the build is configured.

The tiny model (``tests/genai_models.py``) cannot write Traditional: these test the mechanics."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnxruntime_genai")
pytest.importorskip("onnx_ir")
pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")

from mkdocs_zh_translate.engine.errors import EngineError
from mkdocs_zh_translate.engine.genai import GenaiTranslator
from mkdocs_zh_translate.engine.prompt import exported_targets, target_name
from mkdocs_zh_translate.families import PROMPT_FORMS
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.build import SiteInputs, build_pipeline, build_variant_pipeline
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.pages import PageJob, SiteTranslator
from mkdocs_zh_translate.pipeline.variants import Variant, VariantError
from tests.genai_models import tiny_decoder_onnx
from tests.plugin_sites import build_in_process, run_mkdocs, write_site

TAIWAN = PROMPT_FORMS["qwen"].target_names["zh-TW"]
HONG_KONG = PROMPT_FORMS["qwen"].target_names["zh-HK"]
SIMPLIFIED = PROMPT_FORMS["qwen"].target_names["zh-Hans"]


@pytest.fixture(scope="module")
def fp32() -> Path:
    return tiny_decoder_onnx("none")


class _Recording:
    """The tokenizer, recording every text the translator encodes (the prompts it sends)."""

    def __init__(self, tokenizer: Any, sent: list[str]) -> None:
        self._tokenizer, self.sent = tokenizer, sent

    def encode(self, text: str) -> Any:
        if "Translate the following" in text:  # a prompt (the source alone is encoded too: its length)
            self.sent.append(text)
        return self._tokenizer.encode(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tokenizer, name)


@pytest.fixture
def prompts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every prompt any GenaiTranslator made in the test sends to its model."""
    sent: list[str] = []
    load = GenaiTranslator._load

    def recording_load(self: GenaiTranslator, *args: Any) -> None:
        load(self, *args)
        self._tokenizer = _Recording(self._tokenizer, sent)

    monkeypatch.setattr(GenaiTranslator, "_load", recording_load)
    return sent


def test_the_prompt_names_the_variant_asked_for(fp32: Path, prompts: list[str]) -> None:
    settings = json.loads((fp32 / "generation.json").read_text(encoding="utf-8"))
    assert settings["prompt"]["targets"]["zh-TW"] == TAIWAN  # the export wrote every name, as data
    GenaiTranslator(fp32, threads=1, target="zh-TW").translate(["Build the site."])
    assert any(TAIWAN in p for p in prompts) and not any(SIMPLIFIED + "." in p for p in prompts)
    prompts.clear()
    GenaiTranslator(fp32, threads=1).translate(["Build the site."])  # no target: the export's own
    assert any(f"into {SIMPLIFIED}." in p for p in prompts) and not any("Traditional" in p for p in prompts)


def test_a_variant_the_prompt_does_not_name_is_refused_in_one_line(fp32: Path, tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(fp32, model)
    generation = model / "generation.json"
    settings = json.loads(generation.read_text(encoding="utf-8"))
    del settings["prompt"]["targets"]["zh-TW"]  # a family without a name for Taiwan's Chinese
    generation.write_text(json.dumps(settings), encoding="utf-8")
    spec = TranslatorSpec("genai", str(model))
    with pytest.raises(VariantError, match=r"variant zh-TW: the model in .* cannot be asked for zh-TW"):
        build_variant_pipeline(build_pipeline(spec, SiteInputs()), Variant("zh-TW", "s2twp", "model"))
    with pytest.raises(EngineError, match="names no zh-TW target"):  # and the engine itself
        target_name(settings, "zh-TW", str(model))
    del settings["prompt"]["targets"]  # an export made before every name was written: its own only
    assert exported_targets(settings) == {"zh-Hans": SIMPLIFIED}
    # at config time, before any model is loaded: one line, the build fails
    write_site(tmp_path / "site", plugin={"backend": "genai", "model": str(model),
                                          "variants": ["zh-Hans", {"code": "zh-TW", "via": "both"}]})
    proc = run_mkdocs(tmp_path / "site")
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if "zh-TW" in line]
    assert len(lines) == 1 and "option 'variants': variant zh-TW" in lines[0] and "Traceback" not in proc.stderr


def test_via_the_model_each_variant_is_asked_by_name_and_keyed_apart(
    fp32: Path, tmp_path: Path, prompts: list[str]
) -> None:
    machine = MachineCache(tmp_path / "cache")
    base = build_pipeline(TranslatorSpec("genai", str(fp32), threads=1), SiteInputs(cache=machine))
    job = PageJob("index.md", "index.md", "Build the site.\n")
    keys = {}
    for code, table, name in (("zh-TW", "s2twp", TAIWAN), ("zh-HK", "s2hk", HONG_KONG)):
        variant = build_variant_pipeline(base, Variant(code, table, "model"))
        prompts.clear()
        SiteTranslator(variant).translate_pages([job])
        assert prompts and all(name in p for p in prompts), code
        direct = variant.service.direct  # type: ignore[attr-defined]
        keys[code] = (direct.cache.fingerprint, variant.service.cache.fingerprint)  # type: ignore[union-attr]
    assert keys["zh-TW"][0] != keys["zh-HK"][0] and keys["zh-TW"][1] != keys["zh-HK"][1]
    assert "target=zh-TW" in keys["zh-TW"][0]
    machine.close()


def test_a_site_with_a_variant_via_the_model_builds_with_a_genai_model(
    fp32: Path, tmp_path: Path, prompts: list[str]
) -> None:
    pages = {"index.md": "# Build the site\n\nYou can open the `file` in your **folder**.\n"}
    config = write_site(tmp_path, theme="material", pages=pages, plugin={
        "backend": "genai", "model": str(fp32), "threads": 1, "variants": ["zh-Hans", {"code": "zh-TW", "via": "both"}]})
    build_in_process(config)
    html = (tmp_path / "site" / "zh-TW" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-TW"' in html and "<code>file</code>" in html and "You can open" not in html
    assert any(TAIWAN in p for p in prompts) and any(f"into {SIMPLIFIED}." in p for p in prompts)
