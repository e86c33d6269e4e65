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
#: Every Chinese a model can be asked for (the engine option ``target``): the two scripts, and
#: the regional variants a prompted model can be told by name (``PromptForm.target_names``).
TAIWAN = "zh-TW"
HONG_KONG = "zh-HK"
TARGETS = (SIMPLIFIED, TRADITIONAL, TAIWAN, HONG_KONG)

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


# --- Decoder-only translators (ONNX Runtime GenAI) -------------------------------------------
# Kept in a block of their own: each entry's prompt is data (``PromptForm``), rendered by the
# exporter into the model directory's settings and filled in by the engine at run time.


@dataclass(frozen=True)
class PromptForm:
    """How a decoder-only family is asked for one translation, and how its answer is read.

    The texts are templates with named slots: ``{source}`` (the segment), ``{target}`` (the
    language's name as the model's documentation spells it, from :attr:`target_names`),
    ``{terms}`` (the term lines, each :attr:`term_line` with ``{term}`` and ``{translation}``)
    and ``{context}`` (the page title and the previous segment). The user message is
    :attr:`instruction`, or :attr:`with_terms` when the segment has glossary terms, with
    :attr:`context_block` before it when context is on and the family documents a form for it.
    The chat framing around the message is the checkpoint's own chat template, rendered once by
    ``export`` (or :attr:`frame` where a family's template cannot take a plain message)."""

    instruction: str
    with_terms: str = ""
    """The message when the segment has glossary terms ("" : the family documents no form for
    terms; they then take the glossary's substitution path)."""
    term_line: str = ""
    context_block: str = ""
    """Put before the message when context is on ("" : the family documents none)."""
    target_names: Mapping[str, str] = field(default_factory=dict)
    """``{target}`` for each Chinese variant the family can be asked for by name (the engine
    option ``target``; a variant it has no name for is refused, never asked as another)."""
    stop: tuple[str, ...] = ()
    """Tokens that end the answer besides the checkpoint's end-of-sequence tokens (the end of a
    chat turn), resolved to ids by ``export``."""
    frame: tuple[str, str] | None = None
    """The text before and after the user message, where the chat template cannot render a
    plain message (``None``: render the checkpoint's template)."""
    preambles: tuple[str, ...] = ()
    """Answer openings that mean the model is talking about the translation rather than giving
    it ("Translation:"): such an answer is refused (the fallback ladder takes the segment)."""


HY_MT = Family(
    "hy-mt", "decoder-only", ("hunyuan_v1_dense",), target_mechanism="prompt",
    summary="Tencent Hy-MT2 / HY-MT1.5 (1.8B, 7B): terms and context in the prompt, best Chinese",
)
TRANSLATEGEMMA = Family(
    "translategemma", "decoder-only", ("gemma3", "gemma3_text"), target_mechanism="prompt",
    summary="Google TranslateGemma (4B): 55 languages, plain translation prompt",
)
QWEN = Family(
    "qwen", "decoder-only", ("qwen2", "qwen3"), target_mechanism="prompt",
    summary="Qwen2/Qwen3 general models (0.6-4B) with a translation instruction",
)

#: Each decoder-only family's prompt, by family name.
PROMPT_FORMS: dict[str, PromptForm] = {
    # Hy-MT2's README ("Translation Task Instruction Examples", github.com/Tencent-Hunyuan/Hy-MT2):
    # the Chinese prompts, which its note says to use with Chinese language names; the
    # terminology form lists "X 翻译成 Y" lines under 参考下面的翻译, and background information
    # goes in a 【背景信息】 block. The models have no system prompt.
    "hy-mt": PromptForm(
        instruction="将以下文本翻译为{target}，注意只需要输出翻译后的结果，不要额外解释：\n\n{source}",
        with_terms="参考下面的翻译：\n{terms}\n将以下文本翻译为{target}，注意只需要输出翻译后的结果，"
                   "不要额外解释：\n\n{source}",
        term_line="{term} 翻译成 {translation}",
        context_block="【背景信息】\n{context}\n\n",
        target_names={SIMPLIFIED: "中文", TRADITIONAL: "繁体中文"},
        # The end-of-turn tokens of HY-MT1.5's chat template (its Ollama template stops at both);
        # a Hy-MT2 checkpoint's own end-of-sequence ids come from its generation config.
        stop=("<|eos|>", "<|extra_4|>", "<|extra_0|>"),
        preambles=("翻译结果", "Translation:", "以下是"),
    ),
    # TranslateGemma's model card (and Ollama's library page): one user turn, "You are a
    # professional {SOURCE_LANG} ({SOURCE_CODE}) to {TARGET_LANG} ({TARGET_CODE}) translator…",
    # two blank lines before the text. Its chat template takes structured content (language
    # codes beside the text), so the Gemma turn markers are given here. No documented form for
    # terms or context.
    "translategemma": PromptForm(
        instruction="You are a professional English (en) to {target} translator. Your goal is to accurately "
                    "convey the meaning and nuances of the original English text while adhering to "
                    "Chinese grammar, vocabulary, and cultural sensitivities.\nProduce only the Chinese "
                    "translation, without any additional explanations or commentary. Please translate the "
                    "following English text into Chinese:\n\n\n{source}",
        target_names={SIMPLIFIED: "Chinese (zh)", TRADITIONAL: "Chinese (zh-Hant)"},
        stop=("<end_of_turn>",),
        frame=("<start_of_turn>user\n", "<end_of_turn>\n<start_of_turn>model\n"),
        preambles=("Translation:", "Here is"),
    ),
    # Qwen documents no translation prompt: an instruction in the same shape as Hy-MT's English
    # one, terms and context as labelled blocks. The chat framing is the checkpoint's template
    # (Qwen3's with thinking off). The project's tiny test models are trained on this form.
    "qwen": PromptForm(
        instruction="Translate the following text into {target}. Output only the translation, "
                    "without any explanation:\n\n{source}",
        with_terms="Use these translations for terms:\n{terms}\n\nTranslate the following text into {target}. "
                   "Output only the translation, without any explanation:\n\n{source}",
        term_line="{term} = {translation}",
        context_block="Context (do not translate):\n{context}\n\n",
        # Our own names, like the instruction: the region's written standard named plainly.
        target_names={SIMPLIFIED: "Simplified Chinese", TRADITIONAL: "Traditional Chinese",
                      TAIWAN: "Traditional Chinese as written in Taiwan",
                      HONG_KONG: "Traditional Chinese as written in Hong Kong"},
        stop=("<|im_end|>", "<|endoftext|>"),
        preambles=("Translation:", "Here is", "翻译："),
    ),
}

FAMILIES.update({family.name: family for family in (HY_MT, TRANSLATEGEMMA, QWEN)})


@dataclass(frozen=True)
class TextPart:
    """A multimodal checkpoint class whose text decoder ``export`` builds alone, as the causal
    class it names (``export/textpart.py``): GenAI's builder gives the multimodal class a
    decoder fed with embeddings, which the text pipeline cannot run."""

    #: ``config.json``'s ``architectures`` entry that marks such a checkpoint.
    architecture: str
    #: The text-only class and model type the extracted checkpoint declares.
    causal_architecture: str
    model_type: str
    #: (prefix in the checkpoint, prefix in the text-only one), first match wins; a tensor
    #: matching none (the vision tower, the projector) is left out.
    prefixes: tuple[tuple[str, str], ...]


#: TranslateGemma is ``Gemma3ForConditionalGeneration``. transformers 4.57 saves its text decoder
#: as ``language_model.model.*`` (Google's checkpoints too); transformers 5 as ``model.language_model.*``.
TEXT_PARTS: tuple[TextPart, ...] = (
    TextPart("Gemma3ForConditionalGeneration", "Gemma3ForCausalLM", "gemma3_text",
             (("language_model.model.", "model."), ("model.language_model.", "model."),
              ("language_model.lm_head.", "lm_head."), ("lm_head.", "lm_head."))),
)
