"""The decoder benchmark's llama.cpp rows are optional: without llama_cpp they are skipped, said once.

llama-cpp-python has no wheel on the registry (it compiles llama.cpp), so most machines that run
``benchmarks/decoder_models.py`` lack it; the other rows must still run, and the reader must see
why the llama.cpp rows are missing from the table rather than a traceback or a silent gap.
"""

from __future__ import annotations

import sys
import types

import pytest

from benchmarks import decoder_models


def test_llama_rows_are_skipped_with_one_line_when_llama_cpp_does_not_import(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # `import llama_cpp` raises ImportError
    built: list[str] = []
    monkeypatch.setattr(decoder_models, "prepare", built.append)
    monkeypatch.setattr(decoder_models.subprocess, "run", lambda *a, **k: pytest.fail("no row should run"))
    decoder_models.main(["--rows", "qwen3-llama-q4_0,hy-llama-q4_0"])
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "llama.cpp rows skipped" in line] == [err.strip()]
    assert "llama_cpp does not import" in err
    assert built == []


def test_other_rows_still_run_without_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    rows = ["seq2seq-int8", "qwen3-llama-q4_0", "qwen3-int4", "qwen3-llama-f32"]
    assert decoder_models.runnable(rows) == ["seq2seq-int8", "qwen3-int4"]


def test_llama_rows_are_kept_when_llama_cpp_imports(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", types.ModuleType("llama_cpp"))
    rows = ["seq2seq-int8", "qwen3-llama-q4_0"]
    assert decoder_models.runnable(rows) == rows
    assert "skipped" not in capsys.readouterr().err


def test_an_unknown_row_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        decoder_models.main(["--rows", "qwen3-int4,nope"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "unknown rows: nope" in err and "qwen3-llama-q4_0" in err


def test_int4_from_fp32_gathers_the_embeddings_from_the_int4_output_matrix() -> None:
    """The fp32 graph reads tied embeddings through a Transpose of the fp32 output matrix; after
    quantizing, that path must read the int4 matrix (as the builder's int4 graph does), give the
    same rows within int4 error, and leave no fp32 copy behind (the Hy-MT2 row's memory)."""
    np = pytest.importorskip("numpy")
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    hidden, vocab = 64, 50
    weight = np.random.default_rng(0).normal(size=(hidden, vocab)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Transpose", ["lm_head.MatMul.weight"], ["/model/embed_tokens/Transpose/output_0"],
                          name="/model/embed_tokens/Transpose", perm=[1, 0]),
         helper.make_node("Gather", ["/model/embed_tokens/Transpose/output_0", "input_ids"], ["embeds"],
                          name="/model/embed_tokens/Gather"),
         helper.make_node("MatMul", ["embeds", "lm_head.MatMul.weight"], ["logits"], name="/lm_head/MatMul")],
        "tied", [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [3])],
        [helper.make_tensor_value_info("embeds", TensorProto.FLOAT, [3, hidden]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, [3, vocab])],
        [numpy_helper.from_array(weight, "lm_head.MatMul.weight")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
    quant = MatMulNBitsQuantizer(model, bits=4, block_size=32, is_symmetric=True, accuracy_level=4,
                                 op_types_to_quantize=("MatMul",))
    quant.process()
    quantized = quant.model.model
    from mkdocs_zh_translate.export.int4 import tie_quantized_embeddings

    assert tie_quantized_embeddings(quantized)

    assert "lm_head.MatMul.weight" not in {i.name for i in quantized.graph.initializer}
    assert [n.op_type for n in quantized.graph.node if "embed_tokens" in n.name] == ["Reshape", "GatherBlockQuantized"]
    onnx.checker.check_model(quantized)
    ids = np.array([0, 7, vocab - 1], dtype=np.int64)
    embeds, logits = ort.InferenceSession(quantized.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"input_ids": ids})
    step = np.abs(weight).max() / 7  # one int4 step of the coarsest block, at most
    assert np.abs(embeds - weight.T[ids]).max() <= step
    assert np.abs(logits - weight.T[ids] @ weight).max() <= step * np.abs(weight).sum(axis=0).max()
