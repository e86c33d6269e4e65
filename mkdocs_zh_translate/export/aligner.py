"""``aligner.onnx``, the third graph of an export: a plain torch export (not optimum's), used by
the ``project`` markup strategy."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .quantise import quantize_int8


def export_aligner(src: Path, tmp: Path, dst: Path, quantize: str) -> None:
    """``aligner.onnx``: one teacher-forced pass of the decoder (no cache, no vocabulary
    projection) over the encoder states the search's encoder already computed (its
    ``last_hidden_state`` output), returning each decoder layer's cross-attention averaged over
    its heads, ``[batch, layers, target, source]``: what the ``project`` markup strategy aligns a
    translation with its source by. A plain torch export (eager attention, which exposes the
    weights); int8 exports quantise it too, fp16 ones keep it in fp32 (it runs on the CPU).
    Exports made before it took ``input_ids`` and ran the encoder again (the engine reads both)."""
    import torch
    from transformers import AutoModelForSeq2SeqLM

    model = AutoModelForSeq2SeqLM.from_pretrained(src, attn_implementation="eager").model.eval()

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
        quantize_int8(raw, dst)
    else:
        shutil.copyfile(raw, dst)
