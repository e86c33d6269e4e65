"""Whole-site benchmark: a large site of real doc pages, a cold build vs ``prefill --workers 1/2``.

    python benchmarks/wholesite.py [--segments 5000] [--workers 1,2] [--no-cold] [--ratio 0.55]
                                   [--raw-placeholders] [--sdist-dir DIR]

Site: the ``docs/`` Markdown of pinned PyPI sdists (``pip download --no-deps --no-binary :all:``;
nothing is committed), each under its own folder of one MkDocs project (built-in ``mkdocs``
theme, common extensions, ``strict: false``). Pages are added in a fixed order until the site
has ``--segments`` unique segments (the whole corpus when 0). Model: benchmarks/engine.py's
random-weight MarianMT with opus-mt-en-zh's exact shape, int8, beam 4 (the export's default).

Random weights differ from a trained model in two ways that set the cost, so two shims make
them behave like one (installed in this process and, through ``__mp_main__``, in every
spawned prefill worker; see :func:`install_shims`):
- length: they never emit EOS, so each batch's generation is capped at ``--ratio`` (0.55) x its
  source tokens. The benchmark tokenizer cuts English into ~2.1 tokens per word (opus-mt's
  own: ~1.3), so this is ~1.15 new tokens per English word, about what opus-mt-en-zh emits
  (an estimate; the trained model is not available offline);
- placeholders: they never reproduce ``<g1>…</g1>``/``<x2/>``, which sends every segment with
  inline markup down the whole fallback ladder; each output gets the source's tags back, in
  order, between its words, after the engine did its full work. ``--raw-placeholders`` measures
  that worst case instead.

Measured, each with a fresh cache:
- cold build: ``mkdocs build`` in this process, the engine's calls timed by wrapping the
  translator: engine seconds (first pass / ladder retries), model load, and everything else
  of the translation pass (segmenting, dedupe, cache, ladder bookkeeping, splicing, page
  guard) -- the "outside the engine" share, goal <= 10% of the translation pass;
- ``prefill --workers N``: wall time of the command (English build in collect mode, workers
  spawned and loading the model, translation, cache) and of its translation phase, then a
  build that must translate 0.
Segments/s = translated unique segments / wall seconds. The machine is shared: the load
average is printed with each row.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

# dist==version whose sdist ships docs/ (the same pins as the real-sites corpus)
SDISTS = (
    "pymdown-extensions==10.16.1",
    "hatch==1.18.2",
    "markdown==3.11.3",
    "mkdocstrings==0.29.1",
    "mkdocstrings-python==2.0.11",
    "griffe==1.7.3",
    "copier==9.19.1",
    "starlette==1.10.0",
    "mkdocs-autorefs==1.4.2",
    "pytkdocs==0.16.5",
)


def bench_cache() -> Path:
    return Path(os.environ.get("ZH_TRANSLATE_BENCH_CACHE", REPO / ".cache" / "bench"))


# --- the site ------------------------------------------------------------------------------
def fetch(sdist_dir: Path) -> list[Path]:
    """The sdists, downloaded once into ``sdist_dir``."""
    sdist_dir.mkdir(parents=True, exist_ok=True)
    found = []
    for req in SDISTS:
        name, version = req.split("==")
        stem = f"{name}-{version}.tar.gz".replace("-", "_").lower()
        hits = [p for p in sdist_dir.iterdir() if p.name.lower().replace("-", "_") == stem]
        if not hits:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            "-d", str(sdist_dir), req], check=True)
            hits = [p for p in sdist_dir.iterdir() if p.name.lower().replace("-", "_") == stem]
        found.append(hits[0])
    return found


def pages_of(sdist: Path) -> Iterator[tuple[str, str]]:
    """(path under docs/, text) of every Markdown page in the sdist's docs/ folder."""
    with tarfile.open(sdist) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            parts = member.name.split("/")
            if member.isfile() and len(parts) > 2 and parts[1] == "docs" and member.name.endswith(".md"):
                data = tar.extractfile(member)
                if data is not None:
                    yield "/".join(parts[2:]), data.read().decode("utf-8", "replace")


def make_site(root: Path, sdists: list[Path], cap: int) -> tuple[int, int]:
    """Write docs/ with pages until ``cap`` unique segments; return (pages, unique segments)."""
    from mkdocs_zh_translate.segment import segment_markdown

    docs = root / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Whole-site benchmark\n\nReal pages of several projects.\n", encoding="utf-8")
    unique: set[str] = set()
    pages = 1
    for sdist in sdists:
        project = sdist.name.split("-")[0].lower()
        for rel, text in pages_of(sdist):
            body = text.split("\n---\n", 1)[1] if text.startswith("---\n") and "\n---\n" in text else text
            try:
                texts = {s.text for s in segment_markdown(body).segments}
            except Exception:
                continue
            path = docs / project / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            unique |= texts
            pages += 1
            if cap and len(unique) >= cap:
                return pages, len(unique)
    return pages, len(unique)


def write_config(root: Path, name: str, model: Path) -> Path:
    config = {
        "site_name": "Whole-site benchmark",
        "site_url": "https://example.com/",
        "theme": {"name": "mkdocs"},
        "strict": False,
        "site_dir": f"site-{name}",
        "markdown_extensions": ["admonition", "attr_list", "def_list", "footnotes", "tables", "toc",
                                "pymdownx.superfences", "pymdownx.details", "pymdownx.tabbed"],
        "plugins": [{"zh-translate": {"backend": "onnx", "model": str(model), "cache_dir": f".cache-{name}",
                                      "banner": False}}],
    }
    path = root / f"mkdocs-{name}.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    shutil.rmtree(root / f".cache-{name}", ignore_errors=True)
    shutil.rmtree(root / f"site-{name}", ignore_errors=True)
    return path


# --- the model -----------------------------------------------------------------------------
def bench_model() -> Path:
    """engine.py's opus-mt-shaped int8 model (built and exported into the bench cache when stale)."""
    import engine  # benchmarks/engine.py

    return engine.onnx_model("int8")


RATIO = 0.55  # new tokens per benchmark-tokenizer source token: ~1.15 per English word
SHIM_ENV = "ZH_TRANSLATE_WHOLESITE_SHIMS"  # "RATIO" or "RATIO:raw"; read in every process
TAG_RE = re.compile(r"<x\d+/>|</?g\d+>")


class DecodeLog:
    """Sentences decoded and new tokens allowed, in this process (the cold build's numbers)."""

    sentences = 0
    new_tokens = 0
    source_tokens = 0


def install_shims(ratio: float, placeholders: bool) -> None:
    """Make random weights behave like a trained model in the two ways that set the cost.

    1. Length: random weights never emit EOS, so every output runs to the length limit. The
       limit is set per batch to ``ratio`` x the batch's source tokens (batches are length
       buckets, so this is per sentence up to a few tokens). The engine's own cost per token is
       untouched.
    2. Placeholders: random weights never reproduce ``<g1>…</g1>``/``<x2/>``, so every segment
       with inline markup would go down the whole fallback ladder (3-4x the engine calls), a
       worst case no trained model meets. With ``placeholders``, each engine output gets the
       source's tags back, in order, between its words (as a trained model places them), after
       the engine has done its full work. ``--raw-placeholders`` turns this off.
    """
    import dataclasses
    import math

    from mkdocs_zh_translate.engine import translator as module

    for name in ("beam_search", "greedy_search"):
        search = getattr(module, name)

        def capped(decoder, state, opts, _search=search):  # type: ignore[no-untyped-def]
            width = int(state.encoder_mask.shape[1])
            limit = min(opts.max_length, 1 + max(2, math.ceil(ratio * width)))
            DecodeLog.sentences += state.sentences
            DecodeLog.new_tokens += state.sentences * (limit - 1)
            DecodeLog.source_tokens += int(state.encoder_mask.sum())
            return _search(decoder, state, dataclasses.replace(opts, max_length=limit))

        setattr(module, name, capped)
    if not placeholders:
        return
    cls = module.OnnxTranslator
    nbest = cls.translate_nbest

    def with_tags(self, texts, n):  # type: ignore[no-untyped-def]
        return [[_interleave(text, out) for out in outs] for text, outs in zip(texts, nbest(self, texts, n))]

    cls.translate_nbest = with_tags  # type: ignore[method-assign]


def _interleave(source: str, output: str) -> str:
    """``output``'s words spread over the gaps between ``source``'s tags, tags in source order."""
    tags = TAG_RE.findall(source)
    if not tags:
        return output
    words = output.split()
    gaps = len(tags) + 1
    parts = [" ".join(words[i * len(words) // gaps:(i + 1) * len(words) // gaps]) for i in range(gaps)]
    return "".join(part + tag for part, tag in zip(parts, tags)) + parts[-1]


def _shims_from_env() -> None:
    value = os.environ.get(SHIM_ENV)
    if value:
        ratio, _, mode = value.partition(":")
        install_shims(float(ratio), placeholders=mode != "raw")


# Spawned prefill workers import this file as __mp_main__: they get the same shims.
if __name__ == "__mp_main__":
    _shims_from_env()


# --- measuring -----------------------------------------------------------------------------
class EngineClock:
    """Wraps OnnxTranslator's entry points: seconds in the engine, first pass vs retries."""

    def __init__(self) -> None:
        self.first = 0.0
        self.retries = 0.0
        self.load = 0.0
        self.calls = 0
        self.depth = 0
        self.retrying = False  # set by mark_retries while a ladder step after the first runs

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        from mkdocs_zh_translate.engine import translator as module

        cls = module.OnnxTranslator
        originals = {name: getattr(cls, name) for name in ("__init__", "translate", "translate_nbest")}
        clock = self

        def timed(name: str):  # type: ignore[no-untyped-def]
            original = originals[name]

            def wrapper(self, *args, **kwargs):  # type: ignore[no-untyped-def]
                if clock.depth:  # translate() may call translate_nbest(): count the outer call only
                    return original(self, *args, **kwargs)
                clock.depth += 1
                started = time.perf_counter()
                try:
                    return original(self, *args, **kwargs)
                finally:
                    clock.depth -= 1
                    spent = time.perf_counter() - started
                    if name == "__init__":
                        clock.load += spent
                    else:
                        clock.calls += 1
                        if clock.retrying:
                            clock.retries += spent
                        else:
                            clock.first += spent

            return wrapper

        for name in originals:
            setattr(cls, name, timed(name))
        try:
            yield
        finally:
            for name, original in originals.items():
                setattr(cls, name, original)


def mark_retries(clock: EngineClock) -> contextlib.AbstractContextManager[None]:
    """The ladder's first step is ``_first_pass``; every later step is a retry."""
    from mkdocs_zh_translate.pipeline import ladder

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        steps = ("_first_pass", "_next_hypotheses", "_separate_runs", "_drop_pairs")
        originals = {n: getattr(ladder, n) for n in steps}

        def wrap(name: str):  # type: ignore[no-untyped-def]
            def step(*args, **kwargs):  # type: ignore[no-untyped-def]
                clock.retrying = name != "_first_pass"
                try:
                    return originals[name](*args, **kwargs)
                finally:
                    clock.retrying = False

            return step

        for name in originals:
            setattr(ladder, name, wrap(name))
        try:
            yield
        finally:
            for name, original in originals.items():
                setattr(ladder, name, original)

    return patched()


def build(config: Path) -> tuple[float, object]:
    sys.path.insert(0, str(REPO))
    from tests.plugin_sites import build_in_process

    started = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        plugin = build_in_process(config)
    return time.perf_counter() - started, plugin.stats


def prefill(config: Path, workers: int, threads: int | None = None) -> tuple[float, float, str]:
    """Wall seconds of ``prefill --workers N [--threads T]``, the seconds of its translation
    phase (the service's translate call: chunks out to the workers, results stored), and its
    summary."""
    from mkdocs_zh_translate.cli.app import main
    from mkdocs_zh_translate.pipeline.service import TranslationService

    original = TranslationService.translate
    phase = [0.0]

    def timed(self, requests):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return original(self, requests)
        finally:
            phase[0] += time.perf_counter() - started

    out = io.StringIO()
    TranslationService.translate = timed  # type: ignore[method-assign]
    started = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["prefill", "-f", str(config), "--workers", str(workers), "--no-progress",
                         *(["--threads", str(threads)] if threads else [])])
    finally:
        TranslationService.translate = original  # type: ignore[method-assign]
    if code:
        raise SystemExit(f"prefill --workers {workers} failed ({code})")
    return time.perf_counter() - started, phase[0], out.getvalue().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=5000, help="unique segments (0: every page)")
    parser.add_argument("--workers", default="1,2",
                        help="prefill runs to measure: worker counts, or WORKERSxTHREADS such as 1x1,2x1 "
                             "(threads per worker; default: cores // workers); '' for none")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold build (prefill rows only)")
    parser.add_argument("--ratio", type=float, default=RATIO,
                        help=f"new tokens per source token of the benchmark tokenizer (default {RATIO})")
    parser.add_argument("--raw-placeholders", action="store_true",
                        help="do not give outputs the source's tags back (every tagged segment takes the ladder)")
    parser.add_argument("--sdist-dir", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=None, help="where to write the site (default: a cache folder)")
    args = parser.parse_args()
    import logging

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    os.environ[SHIM_ENV] = f"{args.ratio}{':raw' if args.raw_placeholders else ''}"
    _shims_from_env()
    sdists = fetch(args.sdist_dir or bench_cache() / "sdists")
    root = args.root or bench_cache() / "wholesite"
    pages, unique = make_site(root, sdists, args.segments)
    model = bench_model()
    print(f"site: {pages} pages, {unique} unique segments (segmenter's count before MkDocs); model {model.name}, "
          f"new tokens {args.ratio} x source tokens, placeholders {'raw' if args.raw_placeholders else 'kept'}; "
          f"cores {len(os.sched_getaffinity(0))}, load average {os.getloadavg()[0]:.1f}", flush=True)
    rows = []

    if not args.no_cold:
        config = write_config(root, "cold", model)
        clock = EngineClock()
        with clock.installed(), mark_retries(clock):
            wall, stats = build(config)
        engine = clock.first + clock.retries
        outside = stats.seconds - engine - clock.load
        print(stats.summary(), flush=True)
        print(f"decoded {DecodeLog.sentences} sentences: {DecodeLog.source_tokens / max(DecodeLog.sentences, 1):.1f} "
              f"source tokens, {DecodeLog.new_tokens / max(DecodeLog.sentences, 1):.1f} new tokens each on average; "
              f"guard {stats.guard_seconds:.1f} s ({stats.guard_renders} renders)", flush=True)
        rows.append(("cold `mkdocs build` (1 process)", stats.translated, wall, stats.seconds,
                     (f"engine {clock.first:.0f} s + {clock.retries:.0f} s ladder retries, load {clock.load:.1f} s, "
                      f"outside the engine {outside:.1f} s = {100 * outside / stats.seconds:.1f}% of the "
                      f"{stats.seconds:.0f} s pass (guard {stats.guard_seconds:.1f} s); "
                      f"{stats.fallbacks} fallbacks")))
        print(rows[-1], flush=True)
        rebuild, warm = build(config)
        rows.append(("warm rebuild", warm.translated, rebuild, warm.seconds, "all cached"))

    for spec in [w for w in args.workers.split(",") if w]:
        workers, _, threads_text = spec.partition("x")
        workers, threads = int(workers), int(threads_text) if threads_text else None
        label = f"--workers {workers}" + (f" --threads {threads}" if threads else "")
        config = write_config(root, spec.replace("x", "t"), model)
        seconds, phase, summary = prefill(config, workers, threads)
        print(summary, flush=True)
        translated = int(summary.split(" translated")[0].rsplit(" ", 1)[1])
        after_wall, after = build(config)
        assert after.translated == 0, after.summary()
        rows.append((f"`prefill {label}`", translated, seconds, seconds,
                     f"translation phase {phase:.0f} s (workers start, load, translate; results stored), "
                     f"everything else {seconds - phase:.1f} s = {100 * (seconds - phase) / seconds:.1f}%; "
                     f"then `mkdocs build`: {after.translated} translated, {after_wall:.1f} s"))
        print(rows[-1], f"load average {os.getloadavg()[0]:.1f}", flush=True)

    print(f"\nload average now {os.getloadavg()[0]:.1f}\n")
    print("| run | translated | wall s | segments/s | notes |")
    print("|---|---|---|---|---|")
    for name, translated, seconds, _pass_s, notes in rows:
        rate = f"{translated / seconds:.2f}" if translated else "-"
        print(f"| {name} | {translated} | {seconds:.1f} | {rate} | {notes} |")


if __name__ == "__main__":
    main()
