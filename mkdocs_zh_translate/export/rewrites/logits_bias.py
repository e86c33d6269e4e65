"""Rewrite: ``final_logits_bias`` as a 1-D initializer (one fused MatMul instead of MatMul + Add)."""

from __future__ import annotations

from typing import Any


def flatten_logits_bias(decoder: Any) -> bool:
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
