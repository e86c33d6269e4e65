"""Markup projection (``project`` strategy, issue 24 approach B) on hand-made alignments.

The model is asked the sentence without placeholders; ``projection.project`` puts each pair and
atom back from the alignment. These tests give it one-hot (or hand-weighted) alignment matrices
and check the rules: spans cover their words' tokens, children stay inside parents, siblings do
not overlap and keep source order on ties, atoms at the ends stay at the ends, a word the model
dropped does not pull an atom, empty pairs survive, and the result always validates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from mkdocs_zh_translate.engine.align import Aligned
from mkdocs_zh_translate.pipeline.backends import BackendError, load_translator
from mkdocs_zh_translate.pipeline.ladder import translate_segments
from mkdocs_zh_translate.pipeline.markup import ProjectingTranslator, markup_names
from mkdocs_zh_translate.pipeline.projection import drop_stray, project, strip_markup
from mkdocs_zh_translate.segment import validate


def word_spans(plain: str) -> list[tuple[int, int] | None]:
    """One source token per space-separated word, then EOS (no text)."""
    spans: list[tuple[int, int] | None] = []
    pos = 0
    for word in plain.split():
        start = plain.index(word, pos)
        spans.append((start, start + len(word)))
        pos = start + len(word)
    return [*spans, None]


def run(source: str, targets: Sequence[str], links: Sequence[int] | np.ndarray) -> str:
    """Project ``source``'s placeholders onto the target tokens ``targets``, target token ``t``
    aligned to source word ``links[t]`` (or ``links`` a full ``[targets, words]`` matrix)."""
    stripped = strip_markup(source)
    assert stripped is not None
    plain, nodes = stripped
    spans = word_spans(plain)
    if isinstance(links, np.ndarray):
        weights = np.concatenate([links, np.zeros((len(targets), 1))], axis=1)
    else:
        weights = np.zeros((len(targets), len(spans)))
        for t, s in enumerate(links):
            weights[t, s] = 1.0
    bounds = [0]
    for token in targets:
        bounds.append(bounds[-1] + len(token))
    out = project(nodes, "".join(targets), spans, bounds, weights)
    assert validate(source, out) == [], out
    return out


def test_strip_markup_keeps_pair_text_and_drops_atoms_without_double_spaces() -> None:
    stripped = strip_markup("Run <x1/> to <g2>build <g3>it</g3></g2>.")
    assert stripped is not None
    plain, nodes = stripped
    assert plain == "Run to build it."
    atom, pair = nodes
    assert (atom.kind, atom.id, atom.start) == ("atom", 1, 4)
    assert (pair.kind, pair.id, plain[pair.start:pair.end]) == ("pair", 2, "build it")
    [child] = pair.children
    assert plain[child.start:child.end] == "it"
    assert strip_markup("<g1>a</g2>") is None
    assert strip_markup("<g1>a") is None


def test_a_pair_covers_the_tokens_aligned_to_its_words_even_when_reordered() -> None:
    assert run("click <g1>here</g1> now", ["A", "B", "C"], [0, 1, 2]) == "A<g1>B</g1>C"
    # the target puts "now" first: the span follows "here" wherever it went
    assert run("click <g1>here</g1> now", ["C", "A", "B"], [2, 0, 1]) == "CA<g1>B</g1>"
    # two words, their tokens not adjacent in the target: the contiguous range covering both
    assert run("<g1>a b</g1> c", ["A", "C", "B"], [0, 2, 1]) == "<g1>ACB</g1>"


def test_a_child_stays_inside_its_parent() -> None:
    assert run("<g1>a <g2>b</g2></g1> c", ["A", "B", "C"], [0, 1, 2]) == "<g1>A<g2>B</g2></g1>C"
    # "b" aligned before its parent's other word: still nested, parent widened over it
    assert run("<g1>a <g2>b</g2></g1> c", ["B", "A", "C"], [1, 0, 2]) == "<g1><g2>B</g2>A</g1>C"
    # the parent's words are split around a sibling's token: the sibling cannot cut into the
    # parent, it starts after it (empty here), and everything stays nested
    out = run("<g1>a <g2>b</g2></g1> <g3>c</g3>", ["B", "C", "A"], [1, 2, 0])
    assert out == "<g1><g2>B</g2>CA</g1><g3></g3>"


def test_siblings_never_overlap_and_keep_source_order_on_ties() -> None:
    # both words aligned to the one target token: the first span takes it, the second is empty
    assert run("<g1>a</g1> <g2>b</g2>", ["X"], np.array([[1.0, 0.9]])) == "<g1>X</g1><g2></g2>"
    weights = np.array([[1.0, 0.0], [1.0, 0.5]])  # "b" has no token of its own: its best is "Y"
    assert run("<g1>a</g1> <g2>b</g2>", ["X", "Y"], weights) == "<g1>X</g1><g2>Y</g2>"
    assert run("<g1>a</g1> <x2/> <g3>b</g3>", ["A", "B"], [0, 1]) == "<g1>A</g1><x2/><g3>B</g3>"


def test_atoms_at_the_ends_stay_at_the_ends_and_inner_ones_follow_their_word() -> None:
    assert run("<x1/> a b <x2/>", ["B", "A"], [1, 0]) == "<x1/>BA<x2/>"
    assert run("a <x1/> b .", ["A", "B", "。"], [0, 1, 2]) == "A<x1/>B。"
    assert run("a <x1/> b .", ["B", "A", "。"], [1, 0, 2]) == "BA<x1/>。"
    assert run("a b<x1/> .", ["A", "B", "。"], [0, 1, 2]) == "AB<x1/>。"


def test_an_atom_after_a_dropped_word_follows_the_word_before_it() -> None:
    # "the" has no target token: the atom goes after "see"'s, not wherever "the" attends most
    weights = np.array([[1.0, 0.4, 0.0], [0.0, 0.45, 1.0]])
    assert run("see the<x1/> page", ["S", "P"], weights) == "S<x1/>P"


def test_empty_pairs_and_pairs_of_atoms_are_placed_like_atoms() -> None:
    assert run("a <g1><x2/></g1> b", ["A", "B"], [0, 1]) == "A<g1><x2/></g1>B"
    assert run("<g1></g1>a b", ["A", "B"], [0, 1]) == "<g1></g1>AB"


def test_spaces_stay_outside_a_pair() -> None:
    assert run("use <g1>MkDocs</g1> now", ["用", " MkDocs", " 现在"], [0, 1, 2]) == "用 <g1>MkDocs</g1> 现在"


def test_no_alignment_still_gives_valid_markup() -> None:
    stripped = strip_markup("<x1/> a <g2>b</g2>")
    assert stripped is not None
    out = project(stripped[1], "", [None], [0], np.zeros((0, 1)))
    assert out == "<x1/><g2></g2>"


class WordTranslator:
    """A fake engine: upper-cases each word, one target token per word, aligned one to one."""

    name = "fake"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def load_aligner(self) -> None:
        return None

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.asked.extend(texts)
        return [t.upper() for t in texts]

    def translate_aligned(self, texts: Sequence[str]) -> list[Aligned | None]:
        out: list[Aligned | None] = []
        for text in texts:
            self.asked.append(text)
            spans = word_spans(text)
            words = text.split()
            bounds = [0]  # SentencePiece-like: every token but the first starts with its space
            for k, word in enumerate(words):
                bounds.append(bounds[-1] + len(word) + (k > 0))
            out.append(Aligned(" ".join(w.upper() for w in words), spans, bounds,
                               np.eye(len(words), len(spans), dtype=np.float32)))
        return out


def test_the_model_never_sees_a_placeholder_and_plain_text_is_left_alone() -> None:
    inner = WordTranslator()
    translator = ProjectingTranslator(inner)
    [plain, tagged] = translate_segments(["see here", "see <g1>the <x2/> page</g1> now"], translator)
    assert (plain.text, plain.fallback) == ("SEE HERE", None)
    assert (tagged.text, tagged.fallback) == ("SEE <g1>THE<x2/> PAGE</g1> NOW", None)
    assert sorted(inner.asked) == ["see here", "see the page now"]


class StrayTranslator(WordTranslator):
    """A model trained with placeholders (the demo model): it writes ``<x1/>`` or ``<g1>`` after
    the first word even when asked for plain text, as one more target token."""

    def __init__(self, stray: str = "<x1/>") -> None:
        super().__init__()
        self.stray = stray

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [out.replace(" ", f" {self.stray}", 1) for out in super().translate(texts)]

    def translate_aligned(self, texts: Sequence[str]) -> list[Aligned | None]:
        out: list[Aligned | None] = []
        for result in super().translate_aligned(texts):
            assert result is not None
            first = result.target_bounds[1]
            text = result.text[:first] + f" {self.stray}" + result.text[first:]
            bounds = [*result.target_bounds[:2], first + 1 + len(self.stray),
                      *(b + 1 + len(self.stray) for b in result.target_bounds[2:])]
            weights = np.insert(result.weights, 1, result.weights[0], axis=0)
            out.append(Aligned(text, result.source_spans, bounds, weights))
        return out


@pytest.mark.parametrize("stray", ["<x1/>", "<g1>", "< x2 />"])
def test_placeholders_the_model_makes_up_are_removed_and_the_sentence_stays_whole(stray: str) -> None:
    translator = ProjectingTranslator(StrayTranslator(stray))
    [plain, tagged] = translate_segments(["see the page", "see <g1>the <x2/> page</g1> now"], translator)
    assert (plain.text, plain.fallback) == ("SEE THE PAGE", None)
    assert (tagged.text, tagged.fallback) == ("SEE <g1>THE<x2/> PAGE</g1> NOW", None)


def test_text_that_looks_like_a_placeholder_in_the_source_is_kept() -> None:
    translator = ProjectingTranslator(StrayTranslator("<x1>"))
    assert [o.text for o in translator.translate(["write <x1> here"])] == ["WRITE <x1><X1> HERE"]


def test_drop_stray_moves_token_bounds_and_leaves_no_double_space() -> None:
    assert drop_stray("AB <x1/> CD <g2>", [0, 2, 8, 11, 16]) == ("AB CD", [0, 2, 3, 5, 5])
    assert drop_stray("是<x1/>校", [0, 1, 6, 7]) == ("是校", [0, 1, 1, 2])
    assert drop_stray("<g1>A", [0, 4, 5]) == ("A", [0, 0, 1])
    assert drop_stray("no tags", [0, 2, 7]) == ("no tags", [0, 2, 7])


def test_project_is_registered_and_needs_an_aligning_engine() -> None:
    assert "project" in markup_names()
    with pytest.raises(BackendError, match="markup strategy 'project' needs the onnx backend"):
        load_translator("pseudo", markup="project")


def test_a_piece_that_translates_two_words_splits_where_the_vocabulary_has_its_parts() -> None:
    # "也海读么" translates "for more"; it attends to both. Every word of the piece before the
    # emphasis is "也海读": the pair holds "么", not the whole piece (nor an even half).
    weights = np.array([[1.0, 0.6, 0.0], [0.0, 0.0, 1.0]])
    stripped = strip_markup("for <g1>more</g1> pages")
    assert stripped is not None
    plain, nodes = stripped
    text, bounds = "也海读么页面", [0, 4, 6]
    spans = word_spans(plain)
    weights = np.concatenate([weights, np.zeros((2, 1))], axis=1)
    assert project(nodes, text, spans, bounds, weights, frozenset({"也海读", "么", "页面"})) == "也海读<g1>么</g1>页面"
    # without the vocabulary: split evenly, never the whole piece
    assert project(nodes, text, spans, bounds, weights) == "也海<g1>读么</g1>页面"
    # a word the piece does not attend to enough keeps out of it
    weak = weights.copy()
    weak[0, 1] = 0.1
    assert project(nodes, text, spans, bounds, weak, frozenset({"也海读", "么"})) == "<g1>也海读么</g1>页面"


def test_a_pair_that_ends_inside_a_source_piece_ends_inside_its_translation() -> None:
    # SentencePiece glues "x::." into one piece; the pair ends after "::", so of the piece's four
    # target tokens the last (the period's) stays outside
    assert run("<g1>x::</g1>.", ["X", "：", "：", "。"], [0, 0, 0, 0]) == "<g1>X：：</g1>。"


def test_characters_of_one_target_token_are_places_a_tag_can_go() -> None:
    # "do" and "I" share the token "名放办毛" (no vocabulary): the atom after "do" goes inside it
    weights = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.8]])
    assert run("how do<x1/> I", ["两达", "名放办毛"], weights) == "两达名放<x1/>办毛"


class CollapsingTranslator(WordTranslator):
    """A broken translation: the whole sentence comes out as ``n`` tokens ("A", "B", ...), every
    one aligned to the first source word, so pairs' words keep no token of their own."""

    def __init__(self, tokens: int) -> None:
        super().__init__()
        self.tokens = tokens

    def translate_aligned(self, texts: Sequence[str]) -> list[Aligned | None]:
        out: list[Aligned | None] = []
        for text in texts:
            self.asked.append(text)
            spans = word_spans(text)
            words = [chr(ord("A") + k) for k in range(self.tokens)]
            bounds = [0]
            for k, word in enumerate(words):
                bounds.append(bounds[-1] + len(word) + (k > 0))
            weights = np.zeros((len(words), len(spans)), dtype=np.float32)
            weights[:, 0] = 1.0
            out.append(Aligned(" ".join(words), spans, bounds, weights))
        return out


def test_a_pair_is_never_left_empty_where_a_word_is_free() -> None:
    """Two pairs whose words kept no token: the second takes the next free token instead of
    coming out empty (``<g2></g2>`` is an empty link, invalid markup)."""
    inner = CollapsingTranslator(3)
    [out] = ProjectingTranslator(inner).translate(["see <g1>the page</g1> and <g2>this one</g2>"])
    done = out.text
    assert "<g1>" in done and "<g2>" in done
    for pair in ("1", "2"):
        inside = done.split(f"<g{pair}>")[1].split(f"</g{pair}>")[0]
        assert inside.strip(), done
    assert inner.asked == ["see the page and this one"]


def test_a_translation_too_broken_to_hold_a_pair_goes_with_its_tags() -> None:
    """One token for two pairs: no word is free for the second, so the sentence goes to the
    model with its tags, as under ``tags`` (the ladder judges that output), never as an empty
    link."""
    inner = CollapsingTranslator(1)
    source = "see <g1>the page</g1> and <g2>this one</g2>"
    [done] = ProjectingTranslator(inner).translate([source])
    assert inner.asked == ["see the page and this one", source]
    assert done.text == source.upper()
