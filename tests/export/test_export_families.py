"""``export`` for M2M100 and NLLB-200: the family told apart by its tokenizer class, every graph
rewrite applied (a checkpoint where one cannot apply fails in one line), the target language
resolved into ``generation.json``, and the engine checking what it reads there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mkdocs_zh_translate.engine import OnnxTranslator
from mkdocs_zh_translate.engine.errors import EngineError
from mkdocs_zh_translate.export import ExportError, export_model
from mkdocs_zh_translate.export.save import write_manifest
from mkdocs_zh_translate.families import MARIAN, detect_family
from tests.models_families import FAMILY_NAMES, family_hf_model, family_onnx_model

onnx = pytest.importorskip("onnx")


def test_m2m_100_checkpoints_are_told_apart_by_their_tokenizer() -> None:
    assert detect_family("m2m_100", "M2M100Tokenizer").name == "m2m100"  # type: ignore[union-attr]
    assert detect_family("m2m_100", "NllbTokenizerFast").name == "nllb"  # type: ignore[union-attr]
    assert detect_family("m2m_100", "BertTokenizer") is None
    assert detect_family("m2m_100", None) is None
    assert detect_family("marian", None) is MARIAN


def test_an_m2m_100_model_with_another_tokenizer_is_refused_in_one_line(tmp_path: Path) -> None:
    model = tmp_path / "odd"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"model_type": "m2m_100"}))
    (model / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "BertTokenizer"}))
    with pytest.raises(ExportError, match=r"with a BertTokenizer tokenizer; the export supports .*NllbTokenizer"):
        export_model(str(model), tmp_path / "out")
    (model / "tokenizer_config.json").write_text(json.dumps({"model_max_length": 1024}))
    with pytest.raises(ExportError, match=r"with no tokenizer_class in tokenizer_config.json; the export supports"):
        export_model(str(model), tmp_path / "out")


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_the_export_resolves_the_family_and_rewrites_every_graph(family: str) -> None:
    from transformers import AutoTokenizer

    model = family_onnx_model(family, "int8")
    settings = json.loads((model / "generation.json").read_text(encoding="utf-8"))
    tok = AutoTokenizer.from_pretrained(family_hf_model(family), use_fast=False)
    target = {"m2m100": "__zh__", "nllb": "zho_Hans"}[family]
    assert settings["family"] == family
    assert settings["forced_bos_token_id"] == tok.convert_tokens_to_ids(target)
    assert settings["decoder_start_token_id"] == tok.eos_token_id
    assert settings["tokenizer"]["source_prefix_ids"] == [tok.convert_tokens_to_ids(
        {"m2m100": "__en__", "nllb": "eng_Latn"}[family])]
    assert settings["tokenizer"]["source_suffix_ids"] == [tok.eos_token_id]
    assert set(settings["shortlist"]) == {"weight", "scale", "zero_point"}  # no output bias in these models
    decoder = onnx.load(model / "decoder.onnx", load_external_data=False)
    ops = [n.op_type for n in decoder.graph.node]
    layers = settings["decoder_layers"]
    assert ops.count("GroupQueryAttention") == ops.count("MultiHeadAttention") == layers
    assert [o.name for o in decoder.graph.output][:2] == ["topk_scores", "topk_ids"]
    encoder = onnx.load(model / "encoder.onnx", load_external_data=False)
    assert sum(o.name.startswith("cross.") for o in encoder.graph.output) == 2 * layers
    assert (model / "aligner.onnx").is_file()


@pytest.mark.slow
def test_an_output_projection_the_shortlist_head_cannot_take_fails_the_export(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A graph the shortlist rewrite does not recognise is an error, not an export that
    silently refuses a shortlist later."""
    from mkdocs_zh_translate.export import convert
    from mkdocs_zh_translate.export.rewrites import shortlist_head

    def unknown_projection(index: object, inits: object) -> None:
        return None

    monkeypatch.setattr(shortlist_head, "_projection", unknown_projection)
    with pytest.raises(ExportError, match="output projection has an unexpected shape"):
        convert.export_model(str(family_hf_model("m2m100")), tmp_path / "out", quantize="none")
    assert not (tmp_path / "out" / "manifest.json").exists()


def _edited(model: Path, tmp_path: Path, change: dict[str, object]) -> Path:
    copy = tmp_path / "model"
    shutil.copytree(model, copy)
    settings = json.loads((copy / "generation.json").read_text(encoding="utf-8"))
    for key, value in change.items():
        where = settings["tokenizer"] if key.startswith("tokenizer.") else settings
        where[key.removeprefix("tokenizer.")] = value
    (copy / "generation.json").write_text(json.dumps(settings), encoding="utf-8")
    write_manifest(copy, source="test", quantize="none")
    return copy


@pytest.mark.slow
@pytest.mark.parametrize(("change", "message"), [
    ({"forced_bos_token_id": 10**7}, "forced_bos_token_id must be an integer"),
    ({"tokenizer.source_prefix_ids": [-1]}, r"tokenizer.source_prefix_ids\[0\] must be an integer"),
    ({"tokenizer.source_suffix_ids": "</s>"}, "tokenizer.source_suffix_ids must be a list"),
    ({"tokenizer.target_language_ids": {"zh-Hans": "zh"}}, "tokenizer.target_language_ids"),
    ({"tokenizer.detokenize": "join"}, 'tokenizer.detokenize must be "sentencepiece" or "concatenate"'),
    ({"tokenizer.target_script": "latin"}, "tokenizer.target_script must be"),
    ({"tokenizer.split_target_code": "no"}, "tokenizer.split_target_code must be true or false"),
])
def test_wrong_family_settings_are_one_line_naming_the_key(tmp_path: Path, change: dict[str, object],
                                                           message: str) -> None:
    broken = _edited(family_onnx_model("nllb"), tmp_path, change)
    with pytest.raises(EngineError, match=message) as info:
        OnnxTranslator(broken)
    assert "\n" not in str(info.value) and "generation.json" in str(info.value)


@pytest.mark.slow
def test_graphs_too_large_for_one_protobuf_keep_their_weights_beside_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NLLB-200-distilled-600M's float32 decoder is ~2.9 GB, over protobuf's 2 GiB: every step
    saves such a graph with a ``.data`` file (here forced by a threshold of 0 bytes). The export
    then holds an aligner with its own data file, and translates and aligns as the plain one."""
    from mkdocs_zh_translate.export import save

    monkeypatch.setattr(save, "LARGE_GRAPH_BYTES", 0)
    out = export_model(str(family_hf_model("nllb")), tmp_path / "out", quantize="int8")
    monkeypatch.undo()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "aligner.onnx.data" in manifest["files"]
    texts = ["Open the file.", "Click <x1/> to build the <g2>site</g2>.", "The cache makes the second build fast."]
    ours, plain = OnnxTranslator(out, num_beams=4), OnnxTranslator(family_onnx_model("nllb", "int8"), num_beams=4)
    assert ours.translate(texts) == plain.translate(texts)
    aligned, reference = ours.translate_aligned(texts), plain.translate_aligned(texts)
    for got, want in zip(aligned, reference):
        assert got is not None and want is not None
        assert got.text == want.text and np.allclose(got.weights, want.weights, atol=1e-5)


@pytest.mark.slow
def test_an_engine_that_knows_only_marian_exports_refuses_a_family_export(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family export needs keys a format-9 engine would ignore (and then translate wrongly
    without the forced language): it says format 10, which such an engine refuses; a MarianMT
    export stays format 9 and loads in both."""
    from mkdocs_zh_translate.engine import translator
    from mkdocs_zh_translate.model_format import FORMAT_VERSION, FRAMED_FORMAT_VERSION
    from tests.models import tiny_onnx_model

    family = family_onnx_model("nllb")
    for name in ("manifest.json", "generation.json"):
        assert json.loads((family / name).read_text(encoding="utf-8"))["format"] == FRAMED_FORMAT_VERSION
    marian = tiny_onnx_model("none")
    assert json.loads((marian / "manifest.json").read_text(encoding="utf-8"))["format"] == FORMAT_VERSION
    monkeypatch.setattr(translator, "FORMAT_VERSIONS", (FORMAT_VERSION,))
    with pytest.raises(EngineError, match="exported by another version"):
        OnnxTranslator(family)
    OnnxTranslator(marian)


def test_model_ids_past_the_tokenizer_get_a_made_up_token(tmp_path: Path) -> None:
    """NLLB-200-600M's embedding has two rows more than its tokenizer has pieces, and the slow
    tokenizer's SentencePiece raises for them: the export names them instead of failing."""
    from mkdocs_zh_translate.export.convert import _one_vocabulary

    class Tokenizer:
        def get_vocab(self) -> dict[str, int]:
            return {"<unk>": 0, "</s>": 1, "▁a": 2}

        def convert_ids_to_tokens(self, i: int) -> str:
            raise IndexError("piece id is out of range.")

    spm = tmp_path / "sentencepiece.bpe.model"
    spm.write_bytes(b"not read here")
    final = tmp_path / "final"
    final.mkdir()
    _one_vocabulary(spm, Tokenizer(), 5, final)
    vocab = json.loads((final / "vocab.json").read_text(encoding="utf-8"))
    assert sorted(vocab.values()) == [0, 1, 2, 3, 4]
    assert {vocab["<unk>"], vocab["▁a"]} == {0, 2} and len(set(vocab)) == 5
