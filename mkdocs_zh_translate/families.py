"""Model families as data: what differs between the translation models we run, one entry each.

MarianMT, M2M100 and NLLB-200 are one architecture to the engine (an encoder-decoder whose ONNX
graphs carry the differences: scaled embeddings, sinusoidal or learned positions, pre- or
post-norm); decoder-only translators (Hy-MT, TranslateGemma, Qwen) run through ONNX Runtime
GenAI. What the engine and the exporter must still know per family is data here, read by name:
how the export recognises the family (``model_types`` and the tokenizer class it ships), how the
model is told to write Chinese (a target prefix token in the source, a forced first target token,
or a prompt), the model's language codes for English and for each Chinese variant we build, and
for decoder-only models the prompt and how the answer is read back.

``export`` resolves an entry into the exported ``generation.json`` (so the engine never imports
this module's choices at run time for a model already exported: the model directory says what it
is); the engine branches on the *data* it reads (``target_mechanism``, the codes), never on a
family's name. Adding a family is adding an entry here (and, for a new kind, the code that kind
needs). This module imports nothing, like ``model_format``, so every layer may read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

#: The Chinese variants a site can be built in (BCP 47), and the one built when none is chosen.
SIMPLIFIED = "zh-Hans"
TRADITIONAL = "zh-Hant"
DEFAULT_VARIANT = SIMPLIFIED

Kind = Literal["seq2seq", "decoder-only"]

#: How a family is told which language to write:
#: ``prefix``: a target-language token at the start of the *source* (multi-target opus-mt, ``>>cmn_Hans<<``);
#: ``forced_bos``: the target-language token forced as the first generated token (M2M100, NLLB);
#: ``prompt``: named in the prompt (decoder-only models);
#: ``none``: the model has one target language and writes it unasked (single-target opus-mt).
TargetMechanism = Literal["prefix", "forced_bos", "prompt", "none"]


@dataclass(frozen=True)
class Family:
    """One model family: everything that differs between families and is not in the graphs."""

    name: str
    kind: Kind
    #: Hugging Face ``config.model_type`` values the family's checkpoints have.
    model_types: tuple[str, ...]
    #: The tokenizer classes (``tokenizer_config.json``'s ``tokenizer_class``) that tell this family
    #: apart from another with the same model type (NLLB checkpoints are ``m2m_100`` models);
    #: empty: any tokenizer.
    tokenizer_classes: tuple[str, ...] = ()
    target_mechanism: TargetMechanism = "none"
    #: The model's code for English, the source (``None``: the model takes no source code).
    source_code: str | None = None
    #: Each Chinese variant the model can write directly, as the model's code for it, in order of
    #: preference where a model offers several codes for one variant (opus-mt's ``>>cmn_Hans<<``
    #: and ``>>zho_Hans<<``): the export keeps the first one the model's vocabulary has.
    target_codes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: A short line for ``export --help`` and the guide.
    summary: str = ""
    #: The (slow) tokenizer class ``export`` loads, by name from transformers, and the engine
    #: rebuilds on sentencepiece alone.
    tokenizer: str = ""
    #: The SentencePiece model file of a family with one model for both sides (M2M100, NLLB),
    #: exported as both ``source.spm`` and ``target.spm``; ``None``: the checkpoint has those two.
    spm_file: str | None = None
    #: How the tokenizer turns target pieces back into text (``decode(skip_special_tokens=True)``):
    #: ``sentencepiece``: the SentencePiece model decodes them; ``concatenate``: the pieces are
    #: joined as strings. ``underline_to_space``: a word-start mark left after that becomes a space.
    detokenize: Literal["sentencepiece", "concatenate"] = "sentencepiece"
    underline_to_space: bool = True


MARIAN = Family(
    "marian", "seq2seq", ("marian",), target_mechanism="prefix",
    target_codes={SIMPLIFIED: (">>cmn_Hans<<", ">>zho_Hans<<", ">>cmn<<", ">>zho<<", ">>zh<<"),
                  TRADITIONAL: (">>cmn_Hant<<", ">>zho_Hant<<")},
    summary="MarianMT (Helsinki-NLP/opus-mt-en-zh): small and fast, the default", tokenizer="MarianTokenizer",
)

#: M2M100 (``facebook/m2m100_418M``, ``_1.2B``): one SentencePiece model for both sides,
#: ``__en__`` before the source, ``__zh__`` forced as the first target token; its only Chinese
#: code is ``zh`` (written in Simplified characters). Codes are the ones the tokenizer's
#: ``src_lang``/``tgt_lang`` take; ``export`` asks the tokenizer for their tokens.
M2M100 = Family(
    "m2m100", "seq2seq", ("m2m_100",), tokenizer_classes=("M2M100Tokenizer",), target_mechanism="forced_bos",
    source_code="en", target_codes={SIMPLIFIED: ("zh",)},
    summary="M2M100 (facebook/m2m100_418M): 100 languages, larger and slower than MarianMT",
    tokenizer="M2M100Tokenizer", spm_file="sentencepiece.bpe.model", underline_to_space=False,
)

#: NLLB-200 (``facebook/nllb-200-distilled-600M`` and larger): an ``m2m_100`` model whose
#: tokenizer maps SentencePiece ids with fairseq's offset and writes ``eng_Latn`` before the
#: source; ``zho_Hans`` / ``zho_Hant`` forced as the first target token.
NLLB = Family(
    "nllb", "seq2seq", ("m2m_100",), tokenizer_classes=("NllbTokenizer",), target_mechanism="forced_bos",
    source_code="eng_Latn", target_codes={SIMPLIFIED: ("zho_Hans",), TRADITIONAL: ("zho_Hant",)},
    summary="NLLB-200 (facebook/nllb-200-distilled-600M): 200 languages, Simplified and Traditional",
    tokenizer="NllbTokenizer", spm_file="sentencepiece.bpe.model", detokenize="concatenate",
)

#: Every family, by name, in the order ``export`` tries them.
FAMILIES: dict[str, Family] = {family.name: family for family in (MARIAN, M2M100, NLLB)}


def family_named(name: str) -> Family | None:
    """The family called ``name`` (a model directory's ``generation.json`` names its family)."""
    return FAMILIES.get(name)


def detect_family(model_type: str, tokenizer_class: str | None) -> Family | None:
    """The family of a checkpoint with this ``config.model_type`` and tokenizer class, or
    ``None`` when no entry covers it. An entry that names tokenizer classes wins over one that
    takes any tokenizer, so NLLB (an ``m2m_100`` model with ``NllbTokenizer``) is told from M2M100."""
    fallback = None
    for family in FAMILIES.values():
        if model_type not in family.model_types:
            continue
        if not family.tokenizer_classes:
            fallback = fallback or family
        elif tokenizer_class and tokenizer_class.removesuffix("Fast") in family.tokenizer_classes:
            return family
    return fallback


def supported_types() -> str:
    """The model types ``export`` accepts, for its refusal message."""
    return ", ".join(sorted({t for family in FAMILIES.values() for t in family.model_types}))


def supported_tokenizers() -> str:
    """The tokenizer classes ``export`` accepts, for its refusal message."""
    return ", ".join(sorted({family.tokenizer for family in FAMILIES.values() if family.tokenizer}))
