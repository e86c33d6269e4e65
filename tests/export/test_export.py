"""The export command: clear one-line errors, and a complete, fingerprinted output directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.export import ExportError, export_model

REPO = Path(__file__).resolve().parents[2]


def test_offline_unknown_id_says_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ExportError, match="HF_HUB_OFFLINE"):
        export_model("nobody-here/no-such-model-xyz", tmp_path / "out")


def test_missing_local_directory(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no such model directory"):
        export_model(str(tmp_path / "nope" / "deeper"), tmp_path / "out")


def test_directory_without_config(tmp_path: Path) -> None:
    (tmp_path / "model").mkdir()
    with pytest.raises(ExportError, match=r"no config\.json"):
        export_model(str(tmp_path / "model"), tmp_path / "out")


def test_non_marian_model_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "bert"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(ExportError, match=r"a 'bert' model; the export supports m2m_100, marian"):
        export_model(str(model), tmp_path / "out")


def test_cli_reports_export_error_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["export", str(tmp_path / "missing" / "dir"), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "no such model directory" in err


def test_missing_export_extra_names_the_install_command(tmp_path: Path) -> None:
    # A subprocess where importing optimum fails, as on an install without the extra.
    code = (
        "import sys; sys.modules['optimum'] = None; sys.modules['optimum.exporters.onnx'] = None\n"
        "from mkdocs_zh_translate.export import export_model, ExportError\n"
        "try:\n    export_model('x/y', __import__('pathlib').Path(sys.argv[1]))\n"
        "except ExportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                         cwd=REPO, timeout=120, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert "pip install 'mkdocs-zh-translate[export]'" in out.stdout
    assert "optimum" in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("quantize", ["none", "int8"])
def test_export_writes_a_complete_fingerprinted_directory(quantize: str) -> None:
    import hashlib

    import onnx

    from tests.models import tiny_hf_model, tiny_onnx_model

    out = tiny_onnx_model(quantize)
    manifest = json.loads((out / "manifest.json").read_text())
    names = {p.name for p in out.iterdir() if p.is_file()} - {"manifest.json"}
    assert {"encoder.onnx", "decoder.onnx", "source.spm", "target.spm", "vocab.json", "generation.json"} <= names
    assert set(manifest["files"]) == names
    for name, meta in manifest["files"].items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == meta["sha256"]
    assert manifest["quantize"] == quantize and "onnxruntime" in manifest["versions"]

    settings = json.loads((out / "generation.json").read_text())
    hf_config = json.loads((tiny_hf_model() / "config.json").read_text())
    assert settings["eos_token_id"] == hf_config["eos_token_id"]
    assert settings["decoder_start_token_id"] == hf_config["decoder_start_token_id"]
    assert settings["vocab_size"] == hf_config["vocab_size"]
    for key in ("bad_words_ids", "forced_eos_token_id", "max_length", "num_beams", "length_penalty", "early_stopping"):
        assert key in settings

    decoder = onnx.load(out / "decoder.onnx", load_external_data=False)
    assert [o.name for o in decoder.graph.output[:2]] == ["topk_scores", "topk_ids"]
    inputs = {i.name for i in decoder.graph.input}
    # The self-attention cache is the engine's buffer, written in place by one attention node
    # per layer that reads it as past and returns it as present: no Concat copies it.
    assert {"past_length", "seqlens_k", "total_sequence_length"} <= inputs and "self_mask" not in inputs
    past = {f"past_key_values.{i}.decoder.{k}" for i in range(settings["decoder_layers"]) for k in ("key", "value")}
    assert not [n for n in decoder.graph.node if n.op_type == "Concat" and past & set(n.input)]
    fused = [n for n in decoder.graph.node if n.op_type == "GroupQueryAttention"]
    assert len(fused) == settings["decoder_layers"]
    for node in fused:
        assert node.input[3].startswith("past_key_values.") and node.output[1].startswith("present.")
        assert node.input[3].split(".")[1] == node.output[1].split(".")[1]
    for out_info in decoder.graph.output[2:]:
        assert out_info.type.tensor_type.shape.dim[2].dim_param == "cache_capacity", out_info.name
    # Cross-attention: one node per layer reading the encoder's per-sentence keys/values as is.
    cross = [n for n in decoder.graph.node if n.op_type == "MultiHeadAttention"]
    assert sorted(n.input[1] for n in cross) == sorted(
        f"past_key_values.{i}.encoder.key" for i in range(settings["decoder_layers"]))
    # One plain decoder graph: no merged If on use_cache_branch, no encoder states fed to it.
    assert "use_cache_branch" not in inputs and "encoder_hidden_states" not in inputs
    assert not [n for n in decoder.graph.node if n.op_type == "If" and n.input[0] == "use_cache_branch"]
    layers = settings["decoder_layers"]
    encoder = onnx.load(out / "encoder.onnx", load_external_data=False)
    assert [o.name for o in encoder.graph.output] == [
        *(f"cross.{i}.{k}" for i in range(layers) for k in ("key", "value")), "last_hidden_state"]
    # The alignment pass reads those encoder states instead of running the encoder again.
    aligner = onnx.load(out / "aligner.onnx")
    assert [i.name for i in aligner.graph.input] == ["encoder_hidden_states", "attention_mask", "decoder_input_ids"]
    # Saved already optimised (fused int8 MatMuls), and quantised only when asked.
    for model in (encoder, decoder):
        ops = {n.op_type for n in model.graph.node}
        quantised = {"MatMulInteger", "DynamicQuantizeMatMul", "MatMulIntegerToFloat"} & ops
        assert bool(quantised) == (quantize == "int8"), ops
    # The tied embedding is stored once and mapped once for both graphs.
    shared = settings["shared_initializers"]
    assert len(shared) == 1 and shared[0]["file"] == "encoder.onnx.data"
    assert shared[0]["shape"] == [settings["vocab_size"], settings["d_model"]]
    for model in (encoder, decoder):
        assert shared[0]["name"] in {t.name for t in model.graph.initializer}



@pytest.mark.slow
@pytest.mark.parametrize("quantize", ["none", "int8"])
def test_weights_live_in_external_data_files(quantize: str) -> None:
    """ONNX Runtime memory-maps external initializers; weights inside the protobuf are copied.

    The engine's memory budget relies on this: every weight tensor bigger than 1 KiB (the
    vocabulary matrices above all) must sit in ``<graph>.onnx.data``, none in the graph file.
    """
    import onnx
    from onnx.external_data_helper import ExternalDataInfo, uses_external_data

    from tests.models import tiny_onnx_model

    out = tiny_onnx_model(quantize)
    for graph_file in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(out / graph_file, load_external_data=False)
        tensors = list(model.graph.initializer)
        for node in model.graph.node:
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    tensors += list(attr.g.initializer)
        external = [t for t in tensors if uses_external_data(t)]
        inline = [t.name for t in tensors if not uses_external_data(t) and len(t.raw_data) > 1024]
        assert external and not inline, (graph_file, inline)
        # Each graph's own file, except the tied embedding, which the decoder reads from the encoder's.
        shared = {e["name"] for e in json.loads((out / "generation.json").read_text())["shared_initializers"]}
        assert {ExternalDataInfo(t).location for t in external if t.name not in shared} == {graph_file + ".data"}
        assert {ExternalDataInfo(t).location for t in external if t.name in shared} == {"encoder.onnx.data"}
        vocab = json.loads((out / "generation.json").read_text())["vocab_size"]
        assert any(vocab in t.dims for t in external)  # the vocabulary matrix is among them
        assert (out / graph_file).stat().st_size < (out / (graph_file + ".data")).stat().st_size


@pytest.mark.slow
def test_int8_weights_use_seven_bits() -> None:
    """The int8 export's weights lie in [-64, 63] (``reduce_range``), whatever CPU made it: on a
    CPU without VNNI, ONNX Runtime's uint8 x int8 product saturates an int16 with full-range
    weights (measured on an AMD EPYC: 71/220 beam-4 translations equal to fp32 instead of 168)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, numpy_helper

    from tests.models import tiny_onnx_model

    out = tiny_onnx_model("int8")
    for name in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(out / name)
        weights = [numpy_helper.to_array(t) for t in model.graph.initializer if t.data_type == TensorProto.INT8]
        assert weights, name
        assert all(int(np.abs(w.astype(np.int16)).max()) <= 64 for w in weights), name
        assert any(int(np.abs(w.astype(np.int16)).max()) >= 60 for w in weights), name  # the range is used


@pytest.mark.slow
def test_fp16_export_loads_and_translates_on_the_cpu() -> None:
    """``--quantize fp16`` (meant for the CUDA provider, untested on a GPU here): float16
    weights, the same float32 inputs/outputs as every export, and ONNX Runtime's CPU runs it.
    Its translations mostly agree with the float32 export's (float16 rounding changes a few)."""
    import onnx

    from mkdocs_zh_translate.engine import OnnxTranslator
    from tests.engine.test_engine_parity import make_corpus
    from tests.models import tiny_onnx_model

    out = tiny_onnx_model("fp16")
    assert json.loads((out / "manifest.json").read_text())["quantize"] == "fp16"
    for graph_file in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(out / graph_file, load_external_data=False)
        types = {t.data_type for t in model.graph.initializer if len(t.dims) == 2}
        assert onnx.TensorProto.FLOAT16 in types and onnx.TensorProto.FLOAT not in types, graph_file
        assert {i.type.tensor_type.elem_type for i in model.graph.input} <= {onnx.TensorProto.FLOAT,
                                                                            onnx.TensorProto.INT64,
                                                                            onnx.TensorProto.INT32,
                                                                            onnx.TensorProto.BOOL}
    from transformers import MarianTokenizer

    from tests.models import tiny_hf_model

    texts = make_corpus(MarianTokenizer.from_pretrained(tiny_hf_model()), n=40)
    half = OnnxTranslator(out, num_beams=4).translate(texts)
    full = OnnxTranslator(tiny_onnx_model("none"), num_beams=4).translate(texts)
    assert all(half) and sum(a == b for a, b in zip(half, full)) >= len(texts) * 0.6
