"""A synthetic domain shift on the tiny model's task: the team's reviewers translate a few terms
and one phrasing differently from the model, consistently.

The tiny model learnt ``tools.export_tiny.pseudo_translate``: every English word has one fixed
run of CJK characters. The "reviewed" Chinese here is the same task with the chosen terms (and
``make sure``) spelt another way, from the same characters the model's target vocabulary has:
what a team's house style looks like to a model. Deterministic for a seed.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from mkdocs_zh_translate.quality.references import Reference
from tools.export_tiny import CJK_POOL, NOUNS, PHRASES, make_pair, pseudo_translate, word_chunk

#: The terms the reviewers spell their own way.
TERMS = ("plugin", "theme", "server", "template", "package")
#: The phrasing they change.
PHRASE = ("make", "sure")


def reviewed_form(word: str) -> str:
    """The reviewers' spelling of ``word``: two characters of the model's own alphabet, unlike
    the model's (``word_chunk``)."""
    digest = hashlib.sha256(f"reviewed:{word}".encode()).digest()
    form = "".join(CJK_POOL[int.from_bytes(digest[i : i + 2], "big") % len(CJK_POOL)] for i in (0, 2))
    assert form != word_chunk(word)
    return form


FORMS = {word: reviewed_form(word) for word in TERMS}
PHRASE_FORM = reviewed_form(" ".join(PHRASE))


def house_style(source: str) -> str:
    """The reviewed Chinese of ``source``: the task's answer with the team's spellings."""
    text = pseudo_translate(source)
    for word, form in FORMS.items():
        text = text.replace(word_chunk(word), form)
    return text.replace(PHRASES[PHRASE], PHRASE_FORM)


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
        low = source.lower()
        for word, form in FORMS.items():
            if word in low.split() or f" {word}" in low or low.startswith(word):
                wanted += 1
                found += form in output
        if low.startswith("make sure") or " make sure" in low:
            wanted += 1
            found += PHRASE_FORM in output
    return found, wanted


def general_pairs(n: int = 100) -> list[tuple[str, str]]:
    """The general held-out set: the task's own held-out sentences, its own references."""
    from tools.export_tiny import heldout_pairs

    return heldout_pairs(n, placeholders=False)
