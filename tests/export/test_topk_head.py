"""The decoder's two-stage top-k (best vocabulary chunks, then the best entries in them) returns
exactly what one TopK over the whole row returns; and which vocabularies get it."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from mkdocs_zh_translate.export.rewrites.topk_head import topk_chunk, topk_nodes  # noqa: E402


def _run(chunk: int | None, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    from onnx import TensorProto, helper, numpy_helper

    vocab = scores.shape[1]
    inits = []
    if chunk is not None:
        inits = [
            numpy_helper.from_array(np.array([0, vocab // chunk, chunk], dtype=np.int64), "zh_topk_chunks"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "zh_topk_axis2"),
            numpy_helper.from_array(np.array([0, -1], dtype=np.int64), "zh_topk_flat"),
            numpy_helper.from_array(np.array([chunk], dtype=np.int64), "zh_topk_width"),
        ]
    graph = helper.make_graph(
        topk_nodes("x", "s", "i", "t", chunk), "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", vocab]),
         helper.make_tensor_value_info("topk", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("i", TensorProto.INT64, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    s, i = session.run(None, {"x": scores, "topk": np.array([k], dtype=np.int64)})
    return s, i


@pytest.mark.parametrize("k", [1, 8, 16])
def test_two_stage_topk_equals_plain_topk(k: int) -> None:
    rng = np.random.default_rng(k)
    vocab, chunk = 65001, 141
    scores = rng.standard_normal((12, vocab)).astype(np.float32)
    scores[0, :] = -1.0  # a row of ties but one: the winner still comes first
    scores[0, 64999] = 3.0
    scores[1, 1000:1016] = 50.0 + np.arange(16, dtype=np.float32)  # the k best all in adjacent chunks
    scores[2, ::chunk] = 40.0 + np.arange(vocab // chunk, dtype=np.float32) % 7  # one per chunk
    ref_s, ref_i = _run(None, scores, k)
    got_s, got_i = _run(chunk, scores, k)
    np.testing.assert_array_equal(got_s, ref_s)
    exact = np.take_along_axis(scores, got_i, axis=1)
    np.testing.assert_array_equal(exact, got_s)  # the ids point at the scores returned
    distinct = np.array([len(set(row)) == len(row) for row in ref_s[1:]])
    np.testing.assert_array_equal(got_i[1:][distinct], ref_i[1:][distinct])  # ids too, where no ties


def test_chunking_only_for_vocabularies_with_a_fitting_divisor() -> None:
    assert topk_chunk(65001) == 141  # opus-mt-en-zh: 461 chunks of 141
    assert 65001 // 141 >= 256
    assert topk_chunk(2334) is None  # the test model: plain TopK
    assert topk_chunk(65537) is None  # prime
