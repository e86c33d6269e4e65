"""llama.cpp rows for ``benchmarks/decoder_models.py``: the same random checkpoints, as GGUF.

llama.cpp is the other well-known way to run these models on a CPU, so the decoder benchmark
measures it beside ONNX Runtime GenAI at the same precision (Q4_0: 4-bit blocks of 32, as
GenAI's int4 MatMulNBits; f32 like-for-like with GenAI fp32 and transformers fp32).

llama-cpp-python ships no wheel on the registry: it builds llama.cpp from its sdist (cmake, a C++
compiler). That is optional, so every llama.cpp row is skipped with one line when ``llama_cpp``
does not import. The GGUF conversion uses llama.cpp's own ``convert_hf_to_gguf.py``, which the
sdist vendors (``vendor/llama.cpp``) but does not install: point ``ZH_LLAMA_CPP_CONVERT`` at it
in an unpacked sdist (it uses the ``gguf-py`` folder beside it, not the registry's ``gguf``).
Our random checkpoints carry the tiny test tokenizer, whose pre-tokenizer hash llama.cpp does not
know; the benchmark feeds token ids, so the converter is told the family's pre-tokenizer name.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: GGUF precision -> llama.cpp's file type number (``llama_ftype``) for quantizing from f32.
FTYPES = {"q4_0": 2, "q4_k_m": 15, "q8_0": 7}
#: The converter's pre-tokenizer name per architecture (see the module docstring).
PRE_TOKENIZER = {"qwen3": "qwen2", "hunyuan": "hunyuan-dense", "gemma3": "default"}


def unavailable() -> str | None:
    """Why the llama.cpp rows cannot run here, or None when they can."""
    try:
        import llama_cpp  # noqa: F401
    except ImportError as exc:
        return (f"llama.cpp rows skipped: llama_cpp does not import ({exc}); "
                "install llama-cpp-python (it builds llama.cpp from source: cmake and a C++ compiler)")
    return None


def _convert(hf: Path, out: Path, arch: str) -> None:
    """f32 GGUF of ``hf`` through llama.cpp's own converter, in a child process."""
    script = os.environ.get("ZH_LLAMA_CPP_CONVERT")
    if not script or not Path(script).is_file():
        raise SystemExit("llama.cpp rows: set ZH_LLAMA_CPP_CONVERT to llama.cpp's convert_hf_to_gguf.py "
                         "(vendor/llama.cpp in the llama-cpp-python sdist)")
    code = (
        "import sys, runpy\n"
        f"sys.path[:0] = [{str(Path(script).parent)!r}, {str(Path(script).parent / 'gguf-py')!r}]\n"
        "from conversion.base import TextModel\n"
        f"TextModel.get_vocab_base_pre = lambda self, tokenizer: {PRE_TOKENIZER[arch]!r}\n"
        f"sys.argv = ['convert', {str(hf)!r}, '--outtype', 'f32', '--outfile', {str(out)!r}]\n"
        f"runpy.run_path({script!r}, run_name='__main__')\n"
    )
    # The sdist's own gguf-py: the converter uses constants newer than the registry's gguf 0.19.0
    # (same version number), which fails with "AttributeError: DFLASH".
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode or not out.is_file():
        raise SystemExit(f"llama.cpp conversion of {hf} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")


def gguf(hf: Path, cache: Path, name: str, arch: str, precision: str) -> Path:
    """The GGUF file of ``name`` at ``precision`` (f32, or quantized from the f32 one), cached."""
    f32 = cache / f"gguf-{name}-f32.gguf"
    quantized = cache / f"gguf-{name}-{precision}.gguf"
    if precision != "f32" and quantized.is_file():  # the f32 file may have been deleted since
        return quantized
    if not f32.is_file():
        print(f"converting {name} to GGUF ...", file=sys.stderr, flush=True)
        started = time.time()
        _convert(hf, f32.with_suffix(".tmp"), arch)
        os.replace(f32.with_suffix(".tmp"), f32)
        print(f"  {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    if precision == "f32":
        return f32
    out = quantized
    if not out.is_file():
        import llama_cpp

        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = FTYPES[precision]
        params.nthread = 2
        tmp = out.with_suffix(".tmp")
        if llama_cpp.llama_model_quantize(str(f32).encode(), str(tmp).encode(), params) != 0:
            raise SystemExit(f"llama.cpp could not quantize {f32} to {precision}")
        os.replace(tmp, out)
    return out


def runner(path: Path, threads: int, new_tokens: int) -> Any:
    """Greedy, exactly ``new_tokens`` per prompt, one prompt at a time (llama-cpp-python's API).

    The high-level API keeps one sequence; batching several prompts needs llama.cpp's low-level
    batch API, which llama-cpp-python exposes only as raw C calls. So these rows measure the
    sequential use, the way llama-cpp-python is used; GenAI's rows batch.
    """
    import llama_cpp
    import numpy as np
    from llama_cpp import Llama

    model = Llama(model_path=str(path), n_ctx=512, n_batch=512, n_threads=threads, n_threads_batch=threads,
                  logits_all=False, verbose=False)
    vocab = model.n_vocab()

    def run(batch: list[list[int]]) -> int:
        for prompt in batch:
            model.reset()
            model.eval(prompt)
            for _ in range(new_tokens):  # random weights never stop: no end-of-text check
                # eval() keeps no scores without logits_all: read the last position's logits
                logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(model._ctx.ctx, -1), shape=(vocab,))
                model.eval([int(np.argmax(logits))])
        return new_tokens * len(batch)
    return run
