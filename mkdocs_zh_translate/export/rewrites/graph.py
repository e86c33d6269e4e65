"""What the graph rewrites share: a producer/consumer index with pattern checks that fail with
a clear error, the ``com.microsoft`` opset declaration, and pruning plus topological sorting."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import ExportError


class GraphIndex:
    """Who makes and who reads each tensor of a graph, for the attention rewrites' pattern checks.

    Each lookup raises an ``ExportError`` naming the tensor when the graph is not shaped as
    expected (another optimum or transformers version), instead of rewriting it wrongly.
    """

    def __init__(self, graph: Any, block: str) -> None:
        self.graph = graph
        self.block = block
        self.consumers: dict[str, list[Any]] = {}
        for node in graph.node:
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
        self.producer = {out: node for node in graph.node for out in node.output}

    def unexpected(self, where: str) -> ExportError:
        return ExportError(f"unexpected {self.block} graph at {where!r}; unsupported optimum version")

    def only(self, name: str, op: str) -> Any:
        """The one ``op`` node reading ``name``."""
        found = [n for n in self.consumers.get(name, []) if n.op_type == op]
        if len(found) != 1:
            raise self.unexpected(f"{name} (wanted one {op})")
        return found[0]

    def made_by(self, name: str, op: str) -> Any:
        """The node making ``name``, which must be an ``op``."""
        node = self.producer.get(name)
        if node is None or node.op_type != op:
            raise self.unexpected(f"{name} (wanted it made by {op})")
        return node

    def scalar(self, name: str) -> float:
        """The value of a scalar initializer or Constant node (the attention scales)."""
        from onnx import numpy_helper

        for init in self.graph.initializer:
            if init.name == name:
                return float(numpy_helper.to_array(init).reshape(-1)[0])
        const = self.producer.get(name)
        if const is not None and const.op_type == "Constant":
            value = next((a.t for a in const.attribute if a.name == "value"), None)
            if value is not None:
                return float(numpy_helper.to_array(value).reshape(-1)[0])
        raise self.unexpected(f"{name} (wanted a constant scale)")

    def scaled_scores(self, cache_key: str) -> tuple[Any, Any, str, float]:
        """optimum's ``MatMul(Mul(Transpose(q), s), Mul(Transpose(K), s))`` reading ``cache_key``.

        Returns the score MatMul, the probabilities' MatMul with the values, the query as
        ``[rows, 1, heads * head_dim]`` (before its reshape to heads) and ``scale``, the product
        of the query's and the keys' factors (``head_dim ** -0.25`` each).
        """
        keys_t = self.only(cache_key, "Transpose")
        if _perm(keys_t) != [0, 1, 3, 2]:
            raise self.unexpected(cache_key)
        k_scale = self.only(keys_t.output[0], "Mul")
        score = self.only(k_scale.output[0], "MatMul")
        softmax = self.only(self.only(score.output[0], "Add").output[0], "Softmax")
        value = self.only(softmax.output[0], "MatMul")
        if score.input[1] != k_scale.output[0]:
            raise self.unexpected(score.name)
        q_scale = self.made_by(score.input[0], "Mul")
        query_t = next((i for i in q_scale.input if i in self.producer
                        and self.producer[i].op_type == "Transpose"), None)
        if query_t is None:
            raise self.unexpected(q_scale.name)
        factor_q = next(i for i in q_scale.input if i != query_t)
        factor_k = next(i for i in k_scale.input if i != keys_t.output[0])
        return score, value, self.packed(query_t), self.scalar(factor_q) * self.scalar(factor_k)

    def packed(self, heads_first: str) -> str:
        """The ``[rows, 1, heads * head_dim]`` tensor a ``[rows, heads, 1, head_dim]`` one was made from."""
        transpose = self.made_by(heads_first, "Transpose")
        if _perm(transpose) != [0, 2, 1, 3]:
            raise self.unexpected(heads_first)
        return str(self.made_by(transpose.input[0], "Reshape").input[0])

    def heads_merged(self, heads_first: str) -> Any:
        """The Reshape turning ``[rows, heads, 1, head_dim]`` back into ``[rows, 1, d_model]``."""
        transpose = self.only(heads_first, "Transpose")
        if _perm(transpose) != [0, 2, 1, 3]:
            raise self.unexpected(heads_first)
        return self.only(transpose.output[0], "Reshape")


def _perm(node: Any) -> list[int]:
    return next((list(a.ints) for a in node.attribute if a.name == "perm"), [])


def use_contrib_ops(model: Any) -> None:
    """Declare ONNX Runtime's ``com.microsoft`` operator set, which the attention nodes are from."""
    from onnx import helper

    if not any(op.domain == "com.microsoft" for op in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))


def prune_and_sort(graph: Any) -> None:
    """Drop nodes no output depends on and put the rest in topological order (ONNX wants both)."""
    kept = _needed(graph)
    available = {i.name for i in graph.input} | {t.name for t in graph.initializer} | {""}
    ordered: list[Any] = []
    pending = kept
    while pending:
        rest = []
        for node in pending:
            if _ready(node, available):
                ordered.append(node)
                available.update(node.output)
            else:
                rest.append(node)
        if len(rest) == len(pending):
            raise ExportError("the rewritten decoder graph has a cycle or a dangling input")
        pending = rest
    del graph.node[:]
    graph.node.extend(ordered)


def _needed(graph: Any) -> list[Any]:
    """The nodes some graph output depends on, in graph order."""
    producer = {out: node for node in graph.node for out in node.output}
    needed: set[int] = set()
    stack = [o.name for o in graph.output]
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        node = producer.get(name)
        if node is None or id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(node.input)
        stack.extend(i for n in _subgraph_nodes(node) for i in n.input)  # subgraphs read outer names too
    return [n for n in graph.node if id(n) in needed]


def _ready(node: Any, available: set[str]) -> bool:
    """Whether every name ``node`` reads, its subgraphs' outer names included, is ``available``."""
    outer = [i for n in _subgraph_nodes(node) for i in n.input]
    local = {o for n in _subgraph_nodes(node) for o in n.output}
    return all(i in available for i in node.input) and all(i in available or i in local for i in outer)


def _subgraph_nodes(node: Any) -> Iterator[Any]:
    """The nodes of ``node``'s subgraph attributes (an If's branches)."""
    for attr in node.attribute:
        if attr.g is not None:
            yield from attr.g.node
