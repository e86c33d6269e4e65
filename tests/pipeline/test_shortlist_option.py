"""The engine's ``shortlist`` setting as users reach it: the plugin option, the backend that
hands it to the engine, and the cache key (a cache filled with a shortlist must not answer a
build without one; off, the keys are those of before)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline.backends import TranslatorSpec, get_backend
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.spec import decode_options
from mkdocs_zh_translate.plugin.config import PluginConfig


def test_the_shortlist_enters_the_cache_key_only_when_on() -> None:
    off = TranslatorSpec("onnx", "m", beams=4, markup="tags")
    assert decode_options(off) == "beams=4;max_batch_tokens=None;pipeline=1"  # the key of before
    assert decode_options(TranslatorSpec("onnx", "m", beams=4, markup="tags", shortlist=0)) == decode_options(off)
    on = decode_options(TranslatorSpec("onnx", "m", beams=4, markup="tags", shortlist=2000))
    other = decode_options(TranslatorSpec("onnx", "m", beams=4, markup="tags", shortlist=4000))
    assert len({decode_options(off), on, other}) == 3
    assert "shortlist=2000" in on


def test_the_onnx_backend_hands_the_shortlist_to_the_engine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import mkdocs_zh_translate.engine as engine

    seen: list[dict[str, Any]] = []

    class Recorder:
        def __init__(self, model_dir: Path, **options: Any) -> None:
            seen.append(options)

    monkeypatch.setattr(engine, "OnnxTranslator", Recorder)
    factory = get_backend("onnx").factory
    factory(TranslatorSpec("onnx", str(tmp_path), shortlist=2000))
    factory(TranslatorSpec("onnx", str(tmp_path), shortlist=0))
    assert seen == [{"shortlist": 2000}, {}]


def test_the_lazy_loader_passes_it_only_when_set(tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []

    def factory(backend: str, model: str | None, **options: Any) -> Any:
        calls.append(options)
        return object()

    LazyTranslator(factory).get(TranslatorSpec("onnx", str(tmp_path), shortlist=300))
    LazyTranslator(factory).get(TranslatorSpec("onnx", str(tmp_path)))
    assert calls[0]["shortlist"] == 300 and "shortlist" not in calls[1]


@pytest.mark.parametrize(("value", "ok"), [(0, True), (2000, True), (-1, False), (True, False), ("many", False)])
def test_the_plugin_option_takes_a_whole_number(value: object, ok: bool) -> None:
    config = PluginConfig()
    config.load_dict({"backend": "pseudo", "shortlist": value})
    errors, _ = config.validate()
    assert [name for name, _ in errors] == ([] if ok else ["shortlist"]), errors
    if ok:
        assert config.shortlist == value
