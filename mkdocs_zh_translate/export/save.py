"""Save: the graphs as ONNX Runtime loads them fastest (pre-optimised, weights in external
data files that it memory-maps, the tied embedding stored once) and the manifest that hashes
every file of the export."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..model_format import DECODER_FILE, ENCODER_FILE, FORMAT_VERSION, GENERATION_FILE, MANIFEST_FILE
from ..model_integrity import sha256_file
from ..owned import atomic_write
from .errors import ExportError

#: Above this many bytes of weights a step's graph is saved with its weights beside it: one
#: protobuf cannot exceed 2 GiB, and NLLB-200-distilled-600M's float32 decoder (its 256k-row
#: embedding, the output projection's copy of it and 12 layers) holds about 2.9 GB.
LARGE_GRAPH_BYTES = 1_500_000_000


def weight_bytes(model: Any) -> int:
    """The bytes of a loaded graph's initializers (what decides how it can be saved)."""
    return sum(len(t.raw_data) for t in model.graph.initializer)


def too_large(model: Any) -> bool:
    """Whether a loaded graph's weights must be saved beside it (see ``LARGE_GRAPH_BYTES``)."""
    return weight_bytes(model) > LARGE_GRAPH_BYTES


def save_graph(model: Any, dst: Path) -> bool:
    """Save an intermediate graph of the export, its weights in ``<name>.data`` when they are
    too large for one protobuf (small graphs stay one file, as before); returns whether they were."""
    import onnx

    large = too_large(model)
    if large:
        onnx.save_model(model, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=dst.name + ".data", size_threshold=1024)
    else:
        onnx.save(model, dst)
    return large


def optimize_offline(src: Path, dst: Path) -> Path:
    """Save ONNX Runtime's own optimisation of ``src`` (fusions up to the *extended* level).

    Every session creation otherwise repeats these graph passes: loading the pre-optimised
    graphs took the opus-mt-shaped int8 decoder's session from ~0.20 s to ~0.11 s and the
    encoder's from ~0.09 s to ~0.04 s here. Extended is the highest level ONNX Runtime calls
    portable (the *all* level adds layouts for this machine's CPU); the engine still asks for
    *all* at load time, so those are applied on the machine that runs the model.
    """
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    opts.optimized_model_filepath = str(dst)
    opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", dst.name + ".data")
    opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    opts.log_severity_level = 3
    try:
        ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ORT's own exception types; one line for the user
        reason = f"{src.name}: ONNX Runtime cannot optimise the exported graph: {exc}".splitlines()[0]
        raise ExportError(reason) from None
    return dst


def save_pair_external(encoder_src: Path, decoder_src: Path, final: Path, vocab: int) -> list[dict[str, Any]]:
    """Save both graphs with their weights in ``<graph>.onnx.data``, the embedding stored once.

    ONNX Runtime memory-maps external initializers instead of parsing them out of the protobuf
    and copying them into its own tensors, so a weight is held once (as file-backed pages)
    rather than once per copy while loading: on the opus-mt-shaped int8 model the decoder
    session drops from ~170 MB to ~85 MB of RSS and loads faster.

    Marian ties the encoder's and decoder's token embeddings; the graphs (and the int8
    quantiser) still carry a copy each. When the two are identical the decoder's is renamed to
    the encoder's and pointed at the encoder's data file, and the returned list (written to
    ``generation.json``) tells the engine where it is, so it can map it once and hand the same
    memory to both sessions: random-token decoding otherwise faults both 33 MB copies in
    (file read-ahead makes that nearly the whole matrix) for ~30 MB of extra RSS.
    """
    import onnx
    from onnx import numpy_helper
    from onnx.external_data_helper import ExternalDataInfo

    encoder = onnx.load(encoder_src)
    decoder = onnx.load(decoder_src)
    enc_name = _embedding_name(encoder, vocab)
    dec_name = _embedding_name(decoder, vocab)
    shared: list[dict[str, Any]] = []
    enc_tensor = next((t for t in encoder.graph.initializer if t.name == enc_name), None)
    dec_tensor = next((t for t in decoder.graph.initializer if t.name == dec_name), None)
    same = (enc_tensor is not None and dec_tensor is not None
            and _same_dequantisation(encoder, enc_name, decoder, dec_name)
            and enc_tensor.data_type == dec_tensor.data_type
            and numpy_helper.to_array(enc_tensor).tobytes() == numpy_helper.to_array(dec_tensor).tobytes())
    _save_one_external(encoder, final / ENCODER_FILE)
    del encoder
    if same and enc_tensor is not None and dec_tensor is not None and enc_name and dec_name:
        saved = onnx.load(final / ENCODER_FILE, load_external_data=False)
        placed = next(t for t in saved.graph.initializer if t.name == enc_name)
        info = ExternalDataInfo(placed)
        if info.offset is None or info.length is None:  # _save_one_external always writes both
            raise ExportError(f"{ENCODER_FILE}: {enc_name} was saved without an offset and length")
        _rename_input(decoder, dec_name, enc_name)
        dec_tensor.name = enc_name
        dec_tensor.ClearField("raw_data")
        dec_tensor.data_location = onnx.TensorProto.EXTERNAL
        del dec_tensor.external_data[:]
        for key, value in (("location", info.location), ("offset", str(info.offset)), ("length", str(info.length))):
            entry = dec_tensor.external_data.add()
            entry.key, entry.value = key, value
        shared.append({
            "name": enc_name,
            "file": info.location,
            "offset": int(info.offset),
            "length": int(info.length),
            "dtype": onnx.helper.tensor_dtype_to_np_dtype(placed.data_type).name,
            "shape": [int(d) for d in placed.dims],
        })
    _save_one_external(decoder, final / DECODER_FILE)
    return shared


def external_entries(path: Path, names: dict[str, str]) -> dict[str, dict[str, Any]] | None:
    """Where each named initializer of the saved graph ``path`` lies in its data file (by
    role, in ``shared_initializers``' form), so the engine can map it without onnx; None when
    one is stored inside the graph instead (too small for external data)."""
    import onnx
    from onnx.external_data_helper import ExternalDataInfo

    saved = onnx.load(path, load_external_data=False)
    tensors = {t.name: t for t in saved.graph.initializer}
    out: dict[str, dict[str, Any]] = {}
    for role, name in names.items():
        tensor = tensors.get(name)
        if tensor is None or tensor.data_location != onnx.TensorProto.EXTERNAL:
            return None
        info = ExternalDataInfo(tensor)
        if info.offset is None or info.length is None:
            return None
        out[role] = {"name": name, "file": info.location, "offset": int(info.offset), "length": int(info.length),
                     "dtype": onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type).name,
                     "shape": [int(d) for d in tensor.dims]}
    return out


def _embedding_name(model: Any, vocab: int) -> str | None:
    """The initializer the token-embedding Gather reads (``[vocab, d_model]``), if any."""
    inits = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Gather" and node.input[0] in inits:
            dims = list(inits[node.input[0]].dims)
            if len(dims) == 2 and dims[0] == vocab:
                return str(node.input[0])
    return None


def _same_dequantisation(encoder: Any, enc_name: str | None, decoder: Any, dec_name: str | None) -> bool:
    """Both embeddings are read the same way: unquantised, or with equal int8 scale/zero point."""
    from onnx import TensorProto, numpy_helper

    def params(model: Any, name: str | None) -> list[bytes] | None:
        inits = {t.name: t for t in model.graph.initializer}
        if name not in inits:
            return None
        if inits[name].data_type in (TensorProto.FLOAT, TensorProto.FLOAT16):
            return []
        gathers = [n for n in model.graph.node if name in n.input]
        if len(gathers) != 1 or gathers[0].op_type != "Gather":
            return None
        users = [n for n in model.graph.node if gathers[0].output[0] in n.input]
        if len(users) != 1 or users[0].op_type != "DequantizeLinear":
            return None
        wanted = users[0].input[1:]
        found = [inits[i] for i in wanted if i in inits]
        if len(found) != len(wanted):
            return None
        return [numpy_helper.to_array(t).tobytes() for t in found]

    mine, theirs = params(encoder, enc_name), params(decoder, dec_name)
    return mine is not None and mine == theirs


def _rename_input(model: Any, old: str, new: str) -> None:
    for node in model.graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new


def _save_one_external(model: Any, dst: Path) -> None:
    import onnx

    data = dst.name + ".data"
    onnx.save_model(model, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=data, size_threshold=1024)
    (dst.parent / data).chmod(0o644)


def _versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("mkdocs-zh-translate", "onnx", "onnxruntime", "optimum", "optimum-onnx", "transformers", "torch"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def _format_of(out: Path) -> int:
    """The format ``generation.json`` says (a framed family's export is newer than MarianMT's)."""
    try:
        value = json.loads((out / GENERATION_FILE).read_text(encoding="utf-8")).get("format")
    except (OSError, ValueError, AttributeError):
        return FORMAT_VERSION
    return value if isinstance(value, int) and not isinstance(value, bool) else FORMAT_VERSION


def write_manifest(out: Path, *, source: str, quantize: str) -> dict[str, Any]:
    """Hash every file so caches keyed on the fingerprint change when any weight changes; the
    manifest's format is the one ``generation.json`` says."""
    files = {
        p.name: {"sha256": sha256_file(p), "size": p.stat().st_size}
        for p in sorted(out.iterdir())
        if p.is_file() and p.name != MANIFEST_FILE
    }
    joined = "\n".join(f"{name} {meta['sha256']}" for name, meta in files.items())
    manifest = {
        "format": _format_of(out),
        "fingerprint": hashlib.sha256(joined.encode()).hexdigest()[:32],
        "source": source,
        "quantize": quantize,
        "files": files,
        "versions": _versions(),
    }
    atomic_write(out / MANIFEST_FILE, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return manifest
