"""What the plugin adds to ``mkdocs serve``: the review directory watched, the Chinese 404 page."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any


def watch_review_dir(server: Any, review_dir: Path) -> None:
    """Watch ``review_dir`` now, or as soon as it is created (the first `review sync` during
    `mkdocs serve`): until then only its nearest existing ancestor is watched, one level deep,
    so the cache directory beside mkdocs.yml never triggers a rebuild."""
    if review_dir.is_dir():
        server.watch(str(review_dir))
        return
    import watchdog.events

    watching: set[Path] = set()

    def appeared(event: Any) -> None:
        if review_dir.is_dir():
            if str(review_dir) not in getattr(server, "_watched_paths", {}):
                server.watch(str(review_dir))
                _request_rebuild(server)
            return
        follow()

    def follow() -> None:
        ancestor = review_dir.parent
        while not ancestor.is_dir() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if ancestor in watching:
            return
        watching.add(ancestor)
        handler = watchdog.events.FileSystemEventHandler()
        handler.on_created = appeared  # type: ignore[method-assign]
        handler.on_moved = appeared  # type: ignore[method-assign]
        server.observer.schedule(handler, str(ancestor), recursive=False)
        if review_dir.is_dir():  # created while the watch was being set up
            appeared(None)

    follow()


def serve_zh_404(server: Any, site_dir: Path, prefix: str) -> None:
    """Make `mkdocs serve` answer a missing page under ``/<prefix>/`` with the Chinese 404 page
    (its own error handler only knows ``site_dir/404.html``, the English one). The WSGI app is
    wrapped to remember each request's path for the error handler, which MkDocs calls with the
    status code only."""
    request = threading.local()
    app = server.get_app()

    def remember_path(environ: dict[str, Any], start_response: Any) -> Any:
        request.path = environ.get("PATH_INFO", "")
        return app(environ, start_response)

    english = server.error_handler
    zh_root = getattr(server, "mount_path", "/").rstrip("/") + f"/{prefix}/"

    def error_page(code: int) -> bytes | None:
        if code == 404 and str(getattr(request, "path", "")).startswith(zh_root):
            page = site_dir / prefix / "404.html"
            if page.is_file():
                return page.read_bytes()
        result: bytes | None = english(code)
        return result

    server.set_app(remember_path)
    server.error_handler = error_page


def _request_rebuild(server: Any) -> None:
    """Ask `mkdocs serve` for a rebuild, as its own file watcher does (PO files written with
    the new directory may have landed before the watch on it started)."""
    condition = getattr(server, "_rebuild_cond", None)
    if condition is None:
        return
    with condition:
        server._want_rebuild = True
        condition.notify_all()
