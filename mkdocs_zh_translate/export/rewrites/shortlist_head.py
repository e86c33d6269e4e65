"""Rewrite: an optional vocabulary shortlist, so a step may project onto a few thousand target
pieces instead of the whole vocabulary (opt-in: the engine's ``shortlist`` setting)."""

from __future__ import annotations

from typing import Any

from .graph import GraphIndex, prune_and_sort
from .topk_head import processed_topk

#: The decoder inputs the shortlist head adds; which of ``SHORTLIST_TENSORS`` feed them.
SHORTLIST_SWITCH = "use_shortlist"
SHORTLIST_IDS = "shortlist_ids"


def _projection(index: GraphIndex, inits: dict[str, Any]) -> tuple[list[Any], dict[str, str]] | None:
    """The nodes computing ``logits`` from the decoder states and the initializers they read.

    The shapes ONNX Runtime's offline pass leaves: int8, one ``DynamicQuantizeMatMul`` (states,
    weight ``[d_model, vocab]`` int8, per-column scale and zero point, and a bias where the
    model has one); float32, ``Add(MatMul(states, weight), bias)`` or, for a model without an
    output bias (M2M100, NLLB), the ``MatMul`` alone. None for anything else (float16's casts)."""
    node = index.producer.get("logits")
    if node is None:
        return None
    if node.op_type == "DynamicQuantizeMatMul" and len(node.input) in (4, 5) \
            and all(i in inits for i in node.input[1:] if i):
        roles = dict(zip(("weight", "scale", "zero_point", "bias"), node.input[1:]))
        return [node], {role: name for role, name in roles.items() if name}
    if node.op_type == "MatMul" and node.input[1] in inits:
        return [node], {"weight": node.input[1]}
    if node.op_type != "Add":
        return None
    matmul = next((index.producer[i] for i in node.input if i in index.producer), None)
    if matmul is None or matmul.op_type != "MatMul" or matmul.input[1] not in inits:
        return None
    bias = next((i for i in node.input if i != matmul.output[0]), "")
    if bias not in inits or len(index.consumers.get(matmul.output[0], [])) != 1:
        return None
    return [matmul, node], {"weight": matmul.input[1], "bias": bias}


def add_shortlist_head(decoder: Any) -> dict[str, str] | None:
    """Route the output projection and the top-k head through an ``If`` on ``use_shortlist``.

    ONNX Runtime runs every node of a graph whatever outputs are bound, so a cheaper path must
    be a branch. *else* (``use_shortlist`` false, the default) holds today's nodes unchanged:
    the projection onto the whole vocabulary, log-softmax and ``topk_head``'s processed top-k,
    so its outputs are the same numbers. *then* projects onto the shortlist's ``S`` rows
    only, with the same operator and the same weights' columns (new inputs ``shortlist_weight``
    ``[d_model, S]``, ``shortlist_bias`` ``[S]`` (where the model has an output bias) and for int8 ``shortlist_scale`` /
    ``shortlist_zero_point`` ``[S]``, which the engine gathers once per batch from the
    initializers this returns), takes the log-softmax over those ``S`` entries, the same
    processed top-k (``logit_bias`` is then ``[1 or rows, S]``) and maps the positions back to
    vocabulary ids through ``shortlist_ids`` ``[S]`` (a Gather), so the engine sees real ids.

    Runs on the offline-optimised graph (int8: after quantisation, whose fused
    ``DynamicQuantizeMatMul`` the branch repeats; a branch added earlier would have needed the
    quantiser in subgraph mode). Returns the initializer names by role (``weight``, ``bias``,
    ``scale``, ``zero_point``) or None when the projection has another shape (nothing changed).
    """
    from onnx import TensorProto, helper

    graph = decoder.graph
    index = GraphIndex(graph, "output projection")
    inits = {t.name: t for t in graph.initializer}
    found = _projection(index, inits)
    if found is None:
        return None
    proj, roles = found
    squeeze = index.only("logits", "Squeeze")
    softmax = index.only(squeeze.output[0], "LogSoftmax")
    head = index.made_by("topk_scores", "If")  # reads the log-probabilities inside its branches
    if list(head.output) != ["topk_scores", "topk_ids"] or index.consumers.get(softmax.output[0]):
        raise index.unexpected("topk_scores")
    int8 = "scale" in roles
    weight_type = inits[roles["weight"]].data_type

    moved = [*proj, squeeze, softmax, head]
    for node in moved:
        graph.node.remove(node)
    head.output[:] = ["zh_full_scores", "zh_full_ids"]
    full = helper.make_graph(moved, "zh_full_vocabulary", [], [
        helper.make_tensor_value_info("zh_full_scores", TensorProto.FLOAT, None),
        helper.make_tensor_value_info("zh_full_ids", TensorProto.INT64, None)])

    states = proj[0].input[0]
    biased = "bias" in roles
    if int8:
        project = [helper.make_node(
            "DynamicQuantizeMatMul",
            [states, "shortlist_weight", "shortlist_scale", "shortlist_zero_point",
             *(["shortlist_bias"] if biased else [])],
            ["zh_sl_logits"], domain="com.microsoft")]
    elif biased:
        project = [helper.make_node("MatMul", [states, "shortlist_weight"], ["zh_sl_product"]),
                   helper.make_node("Add", ["zh_sl_product", "shortlist_bias"], ["zh_sl_logits"])]
    else:
        project = [helper.make_node("MatMul", [states, "shortlist_weight"], ["zh_sl_logits"])]
    short = helper.make_graph([
        *project,
        helper.make_node("Squeeze", ["zh_sl_logits", squeeze.input[1]], ["zh_sl_last_logits"]),
        helper.make_node("LogSoftmax", ["zh_sl_last_logits"], ["zh_sl_log_probs"], axis=-1),
        processed_topk("zh_sl_log_probs", "zh_sl_top_scores", "zh_sl_positions", "sl_", None),
        helper.make_node("Gather", [SHORTLIST_IDS, "zh_sl_positions"], ["zh_sl_ids"], axis=0),
    ], "zh_shortlist", [], [
        helper.make_tensor_value_info("zh_sl_top_scores", TensorProto.FLOAT, None),
        helper.make_tensor_value_info("zh_sl_ids", TensorProto.INT64, None)])
    graph.node.append(helper.make_node("If", [SHORTLIST_SWITCH], ["topk_scores", "topk_ids"],
                                       then_branch=short, else_branch=full, name="zh_shortlist_switch"))
    graph.input.extend([
        helper.make_tensor_value_info(SHORTLIST_SWITCH, TensorProto.BOOL, [1]),
        helper.make_tensor_value_info(SHORTLIST_IDS, TensorProto.INT64, ["shortlist"]),
        helper.make_tensor_value_info("shortlist_weight", weight_type, ["d_model", "shortlist"]),
    ])
    if biased:
        graph.input.append(helper.make_tensor_value_info("shortlist_bias", TensorProto.FLOAT, ["shortlist"]))
    if int8:
        graph.input.extend([
            helper.make_tensor_value_info("shortlist_scale", TensorProto.FLOAT, ["shortlist"]),
            helper.make_tensor_value_info("shortlist_zero_point", inits[roles["zero_point"]].data_type,
                                          ["shortlist"]),
        ])
    prune_and_sort(graph)
    return roles
