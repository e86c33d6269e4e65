"""Model export: the only package that imports torch, transformers, optimum and onnx (the
``export`` extra). ``convert.export_model`` turns a Hugging Face MarianMT model into the
engine's directory in steps (``source`` → ``rewrites`` → ``quantise`` → ``save``); those
libraries load inside their functions, so importing this package stays cheap.
"""

from __future__ import annotations

from .convert import export_model
from .dispatch import export_any
from .errors import ExportError
from .save import write_manifest
from .settings import tokenizer_settings

__all__ = ["ExportError", "export_any", "export_model", "tokenizer_settings", "write_manifest"]
