"""The exported model directory's contract, shared by the exporter and the engine.

Both sides must agree on the format number and file names; keeping them in this import-free
module lets ``export`` (torch side) and ``engine`` (onnxruntime side) use them without either
importing the other, and lets ``demo`` check a cached model's format without loading ONNX
Runtime.
"""

from __future__ import annotations

#: Bump when the directory layout or graph contract changes; the engine refuses other formats.
FORMAT_VERSION = 9

ENCODER_FILE = "encoder.onnx"
DECODER_FILE = "decoder.onnx"
GENERATION_FILE = "generation.json"
MANIFEST_FILE = "manifest.json"
EXPORT_HINT = "mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR"
