"""OnnxTranslator behaviour: order, dedupe, n-best, long inputs, fingerprints, errors."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from mkdocs_zh_translate.engine import EngineError, OnnxTranslator
from tests.models import tiny_onnx_model

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def model() -> Path:
    return tiny_onnx_model("int8")


@pytest.fixture(scope="module")
def tr(model: Path) -> OnnxTranslator:
    return OnnxTranslator(model, num_beams=4, max_batch_tokens=64, max_batch_sentences=4)


TEXTS = ["Open the file.", "Click <x1/> to save.", "", "Open the file.", "   ", "Run <g1>the build</g1> now."]


def test_translate_keeps_order_and_is_stable_under_batching(tr: OnnxTranslator) -> None:
    out = tr.translate(TEXTS)
    assert len(out) == len(TEXTS)
    assert out[2] == "" and out[4] == "   "  # blank input comes back unchanged, no model call
    assert out[0] == out[3]
    assert all(t.strip() for i, t in enumerate(out) if i not in (2, 4))
    # fp32 is exact, so a text's translation must not depend on its batch neighbours; int8
    # quantises activations per batch, which is why this uses the fp32 export.
    fp32 = tiny_onnx_model("none")
    batched = OnnxTranslator(fp32, num_beams=4, max_batch_tokens=64, max_batch_sentences=4).translate(TEXTS)
    alone = [OnnxTranslator(fp32, num_beams=4, max_batch_sentences=1).translate([t])[0] for t in TEXTS]
    assert batched == alone


def test_nbest_gives_distinct_alternatives_best_first(tr: OnnxTranslator) -> None:
    texts = ["Click <x1/> to save.", "Run <g1>the build</g1> now."]
    nbest = tr.translate_nbest(texts, 3)
    best = tr.translate(texts)
    for alts, first in zip(nbest, best):
        assert 1 <= len(alts) <= 3
        assert len(set(alts)) == len(alts)
        assert alts[0] == first


def test_inputs_longer_than_positions_are_split_not_truncated(model: Path) -> None:
    tr = OnnxTranslator(model, num_beams=1)
    long_text = " ".join(["Open the file and click save."] * 200)
    chunks = tr._chunks(long_text)
    assert len(chunks) > 1
    assert all(len(c) <= tr.max_positions for c in chunks)
    # Every source token is kept: the chunks' bodies concatenate to the full encoding.
    full = tr.tokenizer.encode(long_text)
    head, tail = len(tr.tokenizer.prefix_ids), len(tr.tokenizer.suffix_ids)  # Marian: none and EOS
    assert [t for c in chunks for t in c[head:len(c) - tail]] == full[head:len(full) - tail]
    out = tr.translate([long_text])[0]
    assert out.strip()
    short = tr.translate(["Open the file and click save."])[0]
    assert len(out) > 3 * len(short)


def test_the_engine_keeps_no_second_cache_key(tr: OnnxTranslator) -> None:
    """The key of a translation is the pipeline's (``spec.bind_cache``: the model's verified
    content and ``spec.decode_options``); a fingerprint of the engine's own, read by nothing,
    could only drift from it."""
    assert not hasattr(tr, "fingerprint")


def test_the_cache_key_follows_model_and_decode_options(model: Path, tmp_path: Path) -> None:
    from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
    from mkdocs_zh_translate.pipeline.cache import MachineCache
    from mkdocs_zh_translate.pipeline.spec import bind_cache

    machine = MachineCache(tmp_path / "cache")
    key = bind_cache(TranslatorSpec("onnx", str(model), beams=4, markup="tags"), machine).fingerprint
    same = bind_cache(TranslatorSpec("onnx", str(model), beams=4, markup="tags"), machine).fingerprint
    beams = bind_cache(TranslatorSpec("onnx", str(model), beams=2, markup="tags"), machine).fingerprint
    other = bind_cache(TranslatorSpec("onnx", str(tiny_onnx_model("none")), beams=4, markup="tags"), machine)
    machine.close()
    assert key == same and len({key, beams, other.fingerprint}) == 3
    from mkdocs_zh_translate.model_integrity import fingerprint_of

    manifest = json.loads((model / "manifest.json").read_text())
    assert fingerprint_of(manifest["files"]) in key  # the verified content, as the engine checks it


def test_missing_directory_names_path_and_export_command(tmp_path: Path) -> None:
    with pytest.raises(EngineError) as info:
        OnnxTranslator(tmp_path / "nowhere")
    assert str(tmp_path / "nowhere") in str(info.value)
    assert "mkdocs-zh-translate export" in str(info.value)


def test_incomplete_directory(tmp_path: Path, model: Path) -> None:
    broken = tmp_path / "m"
    shutil.copytree(model, broken)
    (broken / "decoder.onnx").unlink()
    with pytest.raises(EngineError, match=r"missing decoder\.onnx.*mkdocs-zh-translate export"):
        OnnxTranslator(broken)


def test_truncated_graph_is_reported(tmp_path: Path, model: Path) -> None:
    broken = tmp_path / "m"
    shutil.copytree(model, broken)
    data = (broken / "encoder.onnx").read_bytes()
    (broken / "encoder.onnx").write_bytes(data[: len(data) // 2])
    with pytest.raises(EngineError, match=r"encoder.onnx.*changed since export"):
        OnnxTranslator(broken)


def test_corrupt_graph_of_right_size_is_reported(tmp_path: Path, model: Path) -> None:
    broken = tmp_path / "m"
    shutil.copytree(model, broken)
    size = (broken / "decoder.onnx").stat().st_size
    (broken / "decoder.onnx").write_bytes(b"\x07garbage" * (size // 8) + b"\x00" * (size % 8))
    with pytest.raises(EngineError) as info:
        OnnxTranslator(broken)
    assert "decoder.onnx" in str(info.value) and "mkdocs-zh-translate export" in str(info.value)


def test_both_graphs_corrupt_names_the_encoder_first(tmp_path: Path, model: Path) -> None:
    """Sessions load concurrently, yet the error is the one a sequential load would give."""
    broken = tmp_path / "m"
    shutil.copytree(model, broken)
    for name in ("encoder.onnx", "decoder.onnx"):
        size = (broken / name).stat().st_size
        (broken / name).write_bytes(b"\x07garbage" * (size // 8) + b"\x00" * (size % 8))
    for _ in range(3):
        with pytest.raises(EngineError) as info:
            OnnxTranslator(broken)
        assert "encoder.onnx" in str(info.value) and "decoder.onnx" not in str(info.value)


def test_shared_embedding_is_mapped_once_and_changes_nothing(model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.engine import session

    texts = ["Open the file.", "Click <x1/> to save.", "Run <g1>the build</g1> now.", "Save the page and close it."]
    shared = OnnxTranslator(model, num_beams=4)
    assert [name for name, _ in shared.sessions._shared] == [
        e["name"] for e in json.loads((model / "generation.json").read_text())["shared_initializers"]]
    expected = shared.translate_nbest(texts, 3)
    monkeypatch.setattr(session, "shared_initializers", lambda *args: [])
    own = OnnxTranslator(model, num_beams=4)
    assert own.sessions._shared == []
    assert own.translate_nbest(texts, 3) == expected


def test_bad_shared_weight_entry_is_reported(tmp_path: Path, model: Path) -> None:
    broken = tmp_path / "m"
    shutil.copytree(model, broken)
    settings = json.loads((broken / "generation.json").read_text())
    settings["shared_initializers"][0]["offset"] = (broken / "encoder.onnx.data").stat().st_size
    (broken / "generation.json").write_text(json.dumps(settings))
    manifest = json.loads((broken / "manifest.json").read_text())
    manifest["files"]["generation.json"]["size"] = (broken / "generation.json").stat().st_size
    # A consistent re-export with a bad entry (an edit alone is refused by its sha256).
    manifest["files"]["generation.json"]["sha256"] = hashlib.sha256((broken / "generation.json").read_bytes()).hexdigest()
    (broken / "manifest.json").write_text(json.dumps(manifest))
    # Refused before mapping: the entry's byte range must lie inside the listed file.
    with pytest.raises(EngineError, match=r"generation\.json: shared_initializers\[0\]\.length must be an integer "
                                          r"from 0 to 0.*mkdocs-zh-translate export"):
        OnnxTranslator(broken)


def test_bad_options_are_refused(model: Path) -> None:
    with pytest.raises(EngineError, match="num_beams"):
        OnnxTranslator(model, num_beams=0)


@pytest.mark.parametrize(("new_tokens", "grows"), [(12, False), (40, True)])
def test_caches_start_at_the_source_width(model: Path, monkeypatch: pytest.MonkeyPatch, new_tokens: int,
                                          grows: bool) -> None:
    """The self-attention caches start as long as the source (at most the length limit): a
    translation no longer than its source never grows (copies) them; a longer one does."""
    from mkdocs_zh_translate.engine.session import DecoderState

    translator = OnnxTranslator(model, num_beams=2, max_new_tokens=new_tokens, min_new_tokens=new_tokens)
    source = translator.tokenizer.encode("Open the file and click the button to save the page now, then run it.")
    assert 13 < len(source) < 40
    capacities: list[int] = []
    reserve = DecoderState.reserve

    def spy(state: DecoderState) -> None:
        reserve(state)
        capacities.append(state.capacity)

    monkeypatch.setattr(DecoderState, "reserve", spy)
    (hyps,) = translator.generate_ids([source])
    assert len(hyps[0].ids) == new_tokens
    assert (len(set(capacities)) > 1) is grows
    assert capacities[0] == min(-(-len(source) // 8) * 8, -(-(new_tokens + 1) // 8) * 8)
