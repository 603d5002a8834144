"""Compiled per-conflict loops: the numba decorator the kernels use, and exact dice drawn inside such a loop.

A kernel that plays one conflict at a time in a loop reads like the rules; numba compiles it to machine code, and
``cache=True`` keeps that code between processes (beside the module, or in the user's cache directory when the
installed package is read-only, or in ``NUMBA_CACHE_DIR``). This module imports numba: a kernel imports it (and its
own loop) only when it first plays, so the command line starts without numba.

Dice are drawn from the numpy ``Generator`` the kernel is given, 32 bits at a time straight from its bit generator
(numpy's ``integers`` called per die from compiled code allocates an array each time), and mapped to ``0 … n−1`` by
Lemire's multiply-and-reject, which is exactly uniform: a die costs one multiplication, and one 32-bit draw can
carry several dice (``uniform(bits, 6561)`` is two 4dF).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.np.random.generator_core import next_uint32

F = TypeVar("F", bound=Callable[..., Any])


def compiled(func: F) -> F:
    """``numba.njit(cache=True)``, typed for mypy (numba has no type hints)."""
    return cast(F, numba.njit(cache=True)(func))


@compiled
def uniform(bits: Any, bound: int) -> int:
    """One exactly uniform integer in ``0 … bound−1`` (0 < ``bound`` < 2³²) from the bit generator ``bits``
    (``rng.bit_generator`` inside a compiled loop).

    Lemire: the high 32 bits of a 32-bit draw times ``bound`` are uniform once the few low words below
    2³² mod ``bound`` are rejected (fewer than ``bound`` in 2³²: almost never)."""
    limit = np.uint64(bound)
    while True:
        product = np.uint64(next_uint32(bits)) * limit  # type: ignore[no-untyped-call]
        low = product & np.uint64(0xFFFFFFFF)
        if low >= limit or low >= (np.uint64(0x100000000) - limit) % limit:
            result: int = np.int64(product >> np.uint64(32))  # type: ignore[assignment]  # signed, as numba needs
            return result
