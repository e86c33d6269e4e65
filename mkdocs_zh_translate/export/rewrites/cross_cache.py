"""Rewrite: the encoder also computes every decoder layer's cross-attention keys/values, so the
decoder is one plain graph (optimum's decoder-with-past) that always reads them from its cache."""

from __future__ import annotations

from typing import Any

from ..errors import ExportError


def add_cross_cache_to_encoder(encoder: Any, first_decoder: Any, layers: int, heads: int, head_dim: int) -> None:
    """Make the encoder output each decoder layer's cross-attention keys and values.

    They depend on the encoder states only, so computing them here (once per batch) lets the
    decoder be a single graph that always reads them from its cache inputs. The projections are
    found in optimum's no-past decoder by walking back from its ``present.N.encoder.*`` outputs
    (Transpose <- Reshape <- Add(bias) <- MatMul(encoder_hidden_states, W)) and rebuilt on the
    encoder's ``last_hidden_state`` with the same weights and the same ops, so the values are the
    ones the merged decoder's first step computed. New outputs ``cross.N.key`` / ``cross.N.value``
    ``[batch, heads, source length, head_dim]`` come before ``last_hidden_state``, which stays an
    output: the alignment pass (``export_aligner``) reads it instead of running the encoder again.
    """
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = first_decoder.graph
    producer = {out: node for node in graph.node for out in node.output}
    tensors = {init.name: init for init in graph.initializer}

    def constant(name: str) -> Any:
        node = producer.get(name)
        while node is not None and node.op_type == "Identity":
            name = node.input[0]
            node = producer.get(name)
        if name not in tensors:
            raise ExportError(f"cross-attention weight {name!r} is not a constant; unsupported optimum version")
        return numpy_helper.to_array(tensors[name])

    def expect(name: str, op: str) -> Any:
        node = producer.get(name)
        if node is None or node.op_type != op:
            raise ExportError(
                f"unexpected cross-attention graph at {name!r} (wanted {op}); unsupported optimum version"
            )
        return node

    encoder.graph.initializer.append(
        numpy_helper.from_array(np.array([0, -1, heads, head_dim], dtype=np.int64), "zh_cross_shape"))
    outputs = []
    for layer in range(layers):
        for kind in ("key", "value"):
            transpose = expect(f"present.{layer}.encoder.{kind}", "Transpose")
            reshape = expect(transpose.input[0], "Reshape")
            add = expect(reshape.input[0], "Add")
            matmul_name = next(
                (i for i in add.input if producer.get(i) is not None and producer[i].op_type == "MatMul"), None
            )
            if matmul_name is None:
                raise ExportError("cross-attention projection without MatMul; unsupported optimum version")
            matmul = producer[matmul_name]
            if matmul.input[0] != "encoder_hidden_states":
                raise ExportError(
                    "cross-attention projection not fed by the encoder states; unsupported optimum version"
                )
            weight = constant(matmul.input[1])
            bias = constant(next(i for i in add.input if i != matmul_name))
            perm = next(list(a.ints) for a in transpose.attribute if a.name == "perm")
            if weight.shape != (heads * head_dim, heads * head_dim):
                raise ExportError(f"cross-attention weight of shape {weight.shape}; unsupported model layout")
            tag = f"zh_cross.{layer}.{kind}"
            encoder.graph.initializer.extend([numpy_helper.from_array(weight, tag + ".weight"),
                                              numpy_helper.from_array(bias, tag + ".bias")])
            out = f"cross.{layer}.{kind}"
            encoder.graph.node.extend(
                [
                    helper.make_node("MatMul", ["last_hidden_state", tag + ".weight"], [tag + ".proj"]),
                    helper.make_node("Add", [tag + ".proj", tag + ".bias"], [tag + ".biased"]),
                    helper.make_node("Reshape", [tag + ".biased", "zh_cross_shape"], [tag + ".heads"]),
                    helper.make_node("Transpose", [tag + ".heads"], [out], perm=perm),
                ]
            )
            outputs.append(out)
    hidden = [o for o in encoder.graph.output if o.name == "last_hidden_state"]
    del encoder.graph.output[:]
    encoder.graph.output.extend(
        helper.make_tensor_value_info(
            name, TensorProto.FLOAT, ["batch_size", heads, "encoder_sequence_length", head_dim]
        )
        for name in outputs
    )
    encoder.graph.output.extend(hidden)
