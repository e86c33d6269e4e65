"""The CommonMark spec examples, read from the markdown-it-py sdist (never copied into the repo).

The sdist is fetched once (:mod:`tests.sdists`) beside the test models
(:func:`tests.models.dev_cache`); tests that need it are skipped when neither the cache nor a
package registry is available.
"""

from __future__ import annotations

import json
import tarfile
from functools import lru_cache
from pathlib import Path

import markdown_it

from tests.sdists import fetch

REPO = Path(__file__).resolve().parent.parent
SPEC_VERSION = "0.31.2"
SPEC_EXAMPLES = 652


def cache_dir() -> Path:
    from tests.models import dev_cache

    return dev_cache()


@lru_cache(maxsize=1)
def spec_examples() -> list[dict[str, object]] | None:
    """The spec examples (``markdown``, ``html``, ``example``), or None when unavailable."""
    version = markdown_it.__version__
    found, _ = fetch("markdown-it-py", version, cache_dir() / "sdist" / f"markdown-it-py-{version}")
    if found is None:
        return None
    with tarfile.open(found) as tar:
        members = {Path(m.name).name: m for m in tar.getmembers() if "/tests/test_cmark_spec/" in m.name}
        for name in ("spec.json", "commonmark.json"):
            if name in members:
                data = tar.extractfile(members[name])
                assert data is not None
                examples = json.loads(data.read().decode("utf-8"))
                break
        else:
            return None
        header = tar.extractfile(members["spec.md"]).read(400).decode("utf-8") if "spec.md" in members else ""
    if f"version: '{SPEC_VERSION}'" not in header and len(examples) != SPEC_EXAMPLES:
        return None
    return examples


def examples_or_skip() -> list[dict[str, object]]:
    """The spec examples, or a pytest skip saying why they are missing (for module fixtures)."""
    import pytest

    found = spec_examples()
    if found is None:
        pytest.skip("markdown-it-py sdist (CommonMark spec JSON) not available: no cache and no registry")
    return found
