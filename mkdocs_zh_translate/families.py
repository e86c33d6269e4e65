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


MARIAN = Family(
    "marian", "seq2seq", ("marian",), target_mechanism="prefix",
    target_codes={SIMPLIFIED: (">>cmn_Hans<<", ">>zho_Hans<<", ">>cmn<<", ">>zho<<", ">>zh<<"),
                  TRADITIONAL: (">>cmn_Hant<<", ">>zho_Hant<<")},
    summary="MarianMT (Helsinki-NLP/opus-mt-en-zh): small and fast, the default",
)

#: Every family, by name, in the order ``export`` tries them.
FAMILIES: dict[str, Family] = {family.name: family for family in (MARIAN,)}


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
