"""kill -9 of ``prefill --workers 2`` must not leave its worker processes (or the
multiprocessing resource tracker) running: each worker notices its dead parent and exits."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from tests.plugin_sites import write_site

REPO = Path(__file__).resolve().parents[2]

# Run as a script file, so the spawned workers import it too (as ``__mp_main__``) and get the
# slow pseudo translator: each worker marks that it is translating, then takes its time.
SCRIPT = '''
import os, sys, time
from pathlib import Path
from mkdocs_zh_translate.pipeline import translator

_plain = translator.PseudoTranslator.translate

def _slow(self, texts):
    (Path(os.environ["ORPHAN_MARKS"]) / str(os.getpid())).touch()
    time.sleep(120)
    return _plain(self, texts)

translator.PseudoTranslator.translate = _slow

if __name__ == "__main__":
    from mkdocs_zh_translate.cli.app import main
    sys.exit(main(sys.argv[1:]))
'''

PAGES = {
    "index.md": "# Home\n\nThe home page explains the build.\n",
    **{f"p{n}.md": f"# Page {n}\n\n" + "".join(f"Sentence {i} of page {n} explains the build in detail.\n\n"
                                               for i in range(100)) for n in range(8)},  # > 2 chunks
}


def _gone(proc: psutil.Process) -> bool:
    try:
        return proc.status() == psutil.STATUS_ZOMBIE  # exited, not yet reaped by its new parent
    except psutil.NoSuchProcess:
        return True


def test_kill_9_of_prefill_leaves_no_worker_or_tracker_behind(tmp_path: Path) -> None:
    config = write_site(tmp_path / "site", pages=PAGES)
    script = tmp_path / "slow_prefill.py"
    script.write_text(SCRIPT, encoding="utf-8")
    marks = tmp_path / "marks"
    marks.mkdir()
    env = dict(os.environ, ORPHAN_MARKS=str(marks), PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    parent = subprocess.Popen(
        [sys.executable, str(script), "prefill", "-f", str(config), "--no-progress", "--workers", "2"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    children: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 120
        while len(list(marks.iterdir())) < 2:  # both workers are inside a chunk
            assert parent.poll() is None, "prefill ended before its workers ran"
            assert time.monotonic() < deadline, "the workers never started translating"
            time.sleep(0.1)
        children = psutil.Process(parent.pid).children(recursive=True)
        working = {int(p.name) for p in marks.iterdir()}
        assert working <= {c.pid for c in children} and len(children) >= 3  # 2 workers + tracker
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 15
        while not all(_gone(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [f"{c.pid} {c.cmdline()[-3:]}" for c in children if not _gone(c)]
        assert not left, f"still running 15 s after the parent was killed: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(timeout=10)
        for child in children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
