"""``python -m tools.layers``: measure how the package's imports point.

The package is meant to be layered: small shared modules at the bottom, the pure Markdown
``segment`` and the model ``engine`` above them, ``pipeline`` joining the two, the tools built on
the pipeline (review, po fill, quality, the docs source) above it, the front ends (the MkDocs
plugin, the Sphinx extension, prefill, export) above those and the CLI on top. Two things break
that shape and make a change in one place ripple into others:

* import cycles: modules that import each other, directly or through others (strongly connected
  components of the module graph with more than one module);
* imports that run back up the layers: a module importing one from a higher layer.

This prints both, with counts, so a refactoring can be measured before and after. The graph is
built by grimp (what import-linter uses); imports inside functions and under ``TYPE_CHECKING``
count, since they tie the modules together as much as top-level ones do.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence

import grimp

PACKAGE = "mkdocs_zh_translate"

# Lowest layer first. A module belongs to the layer of its top-level part (the subpackage or the
# top-level module). The package itself (``__init__``) is the public facade that re-exports
# pipeline names, so it sits at the top with the front ends; the version lives in ``_version``
# at the bottom. ``notice`` consults the backend table, so it sits with the pipeline. A
# ``__main__`` module anywhere is an entry point, on the top layer whatever its part.
_BASE = "_version errors textfile logs spans scored plaintext owned userdirs model_format model_integrity untrusted families"
LAYERS: tuple[frozenset[str], ...] = (
    frozenset(_BASE.split()),
    frozenset({"segment"}),
    frozenset({"engine"}),
    frozenset({"pipeline", "notice"}),
    frozenset({"review", "pofill", "quality", "docs"}),
    frozenset({"plugin", "sphinx", "prefill", "export"}),
    frozenset({"cli", "__main__", ""}),
)


def build_graph() -> grimp.ImportGraph:
    """The package's import graph (its own modules only)."""
    return grimp.build_graph(PACKAGE, cache_dir=None)


def part_of(module: str) -> str:
    """The top-level part of the package a module belongs to ("" for the package itself;
    "__main__" for any ``__main__`` module: an entry point is a front end wherever it sits)."""
    parts = module.split(".")
    if parts[-1] == "__main__":
        return "__main__"
    return parts[1] if len(parts) > 1 else ""


def layer_of(module: str) -> int:
    """The index of the module's layer in LAYERS (lowest first)."""
    part = part_of(module)
    for index, layer in enumerate(LAYERS):
        if part in layer:
            return index
    raise ValueError(f"{module}: its part {part!r} has no layer in tools/layers.py LAYERS")


def direct_imports(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    """Module -> the package's modules it imports directly."""
    return {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module, each sorted, largest first.

    Tarjan's algorithm, written iteratively so a long import chain cannot hit the recursion limit.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def part_imports(edges: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """The graph collapsed to the package's top-level parts: part -> the other parts it imports."""
    parts: dict[str, set[str]] = {}
    for importer, targets in edges.items():
        mine = parts.setdefault(part_of(importer) or "__init__", set())
        mine.update(part_of(t) or "__init__" for t in targets if part_of(t) != part_of(importer))
    return parts


def upward_imports(edges: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where the importer sits in a lower layer than what it imports."""
    return sorted(
        (importer, imported)
        for importer, targets in edges.items()
        for imported in targets
        if layer_of(importer) < layer_of(imported)
    )


def report(graph: grimp.ImportGraph) -> tuple[int, int, int]:
    """Print the cycles and the upward imports; return the three counts."""
    edges = direct_imports(graph)
    found = cycles(edges)
    print(f"import cycles between modules (strongly connected components > 1 module): {len(found)}")
    for component in found:
        print(f"  {len(component)} modules: " + ", ".join(m.removeprefix(PACKAGE + ".") for m in component))
    between_parts = cycles(part_imports(edges))
    print(f"import cycles between the package's parts (subpackages, top-level modules): {len(between_parts)}")
    for component in between_parts:
        print(f"  {len(component)} parts: " + ", ".join(component))
    upward = upward_imports(edges)
    print(f"imports running up the layers: {len(upward)}")
    for importer, imported in upward:
        lines = graph.get_import_details(importer=importer, imported=imported)
        where = ",".join(str(detail["line_number"]) for detail in lines)
        print(f"  {importer} -> {imported}  (line {where})")
    return len(found), len(between_parts), len(upward)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the measurements; exit 1 when there is a cycle or an upward import."""
    del argv  # no options yet
    return 1 if any(report(build_graph())) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
