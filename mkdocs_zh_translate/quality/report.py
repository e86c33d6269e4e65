"""``eval``'s output: a short aligned table for people, one JSON document for CI.

The JSON keeps the run report's envelope (``format``, ``tool``, ``command``: see
``pipeline/report.py``) and adds ``references`` and ``runs`` (one object per translator, the
same keys each; the user guide's review page, "Measure the quality", documents them). ``FORMAT`` is bumped when a key
changes meaning or goes away; new keys do not bump it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..pipeline.report import TOOL
from ..plaintext import json_text
from .references import ReferenceSet
from .run import WORST as WORST  # re-exported: the CLI's default
from .run import RunResult

FORMAT = 1
_EXCERPT = 60


def eval_report(
    references: ReferenceSet, runs: Sequence[RunResult], *, min_chrf: float | None = None, worst: int = WORST
) -> dict[str, Any]:
    """The JSON document of one ``eval`` (see the module docstring)."""
    from .._version import __version__

    report: dict[str, Any] = {
        "format": FORMAT,
        "tool": {"name": TOOL, "version": __version__},
        "command": "eval",
        "references": {
            "origin": references.origin,
            "count": len(references.references),
            "skipped": len(references.skipped),
        },
        "runs": [run.as_json(worst) for run in runs],
    }
    if min_chrf is not None:
        report["threshold"] = {"min_chrf": min_chrf, "passed": passed(runs, min_chrf)}
    return report


def passed(runs: Sequence[RunResult], min_chrf: float) -> bool:
    """Every run reached ``min_chrf``."""
    return all(run.scores.chrf >= min_chrf for run in runs)


def dumps(report: dict[str, Any]) -> str:
    return json_text(report) + "\n"  # no raw control reaches a terminal


def _share(n: int, total: int) -> str:
    return f"{n} ({100.0 * n / total:.0f}%)" if total else str(n)


def table(runs: Sequence[RunResult]) -> str:
    """One column per run, one row per measure, aligned."""
    rows: list[tuple[str, list[str]]] = [
        ("chrF", [f"{r.scores.chrf:.1f}" for r in runs]),
        ("BLEU (zh)", [f"{r.scores.bleu:.1f}" for r in runs]),
        ("whole", [_share(r.counts.whole, r.sentences) for r in runs]),
        ("in pieces", [_share(r.counts.pieces, r.sentences) for r in runs]),
        ("left English", [_share(r.counts.english, r.sentences) for r in runs]),
        ("placeholder errors", [_share(r.placeholder_errors, r.sentences) for r in runs]),
        ("untranslated English", [_share(r.untranslated, r.sentences) for r in runs]),
        ("length outliers", [_share(r.length_outliers, r.sentences) for r in runs]),
        ("seconds", [f"{r.seconds:.1f}" for r in runs]),
    ]
    head = [r.label for r in runs]
    first = max(len(name) for name, _ in rows)
    widths = [max(len(head[i]), *(len(values[i]) for _, values in rows)) for i in range(len(runs))]
    lines = [" " * first + "".join(f"  {h:>{w}}" for h, w in zip(head, widths))]
    lines.extend(f"{name:<{first}}" + "".join(f"  {v:>{w}}" for v, w in zip(values, widths)) for name, values in rows)
    return "\n".join(lines)


def _cut(text: str) -> str:
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def worst_lines(run: RunResult, worst: int = WORST) -> list[str]:
    """The worst length outliers and English left of ``run``, one line each."""
    lines: list[str] = []
    for sentence, ratio in run.outliers[:worst]:
        pair = f"{_cut(sentence.candidate)!r} vs {_cut(sentence.reference)!r}"
        lines.append(f"  length x{ratio:.2f}  {sentence.where}: {pair}")
    for sentence, runs in run.english_left[:worst]:
        lines.append(f"  English   {sentence.where}: {_cut('; '.join(runs))!r}")
    return lines
