"""The default thread count: the CPUs this process may use (affinity, cgroup quota), at most 8."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize(("affinity", "cpu_max", "expected"), [
    ({0, 1}, "max 100000\n", 2),       # taskset: the machine's 16 CPUs are not this process's
    (set(range(16)), "300000 100000\n", 3),  # a container's quota of 3 CPUs
    (set(range(16)), "250000 100000\n", 3),  # 2.5 CPUs: rounded up
    (set(range(16)), None, 8),         # no cgroup file: at most 8 all the same
    ({0}, "max 100000\n", 1),
])
def test_default_threads_follow_the_cpus_this_process_may_use(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, affinity: set[int], cpu_max: str | None,
        expected: int) -> None:
    from mkdocs_zh_translate.engine import session

    monkeypatch.setattr(session.os, "cpu_count", lambda: 16)
    monkeypatch.setattr(session.os, "sched_getaffinity", lambda pid: affinity, raising=False)
    limit = tmp_path / "cpu.max"
    if cpu_max is not None:
        limit.write_text(cpu_max)
    monkeypatch.setattr(session, "CGROUP_CPU_MAX", limit)
    assert session.default_threads() == expected
