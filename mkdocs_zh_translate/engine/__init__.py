"""Our ONNX Runtime MarianMT engine: tokenizer, sessions, batched beam search, translator.

Run-time imports are onnxruntime, numpy and sentencepiece only; nothing here knows about
Markdown or MkDocs.
"""

from __future__ import annotations

from .errors import EngineError
from .translator import OnnxTranslator

__all__ = ["EngineError", "OnnxTranslator"]
