"""int4 for the CPU in two steps: GenAI's builder writes fp32, ONNX Runtime's quantizer makes it int4.

The builder's one-step int4 holds the checkpoint and a whole fp32 copy of the graph in memory
before it quantizes: 6.3 GB peak for a model of Qwen3-0.6B's shape, over 14.6 GB for Hy-MT2-1.8B.
Its fp32 export writes the graph to disk as it goes (3.9 GB and 10.9 GB peak), and quantizing
that graph afterwards peaks at about its size (3.7 GB, 9.6 GB). The quantizer runs with the
settings the builder's int4 CPU path uses (``onnxruntime_genai/models/builders/quant_config.py``:
4 bits, blocks of 32, symmetric, accuracy level 4, MatMul nodes, ONNX Runtime's default
quantizer), so every MatMulNBits weight is the same bytes as the builder's: checked at Qwen3-0.6B's
shape, all 397 initializers equal. The cost is disk (the fp32 graph, four times the int4 one, in
the export's scratch directory while it runs) and one more pass over the weights.

Tied embeddings: the builder's fp32 graph gathers token embeddings through a Transpose of the fp32
output matrix; its int4 graph gathers them from the int4 output matrix (GatherBlockQuantized).
:func:`tie_quantized_embeddings` rewrites the first form into the second, or the int4 model would
keep the whole fp32 matrix (1 GB at Qwen3's vocabulary) besides its int4 copy.

Runs as ``python -m mkdocs_zh_translate.export.int4 FP32_DIR OUT_DIR`` in a child process, like
the builder: the quantizer configures logging, and the fp32 graph's memory goes back with the
process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .errors import ExportError

MODEL_FILE = "model.onnx"
DATA_FILE = "model.onnx.data"
#: The builder's int4 CPU settings (see the module docstring).
BITS, BLOCK_SIZE, ACCURACY_LEVEL = 4, 32, 4
_OUTPUT_MATRIX = "lm_head.MatMul.weight"


def quantize_int4(fp32: Path, out: Path) -> None:
    """Quantize the builder's fp32 export in ``fp32`` into ``out`` (its other files copied), in a child process."""
    command = [sys.executable, "-m", __name__, str(fp32), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (out / MODEL_FILE).is_file():
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        last = lines[-1] if lines else f"exit status {done.returncode}"
        raise ExportError(f"{fp32}: int4 quantisation of the fp32 graph failed: {last}")


def _quantize(fp32: Path, out: Path) -> None:
    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    out.mkdir(parents=True, exist_ok=True)
    for item in fp32.iterdir():
        if item.is_file() and item.name not in (MODEL_FILE, DATA_FILE):
            shutil.copyfile(item, out / item.name)
    quantizer = MatMulNBitsQuantizer(onnx.load(str(fp32 / MODEL_FILE)), bits=BITS, block_size=BLOCK_SIZE,
                                     is_symmetric=True, accuracy_level=ACCURACY_LEVEL, op_types_to_quantize=("MatMul",))
    quantizer.process()
    model = quantizer.model.model
    tie_quantized_embeddings(model)
    onnx.save_model(model, str(out / MODEL_FILE), save_as_external_data=True, location=DATA_FILE,
                    all_tensors_to_one_file=True)


def tie_quantized_embeddings(model: Any) -> bool:
    """Gather the token embeddings from the int4 output matrix, as the builder's int4 graph does;
    False (graph unchanged) when the embeddings are not read through the output matrix (an
    untied model: its embedding stays an fp32 Gather, as in the builder's int4 graph)."""
    from onnx import helper, numpy_helper

    graph = model.graph
    producers = {name: node for node in graph.node for name in node.output}
    gather = next((n for n in graph.node if n.op_type == "Gather" and n.input[0] in producers
                   and producers[n.input[0]].op_type == "Transpose"
                   and producers[n.input[0]].input[0] == _OUTPUT_MATRIX), None)
    weights = {init.name: init for init in graph.initializer}
    q4, scales = weights.get(f"{_OUTPUT_MATRIX}_Q{BITS}"), weights.get(f"{_OUTPUT_MATRIX}_scales")
    if gather is None or q4 is None or scales is None:
        return False
    transpose = producers[gather.input[0]]
    vocab, blocks, half_block = (int(d) for d in q4.dims)
    import numpy as np

    shape = numpy_helper.from_array(np.array([vocab, blocks * half_block], dtype=np.int64),
                                    "/model/constants/embed_tokens_q4_shape")
    reshape = helper.make_node("Reshape", [q4.name, shape.name], ["/model/embed_tokens/Reshape/output_0"],
                               name="/model/embed_tokens/Reshape")
    quantized = helper.make_node("GatherBlockQuantized", [reshape.output[0], gather.input[1], scales.name],
                                 list(gather.output), name="/model/embed_tokens/GatherBlockQuantized",
                                 domain="com.microsoft", bits=BITS, block_size=BLOCK_SIZE, gather_axis=0,
                                 quantize_axis=1)
    nodes = []
    for node in graph.node:
        if node == transpose:
            continue
        nodes.extend([reshape, quantized] if node == gather else [node])
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.append(shape)
    if not any(_OUTPUT_MATRIX in node.input for node in graph.node):
        graph.initializer.remove(weights[_OUTPUT_MATRIX])
    return True


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    _quantize(Path(sys.argv[1]), Path(sys.argv[2]))
