"""A synthetic domain shift on the tiny model's task: the team's reviewers translate a few terms
and one phrasing differently from the model, consistently.

The tiny model learnt ``tools.export_tiny.pseudo_translate``: every English word has one fixed
run of CJK characters. The "reviewed" Chinese here is the same task with the chosen terms (and
``make sure``) spelt another way, from the same characters the model's target vocabulary has:
what a team's house style looks like to a model. Deterministic for a seed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from mkdocs_zh_translate.quality.references import Reference
from tools.export_tiny import NOUNS, PHRASES, make_pair, pseudo_translate, word_chunk

#: The terms the reviewers spell their own way.
TERMS = ("plugin", "theme", "server", "template", "package")
#: The phrasing they change.
PHRASE = ("make", "sure")


#: The house style: each term written as the model writes another word of the task (a team
#: that calls plugins "extensions" and themes "styles" in Chinese), so every form is one the
#: model's target vocabulary spells well, as a real team's Chinese term is a word of the model's
#: vocabulary. A sentence that holds the other word too is not counted (its form is there anyway).
SYNONYMS = {"plugin": "extension", "theme": "style", "server": "host", "template": "layout", "package": "library"}
PHRASE_SYNONYM = "check"


def reviewed_form(word: str) -> str:
    """The reviewers' spelling of ``word`` (a term, or ``make sure``)."""
    form = word_chunk(SYNONYMS.get(word, PHRASE_SYNONYM))
    assert form != word_chunk(word) and form != PHRASES[PHRASE]
    return form


FORMS = {word: reviewed_form(word) for word in TERMS}
PHRASE_FORM = reviewed_form(" ".join(PHRASE))


_TERM_WORDS = re.compile(r"\b(?:" + "|".join([*TERMS, " ".join(PHRASE)]) + r")\b", re.IGNORECASE)


def house_style(source: str) -> str:
    """The reviewed Chinese of ``source``: the task's answer for the English with the team's
    words (each term, and ``make sure``, said as its synonym)."""
    def synonym(match: re.Match[str]) -> str:
        word = match.group(0).lower()
        return SYNONYMS.get(word, PHRASE_SYNONYM)

    return pseudo_translate(_TERM_WORDS.sub(synonym, source))


def _with_term(source: str, rng: random.Random) -> str:
    words = source.split(" ")
    nouns = [i for i, w in enumerate(words) if w.strip(".,:;?!").lower() in NOUNS and w.strip(".,:;?!").isalpha()]
    if not nouns:
        return source
    i = rng.choice(nouns)
    tail = words[i][len(words[i].rstrip(".,:;?!")):]
    words[i] = rng.choice(TERMS) + tail
    return " ".join(words)


def sentences(n: int, seed: int) -> list[str]:
    """``n`` distinct English sentences of the task, most holding a term, some the phrasing."""
    rng = random.Random(f"domain-{seed}")
    out: dict[str, None] = {}
    while len(out) < n:
        source, _ = make_pair(rng, placeholder_rate=0.0)
        if rng.random() < 0.8:
            source = _with_term(source, rng)
        if rng.random() < 0.25:
            source = "Make sure " + source[0].lower() + source[1:]
        out[source] = None
    return list(out)


@dataclass(frozen=True)
class Entry:
    page: int
    source: str
    reference: str


def reviewed_entries(n: int = 200, pages: int = 10, seed: int = 0, shuffled: bool = False) -> list[Entry]:
    """``n`` reviewed entries over ``pages`` PO files; ``shuffled``: every reference belongs to
    another entry's English (data that cannot help)."""
    sources = sentences(n, seed)
    refs = [house_style(s) for s in sources]
    if shuffled:
        rng = random.Random(f"shuffle-{seed}")
        rng.shuffle(refs)
    return [Entry(i % pages, s, r) for i, (s, r) in enumerate(zip(sources, refs))]


def references(entries: list[Entry]) -> list[Reference]:
    return [Reference(f"docs/page{e.page}.po:{10 + i}", e.source, e.reference) for i, e in enumerate(entries)]


def term_hits(sources: list[str], outputs: list[str]) -> tuple[int, int]:
    """(reviewed forms found, forms expected) over the terms and phrasing in ``sources``."""
    found = wanted = 0
    for source, output in zip(sources, outputs):
        words = set(re.findall(r"[a-z]+", source.lower()))
        for word, form in FORMS.items():
            if word in words and SYNONYMS[word] not in words:
                wanted += 1
                found += form in output
        if "make sure" in " ".join(re.findall(r"[a-z]+", source.lower())) and PHRASE_SYNONYM not in words:
            wanted += 1
            found += PHRASE_FORM in output
    return found, wanted


def general_pairs(n: int = 100) -> list[tuple[str, str]]:
    """The general held-out set: the task's own held-out sentences, its own references."""
    from tools.export_tiny import heldout_pairs

    return heldout_pairs(n, placeholders=False)
