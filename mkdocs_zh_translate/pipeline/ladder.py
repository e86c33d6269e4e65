"""Translate segment texts safely: sentence pieces, validation, and the fallback ladder.

A model may drop, repeat or reorder placeholders. Each piece is checked with ``validate`` and,
when broken, retried down a ladder that ends in the English text, so a page never loses markup
and a bad output never crashes a build:

1. ``nbest``      another beam hypothesis (only for translators with ``translate_nbest``)
2. ``runs``       translate the text between placeholders separately, placeholders kept in place
3. ``drop_pairs`` translate without the emphasis pairs the caller allows to drop
4. ``english``    keep the source text

Each translation also carries the model's confidence when the translator gives one (every
output is a ``scored.Scored``; its ``score`` is None when unknown). A segment's score
is the *lowest* of the model outputs it is made of: its sentence pieces, and under ``runs``
the separately translated runs; ``nbest`` counts the hypothesis it took. Pieces kept in
English or without words count nothing; a segment with no model output at all, or one
output without a score, has none (None: unknown).

It calls a model, so it is the pipeline's (``service`` is its one caller); ``segment/`` gives it
the placeholder vocabulary and the sentence splitter and knows nothing of translators.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ..scored import Scored, lowest
from ..segment import (
    TAG_RE,
    apply_ids,
    has_words,
    renumber,
    split_lines,
    split_sentences,
    strip_tags,
    validate,
    without_pairs,
)
from .translator import NBestTranslator, Translator, as_translator

LADDER = ("nbest", "runs", "drop_pairs", "english")
NBEST = 4
MAX_SENTENCE_CHARS = 200
_SPLIT_RE = re.compile(r"(<x\d+/>|</?g\d+>)")
_CJK_END_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3002\uff01\uff1f\uff1b\uff1a\uff0c\u3001\u2026]$")


@dataclass(frozen=True)
class SegmentTranslation:
    """A validated translation. ``fallback`` is None, or the ladder step that produced it;
    ``score`` the model's confidence (see the module docstring), None when unknown."""

    text: str
    fallback: str | None = None
    score: float | None = None


@dataclass(eq=False)
class _Unit:
    """One sentence piece, renumbered so its placeholders start at 1 again."""

    text: str  # what the model sees (stripped, renumbered)
    ids: dict[int, int]  # new -> old placeholder ids
    lead: str  # whitespace around it in the segment
    trail: str
    droppable: set[int]  # (new ids) pairs that step 3 may drop
    context: str = ""  # the page context its segment is translated in ("" : none)
    result: str | None = None
    step: str | None = None
    scores: list[float | None] | None = None  # the model outputs' scores behind ``result``


def _units(text: str, droppable: Collection[int], max_chars: int, context: str = "") -> list[_Unit]:
    # a hard line break ends a sentence at any length; long lines are split into sentences
    pieces = [p for line in split_lines(text) for p in (split_sentences(line) if len(line) > max_chars else [line])]
    units = []
    for piece in pieces:
        core = piece.strip()
        lead = piece[: len(piece) - len(piece.lstrip())]
        trail = piece[len(piece.rstrip()) :] if core else ""
        new_text, ids = renumber(core)
        back = {old: new for new, old in ids.items()}
        units.append(_Unit(new_text, ids, lead, trail, {back[d] for d in droppable if d in back}, context))
    return units


_NOTHING = Scored("", None)


Asked = tuple[str, str]
"""What the translator is asked: (text, page context); the context is "" without one."""


class _Ask:
    """The translator as the steps call it, with each text's page context: handed on as
    ``contexts=`` only when the pass has contexts, so a pass without them calls the translator
    exactly as before (any translator, whatever keywords it takes)."""

    def __init__(self, translator: Translator, contextual: bool) -> None:
        self.translator: Any = translator
        self.contextual = contextual
        self.nbest = isinstance(translator, NBestTranslator)

    def _extra(self, asked: Sequence[Asked]) -> dict[str, Any]:
        return {"contexts": [c for _t, c in asked]} if self.contextual else {}

    def translate(self, asked: Sequence[Asked]) -> list[Scored]:
        return list(self.translator.translate([t for t, _c in asked], **self._extra(asked)))

    def translate_nbest(self, asked: Sequence[Asked], n: int) -> list[list[Scored]]:
        return list(self.translator.translate_nbest([t for t, _c in asked], n, **self._extra(asked)))


def _batch(ask: _Ask, asked: list[Asked]) -> dict[Asked, Scored]:
    unique = [a for a in dict.fromkeys(asked) if a[0]]
    if not unique:
        return {}
    outputs = ask.translate(unique)
    if len(outputs) != len(unique):
        raise ValueError(f"translator returned {len(outputs)} texts for {len(unique)}")
    return dict(zip(unique, outputs))


def _try_runs(unit: _Unit, translated: dict[Asked, Scored]) -> str | None:
    """Rebuild the unit from separately translated runs.

    A run the model returned empty (small models do this for a lone "The") keeps its English
    words: one untranslated word beats sending the whole segment down to English. The step
    fails only when no run at all was translated.
    """
    out = []
    any_translated = False
    for part in _SPLIT_RE.split(unit.text):
        if TAG_RE.fullmatch(part) or not has_words(part):
            out.append(part)
            continue
        core = part.strip()
        result = strip_tags(translated.get((core, unit.context), _NOTHING).text).strip()
        if result:
            any_translated = True
        else:
            result = core
        out.append(part[: len(part) - len(part.lstrip())] + result + part[len(part.rstrip()) :])
    return "".join(out) if any_translated else None


def _run_texts(unit: _Unit) -> list[str]:
    return [p.strip() for p in _SPLIT_RE.split(unit.text) if not TAG_RE.fullmatch(p) and has_words(p)]


def _join(units: list[_Unit]) -> str:
    out = ""
    for i, unit in enumerate(units):
        body = apply_ids(unit.result or "", unit.ids)
        out += unit.lead + body
        if i + 1 < len(units):
            nxt = units[i + 1].result or ""
            if unit.trail and "\n" not in unit.trail and _CJK_END_RE.search(body) and nxt[:1] and not nxt[:1].isascii():
                continue  # Chinese sentences are not separated by spaces
            out += unit.trail
        else:
            out += unit.trail
    return out


def _first_pass(units: list[_Unit], ask: _Ask) -> None:
    outputs = _batch(ask, [(u.text, u.context) for u in units])
    for u in units:
        out = outputs.get((u.text, u.context), _NOTHING)
        if not validate(u.text, out.text):
            u.result, u.scores = out.text, [out.score]


def _next_hypotheses(units: list[_Unit], ask: _Ask) -> None:
    if not ask.nbest:
        return
    keys = list(dict.fromkeys((u.text, u.context) for u in units))
    hyps = dict(zip(keys, ask.translate_nbest(keys, NBEST)))
    for u in units:
        for candidate in hyps.get((u.text, u.context), [])[1:]:
            if not validate(u.text, candidate.text):
                u.result, u.step, u.scores = candidate.text, "nbest", [candidate.score]
                break


def _separate_runs(units: list[_Unit], ask: _Ask) -> None:
    runs = _batch(ask, [(r, u.context) for u in units for r in _run_texts(u)])
    for u in units:
        out = _try_runs(u, runs)
        if out is not None and not validate(u.text, out):
            mine = [(r, u.context) for r in _run_texts(u)]
            used = [runs[r] for r in mine if strip_tags(runs.get(r, _NOTHING).text).strip()]  # as _try_runs
            u.result, u.step, u.scores = out, "runs", [o.score for o in used]


def _drop_pairs(units: list[_Unit], ask: _Ask) -> None:
    droppers = [u for u in units if u.droppable]
    reduced = {id(u): without_pairs(u.text, u.droppable) for u in droppers}
    outputs = _batch(ask, [(reduced[id(u)], u.context) for u in droppers])
    for u in droppers:
        out = outputs.get((reduced[id(u)], u.context), _NOTHING)
        if not validate(reduced[id(u)], out.text):
            u.result, u.step, u.scores = out.text, "drop_pairs", [out.score]


def translate_segments(
    texts: Sequence[str],
    translator: Translator,
    *,
    droppable: Sequence[Collection[int]] | None = None,
    max_sentence_chars: int = MAX_SENTENCE_CHARS,
    contexts: Sequence[str] | None = None,
) -> list[SegmentTranslation]:
    """Translate segment texts (placeholders included) with validation and fallbacks.

    Every step sends one batch for all the pieces still broken. ``droppable[i]`` names the pair
    ids of ``texts[i]`` that step ``drop_pairs`` may remove (emphasis-like pairs, never links;
    ``Segment.droppable_pairs``); without it that step is skipped. Errors raised by the
    translator itself propagate. A backend's bare translator is adapted here
    (``translator.as_translator``), so a caller may pass either. ``contexts[i]``: the page
    context of ``texts[i]`` (``context.page_contexts``), given with every piece of it the
    translator is asked for, as ``contexts=`` (None: the translator is never given any).
    """
    ask = _Ask(as_translator(translator), contexts is not None)
    all_units = [
        _units(text, droppable[i] if droppable is not None else (), max_sentence_chars,
               contexts[i] if contexts is not None else "")
        for i, text in enumerate(texts)
    ]
    todo = []
    for u in (u for units in all_units for u in units):
        if has_words(u.text):
            todo.append(u)
        else:
            u.result = u.text  # nothing to translate: placeholders, numbers, whitespace
    for step in (_first_pass, _next_hypotheses, _separate_runs, _drop_pairs):
        if not todo:
            break
        step(todo, ask)
        todo = [u for u in todo if u.result is None]
    for u in todo:
        u.result, u.step = u.text, "english"

    results = []
    for text, units in zip(texts, all_units):
        steps = [u.step for u in units if u.step]
        worst = max(steps, key=LADDER.index) if steps else None
        score = lowest([s for u in units if u.scores is not None for s in u.scores])
        results.append(SegmentTranslation(_join(units) if worst != "english" or len(units) > 1 else text, worst, score))
    return results
