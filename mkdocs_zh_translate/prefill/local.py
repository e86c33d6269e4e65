"""``--workers N``: N local processes, each with its own translator, fed chunk by chunk.

Processes are *spawned* (not forked): ONNX Runtime's thread pools and an open SQLite cache do
not survive a fork, and a spawned worker imports only what it needs. Each worker gets
``threads`` intra-op threads (default: usable cores // N, at least 1), so N workers share the
machine instead of each sizing its pool for every core. ``concurrent.futures`` does the
scheduling (a worker takes the next chunk when it finishes one); results are yielded as they
finish, so the parent stores each chunk at once.

A worker exits on its own when the parent dies (kill -9, OOM killer): otherwise it would wait
forever for its next chunk, or in the write of its last result, since every worker holds both
ends of the pool's queues and never sees them close; the multiprocessing resource tracker,
which exits when its last client does, would stay with them.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Collection, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from ..pipeline.backends import TranslatorSpec
from ..pipeline.glossary import Glossary
from ..pipeline.ladder import SegmentTranslation
from ..pipeline.lazy import TranslationFailed
from ..pipeline.service import ChunkRunner
from . import worker


def usable_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def threads_per_worker(workers: int, cores: int | None = None) -> int:
    """Intra-op threads of each of ``workers`` processes: the cores split evenly, at least 1."""
    return max(1, (cores or usable_cores()) // max(1, workers))


#: How often a worker checks that its parent is alive when it has no parent-death pipe to wait on.
PARENT_POLL_S = 1.0


def exit_with_parent(poll: float = PARENT_POLL_S) -> threading.Thread:
    """Start a daemon thread that ends this process (exit code 1) as soon as its parent is gone.

    A spawned process has a pipe from its parent that reaches end-of-file when the parent dies
    (``multiprocessing.parent_process().sentinel``); the thread waits on it, and between
    waits also compares ``os.getppid()`` with the parent seen at start (a re-parented orphan).
    ``os._exit`` because the main thread may be blocked in a pipe write that never returns.
    """
    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None else None
    parent_pid = os.getppid()

    def watch() -> None:
        while True:
            if sentinel is not None:
                if multiprocessing.connection.wait([sentinel], timeout=poll):
                    break
            else:
                time.sleep(poll)
            if os.getppid() != parent_pid:
                break
        os._exit(1)

    thread = threading.Thread(target=watch, name="zh-translate-parent-watch", daemon=True)
    thread.start()
    return thread


def init_local_worker(spec: TranslatorSpec, glossary: Glossary | None) -> None:
    """``ProcessPoolExecutor`` initializer of a local worker: die with the parent, then the
    worker's own set-up."""
    exit_with_parent()
    worker.init_process(spec, glossary)


def process_runner(
    spec: TranslatorSpec, glossary: Glossary | None, workers: int, threads: int | None = None
) -> ChunkRunner:
    """A runner translating chunks in ``workers`` spawned processes of ``threads`` threads each."""
    if workers < 1:
        raise ValueError("workers must be >= 1")
    worker_spec = replace(spec, threads=threads or threads_per_worker(workers))

    def run(
        chunks: list[list[str]], droppable: Mapping[str, Collection[int]]
    ) -> Iterator[tuple[list[str], list[SegmentTranslation]]]:
        pool = ProcessPoolExecutor(
            max_workers=min(workers, len(chunks)),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=init_local_worker,
            initargs=(worker_spec, glossary),
        )
        pending: dict[Future[list[SegmentTranslation]], list[str]] = {}
        finished = False
        try:
            for chunk in chunks:
                task = {t: sorted(droppable[t]) for t in chunk}
                pending[pool.submit(worker.translate_in_process, chunk, task)] = chunk
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = pending.pop(future)
                    try:
                        outputs = future.result()
                    except BrokenProcessPool:
                        raise TranslationFailed(
                            "a prefill worker process died (out of memory? try fewer --workers); "
                            "every finished chunk is cached, run prefill again to go on"
                        ) from None
                    yield chunk, outputs
            finished = True
        finally:
            if not finished:
                # Interrupted or failed: the chunks in flight are lost (the finished ones are
                # stored already); stop the workers now rather than wait for them.
                for process in list((getattr(pool, "_processes", None) or {}).values()):
                    process.terminate()
            pool.shutdown(wait=finished, cancel_futures=True)

    return run
