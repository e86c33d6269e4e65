"""Every fake translator of the test suite, in one place.

Each stands in for the model with one behaviour a test needs: counting calls, a scripted answer,
"Chinese" that puts CJK against markup, a Ctrl-C mid-build, a model that breaks emphasis. They
all satisfy ``mkdocs_zh_translate.Translator`` (``translate(texts) -> list[str]``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from typing import Any

TAG_RE = re.compile(r"(<x\d+/>|</?g\d+>)")
_PAIR_TAG_RE = re.compile(r"</?g\d+>")


def upper_outside_tags(text: str) -> str:
    """The counting fake's "translation": upper-case, placeholders untouched."""
    return re.sub(r"(<[^>]*>)|([^<]+)", lambda m: m.group(1) or m.group(2).upper(), text)


class CountingTranslator:
    """A fake model: upper-cases text outside placeholders; counts calls and segments and keeps
    every text (``seen``); raises KeyboardInterrupt (a Ctrl-C mid-build) once it has served
    ``fail_after`` calls."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.calls = 0
        self.segments = 0
        self.seen: list[str] = []
        self.fail_after = fail_after

    def translate(self, texts: Sequence[str]) -> list[str]:
        if self.fail_after is not None and self.calls >= self.fail_after:
            raise KeyboardInterrupt
        self.calls += 1
        self.segments += len(texts)
        self.seen.extend(texts)
        return [upper_outside_tags(t) for t in texts]


class EmphasisBreaker(CountingTranslator):
    """A model that loses emphasis: a text with a ``<gN>`` pair comes back with every pair tag
    removed (invalid), and it cannot translate the fragments between that text's placeholders
    (empty answers), so the only ladder step that can save such a text is ``drop_pairs``.
    Texts without pairs are upper-cased like :class:`CountingTranslator`."""

    def __init__(self) -> None:
        super().__init__()
        self._broken: list[str] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.calls += 1
        self.seen.extend(texts)
        out = []
        for text in texts:
            if _PAIR_TAG_RE.search(text):
                stripped = _PAIR_TAG_RE.sub("", text)
                self._broken.append(stripped)
                out.append(upper_outside_tags(stripped))
            elif any(text in broken and len(text) < len(broken) for broken in self._broken):
                out.append("")  # a fragment of a text it broke
            else:
                out.append(upper_outside_tags(text))
        return out


class Scripted:
    """A translator whose answer for each text is computed by ``rule``; records every call."""

    def __init__(self, rule: Callable[[str], str]) -> None:
        self.rule = rule
        self.calls: list[list[str]] = []

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.calls.append(list(texts))
        return [self.rule(t) for t in texts]


class ScriptedNBest(Scripted):
    """:class:`Scripted` with alternatives for the ladder's ``nbest`` step."""

    def __init__(self, rule: Callable[[str], str], alternatives: Callable[[str], list[str]]) -> None:
        super().__init__(rule)
        self.alternatives = alternatives

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[str]]:
        return [[self.rule(t), *self.alternatives(t)][:n] for t in texts]


class Recorder:
    """Remembers what it was asked; ``mode="han"`` turns words into 文, ``mode="drop"`` loses
    every placeholder and has nothing for the runs between them."""

    fingerprint = "recorder-v1"

    def __init__(self, mode: str = "han") -> None:
        self.calls: list[str] = []
        self.mode = mode

    def translate(self, texts: Sequence[str]) -> list[str]:
        self.calls.extend(texts)
        if self.mode == "drop":
            return [re.sub(r"<x\d+/>|</?g\d+>", "", t) + "。" if "<" in t else "" for t in texts]
        return [
            "".join(p if re.fullmatch(r"<x\d+/>|</?g\d+>", p) else re.sub(r"[A-Za-z]+", "文", p)
                    for p in re.split(r"(<x\d+/>|</?g\d+>)", t))
            for t in texts
        ]


class WordTranslator:
    """A stand-in for a Chinese model: every English word becomes CJK, spaces between CJK go,
    placeholders stay. Its output puts CJK right against emphasis, links and URLs, which is
    exactly where Markdown breaks."""

    name = "words"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [self._one(t) for t in texts]

    @staticmethod
    def _one(text: str) -> str:
        parts = re.split(r"(<x\d+/>|</?g\d+>)", text)
        out = []
        for part in parts:
            if TAG_RE.fullmatch(part):
                out.append(part)
            else:
                words = re.sub(r"[A-Za-z][A-Za-z'-]*", "词", part)
                words = re.sub(r"(?<=[词，。])\s+(?=[词])", "", words)
                out.append(words.replace(". ", "。").replace(", ", "，"))
        joined = "".join(out).replace("\n", " ")
        # Chinese has no spaces between words, nor around the formatting inside a sentence.
        return re.sub(r"(?<=[词。，>:])[ ]+(?=[词<])|(?<=[词。，])[ ]+(?=[<:])", "", joined)


def _han_word(word: str) -> str:
    """A stable one- or two-character Han "translation" of an English word (distinct words
    mostly get distinct characters, as with a real model)."""
    code = zlib.crc32(word.lower().encode())
    chars = [chr(0x4E00 + code % 20000), chr(0x4E00 + (code // 20000) % 20000)]
    return "".join(chars[: 1 + len(word) % 2])


class HanTranslator:
    """A stand-in for a real model that writes "Chinese": every English word becomes Han
    characters and the spaces between them disappear, so markup ends up touching CJK text the
    way real translations make it (the case reST's inline markup rules trip over)."""

    fingerprint = "han-test-v1"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [self._one(t) for t in texts]

    @staticmethod
    def _one(text: str) -> str:
        out = []
        for part in TAG_RE.split(text):
            if TAG_RE.fullmatch(part):
                out.append(part)
                continue
            part = re.sub(r"[A-Za-z]+", lambda m: _han_word(m.group(0)), part)
            part = re.sub(r"(?<=[\u4e00-\u9fff]) +(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]) +$|^ +(?=[\u4e00-\u9fff])", "", part)
            out.append(part.replace(",", "，").replace(".", "。"))
        return "".join(out)



def site_translator(
    machine: Any,
    lazy: Any,
    spec: Any,
    *,
    reviewer: Any = None,
    glossary: Any = None,
    guard: Any = None,
    allow_untranslated: bool = False,
    **options: Any,
) -> Any:
    """A ``SiteTranslator`` over ``machine`` wired as the plugin wires it (``build_pipeline``,
    English fallback counted, no progress), for tests that translate pages without MkDocs."""
    from mkdocs_zh_translate.pipeline.build import SiteInputs, build_pipeline
    from mkdocs_zh_translate.pipeline.pages import SiteTranslator

    site = SiteInputs(cache=machine, reviews=reviewer, glossary=glossary, guard=guard)
    pipeline = build_pipeline(spec, site, lazy=lazy, english_fallback=True)
    return SiteTranslator(pipeline, allow_untranslated=allow_untranslated, **options)
