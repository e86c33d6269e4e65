"""The local web server of ``review serve``: the review build's pages, the panel, its JSON API.

Python's own ``http.server`` (threaded): the review UI adds no dependency to the package, and a
one-person local tool with five routes needs no framework. What it must get right is who may
write, so every rule is here, in one place (DESIGN.md, "Trust model"):

* it listens on 127.0.0.1 only (no option to change that);
* every request must name this server in ``Host`` (``127.0.0.1:PORT`` or ``localhost:PORT``):
  a DNS-rebinding page that resolves its own name to 127.0.0.1 is refused, and cannot read the
  pages that carry the token;
* every API call carries the per-run token (``X-Review-Token``, compared in constant time),
  which only pages served by this server hold; writes are ``POST`` with a JSON body
  (``Content-Type: application/json``, which a cross-site form cannot send and a cross-site
  ``fetch`` cannot send without a CORS preflight this server never grants), and an ``Origin``
  or ``Sec-Fetch-Site`` header, when the browser sends one, must be this server's own;
* responses are never cached, never framed (clickjacking), never sniffed;
* static files are served only from the review build's directory (no ``..``, no link out);
  writes go only through the backend, which writes only PO files inside the review directory.

The backend (:class:`Backend`, ``plugin.reviewsite``) owns the site; calls into it are
serialised (one build at a time).
"""

from __future__ import annotations

import hmac
import html
import json
import posixpath
import secrets
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from ..errors import ZhTranslateError
from ..plaintext import for_terminal
from .marks import strip_marks

API = "/_review/"
TOKEN_HEADER = "X-Review-Token"
MAX_BODY = 256 * 1024
_TEXT_TYPES = {".html": "text/html", ".json": "application/json", ".xml": "application/xml", ".txt": "text/plain"}
_TYPES = {
    ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".ico": "image/x-icon",
    ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".map": "application/json",
    ".webp": "image/webp", ".gz": "application/gzip",
}
_ASSETS = {"panel.js": "text/javascript", "panel.css": "text/css"}


class Backend(Protocol):
    """What the server asks of the site under review (``plugin.reviewsite.ReviewSite``)."""

    site_dir: Path
    home: str  # the Chinese site's first page, e.g. "/zh/"

    def page_for(self, url_path: str) -> str | None:
        """The page (src_uri) a served URL path shows, None for any other file."""

    def segment(self, page: str, index: int) -> dict[str, object]:
        """The panel's data for segment ``index`` of ``page`` (KeyError: no such segment)."""

    def save(self, page: str, index: int, text: str | None, version: str | None) -> dict[str, object]:
        """Write the review (``text`` None: accept the current text) and rebuild the page."""

    def queue(self) -> list[dict[str, object]]:
        """The site's segments that need a person, worst first."""

    def refresh(self, page: str) -> None:
        """Build ``page`` again if its PO file changed on disk since it was built."""


class Refused(Exception):
    """A request answered with ``status`` and one line (never a traceback)."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


def asset(name: str) -> bytes:
    """One of the panel's files (``review/web/``), shipped as package data."""
    return resources.files(__package__).joinpath("web").joinpath(name).read_bytes()


def config_script(values: dict[str, object]) -> str:
    """A JSON data island the panel reads: ``<``, ``>`` and ``&`` escaped, so no value (a page
    path, the token) can close the script element."""
    text = json.dumps(values, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script id="zh-review-config" type="application/json">{text}</script>'


def inject(page: str, values: dict[str, object]) -> str:
    """The served page with the panel's stylesheet, data and script before ``</body>``."""
    tags = (
        f'<link rel="stylesheet" href="{API}panel.css">{config_script(values)}'
        f'<script src="{API}panel.js" defer></script>'
    )
    at = page.rfind("</body>")
    return page[:at] + tags + page[at:] if at >= 0 else page + tags


class ReviewServer:
    """The server; :attr:`url` once bound. ``backend`` may be set after binding (the build
    needs the port for its ``site_url``)."""

    def __init__(self, port: int = 0) -> None:
        self.token = secrets.token_urlsafe(32)
        self.backend: Backend | None = None
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{host}" for host in self.hosts}
        self.log: Callable[[str], None] = lambda line: None  # access lines (quiet by default)
        self.warn: Callable[[str], None] = lambda line: print(f"review serve: {for_terminal(line)}", file=sys.stderr)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def serve_forever(self) -> None:
        self.httpd.serve_forever(poll_interval=0.2)

    def start(self) -> threading.Thread:
        """Serve in a daemon thread (tests, and the CLI's main thread waits for Ctrl-C)."""
        thread = threading.Thread(target=self.serve_forever, name="review-serve", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- checks -------------------------------------------------------------------------------

    def check_host(self, headers: Any) -> None:
        if headers.get("Host", "") not in self.hosts:
            raise Refused(HTTPStatus.FORBIDDEN, "wrong Host: this server answers only as 127.0.0.1 or localhost")

    def check_token(self, headers: Any) -> None:
        given = headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
            raise Refused(HTTPStatus.FORBIDDEN, "missing or wrong review token: reload the page from this server")

    def check_write(self, headers: Any) -> None:
        """A write comes from this server's own page: token, JSON, same origin."""
        self.check_token(headers)
        kind = headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "writes take a JSON body (Content-Type: application/json)")
        origin = headers.get("Origin")
        if origin is not None and origin not in self.origins:
            raise Refused(HTTPStatus.FORBIDDEN, "cross-origin write refused")
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Refused(HTTPStatus.FORBIDDEN, "cross-site write refused")

    def need_backend(self) -> Backend:
        if self.backend is None:
            raise Refused(HTTPStatus.SERVICE_UNAVAILABLE, "the review build is not ready yet")
        return self.backend


def _handler(server: ReviewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        owner = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    owner: ReviewServer
    server_version = "zh-translate-review"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the base class's name
        self.owner.log(format % args)

    # -- answers ------------------------------------------------------------------------------

    def _send(self, status: HTTPStatus, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: HTTPStatus, value: object) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def _refused(self, exc: Refused) -> None:
        if self.path.startswith(API + "api/"):
            self._json(exc.status, {"ok": False, "error": str(exc)})
        else:
            self._send(exc.status, html.escape(str(exc)).encode("utf-8"), "text/plain; charset=utf-8")

    # -- methods ------------------------------------------------------------------------------

    def do_GET(self) -> None:  # http.server's name
        try:
            self.owner.check_host(self.headers)
            self._get()
        except Refused as exc:
            self._refused(exc)

    do_HEAD = do_GET

    def do_POST(self) -> None:
        try:
            self.owner.check_host(self.headers)
            if urlsplit(self.path).path != API + "api/save":
                raise Refused(HTTPStatus.NOT_FOUND, "no such endpoint")
            self.owner.check_write(self.headers)
            self._save(self._body())
        except Refused as exc:
            self._refused(exc)

    def _body(self) -> dict[str, Any]:
        try:
            size = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise Refused(HTTPStatus.LENGTH_REQUIRED, "a write needs Content-Length") from None
        if not 0 < size <= MAX_BODY:
            raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a write's body holds 1 to {MAX_BODY} bytes")
        try:
            value = json.loads(self.rfile.read(size).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise Refused(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None
        if not isinstance(value, dict):
            raise Refused(HTTPStatus.BAD_REQUEST, "the body is not a JSON object")
        return value

    def _save(self, body: dict[str, Any]) -> None:
        page, index = _where(body.get("page"), body.get("index"))
        text, version = body.get("text"), body.get("version")
        if (text is not None and not isinstance(text, str)) or (version is not None and not isinstance(version, str)):
            raise Refused(HTTPStatus.BAD_REQUEST, "text and version are strings")
        backend = self.owner.need_backend()
        with self.owner.lock:
            try:
                result = backend.save(page, index, text, version)
            except KeyError:
                raise Refused(HTTPStatus.NOT_FOUND, "no such segment on that page") from None
            except ZhTranslateError as exc:  # the edit refused, or the file changed: said in place
                self._json(HTTPStatus.CONFLICT, {"ok": False, "error": str(exc)})
                return
        self._json(HTTPStatus.OK, {"ok": True, **result})

    def _get(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        if path.startswith(API):
            self._review_get(path[len(API) :], parse_qs(parts.query))
            return
        backend = self.owner.need_backend()
        if path == "/":
            self._send(HTTPStatus.FOUND, b"", "text/plain", {"Location": backend.home})
            return
        self._file(backend, path)

    def _review_get(self, name: str, query: dict[str, list[str]]) -> None:
        if name in _ASSETS:
            self._send(HTTPStatus.OK, asset(name), f"{_ASSETS[name]}; charset=utf-8")
            return
        backend = self.owner.need_backend()
        if name == "queue":
            from .queuepage import render_queue

            with self.owner.lock:
                items = backend.queue()
            page = inject(render_queue(items), {"token": self.owner.token, "page": None, "queue": True})
            self._send(HTTPStatus.OK, page.encode("utf-8"), "text/html; charset=utf-8")
            return
        self.owner.check_token(self.headers)
        try:
            value = self._api_get(backend, name, query)
        except ZhTranslateError as exc:  # a PO file that cannot be read: its one line, in the panel
            raise Refused(HTTPStatus.CONFLICT, str(exc)) from None
        self._json(HTTPStatus.OK, value)

    def _api_get(self, backend: Backend, name: str, query: dict[str, list[str]]) -> object:
        with self.owner.lock:
            if name == "api/segment":
                page, index = _where(query.get("page", [None])[0], query.get("index", [None])[0])
                try:
                    value: object = backend.segment(page, index)
                except KeyError:
                    raise Refused(HTTPStatus.NOT_FOUND, "no such segment on that page") from None
            elif name == "api/queue":
                value = backend.queue()
            else:
                raise Refused(HTTPStatus.NOT_FOUND, "no such endpoint")
        return value

    def _file(self, backend: Backend, path: str) -> None:
        root = backend.site_dir.resolve()
        relative = posixpath.normpath(unquote(path)).lstrip("/")
        if relative.startswith("..") or "\x00" in relative:
            raise Refused(HTTPStatus.NOT_FOUND, "not found")
        target = (root / relative).resolve() if relative not in ("", ".") else root
        if target != root and root not in target.parents:
            raise Refused(HTTPStatus.NOT_FOUND, "not found")
        if target.is_dir():
            if not path.endswith("/"):
                self._send(HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", {"Location": path + "/"})
                return
            target = target / "index.html"
        if not target.is_file():
            raise Refused(HTTPStatus.NOT_FOUND, "not found")
        suffix = target.suffix.lower()
        page = backend.page_for(path) if suffix == ".html" else None
        if page is not None:
            with self.owner.lock:
                try:
                    backend.refresh(page)
                except ZhTranslateError as exc:  # a PO file another editor broke: the last build is served
                    self.owner.warn(f"{page}: not built again: {exc}")
        data = target.read_bytes()
        if suffix in _TEXT_TYPES:
            text = strip_marks(data.decode("utf-8", "replace"))
            if suffix == ".html":
                text = inject(text, {"token": self.owner.token, "page": page, "queue": False})
            self._send(HTTPStatus.OK, text.encode("utf-8"), f"{_TEXT_TYPES[suffix]}; charset=utf-8")
            return
        self._send(HTTPStatus.OK, data, _TYPES.get(suffix, "application/octet-stream"))


def _where(page: object, index: object) -> tuple[str, int]:
    """A segment's address from a request: a page name and a segment number."""
    if not isinstance(page, str) or not page:
        raise Refused(HTTPStatus.BAD_REQUEST, "which page? (page)")
    try:
        number = int(index) if isinstance(index, (int, str)) and not isinstance(index, bool) else -1
    except ValueError:
        number = -1
    if number < 0:
        raise Refused(HTTPStatus.BAD_REQUEST, "which segment? (index, a number)")
    return page, number
