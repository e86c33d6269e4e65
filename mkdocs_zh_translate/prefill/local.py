"""``--workers N``: N local processes, each with its own translator, fed chunk by chunk.

Processes are *spawned* (not forked): ONNX Runtime's thread pools and an open SQLite cache do
not survive a fork, and a spawned worker imports only what it needs. Each worker gets
``threads`` intra-op threads (default: usable cores // N, at least 1), so N workers share the
machine instead of each sizing its pool for every core. ``concurrent.futures`` does the
scheduling (a worker takes the next chunk when it finishes one); results are yielded as they
finish, so the parent stores each chunk at once.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Collection, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from ..pipeline.glossary import Glossary
from ..pipeline.lazy import TranslationFailed
from ..pipeline.service import ChunkRunner
from ..pipeline.spec import TranslatorSpec
from ..segment import SegmentTranslation
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
            initializer=worker.init_process,
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
