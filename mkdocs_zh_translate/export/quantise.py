"""Quantise: the weight formats ``--quantize`` offers besides float32 (int8 for the CPU,
float16 for GPUs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import ExportError

#: What ``--quantize`` accepts: int8 (CPU default), none (float32), fp16 (GPU; float16 weights).
QUANTIZATIONS = ("int8", "none", "fp16")


def quantize_int8(src: Path, dst: Path) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # Every MatMul sits in the main graph (the only If nodes are the top-k head's), so the
    # quantiser needs no EnableSubgraph. Per-channel scales: same speed, load time and RSS as
    # per-tensor on the opus-mt-shaped benchmark (13.9 vs 13.7 sent/s at beam 4, batch 16), and
    # closer to fp32: 179/220 identical beam-4 translations of the test model against 171/220.
    # Weights in 7 bits (reduce_range): an export is made once and run on whatever CPU the
    # user has, and on x86 CPUs without VNNI (AVX2 only: AMD EPYC before Zen 4, older Intel)
    # ONNX Runtime multiplies uint8 activations by int8 weights with an instruction that adds
    # pairs into a saturating int16, so full-range weights overflow it. Measured on an AMD
    # EPYC (AVX2, no VNNI), the test model, beam 4, against fp32: 71/220 identical
    # translations with 8-bit weights, 168/220 with 7-bit; same speed (the same kernels).
    # ONNX shape inference does not know the com.microsoft attention nodes, so the tensors
    # after them have no inferred type: they are all float32 here.
    # A graph saved with its weights beside it (``save.save_graph``: too large for one protobuf)
    # is quantised the same way, its output too.
    large = (src.parent / (src.name + ".data")).is_file()
    quantize_dynamic(src, dst, weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
                     use_external_data_format=large, extra_options={"DefaultTensorType": TensorProto.FLOAT})


def to_fp16(model: Any, name: str) -> Any:
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
