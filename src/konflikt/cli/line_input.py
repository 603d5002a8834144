"""One typed line at a prompt, where a Ctrl-C is always answered at once.

Python's own ``input()`` and ``getpass()`` block in a ``read()`` of the terminal, and notice a Ctrl-C only when the
signal interrupts that very ``read()``. A SIGINT the process takes a moment earlier (after the prompt is printed,
before the ``read()`` starts: the window a busy machine or another thread waiting for the GIL widens), or one the
kernel hands to another thread, runs Python's C-level handler and is then forgotten until Enter is pressed
(cpython#112585): the game master's Ctrl-C did nothing. Here the wait is a ``select()`` that wakes ten times a
second, and every wake runs Python code, which raises a pending KeyboardInterrupt; the line is read only once the
terminal has a whole one. A hidden (secret) line turns the echo off without ``getpass``'s flush, which would throw
away what was already typed.

Off a terminal (a pipe, a script), off the main thread, or on a system without ``termios``, it is rich's
``Console.input`` as before.
"""

from __future__ import annotations

import os
import select
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from rich.console import Console
from rich.text import Text

WAKE = 0.1
"""Seconds between looks for a pending Ctrl-C while waiting for the line (the longest a Ctrl-C waits)."""


def ask_line(console: Console, prompt: str | Text, secret: bool = False) -> str:
    """The line typed after ``prompt`` (without its newline); hidden while typed when ``secret``.

    Raises:
        KeyboardInterrupt: Ctrl-C, within :data:`WAKE` seconds whatever the other threads do.
        EOFError: the input ended (Ctrl-D on an empty line).
    """
    fd = _terminal_stdin()
    if fd is None:
        return console.input(prompt, password=secret)
    console.print(prompt, end="")
    with _echo_off(fd) if secret else nullcontext():
        line = _read_line(fd)
    if secret:
        console.print()  # the Enter the hidden input did not echo
    return line


def _terminal_stdin() -> int | None:
    """stdin's descriptor when it is a terminal this thread can wait on with a Ctrl-C honoured, else ``None``."""
    if threading.current_thread() is not threading.main_thread():
        return None  # signals reach the main thread only: another thread's wait would not be interrupted anyway
    try:
        fd = sys.stdin.fileno()
        import termios  # noqa: F401  # POSIX only

        return fd if os.isatty(fd) else None
    except (AttributeError, ImportError, OSError, ValueError):
        return None


def _read_line(fd: int) -> str:
    """Up to and without the newline, from a terminal in its line mode (a read returns at most one line)."""
    chunks: list[bytes] = []
    while True:
        while not select.select([fd], [], [], WAKE)[0]:
            pass  # back in Python between two waits: a Ctrl-C taken meanwhile is raised here
        chunk = os.read(fd, 4096)
        if not chunk:  # Ctrl-D
            if chunks:
                break
            raise EOFError
        chunks.append(chunk)
        if chunk.endswith(b"\n"):
            break
    text = b"".join(chunks).decode(sys.stdin.encoding or "utf-8", errors="replace")
    return text.removesuffix("\n")


@contextmanager
def _echo_off(fd: int) -> Iterator[None]:
    """The terminal does not echo what is typed; restored afterwards (also on Ctrl-C). What was typed before is
    kept (``getpass`` flushes it, and a line typed a moment early would be lost)."""
    import termios

    old = termios.tcgetattr(fd)
    new = list(old)
    new[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, new)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
