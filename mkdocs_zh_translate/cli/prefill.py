"""``mkdocs-zh-translate prefill [-f CONFIG] [--workers N] [--ray ADDRESS]`` and the translator's flags."""

from __future__ import annotations

import argparse
import sys

from ..logs import PREFIX
from ..plugin.configfile import CONFIG_HELP, find_config
from .errors import CliError
from .options import add_translator_options, given_options


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "prefill",
        help="translate a whole site into the cache (several processes or a Ray cluster)",
        description="Translate every segment of the site that is neither reviewed nor cached, and store "
        "it in the build's cache, so the next `mkdocs build` translates nothing. Interrupt it any "
        "time: finished chunks stay cached.",
    )
    parser.add_argument("-f", "--config-file", metavar="FILE", help=CONFIG_HELP)
    parser.add_argument(
        "--workers", type=int, default=0, metavar="N",
        help="translate in N local processes (default 0: in this process); with --ray, the number of actors",
    )
    parser.add_argument(
        "--ray", metavar="ADDRESS",
        help="translate on this Ray cluster (needs the [ray] extra); `local`: a cluster of this machine "
        "on 127.0.0.1 only, for this run",
    )
    parser.add_argument(
        "--ray-ship-model", action="store_true",
        help="send the model directory to the actors through Ray's object store (default: they load the same path)",
    )
    add_translator_options(parser, overrides="the plugin's", notes={
        "threads": "per worker (with --workers: usable cores // N by default, with --ray: 1)",
    })
    parser.add_argument(
        "--plan", action="store_true",
        help="translate nothing: print `missing=N` (texts neither reviewed nor cached: the build needs the "
        "model unless N is 0) and `fingerprint=HASH` (of everything the build translates), for "
        "$GITHUB_OUTPUT; the CI guide's workflow uses it",
    )
    parser.add_argument(
        "--retranslate", action="store_true",
        help="re-translate what an earlier model wrote (a tuned model's base: the build keeps serving it), "
        "least confident first; says how many and about how long before the bulk of it",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="with --retranslate: the N least confident only")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines")
    parser.add_argument(
        "--json", action="store_true",
        help="print the run's report as JSON on stdout (the summary line goes to stderr; see the user guide)",
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..pipeline.progress import RateProgress
    from ..prefill.run import Where, prefill

    if args.plan:
        return _plan(args)
    if args.retranslate or args.limit is not None:
        return _retranslate(args)
    if args.workers < 0:
        raise CliError("--workers must be >= 0")
    if args.threads is not None:  # also what each worker's engine can take (the engine's own rule)
        from ..engine.settings import check_threads

        check_threads(args.threads)
    if args.ray_ship_model and not args.ray:
        raise CliError("--ray-ship-model needs --ray ADDRESS")
    where = Where(workers=args.workers, threads=args.threads, ray=args.ray, ship_model=args.ray_ship_model)
    progress = None if args.no_progress else RateProgress()
    stats = prefill(find_config(args.config_file), where, progress, options=given_options(args))
    print(PREFIX + stats.summary(), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        from .docs import print_report

        print_report("prefill", stats)
    return 0


def _plan(args: argparse.Namespace) -> int:
    """``--plan``: the ``key=value`` lines on stdout, one summary line on stderr."""
    from ..prefill.plan import plan

    if args.workers or args.ray or args.json or args.ray_ship_model:
        raise CliError("--plan translates nothing: it takes no --workers, --ray, --ray-ship-model or --json")
    result = plan(find_config(args.config_file))
    sys.stdout.write(result.outputs())
    print(PREFIX + result.summary(), file=sys.stderr)
    return 0


def _retranslate(args: argparse.Namespace) -> int:
    """``--retranslate [--limit N]``: in this process, worst confidence first (``prefill.retranslate``)."""
    from ..prefill.retranslate import retranslate

    if not args.retranslate:
        raise CliError("--limit goes with --retranslate")
    if args.limit is not None and args.limit < 1:
        raise CliError(f"--limit {args.limit}: a count, 1 or more")
    if args.workers or args.ray or args.json or args.ray_ship_model:
        raise CliError("--retranslate runs in this process: it takes no --workers, --ray, --ray-ship-model or --json")
    result = retranslate(find_config(args.config_file), lambda line: print(PREFIX + line, file=sys.stderr),
                         options=given_options(args), limit=args.limit)
    print(PREFIX + result.summary())
    return 0
