"""Per-site table of the real-world corpus: how much of each real doc set survives translation.

Builds each pinned third-party doc set with the plugin (``pseudo`` backend) and compares every
zh page with its English page (see ``tests/realsites/harness.py`` for the measures)::

    export PYTHONPATH=$PWD ZH_TRANSLATE_TEST_CACHE=/work/main/.cache/test-models
    python benchmarks/realsites.py                  # all sites, guard as configured (default)
    python benchmarks/realsites.py --guard off      # the segmenter alone
    python benchmarks/realsites.py hatch -v         # one site, list the pages that differ
    python benchmarks/realsites.py --keep /tmp/rs   # keep the built sites for inspection
    python benchmarks/realsites.py --guard off --baseline tests/realsites/baseline.py

Columns: pages compared, % identical after removing 「」, % of <pre> blocks identical, % of
hrefs/srcs identical, % of heading/element ids identical, % of visible prose letters inside 「」,
the number of broken pages (a <pre>, href/src or id differs), the silently English pages (the
banner says machine translated, under 10 % of the prose is, and no warning names the page), the
segments the page guard sent back to English (from the build's summary line; 0 when it reverted
none) and the build's time.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.realsites.harness import HEADER, CorpusError, SiteReport, baseline_source, run_site
from tests.realsites.sites import SITES, by_name

_GUARDED = re.compile(r"(\d+) kept in English by the page guard")


def guarded(report: SiteReport) -> int:
    """Segments the page guard sent back to English in the site's zh build."""
    return sum(int(m.group(1)) for m in _GUARDED.finditer(report.log))


def total_row(reports: list[SiteReport]) -> str:
    """The table's last row: every page of every site pooled (ratios over blocks, not sites)."""
    pages = [p for r in reports for p in r.pages]

    def ratio(attr: str) -> float:
        total = sum(getattr(p, attr)[1] for p in pages)
        return 100.0 * sum(getattr(p, attr)[0] for p in pages) / total if total else 100.0

    letters = sum(p.letters for p in pages)
    identical = 100.0 * sum(p.identical for p in pages) / len(pages) if pages else 100.0
    coverage = 100.0 * sum(p.marked for p in pages) / letters if letters else 100.0
    return (
        f"{'all':<20} {len(pages):>5} {identical:>7.1f} {ratio('pre'):>7.1f} {ratio('links'):>7.1f} "
        f"{ratio('ids'):>7.1f} {coverage:>7.1f} {sum(p.broken for p in pages):>6} "
        f"{sum(p.silently_english for p in pages):>6} {sum(map(guarded, reports)):>8}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", help="site names (default: all)")
    parser.add_argument("--guard", choices=("on", "off", "default"), default="default")
    parser.add_argument("--keep", type=Path, help="build under this directory and keep it")
    parser.add_argument("-v", "--verbose", action="store_true", help="list differing pages")
    parser.add_argument("--baseline", type=Path, help="write the test floors and known pages to this file")
    args = parser.parse_args(argv)
    guard = {"on": True, "off": False, "default": None}[args.guard]
    sites = [by_name(n) for n in args.sites] if args.sites else list(SITES)
    print(HEADER + f" {'reverted':>8} {'seconds':>8}")
    failed = 0
    reports = []
    for site in sites:
        started = time.perf_counter()
        try:
            report = run_site(site, args.keep / site.name if args.keep else None, guard=guard)
        except CorpusError as exc:
            failed += 1
            print(f"{site.name:<20} FAILED: {str(exc).splitlines()[0]}")
            if args.verbose:
                print(str(exc))
            continue
        reports.append(report)
        print(f"{report.row()} {guarded(report):>8} {time.perf_counter() - started:>8.1f}", flush=True)
        for line in report.log.splitlines():
            if "page guard" in line and "INFO" in line:
                print(f"    {line.split('zh-translate: ', 1)[-1].strip()}")
        if report.human:
            print(f"    {len(report.human)} zh pages are the site's own (human), not compared")
        if report.placeholders:
            count, first = len(report.placeholders), report.placeholders[0]
            print(f"    {count} HTML files hold an internal placeholder, e.g. {first}")
        if args.verbose:
            if report.dropped:
                print("    overrides: " + "; ".join(report.dropped))
            for page in report.silent:
                print(f"    silently English: {page.page} ({page.marked}/{page.letters} prose letters in 「」)")
            for name in report.missing:
                print(f"    no zh page: {name}")
            for page in report.pages:
                if not page.identical or page.broken:
                    flags = [
                        f"{label} {same}/{total}"
                        for label, (same, total) in (("pre", page.pre), ("hrefs", page.links), ("ids", page.ids))
                        if same != total
                    ]
                    known = site.known.get(page.page)
                    print(f"    {page.page}: {' '.join(flags) or 'differs'}" + (f"  [known: {known}]" if known else ""))
                    print(f"      {page.first_difference}")
            for line in report.log.splitlines():
                if "zh-translate" in line and ("WARNING" in line or "ERROR" in line):
                    print(f"    log: {line.strip()[:300]}")
    if args.baseline and reports:
        args.baseline.write_text(baseline_source(reports), encoding="utf-8")
    if reports:
        print(total_row(reports))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
