"""``mkdocs-zh-translate eval``: score the translator on a site's reviewed entries or a TSV file.

The base translator is the site's (``-f``) or the command line's (``--references``), with
``--backend``/``--model``/``--beams`` on top; ``--compare A B`` runs two variants of it, each a
comma-separated list of ``field=value`` settings of :class:`~..pipeline.backends.TranslatorSpec`
(``beams=4``, ``model=DIR``, ``markup=project``), side by side. ``model=DIR`` without
``backend=`` runs the directory with the backend its kind of export needs (seq2seq: ``onnx``,
decoder-only: ``genai``), so one model of each kind compares as ``model=A model=B``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..pipeline.backends import BACKENDS, backend_for_export, engine_options
from ..pipeline.options import EngineOption
from ..plugin.configfile import CONFIG_HELP, find_config
from ..untrusted import display
from .errors import CliError
from .options import add_translator_options, given_options

if TYPE_CHECKING:
    from ..pipeline.backends import TranslatorSpec
    from ..pipeline.variants import Variant
    from ..quality.references import ReferenceSet

EXIT_BELOW = 1


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    ev = sub.add_parser(
        "eval",
        help="score the translator against your reviewed translations (chrF, BLEU, whole/pieces/English)",
    )
    source = ev.add_mutually_exclusive_group()
    source.add_argument(
        "-f", "--config-file", metavar="FILE",
        help=f"{CONFIG_HELP}: its reviewed PO entries are the references",
    )
    source.add_argument(
        "--references", metavar="FILE.tsv", help="english<TAB>reference per line (Markdown as in a PO entry)"
    )
    add_translator_options(ev, overrides="the site's")
    ev.add_argument(
        "--compare", nargs=2, metavar=("A", "B"),
        help="two settings side by side, each field=value[,field=value]: "
        f"{', '.join(o.name for o in _settings())} (e.g. beams=1 beams=4, markup=tags markup=project)",
    )
    ev.add_argument(
        "--variant", metavar="CODE",
        help="score a Traditional variant (zh-TW, zh-HK, zh-Hant: the Simplified translation converted with "
        "OpenCC) against its references: the site's translations/<CODE>/ reviews, or a TSV of them",
    )
    ev.add_argument("--limit", type=int, metavar="N", help="score the first N references only")
    ev.add_argument(
        "--held-out", metavar="TUNED_DIR",
        help="score only the reviewed entries a model `tune` made was validated on (never trained on)",
    )
    ev.add_argument("--min-chrf", type=float, metavar="X", help="exit 1 when a run's chrF is below X (CI)")
    ev.add_argument("--worst", type=int, default=5, metavar="N", help="list the N worst sentences (default: 5)")
    ev.add_argument("--json", action="store_true", help="print the results as JSON (schema in the user guide)")
    ev.set_defaults(func=run_eval)


def _settings() -> tuple[EngineOption, ...]:
    """The options ``--compare`` sets: the table's, but lists (providers: ``,`` separates settings)."""
    return tuple(option for option in engine_options() if option.kind != "names")


def _setting(option: EngineOption, value: str, text: str) -> Any:
    """``value`` for ``option``, checked by the table's kind and bounds (CliError naming ``text``)."""
    if option.kind == "count":
        if not value.isdigit() or int(value) < option.minimum:
            least = f"{option.minimum} (off)" if option.is_off(option.minimum) else str(option.minimum)
            raise CliError(f"--compare {text}: {option.name} takes a whole number, {least} or more")
        if (over := option.over_maximum(int(value))) is not None:
            raise CliError(f"--compare {text}: {over}")
        return int(value)
    if option.kind == "choice":
        assert option.choices is not None
        if value not in option.choices():
            why = option.unknown(value) if option.unknown else (
                f"unknown {option.name} {value!r}; choose one of {', '.join(option.choices())}")
            raise CliError(f"--compare {text}: {why}")
    return value


def parse_settings(text: str, base: TranslatorSpec) -> TranslatorSpec:
    """``base`` with the ``field=value`` settings of ``text`` (comma-separated) applied."""
    settings = {option.name: option for option in _settings()}
    fields = ", ".join(settings)
    changes: dict[str, Any] = {}
    for item in (part.strip() for part in text.split(",")):
        name, sep, value = item.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        if not sep or not name or not value:
            raise CliError(f"--compare {text}: expected field=value (fields: {fields})")
        if name not in settings:
            raise CliError(f"--compare {text}: unknown field {name!r}; choose one of {fields}")
        changes[name] = _setting(settings[name], value, text)
    if "model" in changes and "backend" not in changes and base.backend in _export_backends():
        # model=DIR alone: the backend that runs that kind of export (a seq2seq model beside a
        # decoder-only one: ``--compare model=opus model=qwen``), where the base runs exports
        found = backend_for_export(Path(changes["model"]))
        if found is not None:
            changes["backend"] = found
    return base.with_options(**changes)


def _export_backends() -> set[str]:
    """The backends that run an exported model directory of a kind ``backend_for_export`` reads
    (read at use: a backend registered later counts)."""
    return {b.name for b in BACKENDS.values() if b.runs_kind}


def _label(text: str) -> str:
    """A column title for settings: a model directory by its name (its path would fill a line)."""
    parts = []
    for item in text.split(","):
        name, _, value = item.strip().partition("=")
        parts.append(f"{name}={Path(value).name}" if name.strip() == "model" else item.strip())
    return ",".join(parts)


def _labels(texts: list[str]) -> list[str]:
    """Column titles for ``--compare``: model directories by name, unless two names are the same
    (``model=models/nllb/int8 model=models/m2m100/int8``), then the settings as typed."""
    short = [_label(text) for text in texts]
    return short if len(set(short)) == len(short) else [text.strip() for text in texts]


def _check_numbers(args: argparse.Namespace) -> None:
    if args.limit is not None and args.limit < 1:
        raise CliError(f"--limit {args.limit}: a count, 1 or more")
    if args.worst < 0:
        raise CliError(f"--worst {args.worst}: a count, 0 or more")
    if args.min_chrf is not None and not 0 <= args.min_chrf <= 100:  # NaN too
        raise CliError(f"--min-chrf {args.min_chrf:g}: a chrF score, from 0 to 100")


def _references(args: argparse.Namespace, variant: Variant | None) -> ReferenceSet:
    from ..quality.references import read_tsv, site_references

    if args.references:
        return read_tsv(Path(args.references), args.limit)  # stops reading at the limit
    from ..plugin.collect import collect_site

    site = collect_site(find_config(args.config_file))
    if variant is None:
        return site_references(site)
    from ..pipeline.variants import Converter
    from ..review.variants import variant_sites

    # the variant's own reviews are its references (translations/zh-TW/), listed or not in `variants`
    site.variants = [(variant.code, variant.table, Converter(variant.table))]
    found = site_references(variant_sites(site)[0].site)
    found.spec, found.glossary = site.spec, site.glossary
    return found


def _base_spec(args: argparse.Namespace, refs: ReferenceSet) -> TranslatorSpec:
    from ..pipeline.backends import DEFAULT_BACKEND, TranslatorSpec

    base = refs.spec or TranslatorSpec(DEFAULT_BACKEND, None)
    return base.with_options(**given_options(args))


def _held_out(refs: ReferenceSet, tuned: Path) -> None:
    """Keep the references ``tuned``'s record lists as held out (by the English's hash)."""
    from ..quality.metrics import plain
    from ..tune.data import source_digest
    from ..tune.record import held_out_of

    held = held_out_of(tuned)
    refs.references = [r for r in refs.references if source_digest(plain(r.source)) in held]
    refs.origin += f" (held out by {display(tuned)})"


def run_eval(args: argparse.Namespace) -> int:
    """Read the references, run one translator (or two with ``--compare``), print the results;
    exit 1 below ``--min-chrf``."""
    from ..pipeline.progress import progress_for
    from ..quality.references import limited
    from ..quality.report import dumps, eval_report, passed, table, worst_lines
    from ..quality.run import evaluate

    _check_numbers(args)
    from ..pipeline.variants import parse_variants

    variant = next(iter(parse_variants([args.variant] if args.variant else [])), None)
    refs = _references(args, variant)
    if args.held_out:
        _held_out(refs, Path(args.held_out))
    for line in refs.skipped:
        print(f"mkdocs-zh-translate: warning: {line}", file=sys.stderr)
    refs.references = limited(refs.references, args.limit)
    if not refs.references:
        if refs.review_dir is None:
            raise CliError(f"{refs.origin}: no references to score (no english<TAB>reference line)")
        raise CliError(
            f"{refs.origin}: no references to score: no reviewed PO entry in {display(refs.review_dir)} "
            "(review some: `review sync`, then edit msgstr and delete '#, fuzzy'; or give --references FILE.tsv)"
        )
    base = _base_spec(args, refs)
    variants = list(zip(_labels(args.compare), (parse_settings(text, base) for text in args.compare))) \
        if args.compare else [("", base)]
    runs = [
        evaluate(refs.references, spec, label=label, glossary=refs.glossary, progress=progress_for(None),
                 worst=args.worst, variant=variant)
        for label, spec in variants
    ]
    if args.json:
        sys.stdout.write(dumps(eval_report(refs, runs, min_chrf=args.min_chrf, worst=args.worst)))
    else:
        skipped = f" ({len(refs.skipped)} skipped)" if refs.skipped else ""
        print(f"eval: {len(refs.references)} references from {refs.origin}{skipped}")
        print(table(runs))
        if len(runs) == 2:
            print(f"gain ({runs[1].label} over {runs[0].label}): chrF {runs[1].scores.chrf - runs[0].scores.chrf:+.1f}")
        for run in runs:
            lines = worst_lines(run, args.worst)
            if lines:
                print(f"worst ({run.label}):")
                print("\n".join(lines))
    if args.min_chrf is not None and not passed(runs, args.min_chrf):
        below = ", ".join(f"{r.label} {r.scores.chrf:.1f}" for r in runs if r.scores.chrf < args.min_chrf)
        print(f"mkdocs-zh-translate: eval: chrF below --min-chrf {args.min_chrf:g}: {below}", file=sys.stderr)
        return EXIT_BELOW
    return 0
