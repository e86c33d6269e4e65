"""``review serve`` benchmark: time from a reviewer's save to the re-rendered page, over HTTP.

    python benchmarks/review_serve.py [--copies 1] [--saves 10] [--page guide/review.md]

The site is example_site/docs copied ``--copies`` times (16 pages each: ``--copies 19`` makes 304),
built with the pseudo backend (a save never needs the model: the page's other segments are
cached), its PO files written by ``review sync``. Then ``review serve``'s server runs on
127.0.0.1 and each save goes through it as the panel sends it (token, JSON), followed by a
GET of the page: the time a browser waits before it can show the page again, minus its own
rendering. Goal: <= 1 s on the example site. Medians and the slowest are printed.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.site import build, make_project
from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.plugin.reviewsite import open_review_site
from mkdocs_zh_translate.review.server import ReviewServer


def _call(url: str, token: str, body: dict[str, object] | None = None) -> dict[str, object]:
    headers = {"X-Review-Token": token, "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=60) as response:
        return dict(json.loads(response.read()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--page", default="guide/review.md", help="the page saved into (src_uri)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-review-serve-") as tmp:
        config = make_project(Path(tmp), args.copies, {"backend": "pseudo"})
        build(config)  # the machine cache filled, as after the team's last build
        if cli_main(["review", "sync", "-f", str(config)]) != 0:
            return 1
        server = ReviewServer(0)
        started = time.perf_counter()
        site = open_review_site(config, server.url)
        print(f"{len(site.page_urls)} pages built for review in {time.perf_counter() - started:.1f} s")
        server.backend = site
        server.start()
        try:
            page_url = server.url.rstrip("/") + site.page_urls[args.page]
            with urllib.request.urlopen(page_url, timeout=60) as response:
                html = response.read().decode()
            token = json.loads(re.findall(r'id="zh-review-config" type="application/json">([^<]*)<', html)[0])["token"]
            segments = len(site.segmented(args.page).segments)
            times, rebuilds = [], []
            for n in range(args.saves):
                index = n % segments
                base = f"{server.url}_review/api/"
                view = _call(f"{base}segment?page={args.page}&index={index}", token)
                begun = time.perf_counter()
                try:
                    result = _call(base + "save", token, {"page": args.page, "index": index, "text": None,
                                                          "version": view["version"]})
                except urllib.error.HTTPError as exc:  # a segment with nothing to accept
                    print(f"segment {index}: {json.loads(exc.read())['error']}")
                    continue
                with urllib.request.urlopen(page_url, timeout=60) as response:
                    response.read()
                times.append(1000 * (time.perf_counter() - begun))
                rebuilds.append(float(str(result.get("rebuild_ms", 0))))
            print(f"save -> page: median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms "
                  f"(rebuild of the page alone: median {statistics.median(rebuilds):.0f} ms), {args.saves} saves")
        finally:
            server.stop()
            site.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
