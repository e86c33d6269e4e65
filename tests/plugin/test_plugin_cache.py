"""The translation cache as the plugin uses it: lazy model, no re-translation, robustness."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline import lazy, service, spec
from tests.plugin_sites import CountingTranslator, build_in_process, fake_model_loader, run_mkdocs, write_site


@pytest.fixture
def factory(monkeypatch: pytest.MonkeyPatch) -> list[CountingTranslator]:
    return fake_model_loader(monkeypatch)


def _onnx_site(root: Path) -> Path:
    model = root / "model"
    model.mkdir()
    (model / "config.json").write_text('{"d_model": 8}')
    return write_site(root, plugin={"backend": "onnx", "model": "model"})


def test_rebuild_from_cache_never_loads_the_model_even_when_it_is_deleted(
    tmp_path: Path, factory: list[CountingTranslator]
) -> None:
    config = _onnx_site(tmp_path)
    first = build_in_process(config)
    assert first.lazy.loads == 1 and first.stats.translated > 0
    page = tmp_path / "site" / "zh" / "guide" / "install" / "index.html"
    cold = page.read_text(encoding="utf-8")
    assert "INSTALL THE PACKAGE WITH PIP." in cold

    for child in (tmp_path / "model").iterdir():
        child.unlink()
    (tmp_path / "model").rmdir()
    second = build_in_process(config)
    assert second.lazy.loads == 0
    assert second.stats.translated == 0 and second.stats.cached == second.stats.unique
    assert page.read_text(encoding="utf-8") == cold
    assert len(factory) == 1


def test_changed_model_or_decode_options_miss_the_cache(tmp_path: Path, factory: list[CountingTranslator]) -> None:
    config = _onnx_site(tmp_path)
    build_in_process(config)
    (tmp_path / "model" / "config.json").write_text('{"d_model": 16}')
    again = build_in_process(config)
    assert again.stats.cached == 0 and again.stats.translated == again.stats.unique
    config.write_text(config.read_text().replace("backend: onnx", "backend: onnx\n    beams: 2"))
    beams = build_in_process(config)
    assert beams.stats.cached == 0


def test_a_serve_rebuild_reuses_the_loaded_model(tmp_path: Path, factory: list[CountingTranslator]) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    config_file = _onnx_site(tmp_path)
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    config = load_config(config_file=str(config_file))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    (tmp_path / "docs" / "guide" / "usage.md").write_text("# Usage\n\nA new sentence appears.\n")
    config = load_config(config_file=str(config_file))  # what `mkdocs serve` does per rebuild
    build(config)
    plugin = config.plugins["zh-translate"]
    config.plugins.on_shutdown()
    assert plugin.stats.translated == 1
    assert plugin.lazy.loads == 1 and len(factory) == 1


def test_interrupted_build_keeps_every_finished_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dying = CountingTranslator(fail_after=2)
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: dying)
    monkeypatch.setattr(service, "CHUNK_CHARS", 40)  # many small batches
    config = _onnx_site(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        build_in_process(config)
    finished = dying.segments
    assert finished > 0

    healthy = CountingTranslator()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: healthy)
    plugin = build_in_process(config)
    assert plugin.stats.cached == finished
    assert healthy.segments == plugin.stats.unique - finished


def test_corrupt_cache_is_reported_moved_aside_and_rebuilt(tmp_path: Path) -> None:
    write_site(tmp_path)
    assert run_mkdocs(tmp_path).returncode == 0
    cache = tmp_path / ".zh-translate-cache"
    (cache / "cache.db").write_bytes(b"this is not a database" * 100)
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "unreadable" in proc.stderr and "moved it to" in proc.stderr
    assert (tmp_path / ".zh-translate-cache" / "cache.db.broken").is_file()
    assert (tmp_path / "site" / "zh" / "index.html").is_file()
    again = run_mkdocs(tmp_path)
    assert " 0 translated" in again.stderr, again.stderr


def test_unusable_cache_directory_falls_back_to_memory(tmp_path: Path) -> None:
    write_site(tmp_path, plugin={"backend": "pseudo", "cache_dir": "cachefile"})
    (tmp_path / "cachefile").write_text("a file where a directory should be")
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "zh-translate" in proc.stderr and "cache" in proc.stderr
    assert (tmp_path / "site" / "zh" / "index.html").is_file()


def test_two_builds_at_once_share_one_cache_without_corrupting_it(tmp_path: Path) -> None:
    shared = tmp_path / "shared-cache"
    roots = []
    for name in ("a", "b"):
        root = tmp_path / name
        root.mkdir()
        write_site(root, plugin={"backend": "pseudo", "cache_dir": str(shared)})
        roots.append(root)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "build"], cwd=root, stderr=subprocess.PIPE, text=True
        )
        for root in roots
    ]
    outputs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    for root in roots:
        assert (root / "site" / "zh" / "guide" / "install" / "index.html").is_file()
    third = run_mkdocs(roots[0])
    assert " 0 translated" in third.stderr, third.stderr
    assert "unreadable" not in third.stderr


def test_summary_line_and_no_progress_bar_without_a_tty(tmp_path: Path) -> None:
    write_site(tmp_path)
    proc = run_mkdocs(tmp_path)
    lines = [line for line in proc.stderr.splitlines() if "segments (" in line]
    assert len(lines) == 1
    assert "from cache" in lines[0] and "translated" in lines[0] and " s, " in lines[0]
    assert "\r" not in proc.stderr


def test_model_fingerprint_is_the_verified_export_manifest(tmp_path: Path) -> None:
    model = tmp_path / "m"
    model.mkdir()
    (model / "weights.onnx").write_bytes(b"a" * 100)
    plain = spec.model_fingerprint(model)
    (model / "weights.onnx").write_bytes(b"b" * 100)
    assert spec.model_fingerprint(model) != plain  # same size, other content
    import hashlib
    import json

    from mkdocs_zh_translate.model_integrity import fingerprint_of

    files = {"weights.onnx": {"sha256": hashlib.sha256(b"b" * 100).hexdigest(), "size": 100}}
    (model / "manifest.json").write_text(json.dumps({"fingerprint": "abc123", "files": files}))
    assert spec.model_fingerprint(model) == "manifest:" + fingerprint_of(files)  # verified, not taken on trust
    (model / "weights.onnx").write_bytes(b"c" * 100)  # edited after export: never the manifest's key
    assert not spec.model_fingerprint(model).startswith("manifest:")
    assert spec.model_fingerprint(model) not in (plain, "manifest:" + fingerprint_of(files))


_SLOW_BUILD = """
import sys, time
from pathlib import Path
from mkdocs_zh_translate.pipeline import lazy, service
from tests.plugin_sites import build_in_process

class Slow:
    def translate(self, texts):
        time.sleep(0.3)
        with open(sys.argv[2], "a") as log:
            log.write("call\\n")
        return list(texts)

service.CHUNK_CHARS = 40
lazy.load_translator = lambda *a, **k: Slow()
build_in_process(Path(sys.argv[1]))
"""


def test_killed_build_keeps_finished_batches_and_a_readable_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal
    import time

    config = _onnx_site(tmp_path)
    calls = tmp_path / "calls.log"
    child = subprocess.Popen(
        [sys.executable, "-c", _SLOW_BUILD, str(config), str(calls)],
        cwd=Path(__file__).resolve().parents[2],
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not calls.exists() or calls.read_text().count("call") < 4):
        time.sleep(0.1)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    healthy = CountingTranslator()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: healthy)
    plugin = build_in_process(config)
    assert plugin.stats.cached >= 2  # at least the batches finished before the kill
    assert plugin.stats.translated == plugin.stats.unique - plugin.stats.cached
    assert not list(tmp_path.glob(".zh-translate-cache.broken-*"))


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty

    write_site(tmp_path)
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build"], cwd=tmp_path, stdout=follower, stderr=follower
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closes when the build ends
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=300) == 0
    os.close(leader)
    output = b"".join(chunks).decode("utf-8", "replace")
    assert "\rzh-translate [" in output and "segments" in output
