"""Turn a Hugging Face MarianMT model into the directory our ONNX Runtime engine runs.

This is the only place that touches torch / transformers / optimum (the ``export`` extra); the
engine itself needs onnxruntime, sentencepiece and numpy only, so everything the engine must
know about the model (special ids, generation defaults, tokenizer quirks) is written to
``generation.json`` here, once.

The graphs are reshaped after optimum's export:

* the encoder also computes every decoder layer's cross-attention keys/values, so the decoder
  is optimum's *decoder-with-past* alone (one plain graph, fed an empty self-attention cache on
  the first step) instead of the merged decoder whose If node holds two copies of every layer:
  ONNX Runtime optimises and pre-packs each copy, which made the merged decoder's session take
  ~0.5 s to create against ~0.2 s, and held the pre-packed weights twice;
* each self-attention block is one ONNX Runtime ``GroupQueryAttention`` node that appends the
  step's keys/values to the engine's cache buffer in place (``_self_attention_in_place``), and
  each cross-attention block one ``MultiHeadAttention`` node over the encoder's keys/values,
  held once per sentence (``_fuse_cross_attention``);
* log-softmax, the logits processors' bias and top-k run inside the decoder, so only
  ``[rows, k]`` scores leave ONNX Runtime each step. Moving that work out of numpy made beam
  search about 3x faster (see BENCHMARKS.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from ..errors import ZhTranslateError
from ..model_format import ALIGNER_FILE, DECODER_FILE, ENCODER_FILE, FORMAT_VERSION, GENERATION_FILE, MANIFEST_FILE
from ..model_integrity import sha256_file
from ..owned import Owned, atomic_write, named, scratch_dir

#: What ``--quantize`` accepts: int8 (CPU default), none (float32), fp16 (GPU; float16 weights).
QUANTIZATIONS = ("int8", "none", "fp16")

_INSTALL_HINT = "install the export extra: pip install 'mkdocs-zh-translate[export]'"


class ExportError(ZhTranslateError):
    """An export failed for a reason the user can act on; the message is one line."""


def _require_export_deps() -> None:
    """Fail early, with the install command, when the export extra is missing."""
    missing = []
    for module in ("torch", "transformers", "optimum.exporters.onnx", "onnx", "onnxruntime.quantization"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module.split(".")[0])
    if missing:
        raise ExportError(f"exporting needs {', '.join(sorted(set(missing)))}: {_INSTALL_HINT}")


def _resolve_source(model: str) -> Path:
    """Return a local directory holding the model, downloading a Hub id if needed.

    Downloading first (instead of letting optimum do it) lets us tell apart "no such model",
    "no network" and "offline mode" and say which one it was.
    """
    local = Path(model).expanduser()
    if local.is_dir():
        if not (local / "config.json").is_file():
            raise ExportError(f"{local}: not a Hugging Face model directory (no config.json)")
        return local
    if model.startswith((".", "/", "~")) or os.sep in model.strip("/").replace("/", "", 1):
        raise ExportError(f"{model}: no such model directory")
    from huggingface_hub import errors as hf_errors
    from huggingface_hub import snapshot_download

    offline = os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}
    try:
        path = snapshot_download(
            model,
            allow_patterns=["*.json", "*.spm", "*.model", "*.safetensors", "pytorch_model.bin", "*.txt"],
        )
    except hf_errors.HFValidationError:
        raise ExportError(f"{model}: neither a local directory nor a valid Hugging Face model id") from None
    except (hf_errors.RepositoryNotFoundError, hf_errors.GatedRepoError):
        raise ExportError(f"{model}: unknown model id on the Hugging Face Hub (or it is private)") from None
    except hf_errors.LocalEntryNotFoundError:
        if offline:
            raise ExportError(
                f"{model}: not in the local Hugging Face cache and HF_HUB_OFFLINE is set; "
                "unset it or pass a local save_pretrained directory"
            ) from None
        raise ExportError(
            f"{model}: cannot download (no network?) and not in the local Hugging Face cache; "
            "pass a local save_pretrained directory instead"
        ) from None
    except OSError as exc:  # requests' ConnectionError is an OSError
        raise ExportError(f"{model}: cannot download: {exc.__class__.__name__}: {exc}".splitlines()[0]) from None
    return Path(path)


def _topk_chunk(vocab: int) -> int | None:
    """Chunk width for the two-stage top-k: a divisor of ``vocab`` in [64, 1024] leaving at
    least 256 chunks (so up to 256 candidates per row), or None (plain TopK) if there is none."""
    for width in range(64, 1025):
        if vocab % width == 0 and vocab // width >= 256:
            return width
    return None


def _topk_nodes(source: str, scores: str, ids: str, tag: str, chunk: int | None) -> list[Any]:
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


def _add_topk_head(decoder: Any, vocab: int) -> int:
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
    two-stage one of ``_topk_nodes`` when the vocabulary has a suitable divisor. Returns the
    largest ``topk`` the graph accepts (written to ``generation.json`` as ``max_topk``).
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = decoder.graph
    outputs = [o for o in graph.output if o.name != "logits"]
    if len(outputs) == len(graph.output):
        raise ExportError("the exported decoder has no 'logits' output; unsupported optimum version")
    graph.initializer.append(numpy_helper.from_array(np.array([1], dtype=np.int64), "zh_axis_1"))
    chunk = _topk_chunk(vocab)
    if chunk is not None:
        graph.initializer.extend([
            numpy_helper.from_array(np.array([0, vocab // chunk, chunk], dtype=np.int64), "zh_topk_chunks"),
            numpy_helper.from_array(np.array([2], dtype=np.int64), "zh_topk_axis2"),
            numpy_helper.from_array(np.array([0, -1], dtype=np.int64), "zh_topk_flat"),
            numpy_helper.from_array(np.array([chunk], dtype=np.int64), "zh_topk_width"),
        ])

    def topk_outputs(tag: str) -> list[Any]:
        return [helper.make_tensor_value_info(f"zh_{tag}_scores", TensorProto.FLOAT, None),
                helper.make_tensor_value_info(f"zh_{tag}_ids", TensorProto.INT64, None)]

    def topk_node(source: str, tag: str) -> list[Any]:
        return _topk_nodes(source, f"zh_{tag}_scores", f"zh_{tag}_ids", tag, chunk)

    renorm = helper.make_graph(
        [
            helper.make_node("LogSoftmax", ["zh_scores"], ["zh_renormalized"], axis=-1),
            *topk_node("zh_renormalized", "renorm"),
        ],
        "zh_renormalize", [], topk_outputs("renorm"))
    keep = helper.make_graph(topk_node("zh_scores", "keep"), "zh_keep", [], topk_outputs("keep"))
    biased = helper.make_graph(
        [
            helper.make_node("Add", ["zh_log_probs", "logit_bias"], ["zh_scores"]),
            helper.make_node(
                "If", ["renormalize"], ["zh_biased_scores", "zh_biased_ids"], then_branch=renorm, else_branch=keep
            ),
        ],
        "zh_biased", [], topk_outputs("biased"))
    plain = helper.make_graph(topk_node("zh_log_probs", "plain"), "zh_plain", [], topk_outputs("plain"))
    graph.node.extend(
        [
            helper.make_node("Squeeze", ["logits", "zh_axis_1"], ["zh_last_logits"]),
            helper.make_node("LogSoftmax", ["zh_last_logits"], ["zh_log_probs"], axis=-1),
            helper.make_node("If", ["apply_bias"], ["topk_scores", "topk_ids"], then_branch=biased, else_branch=plain),
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


def _flatten_logits_bias(decoder: Any) -> bool:
    """Store ``final_logits_bias`` as ``[vocab]`` instead of ``[1, vocab]``.

    Same broadcast result, but ORT only fuses a 1-D bias into the preceding (int8) MatMul
    kernel; the 2-D one costs a separate Add and another ``[rows, vocab]`` buffer per step.
    """
    for init in decoder.graph.initializer:
        if init.name.startswith("final_logits_bias") and len(init.dims) == 2 and init.dims[0] == 1:
            vocab = init.dims[1]
            del init.dims[:]
            init.dims.append(vocab)
            return True
    return False


class _GraphIndex:
    """Who makes and who reads each tensor of a graph, for the attention rewrites' pattern checks.

    Each lookup raises an ``ExportError`` naming the tensor when the graph is not shaped as
    expected (another optimum or transformers version), instead of rewriting it wrongly.
    """

    def __init__(self, graph: Any, block: str) -> None:
        self.graph = graph
        self.block = block
        self.consumers: dict[str, list[Any]] = {}
        for node in graph.node:
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
        self.producer = {out: node for node in graph.node for out in node.output}

    def unexpected(self, where: str) -> ExportError:
        return ExportError(f"unexpected {self.block} graph at {where!r}; unsupported optimum version")

    def only(self, name: str, op: str) -> Any:
        """The one ``op`` node reading ``name``."""
        found = [n for n in self.consumers.get(name, []) if n.op_type == op]
        if len(found) != 1:
            raise self.unexpected(f"{name} (wanted one {op})")
        return found[0]

    def made_by(self, name: str, op: str) -> Any:
        """The node making ``name``, which must be an ``op``."""
        node = self.producer.get(name)
        if node is None or node.op_type != op:
            raise self.unexpected(f"{name} (wanted it made by {op})")
        return node

    def scalar(self, name: str) -> float:
        """The value of a scalar initializer or Constant node (the attention scales)."""
        from onnx import numpy_helper

        for init in self.graph.initializer:
            if init.name == name:
                return float(numpy_helper.to_array(init).reshape(-1)[0])
        const = self.producer.get(name)
        if const is not None and const.op_type == "Constant":
            value = next((a.t for a in const.attribute if a.name == "value"), None)
            if value is not None:
                return float(numpy_helper.to_array(value).reshape(-1)[0])
        raise self.unexpected(f"{name} (wanted a constant scale)")

    def scaled_scores(self, cache_key: str) -> tuple[Any, Any, str, float]:
        """optimum's ``MatMul(Mul(Transpose(q), s), Mul(Transpose(K), s))`` reading ``cache_key``.

        Returns the score MatMul, the probabilities' MatMul with the values, the query as
        ``[rows, 1, heads * head_dim]`` (before its reshape to heads) and ``scale``, the product
        of the query's and the keys' factors (``head_dim ** -0.25`` each).
        """
        keys_t = self.only(cache_key, "Transpose")
        if _perm(keys_t) != [0, 1, 3, 2]:
            raise self.unexpected(cache_key)
        k_scale = self.only(keys_t.output[0], "Mul")
        score = self.only(k_scale.output[0], "MatMul")
        softmax = self.only(self.only(score.output[0], "Add").output[0], "Softmax")
        value = self.only(softmax.output[0], "MatMul")
        if score.input[1] != k_scale.output[0]:
            raise self.unexpected(score.name)
        q_scale = self.made_by(score.input[0], "Mul")
        query_t = next((i for i in q_scale.input if i in self.producer
                        and self.producer[i].op_type == "Transpose"), None)
        if query_t is None:
            raise self.unexpected(q_scale.name)
        factor_q = next(i for i in q_scale.input if i != query_t)
        factor_k = next(i for i in k_scale.input if i != keys_t.output[0])
        return score, value, self.packed(query_t), self.scalar(factor_q) * self.scalar(factor_k)

    def packed(self, heads_first: str) -> str:
        """The ``[rows, 1, heads * head_dim]`` tensor a ``[rows, heads, 1, head_dim]`` one was made from."""
        transpose = self.made_by(heads_first, "Transpose")
        if _perm(transpose) != [0, 2, 1, 3]:
            raise self.unexpected(heads_first)
        return str(self.made_by(transpose.input[0], "Reshape").input[0])

    def heads_merged(self, heads_first: str) -> Any:
        """The Reshape turning ``[rows, heads, 1, head_dim]`` back into ``[rows, 1, d_model]``."""
        transpose = self.only(heads_first, "Transpose")
        if _perm(transpose) != [0, 2, 1, 3]:
            raise self.unexpected(heads_first)
        return self.only(transpose.output[0], "Reshape")


def _perm(node: Any) -> list[int]:
    return next((list(a.ints) for a in node.attribute if a.name == "perm"), [])


def _fuse_cross_attention(model: Any, heads: int, head_dim: int) -> int:
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
    index = _GraphIndex(graph, "cross-attention")
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
    _use_contrib_ops(model)
    _prune_and_sort(graph)
    return rewritten


def _self_attention_in_place(model: Any, layers: int, heads: int) -> int:
    """Give each self-attention block one fused ``GroupQueryAttention`` node that writes the
    step's keys/values into the engine's cache buffer in place.

    optimum's decoder concatenates ``past`` (every earlier position) with the step's key and
    value and returns the concatenation as ``present``: a full copy of the cache per step
    (Concat was 13-15% of decoder time) and, while the step runs, the old and the new cache
    alive together. Here ``past_key_values.N.decoder.*`` is a buffer ``[rows, heads, capacity,
    head_dim]`` that the engine owns and binds as both the node's past input and its present
    output (ONNX Runtime's IO binding): the CPU kernel then writes the new position at
    ``seqlens_k`` (new int32 input ``[rows]``: positions already filled) and attends over
    ``total_sequence_length`` (new int32 input ``[1]``) positions, so nothing is copied and
    masked positions are never read. With ``kv_num_heads == num_heads`` it is plain multi-head
    attention; its causal mask is what a single cached query needs.

    One node replaced fourteen small ones per layer (scores against the buffer, a mask, the
    new position, softmax, two products): in isolation a 64-row layer step went from 1.8 to
    0.5 ms here. optimum scales the query and the transposed keys by ``head_dim ** -0.25``
    each; the node gets their product as ``scale``. Positions come from ``past_length`` (int64
    scalar input) instead of the cache's shape. Returns the number of layers rewritten.
    """
    from onnx import TensorProto, helper

    graph = model.graph
    index = _GraphIndex(graph, "self-attention")

    # The cache's length (Shape(past key 0)[2]) feeds the positions: make it an input.
    shape = index.only("past_key_values.0.decoder.key", "Shape")
    gather = index.only(shape.output[0], "Gather")
    for node in graph.node:
        for j, name in enumerate(node.input):
            if name == gather.output[0]:
                node.input[j] = "past_length"
    rewritten = 0
    for layer in range(layers):
        past_k, past_v = f"past_key_values.{layer}.decoder.key", f"past_key_values.{layer}.decoder.value"
        concat_k, concat_v = index.only(past_k, "Concat"), index.only(past_v, "Concat")
        present_k, present_v = concat_k.output[0], concat_v.output[0]
        score, value, query, scale = index.scaled_scores(present_k)
        if value.input[1] != present_v:
            raise index.unexpected(score.name)
        out_r = index.heads_merged(value.output[0])
        attention = helper.make_node(
            "GroupQueryAttention",
            [query, index.packed(concat_k.input[1]), index.packed(concat_v.input[1]), past_k, past_v,
             "seqlens_k", "total_sequence_length"],
            [out_r.output[0], present_k, present_v],
            name=f"zh_self_attention_{layer}", domain="com.microsoft",
            num_heads=heads, kv_num_heads=heads, scale=scale)
        for node in (concat_k, concat_v, out_r):
            graph.node.remove(node)
        graph.node.append(attention)
        rewritten += 1
    graph.input.extend([
        helper.make_tensor_value_info("past_length", TensorProto.INT64, []),
        helper.make_tensor_value_info("seqlens_k", TensorProto.INT32, ["batch_size"]),
        helper.make_tensor_value_info("total_sequence_length", TensorProto.INT32, [1]),
    ])
    for out in graph.output:
        if out.name.startswith("present.") and ".decoder." in out.name:
            dims = out.type.tensor_type.shape.dim
            if len(dims) == 4:  # the present tensor *is* the past buffer
                dims[2].ClearField("dim_value")
                dims[2].dim_param = "cache_capacity"
    _use_contrib_ops(model)
    _prune_and_sort(graph)
    return rewritten


def _use_contrib_ops(model: Any) -> None:
    """Declare ONNX Runtime's ``com.microsoft`` operator set, which the attention nodes are from."""
    from onnx import helper

    if not any(op.domain == "com.microsoft" for op in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))


def _prune_and_sort(graph: Any) -> None:
    """Drop nodes no output depends on and put the rest in topological order (ONNX wants both)."""
    producer = {out: node for node in graph.node for out in node.output}
    needed: set[int] = set()
    stack = [o.name for o in graph.output]
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        node = producer.get(name)
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(node.input)
        for attr in node.attribute:  # subgraphs read outer names too
            if attr.g is not None:
                stack.extend(i for n in attr.g.node for i in n.input)
    kept = [n for n in graph.node if id(n) in needed]
    available = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    ordered: list[Any] = []
    pending = kept
    while pending:
        rest = []
        for node in pending:
            outer = [i for a in node.attribute if a.g is not None for n in a.g.node for i in n.input]
            local = {o for a in node.attribute if a.g is not None for n in a.g.node for o in n.output}
            if all(i in available for i in node.input) and all(i in available or i in local for i in outer):
                ordered.append(node)
                available.update(node.output)
            else:
                rest.append(node)
        if len(rest) == len(pending):
            raise ExportError("the rewritten decoder graph has a cycle or a dangling input")
        pending = rest
    del graph.node[:]
    graph.node.extend(ordered)


def _add_cross_cache_to_encoder(encoder: Any, first_decoder: Any, layers: int, heads: int, head_dim: int) -> None:
    """Make the encoder output each decoder layer's cross-attention keys and values.

    They depend on the encoder states only, so computing them here (once per batch) lets the
    decoder be a single graph that always reads them from its cache inputs. The projections are
    found in optimum's no-past decoder by walking back from its ``present.N.encoder.*`` outputs
    (Transpose <- Reshape <- Add(bias) <- MatMul(encoder_hidden_states, W)) and rebuilt on the
    encoder's ``last_hidden_state`` with the same weights and the same ops, so the values are the
    ones the merged decoder's first step computed. New outputs ``cross.N.key`` / ``cross.N.value``
    ``[batch, heads, source length, head_dim]`` come before ``last_hidden_state``, which stays an
    output: the alignment pass (``_export_aligner``) reads it instead of running the encoder again.
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = first_decoder.graph
    producer = {out: node for node in graph.node for out in node.output}
    tensors = {init.name: init for init in graph.initializer}

    def constant(name: str) -> Any:
        node = producer.get(name)
        while node is not None and node.op_type == "Identity":
            name = node.input[0]
            node = producer.get(name)
        if name not in tensors:
            raise ExportError(f"cross-attention weight {name!r} is not a constant; unsupported optimum version")
        return numpy_helper.to_array(tensors[name])

    def expect(name: str, op: str) -> Any:
        node = producer.get(name)
        if node is None or node.op_type != op:
            raise ExportError(
                f"unexpected cross-attention graph at {name!r} (wanted {op}); unsupported optimum version"
            )
        return node

    encoder.graph.initializer.append(
        numpy_helper.from_array(np.array([0, -1, heads, head_dim], dtype=np.int64), "zh_cross_shape"))
    outputs = []
    for layer in range(layers):
        for kind in ("key", "value"):
            transpose = expect(f"present.{layer}.encoder.{kind}", "Transpose")
            reshape = expect(transpose.input[0], "Reshape")
            add = expect(reshape.input[0], "Add")
            matmul_name = next(
                (i for i in add.input if producer.get(i) is not None and producer[i].op_type == "MatMul"), None
            )
            if matmul_name is None:
                raise ExportError("cross-attention projection without MatMul; unsupported optimum version")
            matmul = producer[matmul_name]
            if matmul.input[0] != "encoder_hidden_states":
                raise ExportError(
                    "cross-attention projection not fed by the encoder states; unsupported optimum version"
                )
            weight = constant(matmul.input[1])
            bias = constant(next(i for i in add.input if i != matmul_name))
            perm = next(list(a.ints) for a in transpose.attribute if a.name == "perm")
            if weight.shape != (heads * head_dim, heads * head_dim):
                raise ExportError(f"cross-attention weight of shape {weight.shape}; unsupported model layout")
            tag = f"zh_cross.{layer}.{kind}"
            encoder.graph.initializer.extend([numpy_helper.from_array(weight, tag + ".weight"),
                                              numpy_helper.from_array(bias, tag + ".bias")])
            out = f"cross.{layer}.{kind}"
            encoder.graph.node.extend(
                [
                    helper.make_node("MatMul", ["last_hidden_state", tag + ".weight"], [tag + ".proj"]),
                    helper.make_node("Add", [tag + ".proj", tag + ".bias"], [tag + ".biased"]),
                    helper.make_node("Reshape", [tag + ".biased", "zh_cross_shape"], [tag + ".heads"]),
                    helper.make_node("Transpose", [tag + ".heads"], [out], perm=perm),
                ]
            )
            outputs.append(out)
    hidden = [o for o in encoder.graph.output if o.name == "last_hidden_state"]
    del encoder.graph.output[:]
    encoder.graph.output.extend(
        helper.make_tensor_value_info(
            name, TensorProto.FLOAT, ["batch_size", heads, "encoder_sequence_length", head_dim]
        )
        for name in outputs
    )
    encoder.graph.output.extend(hidden)


def _language_codes(vocab: dict[str, int]) -> list[str]:
    return [tok for tok in vocab if tok.startswith(">>") and tok.endswith("<<")]


def _pick_target_prefix(codes: list[str]) -> str | None:
    """Multi-target models need a ``>>lang<<`` prefix; choose Simplified Chinese when offered."""
    if not codes:
        return None
    for preferred in (">>cmn_Hans<<", ">>zho_Hans<<", ">>cmn<<", ">>zho<<", ">>zh<<"):
        if preferred in codes:
            return preferred
    return None


def tokenizer_settings(tokenizer: Any) -> dict[str, Any]:
    """What the engine's tokenizer needs to behave exactly like this MarianTokenizer."""
    added = {
        str(tok_id): {
            "content": tok.content,
            "lstrip": bool(tok.lstrip),
            "rstrip": bool(tok.rstrip),
            "single_word": bool(tok.single_word),
            "special": bool(tok.special),
        }
        for tok_id, tok in tokenizer.added_tokens_decoder.items()
    }
    codes = list(getattr(tokenizer, "supported_language_codes", []) or [])
    return {
        "unk_token": str(tokenizer.unk_token),
        "eos_token": str(tokenizer.eos_token),
        "pad_token": str(tokenizer.pad_token),
        "all_special_tokens": [str(t) for t in tokenizer.all_special_tokens],
        "added_tokens": added,
        "separate_vocabs": bool(getattr(tokenizer, "separate_vocabs", False)),
        "clean_up_tokenization_spaces": bool(tokenizer.clean_up_tokenization_spaces),
        "language_codes": codes,
        "target_prefix": _pick_target_prefix(codes),
    }


def _generation_settings(src: Path, config: Any, tokenizer: Any) -> dict[str, Any]:
    """Collect everything decoding and tokenising need, so the engine never reads HF configs."""
    from transformers import GenerationConfig

    try:
        gen = GenerationConfig.from_pretrained(src)
    except OSError:
        gen = GenerationConfig.from_model_config(config)

    def pick(name: str, default: Any = None) -> Any:
        value = getattr(gen, name, None)
        if value is None:
            value = getattr(config, name, None)
        return default if value is None else value

    eos = pick("eos_token_id")
    eos_ids = eos if isinstance(eos, list) else [eos]
    if len(eos_ids) != 1:
        raise ExportError(f"{src}: models with several EOS ids {eos_ids} are not supported")
    defaults = {"no_repeat_ngram_size": 0, "repetition_penalty": 1.0, "encoder_no_repeat_ngram_size": 0,
                "do_sample": False, "num_beam_groups": 1, "diversity_penalty": 0.0, "forced_bos_token_id": None,
                "suppress_tokens": None, "begin_suppress_tokens": None, "sequence_bias": None,
                "exponential_decay_length_penalty": None}
    unsupported = {
        name: getattr(gen, name)
        for name, default in defaults.items()
        if getattr(gen, name, None) not in (None, default)
    }
    if unsupported:
        raise ExportError(f"{src}: generation settings the engine does not implement: {unsupported}")
    d_model = int(config.d_model)
    heads = int(config.decoder_attention_heads)
    return {
        "format": FORMAT_VERSION,
        "model_type": config.model_type,
        "vocab_size": int(config.vocab_size),
        "max_position_embeddings": int(config.max_position_embeddings),
        "d_model": d_model,
        "decoder_layers": int(config.decoder_layers),
        "decoder_attention_heads": heads,
        "head_dim": d_model // heads,
        "decoder_start_token_id": int(pick("decoder_start_token_id")),
        "eos_token_id": int(eos_ids[0]),
        "pad_token_id": int(pick("pad_token_id")),
        "forced_eos_token_id": pick("forced_eos_token_id"),
        "bad_words_ids": pick("bad_words_ids", []) or [],
        "max_length": int(pick("max_length", 512)),
        "min_length": int(pick("min_length", 0) or 0),
        "num_beams": int(pick("num_beams", 1)),
        "length_penalty": float(pick("length_penalty", 1.0)),
        "early_stopping": pick("early_stopping", False),
        "renormalize_logits": bool(pick("renormalize_logits", False)),
        "tokenizer": tokenizer_settings(tokenizer),
    }


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("mkdocs-zh-translate", "onnx", "onnxruntime", "optimum", "optimum-onnx", "transformers", "torch"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def write_manifest(out: Path, *, source: str, quantize: str) -> dict[str, Any]:
    """Hash every file so caches keyed on the fingerprint change when any weight changes."""
    files = {
        p.name: {"sha256": sha256_file(p), "size": p.stat().st_size}
        for p in sorted(out.iterdir())
        if p.is_file() and p.name != MANIFEST_FILE
    }
    joined = "\n".join(f"{name} {meta['sha256']}" for name, meta in files.items())
    manifest = {
        "format": FORMAT_VERSION,
        "fingerprint": hashlib.sha256(joined.encode()).hexdigest()[:32],
        "source": source,
        "quantize": quantize,
        "files": files,
        "versions": _versions(),
    }
    atomic_write(out / MANIFEST_FILE, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return manifest


def _quantize_int8(src: Path, dst: Path) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # Every MatMul sits in the main graph (the only If nodes are the top-k head's), so the
    # quantiser needs no EnableSubgraph. Per-channel scales: same speed, load time and RSS as
    # per-tensor on the opus-mt-shaped benchmark (13.9 vs 13.7 sent/s at beam 4, batch 16), and
    # closer to fp32: 179/220 identical beam-4 translations of the test model against 171/220.
    # ONNX shape inference does not know the com.microsoft attention nodes, so the tensors
    # after them have no inferred type: they are all float32 here.
    quantize_dynamic(src, dst, weight_type=QuantType.QInt8, per_channel=True,
                     extra_options={"DefaultTensorType": TensorProto.FLOAT})


def _to_fp16(model: Any, name: str) -> Any:
    """``model`` with float16 weights and compute (for GPUs), inputs and outputs kept float32.

    Keeping the graph's inputs and outputs in float32 keeps the engine's contract (caches,
    masks, scores are float32 numpy arrays) the same for every export; the graph casts at its
    edges. Constants are clamped to float16's range by the converter, so masking values stay
    finite. The decoder is converted before its top-k head is added, so log-softmax, the
    logits processors' bias and top-k stay float32 (float16 log-probabilities would make
    beam scores tie). The attention nodes stay float32 too: the self-attention ones read and
    write the engine's float32 cache buffer in place (a Cast in between would make a copy),
    and the cross-attention ones read the float32 encoder cache. CUDA's GroupQueryAttention
    is float16-only, so a CUDA run would place those nodes on the CPU (untested: no GPU was
    available when this was written).
    """
    from onnxruntime.transformers.float16 import DEFAULT_OP_BLOCK_LIST, convert_float_to_float16

    try:
        return convert_float_to_float16(model, keep_io_types=True, disable_shape_infer=True,
                                        op_block_list=[*DEFAULT_OP_BLOCK_LIST, "GroupQueryAttention",
                                                       "MultiHeadAttention"])
    except Exception as exc:  # the converter raises bare Exceptions and ValueErrors
        raise ExportError(f"{name}: float16 conversion failed: {exc}".splitlines()[0]) from None


def _optimize_offline(src: Path, dst: Path) -> Path:
    """Save ONNX Runtime's own optimisation of ``src`` (fusions up to the *extended* level).

    Every session creation otherwise repeats these graph passes: loading the pre-optimised
    graphs took the opus-mt-shaped int8 decoder's session from ~0.20 s to ~0.11 s and the
    encoder's from ~0.09 s to ~0.04 s here. Extended is the highest level ONNX Runtime calls
    portable (the *all* level adds layouts for this machine's CPU); the engine still asks for
    *all* at load time, so those are applied on the machine that runs the model.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    opts.optimized_model_filepath = str(dst)
    opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", dst.name + ".data")
    opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    opts.log_severity_level = 3
    try:
        ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT's own exception types; one line for the user
        reason = f"{src.name}: ONNX Runtime cannot optimise the exported graph: {exc}".splitlines()[0]
        raise ExportError(reason) from None
    return dst


def _save_pair_external(encoder_src: Path, decoder_src: Path, final: Path, vocab: int) -> list[dict[str, Any]]:
    """Save both graphs with their weights in ``<graph>.onnx.data``, the embedding stored once.

    ONNX Runtime memory-maps external initializers instead of parsing them out of the protobuf
    and copying them into its own tensors, so a weight is held once (as file-backed pages)
    rather than once per copy while loading: on the opus-mt-shaped int8 model the decoder
    session drops from ~170 MB to ~85 MB of RSS and loads faster.

    Marian ties the encoder's and decoder's token embeddings; the graphs (and the int8
    quantiser) still carry a copy each. When the two are identical the decoder's is renamed to
    the encoder's and pointed at the encoder's data file, and the returned list (written to
    ``generation.json``) tells the engine where it is, so it can map it once and hand the same
    memory to both sessions: random-token decoding otherwise faults both 33 MB copies in
    (file read-ahead makes that nearly the whole matrix) for ~30 MB of extra RSS.
    """
    import onnx
    from onnx import numpy_helper
    from onnx.external_data_helper import ExternalDataInfo

    encoder = onnx.load(encoder_src)
    decoder = onnx.load(decoder_src)
    enc_name = _embedding_name(encoder, vocab)
    dec_name = _embedding_name(decoder, vocab)
    shared: list[dict[str, Any]] = []
    enc_tensor = next((t for t in encoder.graph.initializer if t.name == enc_name), None)
    dec_tensor = next((t for t in decoder.graph.initializer if t.name == dec_name), None)
    same = (enc_tensor is not None and dec_tensor is not None
            and _same_dequantisation(encoder, enc_name, decoder, dec_name)
            and enc_tensor.data_type == dec_tensor.data_type
            and numpy_helper.to_array(enc_tensor).tobytes() == numpy_helper.to_array(dec_tensor).tobytes())
    _save_one_external(encoder, final / ENCODER_FILE)
    del encoder
    if same and enc_tensor is not None and dec_tensor is not None and enc_name and dec_name:
        saved = onnx.load(final / ENCODER_FILE, load_external_data=False)
        placed = next(t for t in saved.graph.initializer if t.name == enc_name)
        info = ExternalDataInfo(placed)
        if info.offset is None or info.length is None:  # _save_one_external always writes both
            raise ExportError(f"{ENCODER_FILE}: {enc_name} was saved without an offset and length")
        _rename_input(decoder, dec_name, enc_name)
        dec_tensor.name = enc_name
        dec_tensor.ClearField("raw_data")
        dec_tensor.data_location = onnx.TensorProto.EXTERNAL
        del dec_tensor.external_data[:]
        for key, value in (("location", info.location), ("offset", str(info.offset)), ("length", str(info.length))):
            entry = dec_tensor.external_data.add()
            entry.key, entry.value = key, value
        shared.append({
            "name": enc_name,
            "file": info.location,
            "offset": int(info.offset),
            "length": int(info.length),
            "dtype": onnx.helper.tensor_dtype_to_np_dtype(placed.data_type).name,
            "shape": [int(d) for d in placed.dims],
        })
    _save_one_external(decoder, final / DECODER_FILE)
    return shared


def _embedding_name(model: Any, vocab: int) -> str | None:
    """The initializer the token-embedding Gather reads (``[vocab, d_model]``), if any."""
    inits = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Gather" and node.input[0] in inits:
            dims = list(inits[node.input[0]].dims)
            if len(dims) == 2 and dims[0] == vocab:
                return str(node.input[0])
    return None


def _same_dequantisation(encoder: Any, enc_name: str | None, decoder: Any, dec_name: str | None) -> bool:
    """Both embeddings are read the same way: unquantised, or with equal int8 scale/zero point."""
    from onnx import TensorProto, numpy_helper

    def params(model: Any, name: str | None) -> list[bytes] | None:
        inits = {t.name: t for t in model.graph.initializer}
        if name not in inits:
            return None
        if inits[name].data_type in (TensorProto.FLOAT, TensorProto.FLOAT16):
            return []
        gathers = [n for n in model.graph.node if name in n.input]
        if len(gathers) != 1 or gathers[0].op_type != "Gather":
            return None
        users = [n for n in model.graph.node if gathers[0].output[0] in n.input]
        if len(users) != 1 or users[0].op_type != "DequantizeLinear":
            return None
        wanted = users[0].input[1:]
        found = [inits[i] for i in wanted if i in inits]
        if len(found) != len(wanted):
            return None
        return [numpy_helper.to_array(t).tobytes() for t in found]

    mine, theirs = params(encoder, enc_name), params(decoder, dec_name)
    return mine is not None and mine == theirs


def _rename_input(model: Any, old: str, new: str) -> None:
    for node in model.graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new


def _save_one_external(model: Any, dst: Path) -> None:
    import onnx

    data = dst.name + ".data"
    onnx.save_model(model, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=data, size_threshold=1024)
    (dst.parent / data).chmod(0o644)


def export_model(model: str, out: Path, quantize: str = "int8") -> Path:
    """Export ``model`` (Hub id or local directory) into ``out``; return ``out``.

    Files are built in a temporary directory and moved in at the end, manifest last, so an
    interrupted export never leaves a directory the engine would accept.
    """
    if quantize not in QUANTIZATIONS:
        raise ExportError(f"unknown quantisation {quantize!r}; choose {', '.join(QUANTIZATIONS)}")
    _require_export_deps()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a directory")
    src = _resolve_source(model)

    import onnx
    from transformers import AutoConfig, MarianTokenizer

    try:
        config = AutoConfig.from_pretrained(src)
    except (OSError, ValueError) as exc:
        raise ExportError(f"{src}: cannot read the model config: {exc}".splitlines()[0]) from None
    if config.model_type != "marian":
        raise ExportError(f"{model}: a {config.model_type!r} model; only MarianMT models are supported")
    try:
        tokenizer = MarianTokenizer.from_pretrained(src)
    except (OSError, ValueError, KeyError, AssertionError) as exc:
        raise ExportError(f"{src}: cannot load the Marian tokenizer: {exc}".splitlines()[0]) from None
    settings = _generation_settings(src, config, tokenizer)

    out.mkdir(parents=True, exist_ok=True)
    with scratch_dir(".export-", out) as tmp:
        raw = tmp / "raw"
        _run_optimum(src, raw)
        final = tmp / "final"
        final.mkdir()

        heads, head_dim, layers = settings["decoder_attention_heads"], settings["head_dim"], settings["decoder_layers"]
        encoder = onnx.load(raw / "encoder_model.onnx")
        first_decoder = onnx.load(raw / "decoder_model.onnx")
        _add_cross_cache_to_encoder(encoder, first_decoder, layers, heads, head_dim)
        del first_decoder
        decoder = onnx.load(raw / "decoder_with_past_model.onnx")
        if _self_attention_in_place(decoder, layers, heads) != layers:
            raise ExportError(f"{src}: not every self-attention block could be rewritten; "
                              "unsupported transformers/optimum version")
        _flatten_logits_bias(decoder)
        rewritten = _fuse_cross_attention(decoder, heads, head_dim)
        if rewritten != layers:
            raise ExportError(f"{src}: found {rewritten} cross-attention blocks to rewrite, expected "
                              f"{layers}; unsupported transformers/optimum version")
        if quantize == "fp16":
            encoder = _to_fp16(encoder, "encoder")
            decoder = _to_fp16(decoder, "decoder")
        settings["max_topk"] = _add_topk_head(decoder, settings["vocab_size"])
        encoder_fp32 = tmp / "encoder_fp32.onnx"
        decoder_fp32 = tmp / "decoder_fp32.onnx"
        onnx.save(encoder, encoder_fp32)
        onnx.save(decoder, decoder_fp32)
        del encoder, decoder
        shutil.rmtree(raw)
        if quantize == "int8":
            _quantize_int8(encoder_fp32, tmp / "encoder_int8.onnx")
            _quantize_int8(decoder_fp32, tmp / "decoder_int8.onnx")
            encoder_src, decoder_src = tmp / "encoder_int8.onnx", tmp / "decoder_int8.onnx"
        else:
            encoder_src, decoder_src = encoder_fp32, decoder_fp32
        if quantize != "fp16":  # the offline pass runs on the CPU, which lacks many fp16 kernels
            (tmp / "optimized").mkdir()
            encoder_src = _optimize_offline(encoder_src, tmp / "optimized" / ENCODER_FILE)
            decoder_src = _optimize_offline(decoder_src, tmp / "optimized" / DECODER_FILE)
        settings["shared_initializers"] = _save_pair_external(encoder_src, decoder_src, final, settings["vocab_size"])
        _export_aligner(src, tmp, final / ALIGNER_FILE, quantize)

        for name in ("source.spm", "target.spm", "vocab.json", "target_vocab.json", "tokenizer_config.json"):
            if (src / name).is_file():
                shutil.copyfile(src / name, final / name)
        settings["quantize"] = quantize
        (final / GENERATION_FILE).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")

        Owned(out, named([MANIFEST_FILE]), "an export's files").remove(out / MANIFEST_FILE)  # stale until rewritten
        for item in final.iterdir():
            os.replace(item, out / item.name)
    write_manifest(out, source=model, quantize=quantize)
    return out


def _export_aligner(src: Path, tmp: Path, dst: Path, quantize: str) -> None:
    """``aligner.onnx``: one teacher-forced pass of the decoder (no cache, no vocabulary
    projection) over the encoder states the search's encoder already computed (its
    ``last_hidden_state`` output), returning each decoder layer's cross-attention averaged over
    its heads, ``[batch, layers, target, source]``: what the ``project`` markup strategy aligns a
    translation with its source by. A plain torch export (eager attention, which exposes the
    weights); int8 exports quantise it too, fp16 ones keep it in fp32 (it runs on the CPU).
    Exports made before it took ``input_ids`` and ran the encoder again (the engine reads both)."""
    import torch
    from transformers import MarianMTModel

    model = MarianMTModel.from_pretrained(src, attn_implementation="eager").model.eval()

    class Aligner(torch.nn.Module):  # type: ignore[misc]  # torch is untyped here
        def __init__(self) -> None:
            super().__init__()
            self.inner = model.get_decoder()

        def forward(self, encoder_hidden_states: Any, attention_mask: Any, decoder_input_ids: Any) -> Any:
            out = self.inner(input_ids=decoder_input_ids, encoder_hidden_states=encoder_hidden_states,
                             encoder_attention_mask=attention_mask, output_attentions=True, use_cache=False,
                             return_dict=True)
            return torch.stack([a.mean(dim=1) for a in out.cross_attentions], dim=1)

    ids = torch.ones((2, 5), dtype=torch.int64)
    states = torch.zeros((2, 5, int(model.config.d_model)), dtype=torch.float32)
    raw = tmp / "aligner_fp32.onnx"
    with torch.no_grad():
        torch.onnx.export(Aligner(), (states, torch.ones_like(ids), ids[:, :3]), str(raw), dynamo=False,
                          input_names=["encoder_hidden_states", "attention_mask", "decoder_input_ids"],
                          output_names=["cross_attention"], opset_version=17,
                          dynamic_axes={"encoder_hidden_states": {0: "batch", 1: "source"},
                                        "attention_mask": {0: "batch", 1: "source"},
                                        "decoder_input_ids": {0: "batch", 1: "target"},
                                        "cross_attention": {0: "batch", 2: "target", 3: "source"}})
    if quantize == "int8":
        _quantize_int8(raw, dst)
    else:
        shutil.copyfile(raw, dst)


def _run_optimum(src: Path, raw: Path) -> None:
    """optimum's exporter: encoder, decoder (first step) and decoder-with-past, not merged.

    The no-past decoder is only read for its cross-attention projections (see
    ``_add_cross_cache_to_encoder``); skipping optimum's merge step also saves a graph copy.
    """
    import warnings

    from optimum.exporters.onnx import main_export

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            main_export(
                str(src),
                raw,
                task="text2text-generation-with-past",
                do_validation=False,
                no_post_process=True,
                library_name="transformers",
            )
        except Exception as exc:  # optimum raises many types; the user needs the cause in one line
            raise ExportError(f"{src}: ONNX export failed: {exc.__class__.__name__}: {exc}".splitlines()[0]) from None
    for name in ("encoder_model.onnx", "decoder_model.onnx", "decoder_with_past_model.onnx"):
        if not (raw / name).is_file():
            raise ExportError(f"{src}: optimum produced no {name}; unsupported optimum version")
