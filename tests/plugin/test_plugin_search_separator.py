"""A site's own ``search: separator:`` is extended for the Chinese index, never replaced, and
never keeps the Chinese index from splitting at the zero-width spaces its words are cut with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mkdocs_zh_translate.plugin.site import BUILTIN_SEARCH_SEPARATOR, ZWSP, splitting_segmentation
from tests.plugin.search_data import MATERIAL_DOCS_SEPARATOR
from tests.plugin_sites import build_in_process, write_site


def _splits_zwsp(separator: str) -> bool:
    return any(m.start() <= 1 < m.end() for m in re.finditer(separator, f"a{ZWSP}b"))


@pytest.mark.parametrize("separator", [MATERIAL_DOCS_SEPARATOR, r"[\s\-]+", r"[\s\-\.]+", "(unbalanced"])
def test_a_separator_is_extended_to_split_the_segmentation(separator: str) -> None:
    extended = splitting_segmentation(separator)
    assert extended.startswith(separator)  # the site's own splits stay
    if separator != "(unbalanced":
        assert _splits_zwsp(extended)
        assert re.split(extended, "build-cache") == re.split(separator, "build-cache")


def test_a_separator_that_splits_the_segmentation_already_is_kept() -> None:
    assert splitting_segmentation(BUILTIN_SEARCH_SEPARATOR) == BUILTIN_SEARCH_SEPARATOR
    material_zh = "[\\s\\u200b\\u3000\\-、。，．？！；]+"
    assert splitting_segmentation(material_zh) == material_zh


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_the_zh_index_gets_the_sites_separator_extended(tmp_path: Path, theme: str) -> None:
    plugin = {"backend": "pseudo"}
    config = write_site(tmp_path, theme=theme, extra_config={
        "plugins": [{"search": {"separator": MATERIAL_DOCS_SEPARATOR}}, {"zh-translate": plugin}],
    })
    build_in_process(config)
    site = tmp_path / "site"
    en = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    zh = json.loads((site / "zh" / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    assert en["separator"] == MATERIAL_DOCS_SEPARATOR  # the English site as configured
    assert zh["separator"] == MATERIAL_DOCS_SEPARATOR + r"|\u200b"
