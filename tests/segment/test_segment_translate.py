"""Validation, the fallback ladder and sentence splitting."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline.ladder import translate_segments
from mkdocs_zh_translate.pipeline.translator import PseudoTranslator
from mkdocs_zh_translate.segment import split_sentences, validate
from tests.fakes import Scripted, ScriptedNBest


def drop_tags(text: str) -> str:
    return re.sub(r"<x\d+/>|</?g\d+>", "", text)


def zh_words(text: str) -> str:
    parts = re.split(r"(<x\d+/>|</?g\d+>)", text)
    return "".join(p if p.startswith("<") else re.sub(r"[A-Za-z]+", "中", p) for p in parts)


# -- validate ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("translated", "problem"),
    [
        ("中<g1>文</g1>", "<x2/> missing"),
        ("中<g1>文</g1><x2/><x2/>", "<x2/> appears 2 times"),
        ("中<g1>文</g1><x2/><x3/>", "<x3/> not in the source"),
        ("中</g1>文<g1><x2/>", "</g1> closes out of order"),
        ("<g1>中<x2/>", "</g1> missing"),
        ("<g1>中</g1><x2/>< x3 />", "damaged placeholder"),
        ("<g1></g1><x2/>", "empty translation"),
        ("<g1>文</g1><x2/>" + "车斯" * 40, "runaway translation (far longer than its source)"),
    ],
)
def test_validate_names_each_problem(translated: str, problem: str) -> None:
    assert problem in validate("Some <g1>text</g1> here <x2/>", translated)


def test_validate_accepts_reordered_but_complete_placeholders() -> None:
    assert validate("A <g1>b <g2>c</g2></g1> <x3/>", "<x3/>甲<g1>乙<g2>丙</g2></g1>") == []
    assert "</g1> closes out of order" in validate("<g1>b <g2>c</g2></g1>", "<g1>乙<g2>丙</g1></g2>")


# -- the ladder ----------------------------------------------------------------------------

SOURCE = "Click <g1>the button</g1> and read <x2/> now."


def test_valid_first_output_is_used_as_is() -> None:
    result = translate_segments([SOURCE], Scripted(zh_words))[0]
    assert result.fallback is None and result.text == zh_words(SOURCE)


def test_next_hypothesis_is_tried_first() -> None:
    translator = ScriptedNBest(drop_tags, lambda t: [drop_tags(t), zh_words(t)])
    result = translate_segments([SOURCE], translator)[0]
    assert result.fallback == "nbest" and result.text == zh_words(SOURCE)


def test_runs_between_placeholders_are_translated_separately() -> None:
    translator = Scripted(lambda t: drop_tags(t) if "<" in t else zh_words(t))
    result = translate_segments([SOURCE], translator)[0]
    assert result.fallback == "runs"
    assert result.text == "中 <g1>中 中</g1> 中 中 <x2/> 中."
    assert ["Click", "the button", "and read", "now."] in translator.calls


def test_drop_pairs_only_drops_what_the_caller_allows() -> None:
    def rule(text: str) -> str:
        if "<g" in text or "<" not in text:  # anything with a pair, and every plain run, fails
            return ""
        return zh_words(text)

    dropped = translate_segments([SOURCE], Scripted(rule), droppable=[{1}])[0]
    assert dropped.fallback == "drop_pairs" and dropped.text == "中 中 中 中 中 <x2/> 中."
    kept = translate_segments([SOURCE], Scripted(rule))[0]
    assert kept.fallback == "english" and kept.text == SOURCE


def test_hopeless_output_keeps_the_english_text() -> None:
    result = translate_segments([SOURCE], Scripted(lambda t: "<x9/>"))[0]
    assert result == type(result)(SOURCE, "english")


def test_texts_without_words_never_reach_the_translator() -> None:
    translator = Scripted(zh_words)
    results = translate_segments(["<x1/>", "42", "Hello"], translator)
    assert [r.text for r in results] == ["<x1/>", "42", "中"]
    assert translator.calls == [["Hello"]]


# -- sentences -----------------------------------------------------------------------------

LONG = (
    "The first sentence explains the idea in some detail for the reader. "
    "The second one has <g1>bold words. Even across</g1> a full stop and a <x2/> atom. "
    "The third sentence closes the paragraph with a final remark about the topic."
)


def test_split_sentences_never_cuts_inside_a_pair_and_loses_nothing() -> None:
    pieces = split_sentences(LONG)
    assert "".join(pieces) == LONG
    assert len(pieces) == 3
    assert pieces[1].startswith("The second") and "</g1>" in pieces[1]


def test_long_segments_are_translated_sentence_by_sentence_and_joined_without_spaces() -> None:
    def rule(text: str) -> str:
        return zh_words(text).replace(".", "。").replace(" ", "")

    translator = Scripted(rule)
    result = translate_segments([LONG], translator)[0]
    sent = translator.calls[0]
    assert len(sent) == 3
    assert sent[1] == "The second one has <g1>bold words. Even across</g1> a full stop and a <x2/> atom."
    assert sent[2].startswith("The third")
    assert result.fallback is None
    assert result.text == "".join(rule(piece) for piece in split_sentences(LONG))
    assert " " not in result.text


def test_sentence_pieces_are_renumbered_from_one_and_mapped_back() -> None:
    text = LONG.replace("<g1>", "").replace("</g1>", "").replace("<x2/>", "<x1/>") + " Last <x2/> bit."
    translator = Scripted(lambda t: t)
    translate_segments([text], translator)
    assert all(re.findall(r"<x(\d+)/>", piece) in ([], ["1"]) for piece in translator.calls[0])


def test_pseudo_keeps_the_space_between_sentences() -> None:
    result = translate_segments([LONG], PseudoTranslator())[0]
    assert result.text.replace("「", "").replace("」", "") == LONG


def test_translate_markdown_translates_each_distinct_segment_once() -> None:
    translator = Scripted(zh_words)
    out = translate_markdown("# Same\n\nSame\n\n- Same\n- Other\n", translator, heading_ids=False)
    assert out == "# 中\n\n中\n\n- 中\n- 中\n"
    assert translator.calls == [["Same", "Other"]]


def test_each_ladder_step_is_one_batch_and_odd_outputs_do_not_crash() -> None:
    texts = [f"Item {i} has <g1>bold</g1> text <x2/>." for i in range(3)]
    translator = Scripted(lambda t: None if "<" in t else zh_words(t))  # type: ignore[arg-type,return-value]
    results = translate_segments(texts, translator)
    assert [r.fallback for r in results] == ["runs"] * 3
    assert len(translator.calls) == 2  # the first pass, then every run of every text at once


def test_runs_keep_the_english_of_a_run_the_model_returned_empty() -> None:
    def rule(text: str) -> str:
        if "<" in text:
            return drop_tags(text)  # the whole segment loses its placeholders
        return "" if text == "Click" else zh_words(text)

    result = translate_segments([SOURCE], Scripted(rule))[0]
    assert result.fallback == "runs"
    assert result.text == "Click <g1>中 中</g1> 中 中 <x2/> 中."


class LoopingTranslator:
    """A small model on a long sentence: the whole sentence comes back as a loop of two
    characters up to the length limit; a shorter piece is translated."""

    name = "looping"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return ["车斯" * 200 if len(t) > 40 else f"「{t}」" for t in texts]


def test_a_runaway_output_is_not_a_translation_and_the_ladder_splits_the_sentence() -> None:
    for source in ("Click the button and read the guide now. Then go back and read it again.",
                   "Click <g1>the button</g1> and read <x2/> now, then go back and read it again."):
        [done] = translate_segments([source], LoopingTranslator())
        assert "车斯车斯" not in done.text, source
        assert done.fallback is not None and not validate(source, done.text)
    assert validate("A sentence.", "「一句话。」") == []  # an ordinary translation is not a runaway
