"""``--ray ADDRESS``: translate on a Ray cluster with an actor pool; the driver stores results.

Ray does the scheduling (``ray.util.ActorPool.map_unordered`` hands an actor its next chunk as
soon as it returns one); this module only says what an actor is: a
:class:`~.worker.ChunkWorker` that reserves ``threads`` CPUs and runs ONNX Runtime with that many
intra-op threads. Results come back to the driver as they finish, and the driver alone writes
the cache (a diskcache directory is one machine's).

The actors load the model from the path in mkdocs.yml, which every node must see (a shared
file system, the same image), unless ``ship_model``: then the driver puts the model directory's
files into Ray's object store once and each actor writes them to a temporary directory of its
own node. The nodes need mkdocs-zh-translate installed with the ``[ray]`` extra.

Imported only when ``--ray`` is given: Ray is an optional extra.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Collection, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..owned import scratch_dir
from ..pipeline.backends import TranslatorSpec, needs_model
from ..pipeline.glossary import Glossary
from ..pipeline.ladder import SegmentTranslation
from ..pipeline.lazy import TranslationFailed
from ..pipeline.service import ChunkRunner
from .raysession import LOCAL, check_authentication, check_loopback_nodes, driver_session
from .worker import ChunkWorker

INSTALL_HINT = "pip install 'mkdocs-zh-translate[ray]'"


def read_model_dir(model_dir: Path) -> dict[str, bytes]:
    """Every file of an exported model directory, by relative path (what ``ship_model`` sends)."""
    return {p.relative_to(model_dir).as_posix(): p.read_bytes() for p in sorted(model_dir.rglob("*")) if p.is_file()}


class TranslatorActor:
    """One Ray actor: a translator for ``spec``, from ``model_files`` when the model is shipped.

    Errors come back as values (``(index, None, message)``), not as Ray task errors, so the
    driver can report them as one line instead of a remote traceback."""

    def __init__(self, spec: TranslatorSpec, glossary: Glossary | None, model_files: dict[str, bytes] | None) -> None:
        self.error: str | None = None
        if model_files is None:
            self.worker = ChunkWorker(spec, glossary)  # loads the model on its first chunk
            return
        # A shipped model is written to a private directory, loaded at once and deleted again:
        # ONNX Runtime keeps what it mapped, and no actor leaves 100s of MB in /tmp behind.
        with scratch_dir("zh-translate-model-") as tmp:
            try:
                for name, data in model_files.items():
                    path = tmp / name
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                self.worker = ChunkWorker(replace(spec, model=str(tmp)), glossary)
                self.worker.load()
            except TranslationFailed as exc:
                self.error = str(exc)

    def translate(
        self, index: int, chunk: list[str], droppable: dict[str, list[int]]
    ) -> tuple[int, list[SegmentTranslation] | None, str | None]:
        if self.error is not None:
            return index, None, self.error
        try:
            return index, self.worker.translate(chunk, droppable), None
        except TranslationFailed as exc:
            return index, None, str(exc)


def _one_line(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None)  # RayTaskError / RayActorError carry the remote error
    text = str(cause) if cause is not None else str(exc)
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def check_reachable(address: str, timeout: float = 10.0) -> None:
    """Fail in one line, at once, when ``host:port`` accepts no connection (``ray.init`` would
    retry for minutes). Other address forms (``auto``, ``ray://``) are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise TranslationFailed(
            f"cannot connect to the Ray cluster at {address}: {exc.strerror or exc} "
            "(start one with `ray start --head`, or give the head's address)"
        ) from None


def ray_runner(
    address: str,
    spec: TranslatorSpec,
    glossary: Glossary | None,
    *,
    actors: int | None = None,
    threads: int = 1,
    ship_model: bool = False,
) -> ChunkRunner:
    """A runner using ``actors`` actors (default: the cluster's CPUs // ``threads``) at ``address``."""
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise TranslationFailed(f"--ray needs Ray installed: {INSTALL_HINT}") from None
    actor_spec = replace(spec, threads=threads)

    def run(
        chunks: list[list[str]], droppable: Mapping[str, Collection[int]]
    ) -> Iterator[tuple[list[str], list[SegmentTranslation]]]:
        if address != LOCAL:
            check_reachable(address)
        with driver_session(address):
            _connect(ray, address)
            try:
                if address == LOCAL:
                    check_loopback_nodes(ray.nodes())  # type: ignore[no-untyped-call]
                cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
                count = actors or max(1, cpus // threads)
                count = min(count, len(chunks))
                model_files: Any = None
                if ship_model:
                    if not needs_model(spec.backend) or not spec.model or not Path(spec.model).is_dir():
                        raise TranslationFailed(f"--ray-ship-model: no model directory to ship ({spec.model})")
                    model_files = ray.put(read_model_dir(Path(spec.model)))
                remote = ray.remote(num_cpus=threads)(TranslatorActor)
                pool = ActorPool([remote.remote(actor_spec, glossary, model_files) for _ in range(count)])
                work = [(i, chunk, {t: sorted(droppable[t]) for t in chunk}) for i, chunk in enumerate(chunks)]
                results = pool.map_unordered(lambda actor, item: actor.translate.remote(*item), work)
                for index, outputs, error in results:
                    if outputs is None:
                        raise TranslationFailed(error or "a Ray actor failed")
                    yield chunks[index], outputs
            except ray.exceptions.RayError as exc:
                raise TranslationFailed(
                    f"the Ray cluster at {address} failed: {_one_line(exc)} (every finished chunk is cached)"
                ) from None
            finally:
                ray.shutdown()  # the driver's actors end with it (and a local cluster with them)

    return run


def _connect(ray: Any, address: str) -> None:
    """``ray.init`` for ``address`` (``local``: a new loopback-only cluster of this machine, which
    ends with the run); TranslationFailed in one line when it fails."""
    if address != LOCAL:
        check_authentication(address)
    options: dict[str, Any] = {"include_dashboard": False} if address == LOCAL else {}
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING, **options)
    except (ConnectionError, ValueError, RuntimeError, ray.exceptions.RayError) as exc:
        raise TranslationFailed(f"cannot connect to the Ray cluster at {address}: {_one_line(exc)}") from None
