"""The exported model directory's contract, shared by the exporter and the engine.

Both sides must agree on the format number and file names; keeping them in this import-free
module lets ``export`` (torch side) and ``engine`` (onnxruntime side) use them without either
importing the other, and lets ``demo`` check a cached model's format without loading ONNX
Runtime.
"""

from __future__ import annotations

#: Bump when the directory layout or graph contract changes; the engine refuses other formats.
FORMAT_VERSION = 9
#: Format 9 plus ``generation.json`` keys an engine that knows only format 9 would ignore and
#: then translate wrongly with (a forced first target token and ids framing the source: M2M100,
#: NLLB-200). Such an export says 10, so an older engine refuses it as "exported by another
#: version" instead; MarianMT exports stay 9 and load in every version.
FRAMED_FORMAT_VERSION = 10
#: Every format this engine reads.
FORMAT_VERSIONS = (FORMAT_VERSION, FRAMED_FORMAT_VERSION)

ENCODER_FILE = "encoder.onnx"
DECODER_FILE = "decoder.onnx"
# The graphs' weights: ``export`` saves each graph's tensors to ``<graph>.data`` and ONNX Runtime
# opens that file too, so the engine requires the manifest to list it.
ENCODER_DATA_FILE = ENCODER_FILE + ".data"
DECODER_DATA_FILE = DECODER_FILE + ".data"
GENERATION_FILE = "generation.json"
# Optional: a teacher-forced pass returning cross-attention (heads averaged, per layer), which
# the ``project`` markup strategy aligns with. An export without it still translates.
ALIGNER_FILE = "aligner.onnx"
MANIFEST_FILE = "manifest.json"
EXPORT_HINT = "mkdocs-zh-translate export Helsinki-NLP/opus-mt-en-zh --out DIR"


def recreate_hint(model_dir: object) -> str:
    """The fix that ends every message about a broken model directory."""
    return f"re-create {model_dir} with `{EXPORT_HINT.replace('DIR', str(model_dir))}`"
# Written by ``tune`` into a model directory it made (listed in the manifest, so verified): what
# the model was tuned on, from which base, with which settings and scores, and the fingerprints
# of the models it succeeds, whose cached translations a build keeps serving.
TUNE_FILE = "tune.json"
# Optional: a small sample of the model's own domain (``english<TAB>reference`` lines) that
# ``tune``'s forgetting guard scores a tuned model on when no other general set is given.
GENERAL_FILE = "general.tsv"

# Decoder-only models (the ``genai`` backend, ONNX Runtime GenAI): the model builder's files,
# beside our generation.json (``"kind": "decoder-only"``: the prompt, stop ids) and manifest.
GENAI_CONFIG_FILE = "genai_config.json"
GENAI_MODEL_FILE = "model.onnx"
GENAI_TOKENIZER_FILE = "tokenizer.json"
DECODER_ONLY = "decoder-only"
GENAI_EXPORT_HINT = "mkdocs-zh-translate export Qwen/Qwen3-0.6B --out DIR"
