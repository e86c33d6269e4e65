"""One translation runtime per process: the machine cache, the lazily loaded model, the glossary.

Sphinx's parallel read (``-j``) forks worker processes; a SQLite connection must not cross a
fork, so the runtime is keyed by the process id as well as by the settings: each process opens
the cache (diskcache is safe across processes) and loads the model only if one of its documents
has a message the cache does not hold. The runtime is never stored on Sphinx's environment,
which is pickled.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..notice import model_label
from ..pipeline.build import Pipeline, SiteInputs, build_pipeline
from ..pipeline.cache import Hit, MachineCache
from ..pipeline.glossary import Glossary, load_glossary
from ..pipeline.service import Requests, TranslationService
from .config import Settings


@dataclass(frozen=True)
class Runtime:
    settings: Settings
    pipeline: Pipeline

    @property
    def service(self) -> TranslationService:
        return self.pipeline.service

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
    glossary: Glossary | None = load_glossary(settings.glossary) if settings.glossary else None
    site = SiteInputs(cache=MachineCache(settings.cache_dir), glossary=glossary)
    # english_fallback: a message the model cannot translate stays English, and the build says so
    runtime = Runtime(settings, build_pipeline(settings.spec(), site, english_fallback=True))
    _RUNTIMES[key] = runtime
    return runtime


def close_all() -> None:
    """Close this process's caches (``build-finished``)."""
    pid = os.getpid()
    for key in [k for k in _RUNTIMES if k[0] == pid]:
        runtime = _RUNTIMES.pop(key)
        if runtime.pipeline.machine is not None:
            runtime.pipeline.machine.close()
