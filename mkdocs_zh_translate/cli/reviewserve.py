"""``mkdocs-zh-translate review serve``: review the Chinese site in the browser, on the page.

The site is built once in review mode (``plugin.reviewsite``), then served on 127.0.0.1 by
``review.server`` until Ctrl-C; every save writes one PO entry and rebuilds that page.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from ..plaintext import for_terminal
from ..review.store import ReviewError
from .errors import CliError

DEFAULT_PORT = 8765


def add_serve_parser(rsub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    serve: argparse.ArgumentParser = rsub.add_parser(
        "serve",
        help="review the Chinese site in the browser: pick a sentence on the page, edit or accept it "
        "(writes the PO files; listens on 127.0.0.1 only)",
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, metavar="N",
        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port)",
    )
    return serve


def run_serve(args: argparse.Namespace, config_file: Path, stop: threading.Event | None = None) -> int:
    """Build, serve until Ctrl-C (or ``stop`` is set), then clean the scratch build away."""
    from ..plugin.reviewsite import open_review_site
    from ..review.server import ReviewServer

    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: a port number, 0 to 65535")
    try:
        server = ReviewServer(args.port)
    except OSError as exc:
        raise CliError(f"--port {args.port}: cannot listen on 127.0.0.1: {exc.strerror or exc}") from None
    try:
        site = open_review_site(config_file, server.url)
    except ReviewError:
        server.stop()
        raise
    site.queue()  # every PO file read and every page segmented now, not at the first "next worst"
    server.backend = site
    server.log = lambda line: None
    thread = server.start()
    print(f"review serve: {len(site.page_urls)} pages at {server.url}{site.home.lstrip('/')} "
          f"(queue: {server.url}_review/queue); PO files in {for_terminal(str(site.review_dir))}; Ctrl-C stops")
    try:
        while thread.is_alive() and not (stop is not None and stop.is_set()):
            thread.join(0.5)
    except KeyboardInterrupt:
        print("review serve: stopped")
    finally:
        server.stop()
        site.close()
    return 0
