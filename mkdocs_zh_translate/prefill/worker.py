"""What runs inside a worker (a spawned process or a Ray actor): one translator, many chunks.

The translator is built on the worker's first chunk and kept, so a worker pays the model load
once. The chunk goes through :func:`~..pipeline.service.translate_chunk` (glossary and fallback
ladder), the same function a build calls, so a prefilled text is the one a build would store.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from ..pipeline.backends import TranslatorSpec, context_mode
from ..pipeline.context import OFF
from ..pipeline.glossary import Glossary
from ..pipeline.ladder import SegmentTranslation
from ..pipeline.lazy import LazyTranslator, TranslationFailed
from ..pipeline.service import translate_chunk


class ChunkWorker:
    """A translator for ``spec`` (loaded on first use) and the site's glossary."""

    def __init__(self, spec: TranslatorSpec, glossary: Glossary | None) -> None:
        self.spec = spec
        self.glossary = glossary
        self._lazy = LazyTranslator()

    def load(self) -> None:
        """Load the translator now (TranslationFailed when it cannot be)."""
        self._lazy.get(self.spec)

    def translate(self, chunk: list[str], droppable: Mapping[str, Collection[int]]) -> list[SegmentTranslation]:
        """The chunk's validated translations; TranslationFailed (picklable, one line) on errors."""
        translator = self._lazy.get(self.spec)
        try:
            # with page context, the chunk's texts are request keys that carry it (as in the build)
            return translate_chunk(translator, self.glossary, chunk, droppable, context_mode(self.spec) != OFF)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            raise TranslationFailed(f"the translator failed: {exc}") from None


# One per worker process (set by ``init_process``): a spawned process translates for one spec.
_process_worker: ChunkWorker | None = None


def init_process(spec: TranslatorSpec, glossary: Glossary | None) -> None:
    """``ProcessPoolExecutor`` initializer: remember what to translate with (nothing loaded yet)."""
    global _process_worker
    _process_worker = ChunkWorker(spec, glossary)


def translate_in_process(chunk: list[str], droppable: dict[str, list[int]]) -> list[SegmentTranslation]:
    """The task a worker process runs for one chunk."""
    if _process_worker is None:  # pragma: no cover - init_process always runs first
        raise TranslationFailed("worker process not initialised")
    return _process_worker.translate(chunk, droppable)
