"""Rewrite: each cross-attention block of the decoder as one ``MultiHeadAttention`` node over
the encoder's keys/values, held once per sentence."""

from __future__ import annotations

from typing import Any

from .graph import GraphIndex, prune_and_sort, use_contrib_ops


def fuse_cross_attention(model: Any, heads: int, head_dim: int) -> int:
    """Give each cross-attention block one ``MultiHeadAttention`` node reading the encoder's
    keys/values with one row per *sentence*.

    optimum's graph wants the cross-attention cache with one row per beam, i.e. ``beams``
    identical copies of each sentence's encoder keys/values (110 MB at batch 16, beam 4, 70
    source tokens, for opus-mt's shape) that must be re-gathered whenever sentences leave.
    Here the step's queries ``[rows, 1, d_model]`` (rows sentence-major) are reshaped to
    ``[sentences, beams, d_model]``: each beam becomes one query position of its sentence, so
    a single non-causal attention node attends over the per-sentence cache ``[sentences,
    heads, source length, head_dim]`` (its "keys/values already projected" form) with the
    source padding as ``key_padding_mask``, and the result is reshaped back to rows. That one
    node replaces the nine (reshapes, transposes, scaled scores, mask, softmax, weighted sum)
    the graph had per layer. The query and key scales (``head_dim ** -0.25`` each) become the
    node's ``scale``. Returns the number of layers rewritten.
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    index = GraphIndex(graph, "cross-attention")
    hidden = heads * head_dim
    graph.initializer.extend([
        numpy_helper.from_array(np.array([0], dtype=np.int64), "zh_cross_zero"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "zh_cross_one"),
        numpy_helper.from_array(np.array([-1, hidden], dtype=np.int64), "zh_cross_tail"),
        numpy_helper.from_array(np.array([-1, 1, hidden], dtype=np.int64), "zh_cross_rows"),
    ])
    # Shared by every layer: the padding mask as the node wants it, and the queries' shape
    # [sentences, beams, d_model] (sentences from the per-sentence mask).
    graph.node.extend([
        helper.make_node("Cast", ["encoder_attention_mask"], ["zh_cross_mask"], to=TensorProto.INT32,
                         name="zh_cross_mask"),
        helper.make_node("Shape", ["encoder_attention_mask"], ["zh_cross_shape"]),
        helper.make_node("Slice", ["zh_cross_shape", "zh_cross_zero", "zh_cross_one"], ["zh_cross_sentences"]),
        helper.make_node("Concat", ["zh_cross_sentences", "zh_cross_tail"], ["zh_cross_target"], axis=0),
    ])
    rewritten = 0
    for cache_key in [i.name for i in graph.input]:
        if not (cache_key.startswith("past_key_values.") and cache_key.endswith(".encoder.key")):
            continue
        layer = cache_key.split(".")[1]
        cache_value = f"past_key_values.{layer}.encoder.value"
        score, value, query, scale = index.scaled_scores(cache_key)
        if value.input[1] != cache_value:
            raise index.unexpected(score.name)
        out_r = index.heads_merged(value.output[0])
        tag = f"zh_cross_{layer}_"
        graph.node.remove(out_r)
        graph.node.extend([
            helper.make_node("Reshape", [query, "zh_cross_target"], [tag + "query"]),
            helper.make_node(
                "MultiHeadAttention", [tag + "query", cache_key, cache_value, "", "zh_cross_mask"], [tag + "out"],
                name=f"zh_cross_attention_{layer}", domain="com.microsoft", num_heads=heads, scale=scale),
            helper.make_node("Reshape", [tag + "out", "zh_cross_rows"], [out_r.output[0]]),
        ])
        # Typed, so the float16 converter knows to cast them at the attention node it keeps float32.
        graph.value_info.extend([
            helper.make_tensor_value_info(tag + "query", TensorProto.FLOAT, ["sentences", "beams", hidden]),
            helper.make_tensor_value_info(tag + "out", TensorProto.FLOAT, ["sentences", "beams", hidden]),
        ])
        rewritten += 1
    use_contrib_ops(model)
    prune_and_sort(graph)
    return rewritten
