"""One PyTorch thread for the engine tests' reference models.

The tests run transformers' generate() and forward passes on the tiny test model as the
reference the engine is checked against. On such a small model a second intra-op thread has
nothing to do but spin: on a busy 2-core machine it costs about 10x the CPU (measured on
test_engine_parity's reference decoding) and gives the same ids up to the float near-ties
the parity test already accepts. The setting is process-wide, so it is restored after each module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread() -> Iterator[None]:
    torch = sys.modules.get("torch")  # imported by the modules that use it; never imported here
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)
