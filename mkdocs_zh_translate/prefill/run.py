"""The prefill command: the English build's pages through the pipeline, misses to a runner.

The site is gathered by the plugin's collect mode (as ``review sync`` gathers it), so the pages,
strings, reviewed PO files, glossary, cache directory and translator spec are the build's own,
and :meth:`SiteTranslator.translate_pages` runs exactly as in a build (up to the translations:
the pages are not spliced or guarded): reviewed segments are skipped, cached ones are not
translated again, and every key is the build's. Prefill builds its own pipeline from the
build's inputs (:func:`~..pipeline.build.build_pipeline`) with its runner, its progress and no
English fallback (its engine options override the plugin's before the English build, so the
spec and cache key are the next build's), so the next ``mkdocs build`` finds everything in the
cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..pipeline.backends import TranslatorSpec
from ..pipeline.build import build_pipeline
from ..pipeline.glossary import Glossary
from ..pipeline.pages import SiteTranslator, Stats
from ..pipeline.progress import Progress
from ..pipeline.service import ChunkRunner
from ..plugin.collect import EnglishBuild, with_english_build


@dataclass(frozen=True)
class Where:
    """Where the misses are translated: in this process (``workers`` 0), in ``workers`` local
    processes, or on the Ray cluster at ``ray`` (``workers`` actors, or one per cluster CPU)."""

    workers: int = 0
    threads: int | None = None
    ray: str | None = None
    ship_model: bool = False

    def runner(self, spec: TranslatorSpec, glossary: Glossary | None) -> tuple[ChunkRunner | None, str]:
        """The runner (None: the service's own loop) and how to name it in the summary."""
        if self.ray is not None:
            from .cluster import ray_runner  # Ray is an optional extra: import it only here

            return ray_runner(
                self.ray, spec, glossary, actors=self.workers or None, threads=self.threads or 1,
                ship_model=self.ship_model,
            ), f"Ray cluster {self.ray}"
        if self.workers:
            from .local import process_runner, threads_per_worker

            threads = self.threads or threads_per_worker(self.workers)
            label = f"{self.workers} worker process{'es' if self.workers > 1 else ''} x {threads} threads"
            return process_runner(spec, glossary, self.workers, threads), label
        return None, ""


def prefill(
    config_file: Path, where: Where = Where(), progress: Progress | None = None,
    options: Mapping[str, Any] | None = None,
) -> Stats:
    """Translate every page and string of the site the build would translate and is not yet in
    the cache or reviewed; return the build's statistics. ``options``: translator options that
    override the plugin's (the command line's). Raises ReviewError (the English build failed)
    or TranslationFailed (the model could not be loaded or failed)."""

    def fill(build: EnglishBuild) -> Stats:
        translator, label = _prefill_translator(build.translator, where, progress)
        strings = list(build.site_strings) + [v for metas in build.metas.values() for v in metas.values()]
        # pages=False: the Chinese pages are the next build's to make; the guard caches nothing.
        _results, _strings, stats = translator.translate_pages(list(build.jobs.values()), strings, pages=False)
        if stats.translated and label:
            stats.model = label
        return stats

    return with_english_build(config_file, fill, options)


def _prefill_translator(
    built: SiteTranslator, where: Where, progress: Progress | None
) -> tuple[SiteTranslator, str]:
    """The build's translator as prefill runs it: the build's inputs (cache, reviews, glossary,
    memos) and spec (the command line's options already applied before the English build, so
    another markup strategy is already another cache key), ``where``'s runner, and no English
    fallback (a prefill that cannot translate has failed); with the runner's name for the
    summary."""
    spec = built.spec
    runner, label = where.runner(spec, built.pipeline.glossary)
    pipeline = build_pipeline(spec, built.pipeline.site, lazy=built.lazy, progress=progress, runner=runner)
    translator = SiteTranslator(
        pipeline,
        allow_untranslated=built.allow_untranslated,
        slugify=built.slugify,
        syntax=built.syntax,
        segmented=built.segmented,
        spliced=built.spliced,
    )
    return translator, label
