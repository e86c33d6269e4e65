"""The plugin with the real ONNX engine and the project's tiny trained MarianMT model."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.models import tiny_onnx_model
from tests.plugin_sites import build_in_process, check_twin, page_pairs, write_site

pytestmark = pytest.mark.slow  # trains the tiny model the first time (cached afterwards)

SITE_URL = "https://example.com/docs/"


def _without_build_date(page: Path) -> str:
    """The page minus the build-date comment MkDocs writes into the home page."""
    return re.sub(r"Build Date UTC : [^\n]*", "", page.read_text(encoding="utf-8"))


def test_onnx_site_build_then_cached_rebuild_without_the_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(tiny_onnx_model(quantize="int8"), model)
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "model", "beams": 2})

    cold = build_in_process(config)
    assert cold.lazy.loads == 1
    assert cold.stats.translated == cold.stats.unique > 0
    site = tmp_path / "site"
    pairs = page_pairs(site)
    # a real model (with its fallbacks) still leaves code, links, images and anchors intact
    assert [p for en, zh in pairs for p in check_twin(en, zh, site, SITE_URL)] == []
    snapshot = {zh: _without_build_date(zh) for _, zh in pairs}

    shutil.rmtree(model)
    warm = build_in_process(config)
    assert warm.lazy.loads == 0
    assert warm.stats.translated == 0 and warm.stats.cached == warm.stats.unique
    assert {zh: _without_build_date(zh) for zh in snapshot} == snapshot
