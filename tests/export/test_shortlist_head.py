"""The shortlist head on a small hand-made decoder tail (states -> MatMul + bias -> logits ->
top-k head): switched off it returns what the graph returned before the rewrite; switched on,
the top-k of the log-softmax over the listed rows only, as vocabulary ids."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from mkdocs_zh_translate.export.rewrites import add_shortlist_head, add_topk_head  # noqa: E402

D, VOCAB = 8, 50


def _decoder(quantized_bias: bool = False) -> tuple[object, np.ndarray, np.ndarray]:
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    weight = rng.standard_normal((D, VOCAB)).astype(np.float32)
    bias = rng.standard_normal(VOCAB).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["states", "proj_w"], ["product"]),
         helper.make_node("Add", ["product", "proj_b"], ["logits"])],
        "tail", [helper.make_tensor_value_info("states", TensorProto.FLOAT, ["rows", 1, D])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["rows", 1, VOCAB])],
        [numpy_helper.from_array(weight, "proj_w"), numpy_helper.from_array(bias, "proj_b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    add_topk_head(model, VOCAB)
    return model, weight, bias


def _run(model: object, states: np.ndarray, k: int, shortlist: np.ndarray | None,
         weight: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])  # type: ignore[attr-defined]
    names = {i.name for i in session.get_inputs()}
    feed = {"states": states, "apply_bias": np.array([False]), "logit_bias": np.zeros((1, 1), np.float32),
            "renormalize": np.array([False]), "topk": np.array([k], dtype=np.int64)}
    if "use_shortlist" in names:
        ids = np.zeros(1, np.int64) if shortlist is None else shortlist
        feed.update({"use_shortlist": np.array([shortlist is not None]), "shortlist_ids": ids,
                     "shortlist_weight": np.ascontiguousarray(weight[:, ids]), "shortlist_bias": bias[ids]})
    scores, got = session.run(["topk_scores", "topk_ids"], feed)
    return scores, got


def test_off_the_same_outputs_on_the_listed_rows_only() -> None:
    from onnx import checker

    states = np.random.default_rng(1).standard_normal((5, 1, D)).astype(np.float32)
    before, weight, bias = _decoder()
    want = _run(before, states, 6, None, weight, bias)
    after, _, _ = _decoder()
    assert add_shortlist_head(after) == {"weight": "proj_w", "bias": "proj_b"}
    checker.check_model(after)
    off = _run(after, states, 6, None, weight, bias)
    np.testing.assert_array_equal(off[0], want[0])
    np.testing.assert_array_equal(off[1], want[1])

    listed = np.array([3, 7, 11, 20, 21, 30, 41, 49], dtype=np.int64)
    scores, ids = _run(after, states, 4, listed, weight, bias)
    logits = states[:, 0] @ weight[:, listed] + bias[listed]
    log_probs = logits - np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1, keepdims=True)) \
        - logits.max(1, keepdims=True)
    order = np.argsort(-log_probs, axis=1)[:, :4]
    np.testing.assert_array_equal(ids, listed[order])  # vocabulary ids, not positions in the list
    np.testing.assert_allclose(scores, np.take_along_axis(log_probs, order, axis=1), rtol=1e-5, atol=1e-5)


def test_a_projection_of_another_shape_is_left_alone() -> None:
    from onnx import helper

    model, _, _ = _decoder()
    add = next(n for n in model.graph.node if n.op_type == "Add" and "logits" in n.output)  # type: ignore[attr-defined]
    add.CopyFrom(helper.make_node("Sub", list(add.input), ["logits"]))
    before = model.SerializeToString()  # type: ignore[attr-defined]
    assert add_shortlist_head(model) is None
    assert model.SerializeToString() == before  # type: ignore[attr-defined]
