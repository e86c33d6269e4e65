"""The plugin with the real ONNX engine and the tiny M2M100 and NLLB-200 models: a site builds
with ``model:`` pointing at either, code, links, images and anchors intact, no language token in
the Chinese pages, and the rebuild comes from the cache without the model."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.models_families import FAMILY_NAMES, family_onnx_model
from tests.plugin_sites import build_in_process, check_twin, page_pairs, write_site

pytestmark = pytest.mark.slow

SITE_URL = "https://example.com/docs/"


def _without_build_date(page: Path) -> str:
    return re.sub(r"Build Date UTC : [^\n]*", "", page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize("markup", ["tags", "project"])
def test_a_site_builds_with_the_family_model_then_from_the_cache(tmp_path: Path, family: str, markup: str) -> None:
    model = tmp_path / "model"
    shutil.copytree(family_onnx_model(family, "int8"), model)
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "model", "beams": 2, "markup": markup})

    cold = build_in_process(config)
    assert cold.lazy.loads == 1
    assert cold.stats.translated == cold.stats.unique > 0
    site = tmp_path / "site"
    pairs = page_pairs(site)
    assert [p for en, zh in pairs for p in check_twin(en, zh, site, SITE_URL)] == []
    snapshot = {zh: _without_build_date(zh) for _, zh in pairs}
    assert not any(re.search(r"__[a-z]{2,3}__|[a-z]{3}_(?:Hans|Hant|Latn)\b", text) for text in snapshot.values())

    shutil.rmtree(model)
    warm = build_in_process(config)
    assert warm.lazy.loads == 0 and warm.stats.translated == 0
    assert {zh: _without_build_date(zh) for zh in snapshot} == snapshot
