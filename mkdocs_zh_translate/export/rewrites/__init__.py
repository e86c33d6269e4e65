"""Graph rewrites: reshape optimum's ONNX graphs into the ones the engine runs, one module each.

* ``cross_cache``: the encoder also computes every decoder layer's cross-attention keys/values,
  so the decoder is optimum's *decoder-with-past* alone (one plain graph, fed an empty
  self-attention cache on the first step) instead of the merged decoder whose If node holds two
  copies of every layer: ONNX Runtime optimises and pre-packs each copy, which made the merged
  decoder's session take ~0.5 s to create against ~0.2 s, and held the pre-packed weights twice;
* ``self_attention``: each self-attention block is one ONNX Runtime ``GroupQueryAttention`` node
  that appends the step's keys/values to the engine's cache buffer in place;
* ``cross_attention``: each cross-attention block one ``MultiHeadAttention`` node over the
  encoder's keys/values, held once per sentence;
* ``logits_bias``: the final logits bias as a 1-D tensor, which ONNX Runtime fuses into the MatMul;
* ``topk_head``: log-softmax, the logits processors' bias and top-k run inside the decoder, so
  only ``[rows, k]`` scores leave ONNX Runtime each step. Moving that work out of numpy made beam
  search about 3x faster (see BENCHMARKS.md).
* ``shortlist_head`` (on the offline-optimised graph): the projection and the top-k head behind
  an If, so an opt-in vocabulary shortlist projects onto its rows only (the engine's
  ``shortlist`` setting); switched off, the same nodes as before run.

``graph`` holds what they share (pattern checks, pruning and topological sorting).
"""

from __future__ import annotations

from .cross_attention import fuse_cross_attention
from .cross_cache import add_cross_cache_to_encoder
from .logits_bias import flatten_logits_bias
from .self_attention import self_attention_in_place
from .shortlist_head import add_shortlist_head
from .topk_head import add_topk_head

__all__ = [
    "add_cross_cache_to_encoder",
    "add_shortlist_head",
    "add_topk_head",
    "flatten_logits_bias",
    "fuse_cross_attention",
    "self_attention_in_place",
]
