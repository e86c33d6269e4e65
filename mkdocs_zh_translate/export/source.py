"""Load: find the Hugging Face model (a local ``save_pretrained`` directory or a Hub id), read
its config and tokenizer, and run optimum's ONNX exporter on it: the raw graphs the rewrites
start from."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..families import Family, detect_family, supported_tokenizers, supported_types
from .errors import ExportError
from .plan import DOWNLOAD_PATTERNS

_INSTALL_HINT = "install the export extra: pip install 'mkdocs-zh-translate[export]'"


def require_export_deps() -> None:
    """Fail early, with the install command, when the export extra is missing."""
    missing = []
    for module in ("torch", "transformers", "optimum.exporters.onnx", "onnx", "onnxruntime.quantization"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module.split(".")[0])
    if missing:
        raise ExportError(f"exporting needs {', '.join(sorted(set(missing)))}: {_INSTALL_HINT}")


def resolve_source(model: str) -> Path:
    """Return a local directory holding the model, downloading a Hub id if needed.

    Downloading first (instead of letting optimum do it) lets us tell apart "no such model",
    "no network" and "offline mode" and say which one it was.
    """
    local = Path(model).expanduser()
    if local.is_dir():
        if not (local / "config.json").is_file():
            raise ExportError(f"{local}: not a Hugging Face model directory (no config.json)")
        return local
    if model.startswith((".", "/", "~")) or os.sep in model.strip("/").replace("/", "", 1):
        raise ExportError(f"{model}: no such model directory")
    from huggingface_hub import errors as hf_errors
    from huggingface_hub import snapshot_download

    offline = os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}
    try:
        path = snapshot_download(
            model,
            allow_patterns=list(DOWNLOAD_PATTERNS),
        )
    except hf_errors.HFValidationError:
        raise ExportError(f"{model}: neither a local directory nor a valid Hugging Face model id") from None
    except (hf_errors.RepositoryNotFoundError, hf_errors.GatedRepoError):
        raise ExportError(f"{model}: unknown model id on the Hugging Face Hub (or it is private)") from None
    except hf_errors.LocalEntryNotFoundError:
        if offline:
            raise ExportError(
                f"{model}: not in the local Hugging Face cache and HF_HUB_OFFLINE is set; "
                "unset it or pass a local save_pretrained directory"
            ) from None
        raise ExportError(
            f"{model}: cannot download (no network?) and not in the local Hugging Face cache; "
            "pass a local save_pretrained directory instead"
        ) from None
    except OSError as exc:  # requests' ConnectionError is an OSError
        raise ExportError(f"{model}: cannot download: {exc.__class__.__name__}: {exc}".splitlines()[0]) from None
    return Path(path)


def _tokenizer_class(src: Path) -> str | None:
    """``tokenizer_config.json``'s ``tokenizer_class`` (what tells NLLB from M2M100), if any."""
    import json

    try:
        data = json.loads((src / "tokenizer_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get("tokenizer_class") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def load_model(model: str, src: Path) -> tuple[Any, Any, Family]:
    """The model's config, its family (``families.py``) and that family's tokenizer, refusing
    any checkpoint no family covers."""
    import transformers
    from transformers import AutoConfig

    try:
        config = AutoConfig.from_pretrained(src)
    except (OSError, ValueError) as exc:
        raise ExportError(f"{src}: cannot read the model config: {exc}".splitlines()[0]) from None
    tokenizer_class = _tokenizer_class(src)
    family = detect_family(str(config.model_type), tokenizer_class)
    if family is None or family.kind != "seq2seq":
        if str(config.model_type) in supported_types().split(", "):  # the tokenizer tells the family
            named = (f"a {tokenizer_class} tokenizer" if tokenizer_class
                     else "no tokenizer_class in tokenizer_config.json")
            raise ExportError(f"{model}: a {config.model_type!r} model with {named}; "
                              f"the export supports {supported_tokenizers()}")
        raise ExportError(f"{model}: a {config.model_type!r} model; the export supports {supported_types()}")
    loader = getattr(transformers, family.tokenizer, None)
    if loader is None:
        raise ExportError(f"this transformers has no {family.tokenizer}; upgrade transformers")
    try:
        tokenizer = loader.from_pretrained(src)
    except (OSError, ValueError, KeyError, AssertionError, TypeError) as exc:
        raise ExportError(f"{src}: cannot load the {family.tokenizer}: {exc}".splitlines()[0]) from None
    return config, tokenizer, family


def run_optimum(src: Path, raw: Path) -> None:
    """optimum's exporter: encoder, decoder (first step) and decoder-with-past, not merged.

    The no-past decoder is only read for its cross-attention projections (see
    ``add_cross_cache_to_encoder``); skipping optimum's merge step also saves a graph copy.
    """
    import warnings

    from optimum.exporters.onnx import main_export

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            main_export(
                str(src),
                raw,
                task="text2text-generation-with-past",
                do_validation=False,
                no_post_process=True,
                library_name="transformers",
            )
        except Exception as exc:  # optimum raises many types; the user needs the cause in one line
            raise ExportError(f"{src}: ONNX export failed: {exc.__class__.__name__}: {exc}".splitlines()[0]) from None
    for name in ("encoder_model.onnx", "decoder_model.onnx", "decoder_with_past_model.onnx"):
        if not (raw / name).is_file():
            raise ExportError(f"{src}: optimum produced no {name}; unsupported optimum version")
