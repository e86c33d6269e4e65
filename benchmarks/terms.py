"""Glossary terms benchmark: no glossary vs substitution vs constrained decoding, measured.

The held-back sentences of ``tools/markup_set.py`` (with markup, as the segmenter emits it),
each given a one-entry glossary: a noun of the sentence (once, outside any phrase the task
merges) mapped to a Chinese term the model never learnt for it (two characters of the task's
pool chosen by a stable hash). The known reference is the task's own target with that word's
chunk replaced by the term, so the right output is known exactly. Every sentence goes through
the project's real path (``load_translator`` with the markup strategy, ``build_pipeline``
with the glossary and the fallback ladder; no cache), three ways:

* ``none``: no glossary (the model's own word for the noun);
* ``substitution``: the default ``terms:`` handling (the term becomes an atom placeholder, the
  atom becomes the Chinese afterwards; where the model loses the atom, the sentence is
  translated without it and the Chinese forced in decoding, when the translator can);
* ``decoding``: ``enforce: decoding`` (the Chinese is a constraint of the search,
  ``engine/terms.py``; substitution where it cannot apply).

``--kind related`` gives terms that share their first character with the model's own word (the
model's translation and the team's term overlap, as 高速缓存 and 缓存 do), where the search has a
place to start the term; the default ``unrelated`` ones the model gives no probability anywhere.

Columns: ``term``: share of outputs holding the term; ``whole``: share translated whole (no
ladder step beyond another hypothesis or dropped emphasis); ``chrF``: sacrebleu chrF of the
outputs against the references, tags removed from both (translation quality wherever the
markup went); ``exact``: share equal to the reference token for token, tags included;
``sent/s``: sentences per second (model load excluded; noisy: every case has its own term, whose
tables are built on first use). ``--speed`` times the engine alone instead, with warm tables::

    export PYTHONPATH=$PWD ZH_TRANSLATE_TEST_CACHE=/work/main/.cache/test-models
    python benchmarks/terms.py --n 300 --markup project
    python benchmarks/terms.py --n 300 --speed --quantize int8
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.markup import WHOLE_STEPS, model_dir
from mkdocs_zh_translate.pipeline.backends import load_translator
from mkdocs_zh_translate.pipeline.build import GIVEN_TRANSLATOR, SiteInputs, build_pipeline
from mkdocs_zh_translate.pipeline.glossary import Glossary, Term, _pattern
from mkdocs_zh_translate.pipeline.service import Requests
from mkdocs_zh_translate.segment import TAG_RE, tokenize
from tools.export_tiny import CJK_POOL, NOUNS, pseudo_translate, word_chunk
from tools.markup_set import markup_set, tokens

SENTINEL = "<x99/>"
METHODS = ("none", "substitution", "decoding")


@dataclass(frozen=True)
class TermCase:
    source: str
    droppable: frozenset[int]
    english: str
    chinese: str
    reference: str


def term_for(word: str, kind: str = "unrelated") -> str:
    """A two-character Chinese term for ``word`` that the task never gives it: ``unrelated``
    (no character of the model's own chunk) or ``related`` (the chunk's first character, then
    another: the model's own translation and the team's term overlap, as 缓存/高速缓存 do)."""
    digest = hashlib.sha256(f"glossary:{word}".encode()).digest()
    chunk = word_chunk(word)
    for i in range(0, 30, 2):
        first = chunk[0] if kind == "related" else CJK_POOL[digest[i] % len(CJK_POOL)]
        term = first + CJK_POOL[digest[i + 1] % len(CJK_POOL)]
        if term != chunk and not set(term[1:]) & set(chunk) and (kind == "related" or first not in chunk):
            return term
    raise AssertionError(word)


def term_cases(n: int, seed: int, kind: str = "unrelated") -> list[TermCase]:
    """Up to ``n`` cases: the markup set's sentences that hold a usable noun (see the module doc)."""
    nouns = set(NOUNS.split()) if isinstance(NOUNS, str) else set(NOUNS)
    out: list[TermCase] = []
    for case in markup_set(n * 3, seed):
        runs = "".join(str(v) if k == "text" else " " for k, v in tokenize(case.source))
        words = re.findall(r"[A-Za-z]+", runs)
        plain_ref = pseudo_translate(case.source)
        for word in sorted({w for w in words if w in nouns and words.count(w) == 1}):
            pattern = _pattern(word, ignore_case=True)
            if len(pattern.findall(case.source)) != 1 or TAG_RE.search(word):
                continue
            marked = pattern.sub(SENTINEL, case.source, count=1)
            with_sentinel = pseudo_translate(marked)
            own = with_sentinel.replace(SENTINEL, word_chunk(word))
            if SENTINEL not in with_sentinel or tokens(own) != tokens(plain_ref):
                continue  # the word is inside a merged phrase: no exact reference
            chinese = term_for(word, kind)
            out.append(TermCase(case.source, case.droppable, word, chinese, with_sentinel.replace(SENTINEL, chinese)))
            break
        if len(out) == n:
            break
    return out


@dataclass
class Row:
    model: str
    markup: str
    method: str
    sentences: int
    term: float
    whole: float
    chrf: float
    exact: float
    seconds: float
    sent_per_s: float


def run(model: Path, markup: str, method: str, cases: Sequence[TermCase], *, beams: int | None,
        threads: int) -> tuple[dict[str, tuple[str, str | None]], float]:
    translator = load_translator("onnx", model, beams=beams, threads=threads, markup=markup)
    glossary = None
    if method != "none":
        glossary = Glossary(enforce=method)
        for english, chinese in sorted({(c.english, c.chinese) for c in cases}):
            glossary.terms.append(Term(english, chinese, _pattern(english, ignore_case=True)))
    requests = Requests()
    for case in cases:
        requests.add(case.source, case.droppable)
    service = build_pipeline(GIVEN_TRANSLATOR, SiteInputs(glossary=glossary), load=lambda _spec: translator).service
    started = time.perf_counter()
    hits = service.translate(requests)
    seconds = time.perf_counter() - started
    return {t: (h.text, h.fallback) for t, h in hits.items()}, seconds


def score(label: str, markup: str, method: str, cases: Sequence[TermCase],
          results: dict[str, tuple[str, str | None]], seconds: float) -> Row:
    import sacrebleu

    n = len(cases)
    outs = [results[c.source][0] for c in cases]

    def plain(text: str) -> str:
        return TAG_RE.sub("", text).replace(" ", "")

    chrf = sacrebleu.corpus_chrf([plain(o) for o in outs], [[plain(c.reference) for c in cases]]).score
    return Row(
        model=label, markup=markup, method=method, sentences=n,
        term=round(sum(c.chinese in o for c, o in zip(cases, outs)) / n, 4),
        whole=round(sum(results[c.source][1] in WHOLE_STEPS for c in cases) / n, 4),
        chrf=round(chrf, 1),
        exact=round(sum(tokens(o) == tokens(c.reference) for c, o in zip(cases, outs)) / n, 4),
        seconds=round(seconds, 2), sent_per_s=round(n / seconds, 1) if seconds else 0.0,
    )


def engine_speed(model: Path, cases: Sequence[TermCase], *, beams: int | None, threads: int,
                 rounds: int = 3) -> dict[str, float]:
    """Seconds for the engine alone (``OnnxTranslator.translate``, no ladder) over the cases'
    sources with markup stripped, without and with each case's term as a constraint: the term
    tables warmed first (a site's glossary is a few terms met again and again), then the best
    of ``rounds`` alternating runs of each."""
    from mkdocs_zh_translate.engine import OnnxTranslator

    options = {"num_beams": beams} if beams else {}
    engine = OnnxTranslator(model, threads=threads, **options)
    texts = [" ".join(TAG_RE.sub(" ", c.source).split()) for c in cases]
    terms = [[c.chinese] for c in cases]
    engine.translate(texts, terms=terms)  # warm: sessions, term tables
    best = {"plain": float("inf"), "terms": float("inf")}
    for _ in range(rounds):
        for label, given in (("plain", None), ("terms", terms)):
            started = time.perf_counter()
            engine.translate(texts, terms=given)
            best[label] = min(best[label], time.perf_counter() - started)
    return {**{k: round(v, 2) for k, v in best.items()}, "cost": round(best["terms"] / best["plain"] - 1, 3)}


def table(rows: Sequence[Row]) -> str:
    lines = ["| model | markup | method | term | whole | chrF | exact | sent/s |", "|" + "---|" * 8]
    for r in rows:
        lines.append(f"| {r.model} | {r.markup} | {r.method} | {100 * r.term:.1f} | {100 * r.whole:.1f} | "
                     f"{r.chrf:.1f} | {100 * r.exact:.1f} | {r.sent_per_s:.1f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default="demo,tagfree", help="demo, tagfree or NAME=DIR, comma-separated")
    parser.add_argument("--markup", default="tags,project", help="markup strategies, comma-separated")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", default="unrelated", choices=("unrelated", "related"),
                        help="the glossary's Chinese: unlike the model's own word, or sharing its first character")
    parser.add_argument("--quantize", default="int8", choices=("none", "int8"))
    parser.add_argument("--beams", type=int)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--speed", action="store_true",
                        help="instead: the engine's seconds without and with the term constraints")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cases = term_cases(args.n, args.seed, args.kind)
    if args.speed:
        for label, path in (model_dir(m.strip(), args.quantize) for m in args.models.split(",") if m.strip()):
            result = engine_speed(path, cases, beams=args.beams, threads=args.threads)
            print(json.dumps({"model": label, "sentences": len(cases), **result}))
        return 0
    rows: list[Row] = []
    for label, path in (model_dir(m.strip(), args.quantize) for m in args.models.split(",") if m.strip()):
        for markup in (s.strip() for s in args.markup.split(",") if s.strip()):
            for method in (m.strip() for m in args.methods.split(",") if m.strip()):
                results, seconds = run(path, markup, method, cases, beams=args.beams, threads=args.threads)
                rows.append(score(label, markup, method, cases, results, seconds))
                if not args.json:
                    print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"sentences": len(cases), "seed": args.seed, "kind": args.kind,
                          "rows": [asdict(r) for r in rows]}, indent=1))
    else:
        print(f"{len(cases)} sentences with one glossary term each ({args.kind}), seed {args.seed}, "
              f"{args.quantize}; shares in %")
        print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
