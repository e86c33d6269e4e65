"""Wall time of `mkdocs-zh-translate md --backend pseudo` on one page, next to a bare interpreter.

Reported as medians and as a ratio against `python -c pass` measured in the same run, so the
number means something on a loaded machine too. Usage: python benchmarks/md_startup.py [PAGE] [RUNS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _median_wall(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=REPO)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    page = sys.argv[1] if len(sys.argv) > 1 else str(REPO / "tests" / "data" / "pages" / "basics.md")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    bare = _median_wall([sys.executable, "-c", "pass"], runs)
    md = _median_wall([sys.executable, "-m", "mkdocs_zh_translate", "md", page, "--backend", "pseudo"], runs)
    print(f"python -c pass        median {bare:.3f} s")
    print(f"md --backend pseudo   median {md:.3f} s  ({md / bare:.1f}x bare, +{md - bare:.3f} s)")


if __name__ == "__main__":
    main()
