"""Rewrite: log-softmax, the logits processors' bias and top-k inside the decoder, so only
``[rows, k]`` scores leave ONNX Runtime each step."""

from __future__ import annotations

from typing import Any

from ..errors import ExportError


def topk_chunk(vocab: int) -> int | None:
    """Chunk width for the two-stage top-k: a divisor of ``vocab`` in [64, 1024] leaving at
    least 256 chunks (so up to 256 candidates per row), or None (plain TopK) if there is none."""
    for width in range(64, 1025):
        if vocab % width == 0 and vocab // width >= 256:
            return width
    return None


def topk_nodes(source: str, scores: str, ids: str, tag: str, chunk: int | None) -> list[Any]:
    """Nodes computing ``TopK(source, topk)`` into ``scores``/``ids`` (largest first).

    With ``chunk``, in two stages that read the ``[rows, vocab]`` scores once, vectorised:
    the maximum of each ``chunk``-wide slice of a row, the ``topk`` best slices by that
    maximum (the k best entries of a row lie in at most k slices, and those slices have the
    k largest maxima), then TopK over just those ``topk × chunk`` entries. ONNX Runtime's
    TopK over all 65,001 columns was 9-12% of decoder time; this is the same set of ids and
    scores (entries that tie exactly may come in another order).
    """
    from onnx import helper

    if chunk is None:
        return [helper.make_node("TopK", [source, "topk"], [scores, ids], axis=-1, largest=1, sorted=1)]
    t = f"zh_{tag}_"
    return [
        helper.make_node("Reshape", [source, "zh_topk_chunks"], [t + "x3"]),
        helper.make_node("ReduceMax", [t + "x3", "zh_topk_axis2"], [t + "cmax"], keepdims=0),
        helper.make_node("TopK", [t + "cmax", "topk"], [t + "cval", t + "cidx"], axis=-1, largest=1, sorted=1),
        helper.make_node("Unsqueeze", [t + "cidx", "zh_topk_axis2"], [t + "cidx3"]),
        helper.make_node("GatherND", [t + "x3", t + "cidx3"], [t + "sel"], batch_dims=1),
        helper.make_node("Reshape", [t + "sel", "zh_topk_flat"], [t + "flat"]),
        helper.make_node("TopK", [t + "flat", "topk"], [scores, t + "pos"], axis=-1, largest=1, sorted=1),
        helper.make_node("Div", [t + "pos", "zh_topk_width"], [t + "which"]),
        helper.make_node("Mod", [t + "pos", "zh_topk_width"], [t + "within"]),
        helper.make_node("GatherElements", [t + "cidx", t + "which"], [t + "chunk"], axis=1),
        helper.make_node("Mul", [t + "chunk", "zh_topk_width"], [t + "base"]),
        helper.make_node("Add", [t + "base", t + "within"], [ids]),
    ]


def processed_topk(log_probs: str, scores: str, ids: str, prefix: str, chunk: int | None) -> Any:
    """The If node on ``apply_bias`` that turns ``log_probs`` ``[rows, columns]`` into the top-k
    ``scores``/``ids`` (column positions) of the plain or the biased path (see
    ``add_topk_head``). ``prefix`` keeps the names inside its branches apart from those of
    another head in the same model (the shortlist head's, ``shortlist_head``)."""
    from onnx import TensorProto, helper

    def topk_outputs(tag: str) -> list[Any]:
        return [helper.make_tensor_value_info(f"zh_{prefix}{tag}_scores", TensorProto.FLOAT, None),
                helper.make_tensor_value_info(f"zh_{prefix}{tag}_ids", TensorProto.INT64, None)]

    def topk_node(source: str, tag: str) -> list[Any]:
        return topk_nodes(source, f"zh_{prefix}{tag}_scores", f"zh_{prefix}{tag}_ids", prefix + tag, chunk)

    biased_sum, renormalized = f"zh_{prefix}scores", f"zh_{prefix}renormalized"
    renorm = helper.make_graph(
        [
            helper.make_node("LogSoftmax", [biased_sum], [renormalized], axis=-1),
            *topk_node(renormalized, "renorm"),
        ],
        f"zh_{prefix}renormalize", [], topk_outputs("renorm"))
    keep = helper.make_graph(topk_node(biased_sum, "keep"), f"zh_{prefix}keep", [], topk_outputs("keep"))
    biased = helper.make_graph(
        [
            helper.make_node("Add", [log_probs, "logit_bias"], [biased_sum]),
            helper.make_node("If", ["renormalize"], [f"zh_{prefix}biased_scores", f"zh_{prefix}biased_ids"],
                             then_branch=renorm, else_branch=keep),
        ],
        f"zh_{prefix}biased", [], topk_outputs("biased"))
    plain = helper.make_graph(topk_node(log_probs, "plain"), f"zh_{prefix}plain", [], topk_outputs("plain"))
    return helper.make_node("If", ["apply_bias"], [scores, ids], then_branch=biased, else_branch=plain)


def add_topk_head(decoder: Any, vocab: int) -> int:
    """Replace the decoder's ``logits`` output by in-graph processed top-k log-probabilities.

    Two paths, chosen per step by the ``apply_bias`` input (an If whose branches each end in
    TopK, so only ``[rows, k]`` tensors ever cross a branch boundary):

    * plain: ``TopK(LogSoftmax(logits))``. Most steps need nothing else: a ban on a few
      single tokens (opus-mt's ``bad_words_ids = [[pad]]``) is applied exactly by the engine,
      which asks for ``k + banned`` entries and drops the banned ids (removing -inf columns
      never reorders the rest). Skipping the ``[rows, vocab]`` Add and the If's copy of that
      buffer saved ~13% of decoder time in the profile.
    * biased: ``TopK(renormalize?(LogSoftmax(logits) + logit_bias))``, transformers' beam
      scoring with the logits processors' -inf (EOS below the minimum length, multi-token bad
      words) and, when the generation config says ``renormalize_logits``, a second
      log-softmax (an inner If on ``renormalize``).

    New inputs ``apply_bias`` bool ``[1]``, ``logit_bias`` float32 ``[1 or rows, vocab]``
    (read only by the biased path), ``renormalize`` bool ``[1]``, ``topk`` int64 ``[1]``; new
    outputs ``topk_scores`` float32 and ``topk_ids`` int64 ``[rows, k]``. The decoder is
    always fed one position, so the logits are squeezed (a free reshape). Each TopK is the
    two-stage one of ``topk_nodes`` when the vocabulary has a suitable divisor. Returns the
    largest ``topk`` the graph accepts (written to ``generation.json`` as ``max_topk``).
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = decoder.graph
    outputs = [o for o in graph.output if o.name != "logits"]
    if len(outputs) == len(graph.output):
        raise ExportError("the exported decoder has no 'logits' output; unsupported optimum version")
    graph.initializer.append(numpy_helper.from_array(np.array([1], dtype=np.int64), "zh_axis_1"))
    chunk = topk_chunk(vocab)
    if chunk is not None:
        graph.initializer.extend([
            numpy_helper.from_array(np.array([0, vocab // chunk, chunk], dtype=np.int64), "zh_topk_chunks"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "zh_topk_axis2"),
            numpy_helper.from_array(np.array([0, -1], dtype=np.int64), "zh_topk_flat"),
            numpy_helper.from_array(np.array([chunk], dtype=np.int64), "zh_topk_width"),
        ])

    graph.node.extend(
        [
            helper.make_node("Squeeze", ["logits", "zh_axis_1"], ["zh_last_logits"]),
            helper.make_node("LogSoftmax", ["zh_last_logits"], ["zh_log_probs"], axis=-1),
            processed_topk("zh_log_probs", "topk_scores", "topk_ids", "", chunk),
        ]
    )
    graph.input.extend(
        [
            helper.make_tensor_value_info("apply_bias", TensorProto.BOOL, [1]),
            helper.make_tensor_value_info("logit_bias", TensorProto.FLOAT, ["bias_rows", "vocab_size"]),
            helper.make_tensor_value_info("renormalize", TensorProto.BOOL, [1]),
            helper.make_tensor_value_info("topk", TensorProto.INT64, [1]),
        ]
    )
    del graph.output[:]
    graph.output.extend(
        [
            helper.make_tensor_value_info("topk_scores", TensorProto.FLOAT, ["batch_size", "k"]),
            helper.make_tensor_value_info("topk_ids", TensorProto.INT64, ["batch_size", "k"]),
            *outputs,
        ]
    )
    return vocab if chunk is None else vocab // chunk
