"""What the engine must know about the model (special ids, generation defaults, tokenizer
quirks), collected from the Hugging Face configs once and written to ``generation.json``, so the
engine never reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..families import DEFAULT_VARIANT, MARIAN, Family
from ..model_format import FORMAT_VERSION
from .errors import ExportError


def _pick_target_prefix(codes: list[str], variant: str = DEFAULT_VARIANT) -> str | None:
    """Multi-target models need a ``>>lang<<`` prefix; choose the family's first code for
    ``variant`` that the model offers (Simplified Chinese by default)."""
    if not codes:
        return None
    for preferred in MARIAN.target_codes.get(variant, ()):
        if preferred in codes:
            return preferred
    return None


def tokenizer_settings(tokenizer: Any, family: Family = MARIAN) -> dict[str, Any]:
    """What the engine's tokenizer needs to behave exactly like this tokenizer of ``family``."""
    added = {
        str(tok_id): {
            "content": tok.content,
            "lstrip": bool(tok.lstrip),
            "rstrip": bool(tok.rstrip),
            "single_word": bool(tok.single_word),
            "special": bool(tok.special),
        }
        for tok_id, tok in tokenizer.added_tokens_decoder.items()
    }
    codes = list(getattr(tokenizer, "supported_language_codes", []) or [])
    out = {
        "unk_token": str(tokenizer.unk_token),
        "eos_token": str(tokenizer.eos_token),
        "pad_token": str(tokenizer.pad_token),
        "all_special_tokens": [str(t) for t in tokenizer.all_special_tokens],
        "added_tokens": added,
        "separate_vocabs": bool(getattr(tokenizer, "separate_vocabs", False)),
        "clean_up_tokenization_spaces": bool(tokenizer.clean_up_tokenization_spaces),
        "language_codes": codes,
        "target_prefix": _pick_target_prefix(codes),
    }
    if family.target_mechanism == "forced_bos":
        out.update(_language_tokens(tokenizer, family))
    return out


def _language_tokens(tokenizer: Any, family: Family) -> dict[str, Any]:
    """A forced-BOS family's source framing and target language ids, asked of the tokenizer
    the way transformers' translation pipeline asks (``_build_translation_inputs``): the ids
    before and after a source text's pieces (``__en__`` ... ``</s>``; ``eng_Latn`` ... ``</s>``)
    and, per Chinese variant the model writes, the id to force as the first target token. The
    engine reads these as data, and the detokenising rule, never the family's name."""
    source = family.source_code
    targets: dict[str, int] = {}
    for variant, codes in family.target_codes.items():
        for code in codes:
            try:
                built = tokenizer._build_translation_inputs("", src_lang=source, tgt_lang=code, return_tensors=None)
            except (KeyError, ValueError, AttributeError) as exc:
                raise ExportError(f"the {family.tokenizer} has no language code {code!r} or {source!r}: "
                                  f"{exc}".splitlines()[0]) from None
            forced = int(built["forced_bos_token_id"])
            if forced == tokenizer.unk_token_id:
                raise ExportError(f"the {family.tokenizer} maps the language code {code!r} to <unk>")
            targets[variant] = forced
            break
    framed = list(tokenizer.build_inputs_with_special_tokens([-1]))
    if framed.count(-1) != 1:
        raise ExportError(f"the {family.tokenizer} frames a text in an unexpected way: {framed}")
    cut = framed.index(-1)
    return {
        "source_prefix_ids": [int(i) for i in framed[:cut]],
        "source_suffix_ids": [int(i) for i in framed[cut + 1:]],
        "target_language_ids": targets,
        "detokenize": family.detokenize,
        "underline_to_space": family.underline_to_space,
        "split_target_code": False,  # a leading ">>xx<<" is text here, not a code (Marian's rule)
    }


def generation_settings(src: Path, config: Any, tokenizer: Any, family: Family = MARIAN) -> dict[str, Any]:
    """Collect everything decoding and tokenising need, so the engine never reads HF configs.

    A ``forced_bos`` family gets ``forced_bos_token_id``: the target language id of the default
    variant (a generation config's own one, if any, is replaced: it names whatever language the
    checkpoint was last used for)."""
    from transformers import GenerationConfig

    try:
        gen = GenerationConfig.from_pretrained(src)
    except OSError:
        gen = GenerationConfig.from_model_config(config)

    def pick(name: str, default: Any = None) -> Any:
        value = getattr(gen, name, None)
        if value is None:
            value = getattr(config, name, None)
        return default if value is None else value

    eos = pick("eos_token_id")
    eos_ids = eos if isinstance(eos, list) else [eos]
    if len(eos_ids) != 1:
        raise ExportError(f"{src}: models with several EOS ids {eos_ids} are not supported")
    defaults = {"no_repeat_ngram_size": 0, "repetition_penalty": 1.0, "encoder_no_repeat_ngram_size": 0,
                "do_sample": False, "num_beam_groups": 1, "diversity_penalty": 0.0, "forced_bos_token_id": None,
                "suppress_tokens": None, "begin_suppress_tokens": None, "sequence_bias": None,
                "exponential_decay_length_penalty": None}
    forced_bos = family.target_mechanism == "forced_bos"
    unsupported = {
        name: getattr(gen, name)
        for name, default in defaults.items()
        if getattr(gen, name, None) not in (None, default) and not (forced_bos and name == "forced_bos_token_id")
    }
    if unsupported:
        raise ExportError(f"{src}: generation settings the engine does not implement: {unsupported}")
    d_model = int(config.d_model)
    heads = int(config.decoder_attention_heads)
    tokenizer_part = tokenizer_settings(tokenizer, family)
    extra: dict[str, Any] = {}
    if forced_bos:
        variants = tokenizer_part["target_language_ids"]
        if DEFAULT_VARIANT not in variants:
            raise ExportError(f"{src}: the model has no language code for {DEFAULT_VARIANT}")
        extra["forced_bos_token_id"] = variants[DEFAULT_VARIANT]
    return {
        "format": FORMAT_VERSION,
        "family": family.name,
        "model_type": config.model_type,
        "vocab_size": int(config.vocab_size),
        "max_position_embeddings": int(config.max_position_embeddings),
        "d_model": d_model,
        "decoder_layers": int(config.decoder_layers),
        "decoder_attention_heads": heads,
        "head_dim": d_model // heads,
        "decoder_start_token_id": int(pick("decoder_start_token_id")),
        "eos_token_id": int(eos_ids[0]),
        "pad_token_id": int(pick("pad_token_id")),
        "forced_eos_token_id": pick("forced_eos_token_id"),
        "bad_words_ids": pick("bad_words_ids", []) or [],
        "max_length": int(pick("max_length", 512)),
        "min_length": int(pick("min_length", 0) or 0),
        "num_beams": int(pick("num_beams", 1)),
        "length_penalty": float(pick("length_penalty", 1.0)),
        "early_stopping": pick("early_stopping", False),
        "renormalize_logits": bool(pick("renormalize_logits", False)),
        "tokenizer": tokenizer_part,
        **extra,
    }
