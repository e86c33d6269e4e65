"""The package's imports point one way (``tools/layers.py`` measures them; these keep it so).

plugin.py once formed an import circle with the helpers it uses (collect, docs_source, coexist),
the pipeline imported review's error while review imported the pipeline, review imported the
plugin for ``Site``, and segment/ held the fallback ladder, which imports the pipeline.
"""

from __future__ import annotations

import grimp
import pytest

from tools.layers import build_graph, cycles, direct_imports, part_imports, part_of, upward_imports

# Parts below the front ends: none of them may take part in a cycle with another, or import upwards.
BELOW_FRONT_ENDS = ("segment", "engine", "pipeline", "review", "pofill", "quality", "docs")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return build_graph()


def test_cycles_finds_every_strongly_connected_component_and_only_those() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d", "f"}, "f": {"e"}, "g": {"g"}}
    assert cycles(edges) == [["a", "b", "c"], ["e", "f"]]


def test_plugin_py_imports_its_helpers_and_none_of_them_imports_it(graph: grimp.ImportGraph) -> None:
    found = cycles(direct_imports(graph))
    assert [c for c in found if "mkdocs_zh_translate.plugin.plugin" in c] == []
    helpers = ("collect", "docs_source", "coexist", "factory")
    importers = graph.find_modules_that_directly_import("mkdocs_zh_translate.plugin.plugin")
    assert not any(m.rsplit(".", 1)[-1] in helpers for m in importers)


def test_the_parts_below_the_front_ends_form_no_import_cycle(graph: grimp.ImportGraph) -> None:
    found = cycles(part_imports(direct_imports(graph)))
    assert [c for c in found if len(set(c) & set(BELOW_FRONT_ENDS)) > 1] == []


def test_segment_pipeline_and_review_import_nothing_above_them(graph: grimp.ImportGraph) -> None:
    upward = upward_imports(direct_imports(graph))
    assert [(a, b) for a, b in upward if part_of(a) in BELOW_FRONT_ENDS] == []


def test_no_part_of_the_package_is_in_an_import_cycle_with_another(graph: grimp.ImportGraph) -> None:
    # Once: __init__ <-> pipeline (the version), cli <-> sphinx (`python -m ...sphinx sync`).
    assert cycles(part_imports(direct_imports(graph))) == []


def test_no_module_imports_a_layer_above_its_own(graph: grimp.ImportGraph) -> None:
    # Once: notice -> pipeline.backends from the base layer, the package facade's re-exports.
    assert upward_imports(direct_imports(graph)) == []


def test_no_module_is_in_an_import_cycle(graph: grimp.ImportGraph) -> None:
    # The last one was the backend table and the spec (the registry built translators from a
    # TranslatorSpec defined in spec.py, whose cache key asks the registry for fingerprints):
    # the spec now lives beside the factories that read it, the key in spec.py imports it.
    assert cycles(direct_imports(graph)) == []
