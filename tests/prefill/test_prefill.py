"""``prefill``: the whole site into the build's cache, in worker processes or on Ray, so the
next build translates nothing; results equal a single-process build's; resumable."""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.pipeline import service as service_module
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.ladder import SegmentTranslation
from mkdocs_zh_translate.pipeline.progress import NoProgress, RateProgress
from mkdocs_zh_translate.pipeline.service import Requests, TranslationService
from mkdocs_zh_translate.pipeline.spec import CacheBinding
from mkdocs_zh_translate.prefill.local import threads_per_worker
from tests.fakes import CountingTranslator
from tests.plugin_sites import PAGES, build_in_process, page_pairs, write_site

REPO = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"zh-translate: (\d+) segments \((\d+) unique\), (\d+) from cache, (\d+) translated, ")

# A few more pages than the plugin tests' site, so several chunks reach several workers.
MORE_PAGES = dict(PAGES)
for n in range(6):
    MORE_PAGES[f"more/page{n}.md"] = f"# Page {n}\n\n" + "".join(
        f"Sentence {i} of page {n} explains the **cache** and the build in some detail.\n\n" for i in range(40)
    )


def _prefill(config: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, int]:
    """Run the command; return (translated, unique) from its summary line."""
    assert main(["prefill", "-f", str(config), "--no-progress", *args]) == 0
    out = capsys.readouterr().out
    match = SUMMARY.search(out)
    assert match, out
    return int(match[4]), int(match[2])


def _zh_pages(site: Path) -> dict[str, str]:
    return {
        zh.relative_to(site).as_posix(): re.sub(r"Build Date UTC : [^\n]*", "", zh.read_text(encoding="utf-8"))
        for _en, zh in page_pairs(site)
    }


def test_prefill_in_worker_processes_leaves_nothing_for_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path, pages=MORE_PAGES)
    translated, unique = _prefill(config, "--workers", "2", capsys=capsys)
    assert translated == unique > 100
    again, _ = _prefill(config, "--workers", "2", capsys=capsys)
    assert again == 0  # everything is cached now; no worker is even started
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0
    assert plugin.stats.cached == plugin.stats.unique == unique


def test_prefill_reports_a_missing_model_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "no-such-model"})
    assert main(["prefill", "-f", str(config), "--no-progress", "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no-such-model" in err and "does not exist" in err


def test_threads_are_split_between_workers() -> None:
    assert threads_per_worker(1, cores=16) == 16
    assert threads_per_worker(2, cores=16) == 8
    assert threads_per_worker(3, cores=16) == 5
    assert threads_per_worker(4, cores=2) == 1  # never 0


def test_progress_shows_rate_and_eta() -> None:
    now = [100.0]
    stream = io.StringIO()
    progress = RateProgress(stream, terminal=False, interval=10, clock=lambda: now[0])
    now[0] = 110.0
    progress.update(50, 200)
    now[0] = 112.0
    progress.update(60, 200)  # within the interval: no new line
    now[0] = 140.0
    progress.update(200, 200)  # the last one always prints
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines == [
        "zh-translate prefill: 50/200 segments (25%), 5.0 segments/s, ETA 30s",
        "zh-translate prefill: 200/200 segments (100%), 5.0 segments/s, ETA 0s",
    ]


def test_progress_without_a_terminal_never_repeats_a_count() -> None:
    now = [0.0]
    stream = io.StringIO()
    progress = RateProgress(stream, terminal=False, interval=10, clock=lambda: now[0])
    now[0] = 10.0
    progress.update(50, 200)
    now[0] = 20.0
    progress.update(50, 200)  # the same count again: no line (it would say 2.5 segments/s)
    now[0] = 30.0
    progress.update(100, 200)
    progress.close()
    assert stream.getvalue().splitlines() == [
        "zh-translate prefill: 50/200 segments (25%), 5.0 segments/s, ETA 30s",
        "zh-translate prefill: 100/200 segments (50%), 3.3 segments/s, ETA 30s",
    ]


def test_an_interrupted_run_keeps_every_finished_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "CHUNK_CHARS", 40)
    texts = [f"Sentence number {i} is here." for i in range(12)]

    def interrupted(
        chunks: list[list[str]], droppable: Mapping[str, Collection[int]]
    ) -> Iterator[tuple[list[str], list[SegmentTranslation]]]:
        assert len(chunks) > 2
        yield chunks[0], [SegmentTranslation(t.upper()) for t in chunks[0]]
        raise KeyboardInterrupt  # the second chunk was in flight

    machine = MachineCache(tmp_path / "cache")
    try:
        service = TranslationService(CountingTranslator, cache=CacheBinding(machine, "fp"), runner=interrupted)
        with pytest.raises(KeyboardInterrupt):
            service.translate(Requests({t: set() for t in texts}))
        first = sorted(texts, key=len)[: service.translated]
        assert 0 < service.translated < len(texts)
        resumed = TranslationService(CountingTranslator, cache=CacheBinding(machine, "fp"))
        hits = resumed.translate(Requests({t: set() for t in texts}))
        assert resumed.cached == len(first) and resumed.translated == len(texts) - len(first)
        assert all(hits[t].text == t.upper() for t in first)
    finally:
        machine.close()


# -- the real engine: worker processes and Ray actors give the single-process build's output --------


def _onnx_site(root: Path, model: Path) -> Path:
    return write_site(root, pages=MORE_PAGES, plugin={"backend": "onnx", "model": str(model), "beams": 2})


@pytest.fixture(scope="module")
def fp32_model() -> Path:
    from tests.models import tiny_onnx_model

    return tiny_onnx_model(quantize="none")


@pytest.fixture(scope="module")
def single_process_pages(fp32_model: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The zh pages of an ordinary cold build (one process, the plugin's own loop)."""
    root = tmp_path_factory.mktemp("single")
    plugin = build_in_process(_onnx_site(root, fp32_model))
    assert plugin.stats.translated == plugin.stats.unique > 100
    return _zh_pages(root / "site")


@pytest.mark.slow
def test_worker_processes_translate_exactly_as_one_process_fp32(
    tmp_path: Path, fp32_model: Path, single_process_pages: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    config = _onnx_site(tmp_path, fp32_model)
    translated, unique = _prefill(config, "--workers", "2", capsys=capsys)
    assert translated == unique > 100
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0 and plugin.lazy.loads == 0
    assert _zh_pages(tmp_path / "site") == single_process_pages


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


LOOPBACK = {"127.0.0.1", "::ffff:127.0.0.1", "::1"}
RAY_TOKEN = "0123456789abcdef0123456789abcdef"  # Ray's tokens: 32+ characters


def _listening(root_pid: int, apart: frozenset[int] = frozenset()) -> dict[str, set[str]]:
    """The addresses on which ``root_pid`` and every process below it listen, by process name,
    leaving out the processes ``apart`` and their descendants (a module's Ray head still running
    beside the test: it is a child of this worker too)."""
    import psutil

    root = psutil.Process(root_pid)
    skipped = set(apart)
    for pid in apart:
        try:
            skipped.update(child.pid for child in psutil.Process(pid).children(recursive=True))
        except psutil.NoSuchProcess:
            continue
    pids = {p.pid: p.name() for p in [root, *root.children(recursive=True)] if p.pid not in skipped}
    found: dict[str, set[str]] = {}
    for conn in psutil.net_connections(kind="inet"):
        if conn.status == psutil.CONN_LISTEN and conn.pid in pids:
            found.setdefault(pids[conn.pid], set()).add(conn.laddr.ip)
    return found


@dataclass
class RayHead:
    address: str
    home: Path  # the HOME the head was started with (its ~/.ray/auth_token, if any)
    process: subprocess.Popen[bytes]


@contextmanager
def _started_head(kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayHead]:
    """A head started by ``ray start --head --block`` on 127.0.0.1 only, with 2 CPUs, and
    ``kind``: "token" (a ~/.ray/auth_token in its HOME: Ray turns token authentication on) or
    "no-token". Stopped by its pid (SIGTERM: it stops the node's processes), never with
    `ray stop`, which stops every Ray of the machine."""
    home = tmp_path_factory.mktemp(f"home-{kind}")
    if kind == "token":
        (home / ".ray").mkdir()
        (home / ".ray" / "auth_token").write_text(RAY_TOKEN, encoding="utf-8")
    temp_dir = Path(tempfile.mkdtemp(prefix="zhray-", dir="/tmp"))  # short: Ray's socket paths
    port = _free_port()
    # Workers are started by the head's raylet: they import this checkout through PYTHONPATH.
    env = dict(os.environ, HOME=str(home), RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS"):
        env.pop(name, None)
    start = [
        str(Path(sys.executable).with_name("ray")), "start", "--head", "--block", "--node-ip-address=127.0.0.1",
        f"--port={port}", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
        "--object-store-memory=100000000", f"--temp-dir={temp_dir}",
    ]
    log = temp_dir / "head.log"
    with log.open("wb") as out:
        process = subprocess.Popen(start, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while b"This command will now block" not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.5)
        listening = _listening(process.pid)
        assert listening and all(ips <= LOOPBACK for ips in listening.values()), listening
        yield RayHead(f"127.0.0.1:{port}", home, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=60)
        shutil.rmtree(temp_dir, ignore_errors=True)
        import ray as ray_module

        ray_module.shutdown()  # the driver side, should a failed test have left it connected


@pytest.fixture(scope="module")
def ray_heads(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], RayHead]]:
    """The module's Ray head of each kind, started when a test first asks for that kind and
    kept for the next test that asks for it: one head serves every test of one kind (each
    prefill connects as a new driver). A module-scoped fixture parametrized per test would
    start one per parameter index (pytest keys it so), three times for the token kind; one
    head runs at a time (the other kind's is stopped first), and the tests of one kind follow
    each other."""
    pytest.importorskip("ray")
    running: dict[str, tuple[RayHead, ExitStack]] = {}

    def head(kind: str) -> RayHead:
        if kind not in running:
            for other in list(running):
                running.pop(other)[1].close()
            stack = ExitStack()
            running[kind] = (stack.enter_context(_started_head(kind, tmp_path_factory)), stack)
        return running[kind][0]

    try:
        yield head
    finally:
        for _, stack in running.values():
            stack.close()


@pytest.fixture
def ray_head(request: pytest.FixtureRequest, ray_heads: Callable[[str], RayHead]) -> RayHead:
    """The module's head of the kind ``request.param`` names (see ``ray_heads``)."""
    return ray_heads(request.param)


@pytest.fixture
def ray_home(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path], None]:
    """Point this process (the driver) at a HOME, without Ray's variables: the token, if any,
    is the one Ray itself finds there."""

    def use(home: Path) -> None:
        monkeypatch.setenv("HOME", str(home))
        for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS"):
            monkeypatch.delenv(name, raising=False)

    return use


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ray_head", "ship"),
    [("no-token", False), ("token", False), ("token", True)],  # the token tests follow each other
    ids=["no-token-model-path", "token-model-path", "token-model-shipped"],
    indirect=["ray_head"],
)
def test_prefill_on_a_local_ray_head(
    ship: bool,
    ray_head: RayHead,
    ray_home: Callable[[Path], None],
    tmp_path: Path,
    fp32_model: Path,
    single_process_pages: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    ray_home(ray_head.home)
    config = _onnx_site(tmp_path, fp32_model)
    translated, unique = _prefill(
        config, "--ray", ray_head.address, *(["--ray-ship-model"] if ship else []), capsys=capsys
    )
    assert translated == unique > 100
    assert "RAY_AUTH_MODE" not in os.environ  # the process is left as it was found
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0 and plugin.lazy.loads == 0
    assert _zh_pages(tmp_path / "site") == single_process_pages


@pytest.mark.slow
@pytest.mark.parametrize("ray_head", ["token"], indirect=True)
def test_a_refused_ray_token_is_said_in_one_line(
    ray_head: RayHead,
    ray_home: Callable[[Path], None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = write_site(tmp_path)
    ray_home(tmp_path / "no-token-home")  # no token where Ray looks
    assert main(["prefill", "-f", str(config), "--no-progress", "--ray", ray_head.address]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err] and "token authentication needs a token and none was found" in err, err
    monkeypatch.setenv("RAY_AUTH_TOKEN", "f" * 32)  # a token, not the cluster's
    assert main(["prefill", "-f", str(config), "--no-progress", "--ray", ray_head.address]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err] and "token authentication refused the token Ray found" in err, err


class _ListeningProbe(NoProgress):
    """A progress reporter that, while the chunks come back, notes where this process and its
    children (a local Ray cluster's processes) listen."""

    def __init__(self, apart: frozenset[int] = frozenset()) -> None:
        self.seen: dict[str, set[str]] = {}
        self.apart = apart  # processes that were there before the run (not the run's cluster)

    def update(self, done: int, total: int) -> None:
        for name, ips in _listening(os.getpid(), self.apart).items():
            self.seen.setdefault(name, set()).update(ips)


@pytest.mark.slow
def test_ray_local_starts_a_cluster_on_127_0_0_1_only(
    ray_home: Callable[[Path], None],
    tmp_path: Path,
    fp32_model: Path,
    single_process_pages: dict[str, str],
) -> None:
    pytest.importorskip("ray")
    import psutil

    from mkdocs_zh_translate.prefill.run import Where, prefill

    ray_home(tmp_path / "home")
    config = _onnx_site(tmp_path, fp32_model)
    before = frozenset(child.pid for child in psutil.Process().children())  # e.g. a module's Ray head
    probe = _ListeningProbe(before)
    stats = prefill(config, Where(workers=2, ray="local"), probe)
    assert stats.translated == stats.unique > 100
    assert "gcs_server" in probe.seen and "raylet" in probe.seen, probe.seen
    assert all(ips <= LOOPBACK for ips in probe.seen.values()), probe.seen
    deadline = time.monotonic() + 60  # ray.shutdown() signals the node's processes; they go in a moment
    while _listening(os.getpid(), before) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _listening(os.getpid(), before), "the local cluster outlived the run"
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER" not in os.environ and "RAY_AUTH_MODE" not in os.environ
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0
    assert _zh_pages(tmp_path / "site") == single_process_pages


def test_prefill_names_an_unreachable_ray_cluster_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray")
    config = write_site(tmp_path)
    assert main(["prefill", "-f", str(config), "--no-progress", "--ray", f"127.0.0.1:{_free_port()}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mkdocs-zh-translate: error: cannot connect to the Ray cluster at 127.0.0.1:")
