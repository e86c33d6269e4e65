"""Model export: the only package that imports torch, transformers, optimum and onnx (the
``export`` extra). ``onnx`` turns a Hugging Face MarianMT model into the engine's directory;
those libraries load inside its functions, so importing this package stays cheap.
"""

from __future__ import annotations

from .convert import ExportError, export_model

__all__ = ["ExportError", "export_model"]
