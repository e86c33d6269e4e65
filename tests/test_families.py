"""The model-family table: how a checkpoint is recognised and which target code is chosen."""

from __future__ import annotations

from mkdocs_zh_translate.export.settings import _pick_target_prefix
from mkdocs_zh_translate.families import FAMILIES, SIMPLIFIED, TRADITIONAL, detect_family, family_named


def test_marian_checkpoints_are_the_marian_family() -> None:
    family = detect_family("marian", "MarianTokenizer")
    assert family is not None and family.name == "marian" and family.kind == "seq2seq"
    assert family_named("marian") is family


def test_an_unknown_model_type_has_no_family() -> None:
    assert detect_family("bert", "BertTokenizer") is None
    assert family_named("no-such-family") is None


def test_each_family_names_codes_for_simplified_chinese() -> None:
    for family in FAMILIES.values():
        assert family.target_mechanism == "prompt" or family.target_codes.get(SIMPLIFIED), family.name


def test_opus_mt_prefix_prefers_mandarin_simplified_then_falls_back() -> None:
    codes = [">>zho_Hant<<", ">>cmn_Hans<<", ">>yue<<", ">>zho_Hans<<"]
    assert _pick_target_prefix(codes) == ">>cmn_Hans<<"
    assert _pick_target_prefix([">>yue<<", ">>zho<<"]) == ">>zho<<"
    assert _pick_target_prefix(codes, TRADITIONAL) == ">>zho_Hant<<"
    assert _pick_target_prefix([">>yue<<"]) is None
    assert _pick_target_prefix([]) is None
