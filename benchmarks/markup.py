"""Markup benchmark: whole sentences, fallbacks and tag placement per model and markup strategy.

Two modes, both through the project's real translation path: ``load_translator`` (the backend
with the markup strategy applied, as a build loads it) and ``TranslationService.translate``
(chunks, glossary, the fallback ladder of ``pipeline/ladder.py``: what a page build and
``prefill`` run), with no cache.

**Known-alignment set** (default): the held-back sentences of ``tools/markup_set.py``, each with
its reference target, through every registered strategy (``pipeline/markup.py``) on each model,
one table (``--json``: one object). Per model and strategy, over the N sentences:

* ``whole``: the sentence reached the model whole and its output was used (no fallback, or
  ``nbest``/``drop_pairs``: another hypothesis, or the sentence without some emphasis pairs);
  ``pieces``: ladder step ``runs`` (translated in pieces split at the markup); ``english``:
  kept in English; ``nbest`` and ``drop_pairs`` are also counted on their own;
* ``ph_err``: of the sentences with markup, the share whose *raw* output (the first output the
  ladder got for it: the model's for ``tags``, the strategy's for others) fails ``validate``;
* ``exact``: of the sentences with markup, the share whose final target equals the reference
  token for token (``markup_set.tokens``: tags, ASCII words, single other characters; spaces
  ignored): right words, every tag at its place, in the right order and nesting;
* ``text``: the share (all sentences) whose final target has the reference's words once the
  tags are removed: translation quality, wherever the tags went;
* ``placed|text``: of the sentences with markup and right words, the share placed exactly:
  placement with translation errors factored out;
* ``tag_acc``: of all the references' tags, the share the output holds exactly once between the
  same two text tokens as the reference (``markup_set.tag_contexts``: the nearest non-tag token
  on each side, or the sentence's start or end; a word wrong elsewhere does not count against
  the tag);
* ``tag|placeable``: of the references' tags whose two neighbours are neighbours in the output's
  text too (``markup_set.Score.placeable``: the words around the tag survived translation), the
  share placed exactly: placement tag by tag with translation errors factored out (``tag_acc``
  cannot exceed the share of tags that are placeable);
* ``sent/s``: sentences per second of the whole path (ladder retries included, model load not).

**Sites** (``--sites example,markdown,...``): the Markdown pages of the example site or of real
doc sets of ``tests/realsites`` (sdists from ``$ZH_TRANSLATE_REALSITES_CACHE``, downloaded by the
harness when missing; no MkDocs build: front matter removed as MkDocs does, then segmented with
the default site syntax), every distinct segment text through the path. Columns: distinct
texts, texts with markup, texts that needed any fallback, in pieces (``runs``), kept English.
``--sample N`` takes a fixed N of each site's distinct texts (a slow model on a busy machine).

Models: ``demo`` (the tiny test model, ``tests/models.py``, trained with placeholders in half
its data), ``tagfree`` (the same task, never saw a placeholder), or ``NAME=DIR`` (an exported
model directory). Both tiny models are trained on first use and cached::

    export PYTHONPATH=$PWD ZH_TRANSLATE_TEST_CACHE=/work/main/.cache/test-models
    python benchmarks/markup.py                          # 1,000 sentences, all strategies, both models
    python benchmarks/markup.py --n 200 --json
    python benchmarks/markup.py --sites example,markdown,mkdocstrings
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mkdocs_zh_translate.pipeline.backends import load_translator
from mkdocs_zh_translate.pipeline.build import GIVEN_TRANSLATOR, build_pipeline
from mkdocs_zh_translate.pipeline.markup import markup_names
from mkdocs_zh_translate.pipeline.pages import site_requests
from mkdocs_zh_translate.pipeline.service import Requests
from mkdocs_zh_translate.pipeline.translator import Translator
from mkdocs_zh_translate.scored import Scored
from mkdocs_zh_translate.segment import TAG_RE, SegmentedPage, segment_markdown, validate
from tools.markup_set import MarkupCase, markup_set, score

REPO = Path(__file__).resolve().parents[1]
WHOLE_STEPS = (None, "nbest", "drop_pairs")


class Recorder:
    """The translator the ladder calls, recording the first output it got for each text."""

    def __init__(self, inner: Translator) -> None:
        self.inner = inner
        self.raw: dict[str, str] = {}

    speaks_scored = True  # it passes the wrapped translator's Scored outputs on

    def _keep(self, texts: Sequence[str], outputs: Sequence[Scored]) -> None:
        for text, out in zip(texts, outputs):
            self.raw.setdefault(text, out.text)

    def translate(self, texts: Sequence[str]) -> list[Scored]:
        outputs = self.inner.translate(texts)
        self._keep(texts, outputs)
        return outputs

    def translate_nbest(self, texts: Sequence[str], n: int) -> list[list[Scored]]:
        nbest = getattr(self.inner, "translate_nbest", None)
        if nbest is None:  # as if the ladder skipped the step: no runner-up
            return [[out] for out in self.translate(texts)]
        result: list[list[Scored]] = nbest(texts, n)
        self._keep(texts, [hyps[0] if hyps else Scored("", None) for hyps in result])
        return result


def model_dir(name: str, quantize: str) -> tuple[str, Path]:
    """``demo``, ``tagfree`` or ``NAME=DIR`` -> (label, exported model directory)."""
    if "=" in name:
        label, _, path = name.partition("=")
        return label, Path(path)
    from tests.models import TAGFREE, tiny_onnx_model

    presets = {"demo": "test", "tagfree": TAGFREE}
    if name not in presets:
        raise SystemExit(f"error: unknown model {name!r}: use demo, tagfree or NAME=DIR")
    return name, tiny_onnx_model(quantize, preset=presets[name])


def run_path(
    model: Path, strategy: str, requests: Requests, *, beams: int | None, threads: int
) -> tuple[dict[str, tuple[str, str | None]], dict[str, str], float]:
    """Every request through the real path: ``{text: (translation, fallback)}``, the raw
    outputs and the seconds it took (model load excluded)."""
    recorder = Recorder(load_translator("onnx", model, beams=beams, threads=threads, markup=strategy))
    service = build_pipeline(GIVEN_TRANSLATOR, load=lambda _spec: recorder).service
    started = time.perf_counter()
    hits = service.translate(requests)
    seconds = time.perf_counter() - started
    return {t: (h.text, h.fallback) for t, h in hits.items()}, recorder.raw, seconds


@dataclass
class SetRow:
    """One (model, strategy) row of the known-alignment table (see the module docstring)."""

    model: str
    strategy: str
    sentences: int
    with_markup: int
    whole: float
    pieces: float
    english: float
    nbest: float
    drop_pairs: float
    ph_err: float
    exact: float
    text: float
    placed_given_text: float
    tag_acc: float
    tag_placeable: float
    seconds: float
    sent_per_s: float


def score_set(
    model: str,
    strategy: str,
    cases: Sequence[MarkupCase],
    results: dict[str, tuple[str, str | None]],
    raw: dict[str, str],
    seconds: float,
) -> SetRow:
    """The row for one run over ``cases`` (``results`` and ``raw`` as :func:`run_path` gives)."""
    n = len(cases)
    tagged = [c for c in cases if TAG_RE.search(c.source)]
    steps = [results[c.source][1] for c in cases]
    scores = {c.source: score(results[c.source][0], c.reference) for c in cases}
    right_text = [c for c in tagged if scores[c.source].text]
    tags = sum(scores[c.source].tags for c in tagged)

    def share(count: int, total: int) -> float:
        return round(count / total, 4) if total else 0.0

    return SetRow(
        model=model,
        strategy=strategy,
        sentences=n,
        with_markup=len(tagged),
        whole=share(sum(s in WHOLE_STEPS for s in steps), n),
        pieces=share(steps.count("runs"), n),
        english=share(steps.count("english"), n),
        nbest=share(steps.count("nbest"), n),
        drop_pairs=share(steps.count("drop_pairs"), n),
        ph_err=share(sum(bool(validate(c.source, raw.get(c.source, ""))) for c in tagged), len(tagged)),
        exact=share(sum(scores[c.source].exact for c in tagged), len(tagged)),
        text=share(sum(s.text for s in scores.values()), n),
        placed_given_text=share(sum(scores[c.source].exact for c in right_text), len(right_text)),
        tag_acc=share(sum(scores[c.source].tags_placed for c in tagged), tags),
        tag_placeable=share(sum(scores[c.source].placed_placeable for c in tagged),
                            sum(scores[c.source].placeable for c in tagged)),
        seconds=round(seconds, 1),
        sent_per_s=round(n / seconds, 1) if seconds else 0.0,
    )


SET_COLUMNS = ("whole", "pieces", "english", "nbest", "drop_pairs", "ph_err", "exact", "text",
               "placed_given_text", "tag_acc", "tag_placeable", "sent_per_s")


def set_table(rows: Sequence[SetRow]) -> str:
    """The known-alignment rows as a Markdown table (shares in %)."""
    labels = {"placed_given_text": "placed|text", "tag_placeable": "tag|placeable"}
    head = ["model", "strategy", *(labels.get(c, c) for c in SET_COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row.model, row.strategy]
        for col in SET_COLUMNS:
            value = getattr(row, col)
            cells.append(f"{value:.1f}" if col == "sent_per_s" else f"{100 * value:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Sites
# ---------------------------------------------------------------------------------------------


def _pages(docs: Path) -> list[SegmentedPage]:
    from mkdocs.utils.meta import get_data

    pages = []
    for path in sorted(docs.rglob("*.md")):
        markdown, _ = get_data(path.read_text(encoding="utf-8", errors="replace"))
        try:
            pages.append(segment_markdown(markdown))
        except Exception as exc:  # a page the segmenter refuses is left out, and said so
            print(f"  {path.relative_to(docs)}: not segmented ({str(exc).splitlines()[0][:80]})", file=sys.stderr)
    return pages


_DOCS_DIR = re.compile(r"^docs_dir:\s*['\"]?([^'\"\s#]+)", re.M)


def site_pages(name: str, work: Path) -> list[SegmentedPage]:
    """The segmented pages of ``example`` or of a tests/realsites doc set (unpacked into ``work``)."""
    if name == "example":
        return _pages(REPO / "example_site" / "docs")
    from tests.realsites.harness import strip_exec_options, unpack
    from tests.realsites.sites import by_name

    site = by_name(name)
    project = unpack(site, work / name)
    strip_exec_options(project)
    found = _DOCS_DIR.search((project / site.config).read_text(encoding="utf-8"))
    return _pages(project / (found.group(1) if found else "docs"))


def sample(requests: Requests, n: int | None) -> Requests:
    """At most ``n`` of the texts, the same ones on every run (ordered by their sha256)."""
    if n is None or len(requests) <= n:
        return requests
    chosen = sorted(requests.droppable, key=lambda t: hashlib.sha256(t.encode()).digest())[:n]
    return Requests({t: requests.droppable[t] for t in chosen})


@dataclass
class SiteRow:
    site: str
    model: str
    strategy: str
    texts: int
    with_markup: int
    fallback: int
    pieces: int
    english: int
    seconds: float


def site_row(
    site: str, model: str, strategy: str, results: dict[str, tuple[str, str | None]], seconds: float
) -> SiteRow:
    """One (site, model, strategy) row: distinct texts, and what the ladder did to them."""
    steps = [fallback for _, fallback in results.values()]
    return SiteRow(
        site=site,
        model=model,
        strategy=strategy,
        texts=len(results),
        with_markup=sum(bool(TAG_RE.search(t)) for t in results),
        fallback=sum(s is not None for s in steps),
        pieces=steps.count("runs"),
        english=steps.count("english"),
        seconds=round(seconds, 1),
    )


def site_table(rows: Sequence[SiteRow]) -> str:
    head = ["site", "model", "strategy", "texts", "with markup", "any fallback", "in pieces", "English", "seconds"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append(
            f"| {r.site} | {r.model} | {r.strategy} | {r.texts} | {r.with_markup} | "
            f"{r.fallback} ({100 * r.fallback / max(1, r.texts):.1f}%) | "
            f"{r.pieces} ({100 * r.pieces / max(1, r.texts):.1f}%) | {r.english} | {r.seconds} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default="demo,tagfree", help="demo, tagfree or NAME=DIR, comma-separated")
    parser.add_argument("--strategies", default=",".join(markup_names()),
                        help=f"markup strategies (default: all registered: {', '.join(markup_names())})")
    parser.add_argument("--n", type=int, default=1000, help="sentences of the known-alignment set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sites", help="instead: example and/or tests/realsites names, comma-separated")
    parser.add_argument("--sample", type=int, help="with --sites: at most this many distinct texts per site "
                        "(a fixed choice: the smallest sha256 of the text)")
    parser.add_argument("--quantize", default="int8", choices=("none", "int8"), help="for demo and tagfree")
    parser.add_argument("--beams", type=int, help="default: the model's own (4 for the tiny models)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    models = [model_dir(m.strip(), args.quantize) for m in args.models.split(",") if m.strip()]
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    options = {"beams": args.beams, "threads": args.threads}

    if args.sites:
        site_rows: list[SiteRow] = []
        with tempfile.TemporaryDirectory(prefix="markup-sites-") as tmp:
            for site in (s.strip() for s in args.sites.split(",") if s.strip()):
                requests = sample(site_requests(site_pages(site, Path(tmp)), []), args.sample)
                for label, path in models:
                    for strategy in strategies:
                        results, _, seconds = run_path(path, strategy, requests, **options)
                        site_rows.append(site_row(site, label, strategy, results, seconds))
                        if not args.json:
                            print(site_table(site_rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
        print(json.dumps([asdict(r) for r in site_rows], indent=1) if args.json else site_table(site_rows))
        return 0

    cases = markup_set(args.n, args.seed)
    requests = Requests()
    for case in cases:
        requests.add(case.source, case.droppable)
    rows: list[SetRow] = []
    for label, path in models:
        for strategy in strategies:
            results, raw, seconds = run_path(path, strategy, requests, **options)
            rows.append(score_set(label, strategy, cases, results, raw, seconds))
    if args.json:
        print(json.dumps({"sentences": len(cases), "seed": args.seed, "quantize": args.quantize,
                          "rows": [asdict(r) for r in rows]}, indent=1))
    else:
        print(f"{len(cases)} sentences ({rows[0].with_markup if rows else 0} with markup), seed {args.seed}, "
              f"{args.quantize}; shares in %")
        print(set_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
