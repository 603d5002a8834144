"""Compiled per-conflict loops: the numba decorator the kernels use, and exact dice drawn inside such a loop.

A kernel that plays one conflict at a time in a loop reads like the rules; numba compiles it to machine code, and
``cache=True`` keeps that code between processes (beside the module, or in the user's cache directory when the
installed package is read-only, or in ``NUMBA_CACHE_DIR``), keyed on every module of konflikt the function's module
imports (:mod:`konflikt.dice.compile_cache`), so an edited rule is never run from a stale cache. This module
imports numba: a kernel imports it (and its own loop) only when it first plays, so the command line starts without
numba.

Dice are drawn from the numpy ``Generator`` the kernel is given, 32 bits at a time straight from its bit generator
(numpy's ``integers`` called per die from compiled code allocates an array each time), and mapped to ``0 … n−1`` by
Lemire's multiply-and-reject, which is exactly uniform: a die costs one multiplication, and one 32-bit draw can
carry several dice (``uniform(bits, 6561)`` is two 4dF).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba.core import types
from numba.extending import intrinsic
from numba.np.random.generator_core import next_uint32, next_uint64

from konflikt.dice.compile_cache import stamped

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def compiled(func: F) -> F:
    """``numba.njit(cache=True, nogil=True)``, typed for mypy (numba has no type hints): a kernel lets go of
    Python's lock while it runs, so kernels that write apart can run side by side in threads (:func:`side_by_side`)."""
    return cast(F, stamped(numba.njit(cache=True, nogil=True)(func)))


MOST_THREADS = 4
"""Threads :func:`side_by_side` uses at most (the kernels it runs are memory-bound beyond a few)."""
_POOL: ThreadPoolExecutor | None = None


_HERE = threading.local()
"""Per thread: whether :func:`one_thread` is in force there."""


@contextmanager
def one_thread() -> Iterator[None]:
    """Inside, in the calling thread only: :func:`side_by_side` and :func:`in_background` run their calls in this
    thread. A warm-up that refuses to compile (``kernel_warm_up.compiling_refused``, which refuses this thread's
    compilations only) must not start kernels on other threads, which would compile freely."""
    before = getattr(_HERE, "alone", False)
    _HERE.alone = True
    try:
        yield
    finally:
        _HERE.alone = before


def threads() -> int:
    """The threads :func:`side_by_side` runs on: 1 inside :func:`one_thread`, else ``KONFLIKT_THREADS`` when set,
    else the cores this process may use, at most :data:`MOST_THREADS`."""
    if getattr(_HERE, "alone", False):
        return 1
    asked = os.environ.get("KONFLIKT_THREADS", "")
    if asked.isdigit() and int(asked) > 0:
        return int(asked)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MOST_THREADS, cores))


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="konflikt-kernel")
    return _POOL


def in_background(call: Callable[[], T]) -> Future[T]:
    """Start ``call`` (a compiled kernel bound to its arguments, writing nothing another reads meanwhile) on a
    thread of :func:`side_by_side`'s, to be read with ``.result()`` when needed; at once, in the calling thread,
    when there is one core."""
    if threads() < 2:
        done: Future[T] = Future()
        done.set_result(call())
        return done
    return _pool().submit(call)


def side_by_side(calls: Sequence[Callable[[], None]], meanwhile: Callable[[], bool] | None = None) -> None:
    """Run ``calls`` (compiled kernels that write apart, bound to their arguments) at once on :func:`threads`
    threads, and wait for all; in the calling thread when there is one call or one core. While they run, the
    calling thread does ``meanwhile`` (Python work the kernels do not read; it returns whether it did some) until
    they are done or it has none left. A kernel's error is raised here."""
    if len(calls) < 2 or threads() < 2:
        for call in calls:
            call()
        return
    futures = [_pool().submit(call) for call in calls]
    while meanwhile is not None and not all(f.done() for f in futures) and meanwhile():
        pass
    wait(futures)
    for future in futures:
        future.result()


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


@compiled
def uniform_at(words: Any, pos: int, bound: int) -> tuple[int, int]:
    """:func:`uniform` from a buffer of 32-bit words instead of the bit generator: (the value, the next position),
    or (−1, ``pos``) when the buffer runs out before a value is accepted — refill it with the words from ``pos`` on
    kept in front, and the same call gives the value the longer buffer would have.

    For a loop that returns to Python often (to compute a missing table cell): a numpy ``Generator`` argument
    costs numba some 50 µs a call to unbox, an array almost nothing."""
    limit = np.uint64(bound)
    k = pos
    while k < words.size:
        product = np.uint64(words[k]) * limit
        k += 1
        low = product & np.uint64(0xFFFFFFFF)
        if low >= limit or low >= (np.uint64(0x100000000) - limit) % limit:
            return np.int64(product >> np.uint64(32)), k  # type: ignore[return-value]
    return -1, pos


@intrinsic
def _popcount(typingctx: Any, word: Any) -> Any:
    """The set bits of a 64-bit integer, by the processor's own instruction (LLVM's ``ctpop``)."""
    if not isinstance(word, types.Integer) or getattr(word, "bitwidth", 0) != 64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, [args[0]])

    return types.int64(word), codegen


popcount = cast(Callable[[Any], int], _popcount)


@compiled
def successes(bits: Any, word: Any, left: int, dice: int) -> tuple[int, Any, int]:
    """How many of ``dice`` dice succeed, each with p = 1/2: the set bits of ``dice`` uniform random bits.

    The bits come from ``word`` (uint64), of which ``left`` are unused; when it holds too few, the bit generator
    ``bits`` gives a fresh one (the rest is dropped), so several rolls share one 64-bit draw. Returns (successes, the
    word, its bits left): the caller keeps the two in local variables. Scalars, not a small array: numba counts the
    references of every array a compiled function is given, an atomic add and subtract a call that cost a kernel
    more than its dice."""
    total = 0
    while dice > 0:
        take = min(dice, 64)
        if left < take:
            word, left = next_uint64(bits), 64  # type: ignore[no-untyped-call]
        if take == 64:
            total += popcount(word)
            word, left = np.uint64(0), 0
        else:
            total += popcount(word & ((np.uint64(1) << np.uint64(take)) - np.uint64(1)))
            word, left = word >> np.uint64(take), left - take
        dice -= 64
    return total, word, left
