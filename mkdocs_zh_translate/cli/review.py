"""The ``mkdocs-zh-translate review`` sub-commands: sync, prune, status, check, report, serve."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..owned import check_output
from ..plugin.configfile import CONFIG_HELP, find_config
from ..review.memory import DEFAULT_THRESHOLD
from ..review.store import ReviewError, display, write_if_changed
from .errors import CliError
from .options import add_command_group

if TYPE_CHECKING:
    from ..plugin.collect import Site
    from ..review.status import ReviewFile, Status
    from ..review.sync import Planned
    from ..review.variants import VariantSite

EXIT_BELOW = 1
_REPLANS = 3  # plans made before giving up on a PO file that keeps changing while sync runs


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rsub = add_command_group(sub, "review", "keep reviewed translations (PO files) in step with the site")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("-f", "--config-file", metavar="FILE", help=CONFIG_HELP)
        p.set_defaults(func=_run)

    def memory(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--memory",
            type=float,
            metavar="P",
            help="translation memory: an entry nobody translated gets the reviewed translation of an English "
            f"at least P%% similar as a fuzzy suggestion (default: translation_memory, {DEFAULT_THRESHOLD}; 0: none)",
        )

    def variant(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--variant", metavar="CODE",
            help="the PO files of a Traditional variant (zh-TW, zh-HK, zh-Hant: translations/<CODE>/) "
            "as a sync would write them, instead of the Simplified ones",
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
    variant(status)
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
    variant(check)
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
    from .reviewserve import add_serve_parser

    common(add_serve_parser(rsub))


def _run(args: argparse.Namespace) -> int:
    try:
        return _dispatch(args)
    except BrokenPipeError:  # `review status | head`: app.main says it in one line, as for every command
        raise
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        raise CliError(f"{where}{exc.strerror or exc}") from None


def _plan_templates(
    site: Site, args: argparse.Namespace, planned: list[Planned]
) -> list[tuple[Path, str | None]]:
    """The .pot templates of the site's PO files (``review sync --templates``), with the
    extracted comments the planned PO files have (msgmerge takes them from the template)."""
    from ..review.sync import po_date
    from ..review.templates import plan_templates, po_comments

    width = site.po_width if args.width is None else args.width
    comments = {p.path: po_comments(p.po) for p in planned}
    return plan_templates(site.review_dir, site.pages, site.site_name, po_date(), width, comments)


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


def _check_options(args: argparse.Namespace, config_file: Path) -> None:
    """Option values checked before the site is read (which takes a while): a bad one stops the
    command with one line, in the order the checks always ran (limits, memory, report)."""
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


def _dispatch(args: argparse.Namespace) -> int:
    config_file = find_config(args.config_file)
    _check_options(args, config_file)
    handler = _ACTIONS.get(args.review_command)
    if handler is None:
        raise ReviewError(f"unknown review action {args.review_command!r}")
    return handler(args, config_file)


def _prune(args: argparse.Namespace, config_file: Path) -> int:
    """``review prune``: the only action that needs no site (no pages collected, no cache read)."""
    from ..plugin.collect import review_dir_of
    from ..review.sync import plan_prune

    review_dir = review_dir_of(config_file)
    planned: list[Planned] = []

    def plan() -> list[Planned]:
        planned[:] = plan_prune(review_dir, args.width)
        return planned

    changed = _apply_fresh(plan, review_dir)
    removed = sum(p.removed for p in planned)
    drafts = sum(p.drafts for p in planned)
    kept = f"; {drafts} obsolete draft(s) kept (a reviewer's work: delete them by hand)" if drafts else ""
    print(f"review prune: {removed} obsolete entries removed, {len(changed)} file(s) changed{kept}")
    return 0


@dataclass
class _Review:
    """What every action but prune starts from: the site, the PO files a sync would write (the
    others report on them as they would be after one, writing nothing) and their counts."""

    site: Site
    planned: list[Planned]
    files: list[ReviewFile]
    status: Status

    def replan(self, args: argparse.Namespace) -> None:
        """Plan again from the PO files as they are now (the site's pages stay as collected)."""
        fresh = _plan(self.site, args)
        self.planned, self.files, self.status = fresh.planned, fresh.files, fresh.status


def _review(args: argparse.Namespace, config_file: Path) -> _Review:
    """Collect the site and plan the sync (in memory): the state each site action reads; with
    ``--variant``, the variant's PO files as the sync would write them."""
    from ..plugin.collect import with_site

    code = getattr(args, "variant", None)
    if code:
        return with_site(config_file, lambda site: _plan_variant(site, args, code))
    return with_site(config_file, lambda site: _plan(site, args))  # planned while the cache is open


def _plan_variant(site: Site, args: argparse.Namespace, code: str) -> _Review:
    """``review status/check --variant``: the variant's files after a sync (listed in the
    option ``variants`` or not: its table is then the variant's default)."""
    from ..pipeline.variants import Converter, parse_variants
    from ..review.layer import rejected_entries
    from ..review.status import ReviewFile, status_of
    from ..review.variants import plan_variant_sync, variant_sites

    (chosen,) = parse_variants([code]) or (None,)
    if chosen is None:
        raise CliError(f"--variant {code}: the Simplified files are the default; name a variant such as zh-TW")
    simplified = _plan(site, args)
    site.variants = [v for v in site.variants if v[0] == code] or [(code, chosen.table, Converter(chosen.table))]
    variant = variant_sites(site)[0]
    memory = site.translation_memory if args.memory is None else args.memory
    planned = plan_variant_sync(variant, simplified.planned, site.review_dir, memory=memory)
    own = variant.site
    files = [
        ReviewFile(p.path, own.page_labels.get(p.path, display(p.path)), p.po,
                   rejected_entries(own.pages.get(p.path, []), p.po))
        for p in planned
    ]
    return _Review(own, planned, files, status_of(files))


def _plan(site: Site, args: argparse.Namespace) -> _Review:
    """The sync planned from the PO files as they are now, and what the reports read of it."""
    from ..review.layer import rejected_entries
    from ..review.status import ReviewFile, status_of
    from ..review.sync import plan_sync

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
    return _Review(site, planned, files, status_of(files))


def _apply_fresh(plan: Callable[[], list[Planned]], review_dir: Path) -> list[Path]:
    """Write what ``plan()`` planned; when a PO file changed on disk since it was read (a
    reviewer saved it meanwhile), plan again from the new content, a few times, before giving
    up with the one line naming the file. Nothing a reviewer saved is ever overwritten."""
    from ..review.sync import ChangedOnDisk, apply

    error: ChangedOnDisk | None = None
    for _attempt in range(_REPLANS):
        try:
            return apply(plan(), review_dir)
        except ChangedOnDisk as exc:
            if exc.written:
                raise
            error = exc
    assert error is not None
    raise error


def _sync(args: argparse.Namespace, config_file: Path) -> int:
    """``review sync``: write the planned PO files (and the templates with ``--templates``),
    planned again while the English build's cache is open when a file changed meanwhile."""
    from ..plugin.collect import with_site

    return with_site(config_file, lambda site: _sync_site(site, args))


def _sync_site(site: Site, args: argparse.Namespace) -> int:
    review = _plan(site, args)
    first = [review.planned]

    def plan() -> list[Planned]:
        if first:
            return first.pop()
        review.replan(args)
        return review.planned

    changed = _apply_fresh(plan, site.review_dir)
    planned = review.planned
    t = review.status.total
    print(
        f"review sync: {len(changed)} of {len(planned)} PO file(s) written in {display(site.review_dir)}; "
        f"{t.reviewed} reviewed, {t.machine} machine, {t.stale} stale, {t.suggested} suggested, "
        f"{t.missing} missing, {t.obsolete} obsolete"
    )
    _sync_variants(site, args, planned)
    if args.templates:
        from ..review.templates import apply_templates, templates_dir

        templates = _plan_templates(site, args, planned)
        written = apply_templates(site.review_dir, templates)
        print(f"review sync: {len(written)} of {len(templates)} template(s) written in "
              f"{display(templates_dir(site.review_dir))}")
    return 0


def _sync_variants(site: Site, args: argparse.Namespace, simplified: list[Planned]) -> None:
    """The extra variants' PO files (``translations/zh-TW/``), after the Simplified ones: the
    Simplified review converted is offered where a variant's reviewers wrote nothing."""
    from ..review.status import ReviewFile, status_of
    from ..review.variants import plan_variant_sync, variant_sites

    memory = site.translation_memory if args.memory is None else args.memory
    width = getattr(args, "width", None)
    for variant in variant_sites(site):
        own = variant.site
        planned = plan_variant_sync(variant, simplified, site.review_dir, width, memory)
        first = [planned]

        def plan(variant: VariantSite = variant, first: list[list[Planned]] = first) -> list[Planned]:
            return first.pop() if first else plan_variant_sync(variant, simplified, site.review_dir, width, memory)

        changed = _apply_fresh(plan, own.review_dir)
        t = status_of([ReviewFile(p.path, display(p.path), p.po, {}) for p in planned]).total
        print(
            f"review sync: {variant.code}: {len(changed)} of {len(planned)} PO file(s) written in "
            f"{display(own.review_dir)}; {t.reviewed} reviewed, {t.machine} machine, {t.suggested} suggested, "
            f"{t.missing} missing, {t.obsolete} obsolete"
        )


def _status(args: argparse.Namespace, config_file: Path) -> int:
    """``review status``: the counts as a table, or as JSON on stdout with the rejections on
    stderr (so that the JSON stays parseable)."""
    from ..review.status import format_status, rejection_lines, status_report

    review = _review(args, config_file)
    if args.json:
        from ..pipeline.report import dumps

        sys.stdout.write(dumps(status_report(review.status)))
        for line in rejection_lines(review.files):
            print(line, file=sys.stderr)
        return 0
    print(format_status(review.status))
    for line in rejection_lines(review.files):
        print(line)
    return 0


def _check(args: argparse.Namespace, config_file: Path) -> int:
    """``review check``: :data:`EXIT_BELOW` when a limit is crossed (a CI gate), naming each."""
    from ..review.status import rejection_lines

    review = _review(args, config_file)
    t = review.status.total
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
    for line in rejection_lines(review.files):
        print(line)
    print(
        f"review check: {t.reviewed} of {t.total} entries reviewed ({t.percent:.1f}%), {t.suggested} suggested, "
        f"{t.stale} stale, "
        f"{t.rejected} rejected: {verdict}"
    )
    return EXIT_BELOW if failures else 0


def _report(args: argparse.Namespace, config_file: Path) -> int:
    """``review report``: the least confident machine texts (``--worst``), then the HTML page."""
    review = _review(args, config_file)
    site, files, status = review.site, review.files, review.status
    if args.worst is not None:
        from ..review.confidence import format_worst

        for line in format_worst(files, args.worst):
            print(line)
    if args.output is not None:
        from ..pipeline.inputs import project_inputs
        from ..review.report import render_report

        root = site.config_file.resolve().parent
        models = {key: (text, site.models[key]) for key, text in site.machine.items() if key in site.models}
        text = render_report(files, status, f"Translation review: {site.site_name or root.name}", root, models)
        out = check_output(Path(args.output), "--output", config=config_file, docs_dir=site.docs_dir,
                           kept=project_inputs(site.review_dir, site.cache_dir))
        write_if_changed(out, text)
        print(f"review report: wrote {display(out)} ({status.total.reviewed} of {status.total.total} reviewed)")
    return 0


def _serve(args: argparse.Namespace, config_file: Path) -> int:
    """``review serve``: the Chinese site in the browser, each segment reviewable on the page."""
    from .reviewserve import run_serve

    return run_serve(args, config_file)


_ACTIONS = {"sync": _sync, "prune": _prune, "status": _status, "check": _check, "report": _report, "serve": _serve}
