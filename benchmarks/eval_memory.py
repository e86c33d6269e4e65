"""Peak memory of `mkdocs-zh-translate eval --references FILE.tsv` against the file's size.

Writes reference files of 5, 10 and 20 MB (made-up English sentences and Chinese references,
~117 bytes a line), runs ``eval --backend pseudo`` on each as a subprocess and reads its peak
RSS from ``wait4``; also ``--limit 10`` on the largest file (the lines after the limit must not
be read). Reported: each peak, the growth ratios 10/5 and 20/10 of the peaks above the
``--limit`` run's (the interpreter and imports), and the bytes of memory per byte of input.
Ratios are measured in one run, so a loaded machine moves the times, not the memory.

Usage: python benchmarks/eval_memory.py [--sizes 5,10,20] [--repo DIR]  (``--repo``: the checkout
whose package is measured, e.g. a worktree of main for the "before" numbers)
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
WORDS = "the cache makes every build fast and the plugin keeps links code spans and emphasis in place".split()


def write_references(path: Path, size: int, seed: int = 1) -> int:
    """A TSV file of ``size`` bytes (a line over at most); the number of lines."""
    rng = random.Random(seed)
    written = lines = 0
    with path.open("w", encoding="utf-8") as out:
        while written < size:
            english = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))).capitalize()
            line = f"{english} number {lines}.\t缓存让构建更快，插件保留链接。{lines}\n"
            out.write(line)
            written += len(line.encode("utf-8"))
            lines += 1
    return lines


def peak_eval(repo: Path, tsv: Path, *extra: str) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one ``eval`` run on ``tsv``."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    command = [sys.executable, "-m", "mkdocs_zh_translate", "eval", "--references", str(tsv),
               "--backend", "pseudo", "--worst", "0", *extra]
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"eval failed on {tsv} (exit {os.waitstatus_to_exitcode(status)})")
    return usage.ru_maxrss / 1024, seconds  # Linux reports kilobytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,10,20", help="file sizes in MB (default: 5,10,20)")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose package runs")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="eval-memory-") as tmp:
        files = {}
        for size in sizes:
            files[size] = Path(tmp) / f"refs-{size}mb.tsv"
            lines = write_references(files[size], size * MB)
            print(f"{size:>3} MB: {lines} references")
        base, base_s = peak_eval(args.repo, files[sizes[-1]], "--limit", "10")
        print(f"--limit 10 on {sizes[-1]} MB: peak {base:.0f} MB ({base_s:.1f} s)")
        peaks = {}
        for size in sizes:
            peaks[size], seconds = peak_eval(args.repo, files[size])
            print(f"{size:>3} MB: peak {peaks[size]:.0f} MB, {peaks[size] - base:.0f} MB above --limit 10 "
                  f"({(peaks[size] - base) / size:.1f} bytes per input byte; {seconds:.1f} s)")
        for small, large in itertools.pairwise(sizes):
            ratio = (peaks[large] - base) / max(peaks[small] - base, 1e-9)
            print(f"growth {large}/{small} MB: {ratio:.2f}x (input {large / small:.2f}x)")
        first, last = sizes[0], sizes[-1]
        print(f"slope {first}->{last} MB: {(peaks[last] - peaks[first]) / (last - first):.1f} bytes per input byte")


if __name__ == "__main__":
    main()
