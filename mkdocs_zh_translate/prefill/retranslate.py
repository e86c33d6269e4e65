"""``prefill --retranslate``: the team's explicit choice to let a new model redo the site.

A build with a tuned model keeps serving what its predecessors left in the machine cache
(``pipeline.lineage``) and translates only new or changed text. This command re-translates the
texts an earlier model wrote, the least confident first (the model's own score, as ``review
report --worst`` ranks them; texts without a score last), after saying how many there are and,
from a timed first chunk, about how long the rest takes. Interrupt it any time: each finished
chunk is stored under the new model's key, which a build then finds first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..pipeline.cache import Hit
from ..pipeline.service import Requests
from ..plugin.collect import EnglishBuild, with_english_build

#: Texts translated first and timed for the estimate of the rest.
SAMPLE = 8
#: Texts per call after the sample (each call stores its chunks as it goes).
CHUNK = 64


@dataclass
class Retranslated:
    """What a ``--retranslate`` run found and did."""

    older: dict[str, int] = field(default_factory=dict)  # model name -> texts it wrote
    chosen: int = 0  # texts to re-translate (after --limit)
    done: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        return f"retranslate: {self.done} of {self.chosen} texts re-translated in {self.seconds:.1f}s"


def _worst_first(hits: Mapping[str, Hit]) -> list[str]:
    """Texts an earlier model wrote, lowest score first, unscored last, then by text (stable)."""
    older = [(text, hit) for text, hit in hits.items() if hit.model is not None]
    older.sort(key=lambda item: (item[1].score is None, item[1].score or 0.0, item[0]))
    return [text for text, _hit in older]


def _subset(requests: Requests, texts: list[str]) -> Requests:
    part = Requests()
    for text in texts:
        part.add(text, requests.droppable[text])
    return part


def _estimate(seconds: float, sample: list[str], rest: list[str]) -> float:
    """The rest's time from the sample's, by characters (a long text costs more than a short one)."""
    chars = sum(len(t) for t in sample) or 1
    return seconds * sum(len(t) for t in rest) / chars


def retranslate(config_file: Path, say: Callable[[str], None], options: Mapping[str, Any] | None = None,
                limit: int | None = None) -> Retranslated:
    """Re-translate (up to ``limit``) the texts of the site an earlier model wrote, worst first."""
    from .run import Where, _prefill_translator

    result = Retranslated()

    def run(build: EnglishBuild) -> None:
        translator, _label = _prefill_translator(build.translator, Where(), None)
        service = translator.service
        strings = list(build.site_strings) + [v for metas in build.metas.values() for v in metas.values()]
        needed = translator.machine_requests(list(build.jobs.values()), strings)
        hits = service.lookup(needed)
        for hit in hits.values():
            if hit.model is not None:
                result.older[hit.model] = result.older.get(hit.model, 0) + 1
        texts = _worst_first(hits)[:limit] if limit else _worst_first(hits)
        result.chosen = len(texts)
        by = ", ".join(f"{n} by {name}" for name, n in sorted(result.older.items())) or "none"
        say(f"retranslate: {len(texts)} texts to re-translate, worst confidence first (written by an earlier "
            f"model: {by})")
        if not texts:
            return
        started = time.perf_counter()
        sample, rest = texts[:SAMPLE], texts[SAMPLE:]
        service.translate(_subset(needed, sample), fresh=sample)
        result.done = len(sample)
        spent = time.perf_counter() - started
        if rest:
            say(f"retranslate: about {_estimate(spent, sample, rest):.0f}s for the other {len(rest)} "
                f"(the first {len(sample)} took {spent:.1f}s)")
        for at in range(0, len(rest), CHUNK):
            part = rest[at : at + CHUNK]
            service.translate(_subset(needed, part), fresh=part)
            result.done += len(part)
        result.seconds = time.perf_counter() - started

    with_english_build(config_file, run, options)
    return result
