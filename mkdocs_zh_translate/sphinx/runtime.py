"""One translation runtime per process: the machine cache, the lazily loaded model, the glossary.

Sphinx's parallel read (``-j``) forks worker processes; a SQLite connection must not cross a
fork, so the runtime is keyed by the process id as well as by the settings: each process opens
the cache (diskcache is safe across processes) and loads the model only if one of its documents
has a message the cache does not hold. The runtime is never stored on Sphinx's environment,
which is pickled.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..notice import model_label
from ..pipeline.cache import Hit, MachineCache, TranslationMemory
from ..pipeline.glossary import Glossary, load_glossary
from ..pipeline.lazy import LazyTranslator
from ..pipeline.service import Requests, TranslationService
from ..pipeline.spec import bind_cache
from .config import Settings


@dataclass
class Runtime:
    settings: Settings
    service: TranslationService
    lazy: LazyTranslator = field(default_factory=LazyTranslator)

    @property
    def model(self) -> str:
        return model_label(self.settings.backend, self.settings.model)

    def translate(self, requests: Requests) -> dict[str, Hit]:
        """A hit for every text: cached, translated now, or English (``Origin.ENGLISH``, the
        reason in ``service.unavailable``) when the model cannot be loaded."""
        return self.service.translate(requests)


_RUNTIMES: dict[tuple[int, Settings], Runtime] = {}


def runtime_for(settings: Settings) -> Runtime:
    """This process's runtime for ``settings`` (created on first use)."""
    key = (os.getpid(), settings)
    found = _RUNTIMES.get(key)
    if found is not None:
        return found
    for stale in [k for k in _RUNTIMES if k[0] != key[0]]:
        del _RUNTIMES[stale]  # inherited through a fork: the parent's connection is not ours
    spec = settings.spec()
    memory = TranslationMemory(MachineCache(settings.cache_dir))
    glossary: Glossary | None = load_glossary(settings.glossary) if settings.glossary else None
    lazy = LazyTranslator()
    service = TranslationService(
        lambda: lazy.get(spec), cache=bind_cache(spec, memory), glossary=glossary, english_fallback=True
    )
    runtime = Runtime(settings, service, lazy)
    _RUNTIMES[key] = runtime
    return runtime


def close_all() -> None:
    """Close this process's caches (``build-finished``)."""
    pid = os.getpid()
    for key in [k for k in _RUNTIMES if k[0] == pid]:
        runtime = _RUNTIMES.pop(key)
        if runtime.service.cache is not None:
            runtime.service.cache.memory.machine.close()
