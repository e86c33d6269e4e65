"""``mkdocs-zh-translate tune``: fine-tune the site's model on its reviewed translations.

The site (``-f``) gives the reviewed entries (read as ``eval`` reads them), the glossary's
terms, its other English (replay) and the model it uses (``--model`` overrides); the original
checkpoint is the model manifest's ``source`` (a Hub id in the local Hugging Face cache, or the
directory it was exported from) unless ``--source`` names it. See ``tune.run`` for the guards.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..owned import check_output
from ..untrusted import display
from .errors import CliError

if TYPE_CHECKING:
    from ..review.site import Site

#: Exit status of a refused run (a model that is not better): not a usage error.
EXIT_REFUSED = 1


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..tune.data import HELD_OUT, REPLAY
    from ..tune.run import MARGIN, MIN_GAIN
    from ..tune.train import Settings

    d = Settings()
    p = sub.add_parser(
        "tune", help="fine-tune the site's model on its reviewed translations (refuses a model that is not better)",
        description="Fine-tune the model the site uses on its reviewed PO entries and glossary terms, hold a "
        "share out by PO file, stop early on its chrF, and write a new model directory only when it beats "
        "the base there without losing more than --margin chrF on a general set.",
    )
    p.add_argument("-f", "--config-file", default="mkdocs.yml", metavar="FILE",
                   help="mkdocs.yml (default: ./mkdocs.yml)")
    p.add_argument("--out", required=True, metavar="DIR", help="the new model directory")
    p.add_argument("--model", metavar="DIR", help="the exported model to tune (default: the site's)")
    p.add_argument("--source", metavar="MODEL",
                   help="the original checkpoint, a Hugging Face id or directory "
                   "(default: the export manifest's source)")
    p.add_argument("--general", metavar="FILE.tsv",
                   help="the forgetting guard's english<TAB>reference set (default: the model's general.tsv)")
    p.add_argument("--no-forgetting-guard", action="store_true", help="no general set: the record says so")
    p.add_argument("--margin", type=float, default=MARGIN, metavar="X",
                   help=f"the most chrF the general set may lose (default {MARGIN:g})")
    p.add_argument("--min-gain", type=float, default=MIN_GAIN, metavar="X",
                   help=f"the least chrF the held-out reviews must gain (default {MIN_GAIN:g})")
    p.add_argument("--held-out", type=float, default=HELD_OUT, metavar="SHARE",
                   help=f"share of the reviewed entries held out, by PO file (default {HELD_OUT:g})")
    p.add_argument("--replay", type=float, default=REPLAY, metavar="RATIO",
                   help=f"replay pairs per training pair: the base's translations of the site's other English "
                   f"(default {REPLAY:g}; 0: none)")
    p.add_argument("--steps", type=int, default=d.steps, metavar="N", help=f"most steps (default {d.steps})")
    p.add_argument("--batch", type=int, default=d.batch, metavar="N", help=f"pairs per step (default {d.batch})")
    p.add_argument("--lr", type=float, default=d.lr, metavar="X", help=f"peak learning rate (default {d.lr:g})")
    p.add_argument("--anchor", type=float, default=d.anchor, metavar="X",
                   help=f"pull back to the base weights (L2-SP; default {d.anchor:g})")
    p.add_argument("--eval-every", type=int, default=0, metavar="N", help="steps between validations (default: a pass)")
    p.add_argument("--patience", type=int, default=d.patience, metavar="N",
                   help=f"validations without a gain before stopping (default {d.patience})")
    p.add_argument("--seed", type=int, default=0, metavar="N")
    p.add_argument("--device", default="auto", metavar="DEVICE", help="auto (CUDA when torch sees one), cpu, cuda")
    p.add_argument("--threads", type=int, metavar="N", help="CPU threads (default: torch's)")
    p.add_argument("--quantize", choices=("int8", "none", "fp16"), default="int8", help="as for export (default int8)")
    p.add_argument("--json", action="store_true", help="print the tuned model's record as JSON")
    p.set_defaults(func=run_tune)


def _numbers(args: argparse.Namespace) -> None:
    for name in ("steps", "batch", "patience"):
        if getattr(args, name) < 1:
            raise CliError(f"--{name} {getattr(args, name)}: a count, 1 or more")
    if not 0 < args.held_out < 1:
        raise CliError(f"--held-out {args.held_out:g}: a share between 0 and 1")
    for name in ("lr", "margin", "min_gain", "replay", "anchor"):
        value = getattr(args, name)
        if not value >= 0 or value == float("inf"):  # NaN too
            raise CliError(f"--{name.replace('_', '-')} {value:g}: a number, 0 or more")
    if args.eval_every < 0 or (args.threads is not None and args.threads < 1):
        raise CliError("--eval-every and --threads take counts (0 or more, 1 or more)")


class _Bar:
    """``tune [#####.....] 40/300 steps  loss 1.23  0.35 s/step  ~1m20s left`` on stderr, redrawn
    in place on a terminal, a line every 10 s elsewhere."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def step(self, step: int, total: int, loss: float, per_step: float) -> None:
        now = time.monotonic()
        if not self.tty and now - self.last < 10 and step != total:
            return
        self.last = now
        left = int(per_step * (total - step))
        filled = 30 * step // max(total, 1)
        line = (f"tune [{'#' * filled}{'.' * (30 - filled)}] {step}/{total} steps  loss {loss:.3f}  "
                f"{per_step:.2f} s/step  at most ~{left // 60}m{left % 60:02d}s left")
        sys.stderr.write(("\r" + line) if self.tty else line + "\n")
        sys.stderr.flush()

    def eval(self, step: int, chrf: float) -> None:
        sys.stderr.write(("\n" if self.tty else "") + f"tune: step {step}: held-out chrF {chrf:.1f}\n")
        sys.stderr.flush()


def _site(args: argparse.Namespace) -> Site:
    from ..plugin.collect import collect_site

    return collect_site(Path(args.config_file))


def run_tune(args: argparse.Namespace) -> int:
    from ..quality.references import site_references
    from ..tune.errors import TuneRefused
    from ..tune.run import Request, dumps, summary, tune
    from ..tune.train import Settings

    _numbers(args)
    site = _site(args)
    refs = site_references(site)
    for line in refs.skipped:
        print(f"mkdocs-zh-translate: warning: {line}", file=sys.stderr)
    model = args.model or (site.spec.model if site.spec is not None else None)
    if not model:
        raise CliError(f"{display(site.config_file)}: the site names no model directory; give --model DIR")
    reviewed = {ref.source for ref in refs.references}
    others = [u.text for units in site.pages.values() for u in units if u.text not in reviewed]
    terms = [(t.english, t.chinese) for t in site.glossary.terms] if site.glossary else []
    out = check_output(Path(args.out), "--out", config=Path(args.config_file), docs_dir=site.docs_dir)
    settings = Settings(steps=args.steps, batch=args.batch, lr=args.lr, eval_every=args.eval_every,
                        patience=args.patience, seed=args.seed, device=args.device, threads=args.threads,
                        anchor=args.anchor)
    request = Request(Path(model), out, refs.references, terms, args.source,
                      Path(args.general) if args.general else None, not args.no_forgetting_guard, args.margin,
                      args.min_gain, args.held_out, args.quantize, settings, others, args.replay)
    bar = _Bar()
    try:
        outcome = tune(request, lambda line: print(line, file=sys.stderr), bar.step, bar.eval)
    except TuneRefused as exc:
        print(f"mkdocs-zh-translate: tune: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    if args.json:
        sys.stdout.write(dumps(outcome))
    print(summary(outcome), file=sys.stderr if args.json else sys.stdout)
    return 0
