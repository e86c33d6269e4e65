"""ONNX Runtime sessions for the exported encoder and decoder, and the decoder's cache state.

Everything that knows tensor names, shapes and the KV-cache layout lives here, so the beam
search works on plain "rows" and never on graph details.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# ONNX Runtime 1.32 records a telemetry event per process (queued in a local database for
# upload); a translator sold as local-only should not, so it is off unless the user set it.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

import numpy as np
import onnxruntime as ort

from ..model_format import DECODER_FILE, ENCODER_FILE
from .errors import EngineError

#: A cgroup v2 CPU limit ("max 100000" when none): containers and CI runners set one.
CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def default_threads() -> int:
    """The CPUs this process may use, at most 8 (ORT's intra-op pool gains nothing from more here).

    ``os.cpu_count()`` counts the machine's CPUs, not this process's: under ``taskset``, a
    container's CPU limit or a CI runner's, the pool got up to 8 threads for 2 CPUs. On 2 CPUs,
    8 threads took 25-40% more CPU time than 2 for the same 32 sentences (int8 beam 4; 3.8-4.7
    against 3.1-3.3 s), which is wall time wherever the process has its CPUs to itself (on
    this busy shared machine the extra threads got it a larger share of others' time instead).
    So the affinity mask and a cgroup v2 quota bound it too."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        count = os.cpu_count() or 1
    try:
        quota, period = CGROUP_CPU_MAX.read_text(encoding="ascii").split()[:2]
        if quota != "max":
            count = min(count, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, min(count, 8))


def concurrently(*jobs: Callable[[], Any]) -> list[Any]:
    """Run ``jobs[0]`` in this thread and the others in threads; return their results in order.

    Loading is mostly ONNX Runtime session creation (graph optimisation, weight pre-packing),
    which runs in C++ without the GIL: creating the encoder and decoder sessions side by side,
    while this thread reads the tokenizer, brings the int8 opus-mt-shaped model's load from the
    sum of the three to about the decoder session's alone on two cores. The first failing job
    (in ``jobs`` order) has its exception re-raised, so messages name the same file a
    sequential load would have.
    """
    results: list[Any] = [None] * len(jobs)
    failed: list[BaseException | None] = [None] * len(jobs)

    def work(index: int) -> None:
        try:
            results[index] = jobs[index]()
        except BaseException as exc:  # re-raised in the caller's thread below
            failed[index] = exc

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(1, len(jobs))]
    for thread in threads:
        thread.start()
    work(0)
    for thread in threads:
        thread.join()
    for exc in failed:
        if exc is not None:
            raise exc
    return results


# Short names a user may write (plugin option, --providers) for ONNX Runtime's provider names.
PROVIDER_ALIASES = {
    "cpu": "CPUExecutionProvider",
    "cuda": "CUDAExecutionProvider",
    "tensorrt": "TensorrtExecutionProvider",
    "rocm": "ROCMExecutionProvider",
}


def resolve_providers(requested: Sequence[str] | None) -> list[str]:
    """ONNX Runtime provider names for ``requested`` (default: the CPU), in order of preference.

    A requested provider this onnxruntime build lacks is an error, never a silent fall back to
    the CPU: asking for CUDA and getting hours of CPU time must not look like success."""
    names = [PROVIDER_ALIASES.get(p.strip().lower(), p.strip()) for p in (requested or ["cpu"]) if p.strip()]
    available = ort.get_available_providers()
    missing = [p for p in names if p not in available]
    if missing:
        hint = (
            " (install onnxruntime-gpu, CUDA and cuDNN instead of onnxruntime)"
            if "CUDAExecutionProvider" in missing
            else ""
        )
        raise EngineError(
            f"execution provider {', '.join(missing)} is not available in this onnxruntime{hint}; "
            f"available: {', '.join(available)}"
        )
    return names or ["CPUExecutionProvider"]


def make_session(
    path: Path,
    threads: int,
    providers: Sequence[str] | None,
    hint: str,
    initializers: Sequence[tuple[str, ort.OrtValue]] = (),
    profile: str | None = None,
) -> ort.InferenceSession:
    """One session with the engine's options; ``initializers`` replace the graph's own tensors."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # No spin-waiting between ops: on a machine shared with other work (a docs build, CI) spinning
    # threads fight the busy ones for cores; measured 137 -> 106 ms per beam step here.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # The arena keeps the decoder's per-step buffers (two [rows, vocab] float tensors, 16.6 MB
    # each at 64 rows) instead of returning them to malloc and faulting them in again each
    # step: the int8 beam-4 batch-16 workload took 1-8% less CPU in each of 12 interleaved
    # rounds. It was off while every beam reorder allocated a fresh KV cache (the arena then
    # held ~90 MB more); with the cache patched in place (DecoderState.take) the workload's
    # peak RSS is 341-345 MB on against 334-344 MB off, and the translate CLI's on 64 lines
    # 374-376 MB on against 352-386 MB off.
    opts.enable_cpu_mem_arena = True
    opts.log_severity_level = 3
    for name, value in initializers:
        opts.add_initializer(name, value)
    if profile:
        opts.enable_profiling = True
        opts.profile_file_prefix = profile
    chosen = resolve_providers(providers)
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=chosen)
    except Exception as exc:  # ORT raises its own Fail/InvalidProtobuf/... types
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise EngineError(f"{path}: cannot load the ONNX graph ({first}); re-create it with `{hint}`") from None


def map_initializer(model_dir: Path, entry: dict[str, Any], hint: str) -> np.ndarray:
    """A weight the export located in a data file (``shared_initializers``' form), memory-mapped
    read-only and lazily, like ONNX Runtime's own: only the rows read become resident."""
    path = model_dir / str(entry["file"])
    try:
        return np.memmap(path, dtype=np.dtype(str(entry["dtype"])), mode="r", offset=int(entry["offset"]),
                         shape=tuple(int(d) for d in entry["shape"]))
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise EngineError(f"{path}: cannot map the weight {entry.get('name')!r} ({exc}); "
                          f"re-create the model with `{hint}`") from None


def shared_initializers(model_dir: Path, entries: Sequence[dict[str, Any]],
                        hint: str) -> list[tuple[str, ort.OrtValue]]:
    """Weights both graphs use (the tied token embedding), mapped once for both sessions.

    Each session would otherwise map its own view of the file, and RSS counts the pages once
    per mapping.
    """
    return [(str(entry["name"]), ort.OrtValue.ortvalue_from_numpy(map_initializer(model_dir, entry, hint)))
            for entry in entries]


#: The decoder inputs of an export with a vocabulary shortlist (``rewrites.shortlist_head``),
#: by the role of the projection weight each is gathered from (``scale``/``zero_point``: int8).
SHORTLIST_FEEDS = {"weight": "shortlist_weight", "bias": "shortlist_bias", "scale": "shortlist_scale",
                   "zero_point": "shortlist_zero_point"}


#: numpy types of the ONNX tensor types the shortlist inputs have.
ORT_TYPES: dict[str, Any] = {"tensor(bool)": np.bool_, "tensor(int64)": np.int64, "tensor(int8)": np.int8,
                             "tensor(uint8)": np.uint8, "tensor(float)": np.float32}


@dataclass
class Shortlist:
    """One batch's shortlist: its vocabulary ids (sorted) and the projection's columns for
    them, gathered once per batch and fed to every step of it."""

    ids: np.ndarray
    feeds: dict[str, np.ndarray]


#: Self-attention cache capacity grows in steps of this many positions: each growth copies
#: the cache once (what every step's Concat used to do).
CACHE_GROWTH = 8
HIDDEN_OUTPUT = "last_hidden_state"
"""The encoder output holding its states (``[batch, source, d_model]``), when the export has it."""


@dataclass
class DecoderState:
    """KV caches for the rows (sentence-major: sentence × beam) currently decoded.

    ``self_kv`` holds one preallocated buffer per layer and key/value, ``[rows, heads,
    capacity, head_dim]``, of which the first ``length`` positions are filled: each step's
    attention node writes its new position in place (the buffer is bound as both its past
    input and its present output), so no step copies the cache. ``cross_kv`` (encoder
    keys/values, computed by the encoder) and ``encoder_mask`` have one row per *sentence*:
    the exported graph shares them across a sentence's beams, so moving beams never touches
    them and they are only subset when sentences leave.
    """

    self_kv: list[np.ndarray]
    cross_kv: list[np.ndarray]
    encoder_mask: np.ndarray
    length: int = 0
    shortlist: Shortlist | None = None  # the batch's vocabulary shortlist (None: every id)

    @property
    def rows(self) -> int:
        return int(self.self_kv[0].shape[0])

    @property
    def sentences(self) -> int:
        return int(self.encoder_mask.shape[0])

    @property
    def capacity(self) -> int:
        return int(self.self_kv[0].shape[2])

    def reserve(self) -> None:
        """Make room for one more position: full buffers are replaced by ones ``CACHE_GROWTH``
        positions longer (zero-filled; positions past ``length`` are never read)."""
        if self.length < self.capacity:
            return
        for i, tensor in enumerate(self.self_kv):
            rows, heads, cap, dim = tensor.shape
            grown = np.zeros((rows, heads, cap + CACHE_GROWTH, dim), dtype=tensor.dtype)
            grown[:, :, :cap] = tensor
            self.self_kv[i] = grown
            del tensor

    def take(self, rows: np.ndarray, sentences: np.ndarray | None = None) -> None:
        """Keep/reorder beam rows in place; ``sentences`` (when some left) subsets the per-sentence caches.

        In place and one tensor at a time, so each old cache tensor is freed as soon as its
        gathered copy exists: the transient is one layer's tensor instead of a second full
        cache. The caller must hold no other reference to the old tensors.

        A beam-search step mostly keeps each beam in its row (about a quarter of the rows
        move in the opus-mt-shaped benchmark), so when the row count is unchanged and at most
        half the rows move, only those are copied, into the same buffers: that costs two
        copies of the moved rows instead of one copy of them all plus fresh buffers, and cut
        the gathers' CPU time from 0.22 to 0.08 s of the int8 beam-4 batch-16 workload.
        """
        if sentences is None and rows.size == self.rows:
            moved = np.flatnonzero(rows != np.arange(rows.size))
            if 2 * moved.size <= rows.size:
                source = rows[moved]
                for tensor in self.self_kv:
                    tensor[moved] = tensor[source]  # the right side is a copy: overlaps are safe
                return
        for i, tensor in enumerate(self.self_kv):
            self.self_kv[i] = tensor[rows]
            del tensor
        if sentences is not None:
            for i, tensor in enumerate(self.cross_kv):
                self.cross_kv[i] = tensor[sentences]
                del tensor
            self.encoder_mask = self.encoder_mask[sentences]


class MarianSessions:
    """The encoder and decoder graphs of one exported model directory.

    The encoder returns the cross-attention keys/values of every decoder layer (see
    ``export.rewrites.cross_cache``), so ``encode`` yields a ready ``DecoderState`` with
    an empty self-attention cache and every decoding step, the first included, is one ``step``.
    """

    def __init__(self, model_dir: Path, settings: dict[str, Any], *, threads: int,
                 providers: Sequence[str] | None, hint: str, renormalize: bool = False) -> None:
        self.renormalize = bool(renormalize)
        # Kept alive here: the sessions read these arrays' memory for as long as they live.
        self._shared = shared_initializers(model_dir, settings.get("shared_initializers") or [], hint)
        self.encoder, self.decoder = concurrently(
            lambda: make_session(model_dir / ENCODER_FILE, threads, providers, hint, self._shared),
            lambda: make_session(model_dir / DECODER_FILE, threads, providers, hint, self._shared))
        self.layers = int(settings["decoder_layers"])
        self.heads = int(settings["decoder_attention_heads"])
        self.head_dim = int(settings["head_dim"])
        names = {i.name for i in self.decoder.get_inputs()}
        needed = {"input_ids", "encoder_attention_mask", "apply_bias", "logit_bias", "renormalize", "topk",
                  "past_length", "seqlens_k", "total_sequence_length"}
        self._cross_outputs = [f"cross.{i}.{kind}" for i in range(self.layers) for kind in ("key", "value")]
        encoder_outputs = {o.name for o in self.encoder.get_outputs()}
        # Exports since the alignment pass reads them also output the encoder states.
        self.has_hidden = HIDDEN_OUTPUT in encoder_outputs
        if not needed <= names or "use_cache_branch" in names or \
                encoder_outputs - {HIDDEN_OUTPUT} != set(self._cross_outputs):
            raise EngineError(f"{model_dir}: not a model exported by this version; re-create it with `{hint}`")
        # (past input, present output) of each self-attention buffer, in ``self_kv`` order.
        self._self_names = [
            (f"past_key_values.{i}.decoder.{kind}", f"present.{i}.decoder.{kind}")
            for i in range(self.layers) for kind in ("key", "value")
        ]
        self._cross_names = [
            (f"past_key_values.{i}.encoder.key", f"past_key_values.{i}.encoder.value") for i in range(self.layers)
        ]
        # The projection's weights, mapped for the shortlist (exports since it, fp32 and int8).
        entries = settings.get("shortlist") or {}
        self._projection = ({role: map_initializer(model_dir, entry, hint) for role, entry in entries.items()}
                            if entries and "use_shortlist" in names else {})
        # Fed while no shortlist is on: the branch that would read them does not run.
        self._no_shortlist = {i.name: np.zeros([1] * len(i.shape), dtype=ORT_TYPES.get(i.type, np.float32))
                              for i in self.decoder.get_inputs()
                              if i.name == "use_shortlist" or i.name.startswith("shortlist_")}
        self._renormalize = np.array([bool(renormalize)])
        self._true = np.array([True])
        self._false = np.array([False])
        self._no_bias = np.zeros((1, 1), dtype=np.float32)  # unread by the graph's plain path

    @property
    def supports_shortlist(self) -> bool:
        """Whether the export can project onto a shortlist (older and fp16 exports cannot)."""
        return bool(self._projection)

    def _gather(self, ids: np.ndarray) -> dict[str, np.ndarray]:
        """The projection's columns for ``ids``, contiguous, by decoder input name."""
        out = {}
        for role, array in self._projection.items():
            taken = array[:, ids] if role == "weight" else array[ids]
            out[SHORTLIST_FEEDS[role]] = np.ascontiguousarray(taken)
        return out

    def shortlist(self, ids: np.ndarray) -> Shortlist:
        """The batch shortlist of the sorted vocabulary ``ids`` (gathered here, once)."""
        if not self._projection:
            raise EngineError("this model export cannot take a vocabulary shortlist")
        ids = np.ascontiguousarray(ids, dtype=np.int64)
        return Shortlist(ids, {"use_shortlist": np.array([True]), "shortlist_ids": ids, **self._gather(ids)})

    def encode(self, input_ids: np.ndarray, mask: np.ndarray, hidden: list[np.ndarray] | None = None,
               positions: int = CACHE_GROWTH, shortlist: Shortlist | None = None) -> DecoderState:
        """Run the encoder; the state has one row per sentence and nothing decoded yet.

        ``hidden`` (an export with :attr:`has_hidden` only): gets the encoder states
        ``[batch, source, d_model]`` appended, which the alignment pass reads instead of
        running the encoder again. ``positions``: the self-attention caches' first capacity
        (rounded up to :data:`CACHE_GROWTH`): the translator passes the source width (at most
        the length limit), about what a translation needs, so most batches never grow them
        (each growth copies every cache: 0.28 of 9.7 s in a profile of the 64-line CLI
        workload), and memory stays in proportion to the batch's padded tokens."""
        names = self._cross_outputs + ([HIDDEN_OUTPUT] if hidden is not None else [])
        cross = self.encoder.run(names, {"input_ids": input_ids, "attention_mask": mask})
        if hidden is not None:
            hidden.append(np.asarray(cross.pop(), dtype=np.float32))
        capacity = -(-max(1, positions) // CACHE_GROWTH) * CACHE_GROWTH
        shape = (input_ids.shape[0], self.heads, capacity, self.head_dim)
        return DecoderState([np.zeros(shape, dtype=np.float32) for _ in range(2 * self.layers)], cross, mask,
                            shortlist=shortlist)

    def step(
        self, tokens: np.ndarray, state: DecoderState, bias: np.ndarray | None, k: int
    ) -> tuple[np.ndarray, np.ndarray, DecoderState]:
        """One decoding step for every row of ``state``; the self cache grows by one, in place.

        Every tensor is bound as an ``OrtValue`` over the numpy array's own memory (no copy),
        and each self-attention buffer is bound as both the layer's past input and its present
        output: the graph's attention node writes the new position into it. The returned
        state is ``state`` itself, one position longer.

        With ``state.shortlist`` the graph projects onto its ids only: ``bias`` (over the whole
        vocabulary, as the search builds it) is cut to those columns, and the returned ids are
        vocabulary ids (the graph maps them back). ``k`` must not exceed the shortlist's size
        (the translator caps ``max_topk`` at its smallest).
        """
        state.reserve()
        rows = state.rows
        binding = self.decoder.io_binding()
        if state.shortlist is not None and bias is not None:
            bias = bias[:, state.shortlist.ids]
        feed: dict[str, np.ndarray] = {
            "input_ids": np.ascontiguousarray(tokens.reshape(rows, 1), dtype=np.int64),
            "encoder_attention_mask": state.encoder_mask,
            "apply_bias": self._false if bias is None else self._true,
            "logit_bias": self._no_bias if bias is None else np.ascontiguousarray(bias, dtype=np.float32),
            "renormalize": self._renormalize,
            "topk": np.array([k], dtype=np.int64),
            "past_length": np.array(state.length, dtype=np.int64),
            "seqlens_k": np.full(rows, state.length, dtype=np.int32),
            "total_sequence_length": np.array([state.length + 1], dtype=np.int32),
            **(self._no_shortlist if state.shortlist is None else state.shortlist.feeds),
        }
        for i, (kn, vn) in enumerate(self._cross_names):
            feed[kn] = state.cross_kv[2 * i]
            feed[vn] = state.cross_kv[2 * i + 1]
        for name, array in feed.items():
            binding.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy(array))
        binding.bind_output("topk_scores")  # bound first: get_outputs() keeps the binding order
        binding.bind_output("topk_ids")
        for (past, present), buffer in zip(self._self_names, state.self_kv):
            value = ort.OrtValue.ortvalue_from_numpy(buffer)
            binding.bind_ortvalue_input(past, value)
            binding.bind_ortvalue_output(present, value)
        self.decoder.run_with_iobinding(binding)
        scores, ids = (value.numpy() for value in binding.get_outputs()[:2])
        state.length += 1
        return scores, ids, state
