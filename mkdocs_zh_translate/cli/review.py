"""The ``mkdocs-zh-translate review`` sub-commands: sync, prune, status, check, report."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..owned import check_output
from ..review.memory import DEFAULT_THRESHOLD
from ..review.store import ReviewError, display, write_if_changed
from .errors import CliError
from .options import add_command_group

if TYPE_CHECKING:
    from ..plugin.collect import Site

EXIT_BELOW = 1


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rsub = add_command_group(sub, "review", "keep reviewed translations (PO files) in step with the site")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "-f", "--config-file", default="mkdocs.yml", metavar="FILE", help="mkdocs.yml (default: ./mkdocs.yml)"
        )
        p.set_defaults(func=_run)

    def memory(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--memory",
            type=float,
            metavar="P",
            help="translation memory: an entry nobody translated gets the reviewed translation of an English "
            f"at least P%% similar as a fuzzy suggestion (default: translation_memory, {DEFAULT_THRESHOLD}; 0: none)",
        )

    width_help = "page width of the PO files, wrapped as GNU gettext wraps them; 0: no wrapping (default: po_width, 79)"
    sync = rsub.add_parser("sync", help="write/update the PO files from the site and the machine cache")
    sync.add_argument("--width", type=int, metavar="N", help=width_help)
    sync.add_argument(
        "--templates",
        action="store_true",
        help="also write .pot templates (templates/ beside review_dir) for Weblate or Crowdin components",
    )
    memory(sync)
    common(sync)
    prune = rsub.add_parser("prune", help="remove obsolete (#~) entries from the PO files")
    prune.add_argument("--width", type=int, metavar="N", help=width_help)
    common(prune)
    status = rsub.add_parser("status", help="per-page counts: reviewed, machine, stale, suggested, missing")
    status.add_argument("--json", action="store_true", help="print the counts as the JSON report (see the guide)")
    memory(status)
    common(status)
    check = rsub.add_parser(
        "check",
        help="exit non-zero when less than P%% of the entries are reviewed, or too many reviews are stale or rejected",
    )
    check.add_argument("--min-reviewed", type=float, metavar="P", help="fail below P%% reviewed entries")
    check.add_argument(
        "--max-stale", type=int, metavar="N", help="fail above N stale reviews (reviewed, then the English changed)"
    )
    check.add_argument(
        "--max-rejected", type=int, metavar="N", help="fail above N rejected reviews (they lose or add markup)"
    )
    check.add_argument(
        "--max-suggested",
        type=int,
        metavar="N",
        help="fail above N translation-memory suggestions awaiting a reviewer (not counted as stale)",
    )
    memory(check)
    common(check)
    report = rsub.add_parser(
        "report", help="write a side-by-side HTML review page, or list the least confident machine translations"
    )
    report.add_argument("-o", "--output", metavar="FILE.html", help="write the HTML review page here")
    report.add_argument(
        "--worst", type=int, metavar="N",
        help="print the N unreviewed machine translations the model was least sure of (see #. confidence:)",
    )
    memory(report)
    common(report)


def _run(args: argparse.Namespace) -> int:
    try:
        return _dispatch(args)
    except BrokenPipeError:  # `review status | head`: the reader went away, nothing to report
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{where}{exc.strerror or exc}") from None


def _plan_templates(site: Site, args: argparse.Namespace) -> list[tuple[Path, str | None]]:
    """The .pot templates of the site's PO files (``review sync --templates``)."""
    from ..review.sync import po_date
    from ..review.templates import plan_templates

    width = site.po_width if args.width is None else args.width
    return plan_templates(site.review_dir, site.pages, site.site_name, po_date(), width)


def _check_limits(args: argparse.Namespace) -> None:
    """``review check`` needs at least one limit, each in range (a CI gate that checks nothing
    would pass silently)."""
    if all(v is None for v in (args.min_reviewed, args.max_stale, args.max_rejected, args.max_suggested)):
        raise CliError("review check: give --min-reviewed P, --max-stale N, --max-rejected N or --max-suggested N")
    if args.min_reviewed is not None and not 0 <= args.min_reviewed <= 100:  # NaN too
        raise CliError(f"--min-reviewed {args.min_reviewed:g}: a percentage, from 0 to 100")
    for option, value in (
        ("--max-stale", args.max_stale),
        ("--max-rejected", args.max_rejected),
        ("--max-suggested", args.max_suggested),
    ):
        if value is not None and value < 0:
            raise CliError(f"{option} {value}: a count, 0 or more")


def _dispatch(args: argparse.Namespace) -> int:
    config_file = Path(args.config_file)
    action = args.review_command
    if action == "check":
        _check_limits(args)
    if getattr(args, "memory", None) is not None and not 0 <= args.memory <= 100:  # NaN too
        raise CliError(f"--memory {args.memory:g}: a percentage, from 0 to 100")
    if action == "report":
        if args.output is None and args.worst is None:
            raise CliError("review report: give -o FILE.html, --worst N or both")
        if args.worst is not None and args.worst < 1:
            raise CliError(f"--worst {args.worst}: a count, 1 or more")
        if args.output is not None:
            check_output(Path(args.output), "--output", config=config_file)
    if action == "prune":
        from ..plugin.collect import review_dir_of
        from ..review.sync import apply, plan_prune

        review_dir = review_dir_of(config_file)
        planned = plan_prune(review_dir, args.width)
        removed = sum(p.removed for p in planned)
        changed = apply(planned, review_dir)
        print(f"review prune: {removed} obsolete entries removed, {len(changed)} file(s) changed")
        return 0

    from ..plugin.collect import collect_site
    from ..review.layer import rejected_entries
    from ..review.status import ReviewFile, format_status, rejection_lines, status_of, status_report
    from ..review.sync import apply, plan_sync

    site = collect_site(config_file)
    memory = site.translation_memory if args.memory is None else args.memory
    planned = plan_sync(site, getattr(args, "width", None), memory=memory)
    files = [
        ReviewFile(
            p.path,
            site.page_labels.get(p.path, display(p.path)),
            p.po,
            rejected_entries(site.pages.get(p.path, []), p.po),
        )
        for p in planned
    ]
    status = status_of(files)
    if action == "sync":
        templates = _plan_templates(site, args) if args.templates else []
        changed = apply(planned, site.review_dir)
        t = status.total
        print(
            f"review sync: {len(changed)} of {len(planned)} PO file(s) written in {display(site.review_dir)}; "
            f"{t.reviewed} reviewed, {t.machine} machine, {t.stale} stale, {t.suggested} suggested, "
            f"{t.missing} missing, {t.obsolete} obsolete"
        )
        if args.templates:
            from ..review.templates import apply_templates, templates_dir

            written = apply_templates(site.review_dir, templates)
            print(f"review sync: {len(written)} of {len(templates)} template(s) written in "
                  f"{display(templates_dir(site.review_dir))}")
        return 0
    if action == "status" and args.json:
        from ..pipeline.report import dumps

        sys.stdout.write(dumps(status_report(status)))
        for line in rejection_lines(files):
            print(line, file=sys.stderr)
        return 0
    if action == "status":
        print(format_status(status))
        for line in rejection_lines(files):
            print(line)
        return 0
    if action == "check":
        t = status.total
        failures = []
        if args.min_reviewed is not None and t.percent < args.min_reviewed:
            failures.append(f"below the required {args.min_reviewed:g}%")
        if args.max_stale is not None and t.stale > args.max_stale:
            failures.append(f"more than {args.max_stale} stale")
        if args.max_rejected is not None and t.rejected > args.max_rejected:
            failures.append(f"more than {args.max_rejected} rejected")
        if args.max_suggested is not None and t.suggested > args.max_suggested:
            failures.append(f"more than {args.max_suggested} suggested")
        verdict = "; ".join(failures) or "ok"
        for line in rejection_lines(files):
            print(line)
        print(
            f"review check: {t.reviewed} of {t.total} entries reviewed ({t.percent:.1f}%), {t.suggested} suggested, "
            f"{t.stale} stale, "
            f"{t.rejected} rejected: {verdict}"
        )
        return EXIT_BELOW if failures else 0
    if action == "report" and args.worst is not None:
        from ..review.confidence import format_worst

        for line in format_worst(files, args.worst):
            print(line)
    if action == "report" and args.output is not None:
        from ..review.report import render_report

        text = render_report(files, status, f"Translation review: {site.config_file.resolve().parent.name}")
        out = check_output(Path(args.output), "--output", config=config_file, docs_dir=site.docs_dir)
        write_if_changed(out, text)
        print(f"review report: wrote {display(out)} ({status.total.reviewed} of {status.total.total} reviewed)")
    if action == "report":
        return 0
    raise ReviewError(f"unknown review action {action!r}")
