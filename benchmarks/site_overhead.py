"""Build overhead of the plugin on real doc sets (issue 21): every time as a ratio to a plain build.

    export PYTHONPATH=$PWD ZH_TRANSLATE_REALSITES_CACHE=.cache/realsites
    python benchmarks/site_overhead.py                       # pymdown-extensions + example_site
    python benchmarks/site_overhead.py example --rounds 3 --profile

Per site, in one run and in interleaved rounds (plain, first, cached, plain, first, ...), the
minimum of each over the rounds:

* **plain**: ``mkdocs build`` of the same project with ``zh-translate`` removed from the config;
* **first**: ``mkdocs build`` with the plugin (``pseudo`` backend: no model time), empty cache;
* **cached**: the same build again, every segment (and guard verdict) cached;
* **reload**: ``mkdocs serve`` of each config (two copies of the project, both servers up at
  once), a one-paragraph edit of one page, timed from the file write until the rebuilt page
  (the zh page with the plugin, the English page without) is served with the new content; the
  minimum of ``--edits`` edits per round. Ratio: plugin reload / plain reload.

Every build is a real ``python -m mkdocs`` subprocess (start-up counts, as a user sees it).
``--profile`` runs the cached rebuild (and the first build) once more under cProfile and prints
the 15 functions of this package with the most cumulative time.

Sites: ``pymdown-extensions`` (52 pages, 407 KB of Markdown, every pymdownx extension) and
``example`` (example_site/, the project's own guide) by default; any tests/realsites site by
name, e.g. ``instructor`` (309 pages, Material blog, minify, mkdocstrings: ~5 minutes a round
without ``--no-serve`` on a loaded 2-core machine).
"""

from __future__ import annotations

import argparse
import io
import os
import pstats
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.realsites import harness  # noqa: E402
from tests.realsites.sites import by_name  # noqa: E402

PACKAGE = str(REPO / "mkdocs_zh_translate")


@dataclass
class Project:
    name: str
    root: Path  # cwd of the builds
    plain: Path  # config without the plugin
    zh: Path  # config with the plugin
    cache: Path
    env: dict[str, str]
    edit_page: str  # docs-relative path of the page the reload edits
    mount: str  # serve's mount path (site_url's path)


def _dump(data: dict[str, Any], path: Path) -> Path:
    path.write_text(yaml.dump(data, Dumper=harness._Dumper, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _without_plugin(data: dict[str, Any]) -> dict[str, Any]:
    plain = dict(data)

    def ours(entry: Any) -> bool:
        return entry == "zh-translate" or (isinstance(entry, dict) and "zh-translate" in entry)

    plain["plugins"] = [p for p in data.get("plugins") or [] if not ours(p)]
    return plain


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env["NO_COLOR"] = "1"
    env["PYTHONHASHSEED"] = "0"
    return env


def prepare(name: str, work: Path) -> Project:
    """A fresh copy of the site under ``work`` with a plain and a plugin config."""
    work.mkdir(parents=True, exist_ok=True)
    env = _env()
    if name == "example":
        root = work / "example"
        shutil.copytree(REPO / "example_site", root)
        data = yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=harness._Loader)
        plugins = [p for p in data["plugins"] if not (isinstance(p, dict) and "zh-translate" in p)]
        zh = {"backend": "pseudo", "cache_dir": str(work / "zh-cache"), "exclude": ["changelog.md"]}
        data["plugins"] = [*plugins, {"zh-translate": zh}]
        config = _dump(data, root / "mkdocs.zh.yml")
        edit = "guide/quickstart.md"
    else:
        site = by_name(name)
        root = harness.unpack(site, work / "src")
        config, _ = harness.write_config(site, root, work / "zh-cache")
        harness.strip_exec_options(root)
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=harness._Loader)
        if site.shims:
            bin_dir = work / "bin"
            bin_dir.mkdir(exist_ok=True)
            for command, output in site.shims.items():
                shim = bin_dir / command
                shim.write_text(f"#!/bin/sh\necho {output}\n", encoding="utf-8")
                shim.chmod(0o755)
            env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
        edit = "index.md"
        if name == "pymdown-extensions":
            edit = "extensions/details.md"
    plain = _dump(_without_plugin(data), root / "mkdocs.plain.yml")
    mount = urlparse(str(data.get("site_url") or "")).path or "/"
    return Project(name, root, plain, config, work / "zh-cache", env, edit, mount.rstrip("/") + "/")


def _docs(project: Project, config: Path) -> Path:
    data = yaml.load(config.read_text(encoding="utf-8"), Loader=harness._Loader)
    return project.root / str(data.get("docs_dir") or "docs")


def build(project: Project, config: Path, site_dir: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site_dir)],
        cwd=project.root,
        env=project.env,
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{project.name}: build failed ({config.name}):\n{done.stderr[-3000:]}")
    return took


# -- serve --------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body: bytes = response.read()
            return body
    except (urllib.error.URLError, OSError):
        return None


class Server:
    """``mkdocs serve`` of one config in its own copy of the project, on 127.0.0.1."""

    def __init__(self, project: Project, config: Path, copy: Path, zh: bool) -> None:
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(project.root, copy, symlinks=True)
        self.config = copy / config.name
        self.docs = _docs(project, config).relative_to(project.root)
        self.page = copy / self.docs / project.edit_page
        self.port = _free_port()
        uri = project.edit_page[: -len(".md")]
        uri = "" if uri == "index" else uri.removesuffix("/index") + "/"
        self.url = f"http://127.0.0.1:{self.port}{project.mount}{'zh/' if zh else ''}{uri}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-f", str(self.config), "-a", f"127.0.0.1:{self.port}"],
            cwd=copy,
            env=project.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.original = self.page.read_text(encoding="utf-8")
        deadline = time.monotonic() + 900
        while _get(self.url) is None:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{project.name}: mkdocs serve did not come up ({self.config.name}, {self.url})")
            time.sleep(0.2)
        time.sleep(1.0)  # let the watcher settle

    def reload(self, n: int) -> float:
        """Append a paragraph to the page; seconds until the served page shows it. ``mkdocs
        serve`` holds every page request while it rebuilds, so this is when the rebuild ends:
        when the browser reloads."""
        marker = f"edit number {n},".encode()
        text = self.original + f"\n\nA paragraph added by the benchmark, edit number {n}, to time one reload.\n"
        started = time.perf_counter()
        self.page.write_text(text, encoding="utf-8")
        deadline = started + 900
        while True:
            now = _get(self.url)
            if now is not None and marker in now:
                took = time.perf_counter() - started
                break
            if time.perf_counter() > deadline or self.proc.poll() is not None:
                raise SystemExit(f"mkdocs serve did not rebuild {self.url}")
            time.sleep(0.02)
        time.sleep(0.5)
        return took

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# -- profile ------------------------------------------------------------------------------


def profile(project: Project, site_dir: Path, label: str, top: int = 15) -> str:
    """One in-process build of the plugin config under cProfile: our package's top functions."""
    code = (
        "import cProfile,sys\n"
        "from mkdocs.__main__ import cli\n"
        f"sys.argv=['mkdocs','build','-q','-f',{str(project.zh)!r},'-d',{str(site_dir)!r}]\n"
        f"cProfile.run('cli(standalone_mode=False)', {str(site_dir) + '.prof'!r})\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=project.root, env=project.env, check=True, capture_output=True)
    stats = pstats.Stats(str(site_dir) + ".prof")
    total = max((v[3] for v in stats.stats.values()), default=0.0)  # type: ignore[attr-defined]
    rows = [
        (ct, tt, nc, f"{os.path.relpath(fn, REPO)}:{line}({name})")
        for (fn, line, name), (_cc, nc, tt, ct, _callers) in stats.stats.items()  # type: ignore[attr-defined]
        if fn.startswith(PACKAGE)
    ]
    rows.sort(reverse=True)
    out = io.StringIO()
    out.write(f"{project.name}, {label}: whole build {total:.2f} s under cProfile; ")
    out.write(f"top {top} of mkdocs_zh_translate by cumulative time\n")
    out.write(f"{'cum s':>7} {'own s':>7} {'calls':>7}  function\n")
    for ct, tt, nc, where in rows[:top]:
        out.write(f"{ct:7.2f} {tt:7.2f} {nc:7d}  {where}\n")
    return out.getvalue()


# -- main ---------------------------------------------------------------------------------


def run(name: str, work: Path, rounds: int, edits: int, serve: bool, want_profile: bool) -> dict[str, Any]:
    project = prepare(name, work / name)
    times: dict[str, list[float]] = {"plain": [], "first": [], "cached": []}
    sites = work / name / "out"
    for r in range(rounds):
        times["plain"].append(build(project, project.plain, sites / "plain"))
        shutil.rmtree(project.cache, ignore_errors=True)
        times["first"].append(build(project, project.zh, sites / "zh"))
        times["cached"].append(build(project, project.zh, sites / "zh"))
        print(f"  {name} round {r + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in times.items()), flush=True)
    best: dict[str, Any] = {k: min(v) for k, v in times.items() if v}  # --rounds 0: profile only
    if serve and rounds:
        plain_server = Server(project, project.plain, work / name / "serve-plain", zh=False)
        zh_server = Server(project, project.zh, work / name / "serve-zh", zh=True)
        try:
            reloads: dict[str, list[float]] = {"reload plain": [], "reload zh": []}
            for n in range(edits):
                reloads["reload plain"].append(plain_server.reload(n))
                reloads["reload zh"].append(zh_server.reload(n))
                print(
                    f"  {name} edit {n + 1}: plain {reloads['reload plain'][-1]:.2f} s, "
                    f"zh {reloads['reload zh'][-1]:.2f} s",
                    flush=True,
                )
        finally:
            plain_server.stop()
            zh_server.stop()
        best.update({k: min(v) for k, v in reloads.items()})
    if want_profile:
        shutil.rmtree(project.cache, ignore_errors=True)
        best["profile first"] = profile(project, sites / "prof-first", "first build (empty cache)")
        best["profile cached"] = profile(project, sites / "prof-cached", "cached rebuild")
    return best


def table(results: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| site | plain build s | first (pseudo) | cached rebuild | plain reload s | zh reload |",
        "|---|---|---|---|---|---|",
    ]
    for name, best in results.items():
        if "plain" not in best:
            continue
        plain = best["plain"]
        reload = ""
        if "reload plain" in best:
            zh = best["reload zh"]
            reload = f"| {best['reload plain']:.2f} | {zh / best['reload plain']:.2f}× ({zh:.2f} s) |"
        else:
            reload = "| – | – |"
        lines.append(
            f"| {name} | {plain:.2f} | {best['first'] / plain:.2f}× ({best['first']:.2f} s) "
            f"| {best['cached'] / plain:.2f}× ({best['cached']:.2f} s) {reload}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", default=["pymdown-extensions", "example"])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--edits", type=int, default=3, help="serve reloads timed per server")
    parser.add_argument("--no-serve", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--work", type=Path, default=None, help="keep the projects here (default: a temp dir)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="zh-overhead-"))
    results: dict[str, dict[str, Any]] = {}
    try:
        for name in args.sites:
            if (work / name).exists():
                shutil.rmtree(work / name)
            results[name] = run(name, work, args.rounds, args.edits, not args.no_serve, args.profile)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print()
    print(table(results))
    for best in results.values():
        for key in ("profile first", "profile cached"):
            if key in best:
                print()
                print(best[key])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
