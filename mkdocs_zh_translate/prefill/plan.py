"""``prefill --plan``: whether the next build needs the model, from the build's own knowledge.

A CI workflow used to decide "restore and export the model?" from a hash of the files it
guessed the build reads (``docs/``, ``mkdocs.yml``). The build reads more: snippets and
included files outside ``docs/`` (``base_path``), whatever another plugin adds. Edit only a
snippet and that hash still matched: the model steps were skipped, the build failed for lack of
a model, a failed job saved no cache, and every later run failed the same way.

The plan asks the English build instead (the collect mode ``prefill`` and ``review sync``
use): every page as the build translates it (snippets and includes expanded, by the build's
own code), the site's strings, the reviewed PO files, the glossary, the cache keys. It
answers with

- ``missing``: distinct texts that are neither reviewed nor in the cache: the model is needed
  exactly when this is not 0;
- ``fingerprint``: a hash of every cache key the build needs and the translator's fingerprint,
  i.e. of everything the Chinese build translates: a new value whenever a translated text, a
  review's coverage, the glossary or the model changes, whichever file it came from. A CI cache
  saved under it is saved again exactly when its content should change.

Nothing is translated and no model is loaded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..plugin.collect import EnglishBuild, with_english_build


@dataclass(frozen=True)
class Plan:
    """What the next build of a site will ask the machine for, and how much of it is cached."""

    unique: int  # distinct texts the machine answers (no review covers them)
    missing: int  # of them, not in the cache: the model translates these
    fingerprint: str  # of every cache key the build needs and of the translator

    def outputs(self) -> str:
        """``key=value`` lines, as GitHub Actions reads them from ``$GITHUB_OUTPUT``."""
        return f"missing={self.missing}\nfingerprint={self.fingerprint}\n"

    def summary(self) -> str:
        need = "the model is needed" if self.missing else "the model is not needed"
        return f"plan: {self.missing} of {self.unique} texts are neither reviewed nor cached; {need}"


def plan_of(build: EnglishBuild) -> Plan:
    """The plan for the site ``build`` collected (its pipeline and cache open)."""
    translator = build.translator
    service = translator.service
    strings = list(build.site_strings) + [v for metas in build.metas.values() for v in metas.values()]
    needed = translator.machine_requests(list(build.jobs.values()), strings)
    hits = service.lookup(needed)
    digest = hashlib.sha256()
    digest.update((service.cache.fingerprint if service.cache is not None else "no cache").encode())
    for key in sorted(service.key(text, droppable) for text, droppable in needed.droppable.items()):
        digest.update(b"\x00" + key.encode("utf-8", "surrogatepass"))
    return Plan(len(needed), len(needed) - len(hits), digest.hexdigest())


def plan(config_file: Path) -> Plan:
    """Run the English build of ``config_file`` in collect mode and plan its Chinese build.
    Raises ReviewError (the English build failed) or TranslationFailed (a PO file is bad)."""
    return with_english_build(config_file, plan_of)
