"""ONNX Runtime sessions for the exported encoder and decoder, and the decoder's cache state.

Everything that knows tensor names, shapes and the KV-cache layout lives here, so the beam
search works on plain "rows" and never on graph details.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from .errors import EngineError


def default_threads() -> int:
    """Physical-ish core count: ORT's intra-op pool gains nothing from hyper-threads here."""
    return max(1, min(os.cpu_count() or 1, 8))


def make_session(path: Path, threads: int, providers: Sequence[str] | None, hint: str) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # No spin-waiting between ops: on a machine shared with other work (a docs build, CI) spinning
    # threads fight the busy ones for cores; measured 137 -> 106 ms per beam step here.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Shapes change every step (cache grows, rows leave), so an arena keeps growing blocks it
    # rarely reuses: without it peak RSS at batch 16 / beam 4 drops ~90 MB (509 -> 420 MB on
    # the opus-mt-shaped benchmark) and the step time is unchanged within noise (51 vs 52 ms).
    opts.enable_cpu_mem_arena = False
    opts.log_severity_level = 3
    available = ort.get_available_providers()
    chosen = [p for p in (providers or ["CPUExecutionProvider"]) if p in available]
    if not chosen:
        raise EngineError(f"none of the execution providers {list(providers or [])} is available (have {available})")
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=chosen)
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf/... types
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise EngineError(f"{path}: cannot load the ONNX graph ({first}); re-create it with `{hint}`") from None


@dataclass
class DecoderState:
    """KV caches for the rows (sentence-major: sentence × beam) currently decoded.

    ``self_kv`` has one row per beam and grows by one position per step. ``cross_kv`` (encoder
    keys/values, computed once by the first step) and ``encoder_mask`` have one row per
    *sentence*: the exported graph shares them across a sentence's beams, so moving beams
    never touches them and they are only subset when sentences leave.
    """

    self_kv: list[np.ndarray]
    cross_kv: list[np.ndarray]
    encoder_mask: np.ndarray

    @property
    def rows(self) -> int:
        return int(self.self_kv[0].shape[0])

    @property
    def sentences(self) -> int:
        return int(self.encoder_mask.shape[0])

    def take(self, rows: np.ndarray, sentences: np.ndarray | None = None) -> "DecoderState":
        """Keep/reorder beam rows; ``sentences`` (when some left) subsets the per-sentence caches."""
        self_kv = [t[rows] for t in self.self_kv]
        if sentences is None:
            return DecoderState(self_kv, self.cross_kv, self.encoder_mask)
        return DecoderState(self_kv, [t[sentences] for t in self.cross_kv], self.encoder_mask[sentences])


class MarianSessions:
    """The encoder and decoder graphs of one exported model directory."""

    def __init__(self, model_dir: Path, settings: dict[str, Any], *, threads: int,
                 providers: Sequence[str] | None, hint: str, renormalize: bool = False) -> None:
        self.renormalize = bool(renormalize)
        self.encoder = make_session(model_dir / "encoder.onnx", threads, providers, hint)
        self.decoder = make_session(model_dir / "decoder.onnx", threads, providers, hint)
        names = {i.name for i in self.decoder.get_inputs()}
        needed = {"input_ids", "encoder_attention_mask", "use_cache_branch", "apply_bias", "logit_bias", "renormalize", "topk"}
        if not needed <= names:
            raise EngineError(f"{model_dir / 'decoder.onnx'}: not a decoder exported by this version; re-create it with `{hint}`")
        self.layers = int(settings["decoder_layers"])
        self.heads = int(settings["decoder_attention_heads"])
        self.head_dim = int(settings["head_dim"])
        self.d_model = int(settings["d_model"])
        self._self_names = [(f"past_key_values.{i}.decoder.key", f"past_key_values.{i}.decoder.value") for i in range(self.layers)]
        self._cross_names = [(f"past_key_values.{i}.encoder.key", f"past_key_values.{i}.encoder.value") for i in range(self.layers)]
        self._outputs = ["topk_scores", "topk_ids"]
        for i in range(self.layers):
            self._outputs += [f"present.{i}.decoder.key", f"present.{i}.decoder.value"]
        self._first_outputs = list(self._outputs)
        for i in range(self.layers):
            self._first_outputs += [f"present.{i}.encoder.key", f"present.{i}.encoder.value"]
        self._renormalize = np.array([bool(renormalize)])
        self._true = np.array([True])
        self._false = np.array([False])
        self._no_bias = np.zeros((1, 1), dtype=np.float32)  # unread by the graph's plain path

    def encode(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.encoder.run(["last_hidden_state"], {"input_ids": input_ids, "attention_mask": mask})[0]

    def first_step(self, hidden: np.ndarray, mask: np.ndarray, start_id: int, bias: np.ndarray | None, k: int) -> tuple[np.ndarray, np.ndarray, DecoderState]:
        """Run the decoder start token for each sentence; returns top-k and the caches."""
        rows = hidden.shape[0]
        empty = np.zeros((rows, self.heads, 0, self.head_dim), dtype=np.float32)
        feed: dict[str, Any] = {
            "input_ids": np.full((rows, 1), start_id, dtype=np.int64),
            "encoder_attention_mask": mask,
            "encoder_hidden_states": hidden,
            "use_cache_branch": self._false,
            "apply_bias": self._false if bias is None else self._true,
            "logit_bias": self._no_bias if bias is None else bias,
            "renormalize": self._renormalize,
            "topk": np.array([k], dtype=np.int64),
        }
        for names in self._self_names + self._cross_names:
            for n in names:
                feed[n] = empty
        out = self.decoder.run(self._first_outputs, feed)
        n = 2 * self.layers
        return out[0], out[1], DecoderState(out[2 : 2 + n], out[2 + n :], mask)

    def step(self, tokens: np.ndarray, state: DecoderState, bias: np.ndarray | None, k: int) -> tuple[np.ndarray, np.ndarray, DecoderState]:
        """One decoding step for every row of ``state``; the self cache grows by one."""
        rows = state.rows
        feed: dict[str, Any] = {
            "input_ids": tokens.reshape(rows, 1),
            "encoder_attention_mask": state.encoder_mask,
            "encoder_hidden_states": np.zeros((rows, 0, self.d_model), dtype=np.float32),
            "use_cache_branch": self._true,
            "apply_bias": self._false if bias is None else self._true,
            "logit_bias": self._no_bias if bias is None else bias,
            "renormalize": self._renormalize,
            "topk": np.array([k], dtype=np.int64),
        }
        for i, (kn, vn) in enumerate(self._self_names):
            feed[kn] = state.self_kv[2 * i]
            feed[vn] = state.self_kv[2 * i + 1]
        for i, (kn, vn) in enumerate(self._cross_names):
            feed[kn] = state.cross_kv[2 * i]
            feed[vn] = state.cross_kv[2 * i + 1]
        out = self.decoder.run(self._outputs, feed)
        return out[0], out[1], DecoderState(out[2:], state.cross_kv, state.encoder_mask)
