"""Text from scenarios, characters, saves and people, made safe to print and to store.

Two hazards, one module:

- **Terminal escapes.** A title or a name may hold control characters (``\\x1b]2;…\\x07\\x1b[2J`` sets the window's
  title and clears the screen). :func:`shown` writes every control character as a visible escape (``\\x1b``), so
  text from a shared scenario, character or conflict file never reaches a terminal raw. The command line's
  printers pass through it (``cli.render.PipeConsole``, and the commands that write with ``typer.echo``).
- **Text that is not Unicode.** JSON can spell a lone surrogate (``"\\ud800"``), which no UTF-8 encoder takes: a
  page, a frame or a database row holding one fails where it is written. :func:`bad_text` finds the first one in
  a document (to refuse it in one line naming the field); :func:`escaped` writes each as its visible escape, so a
  save that already holds one is read rather than refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 (but tab and newline), DEL, C1, and the bidirectional overrides (text that prints reversed)."""
_CONTROL_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str, newlines: bool = True) -> str:
    """``text`` with every control character (and lone surrogate) written as a visible escape: ``\\x1b``,
    ``\\x07``, ``\\u202e``. Tabs and, with ``newlines``, line breaks are kept; without, they are escaped too (a
    table cell, a one-line listing)."""
    text = (_CONTROL if newlines else _CONTROL_LINE).sub(_escape, text)
    return _SURROGATE.sub(_escape, text) if _SURROGATE.search(text) else text


def control_character(text: str) -> str | None:
    """The first control character of ``text`` (newline and tab included) as its visible escape, else ``None``."""
    found = _CONTROL_LINE.search(text) or _SURROGATE.search(text)
    return None if found is None else _escape(found)


_RAW_IN_JSON = re.compile(r"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What JSON leaves raw that a terminal reads: DEL, C1 (``\\x9b`` is CSI in 8-bit mode), the bidirectional
overrides, and lone surrogates (no UTF-8 encoder takes them)."""


def json_text(value: Any, indent: int | None = None) -> str:
    """``value`` as JSON that is safe to print: as ``json.dumps(ensure_ascii=False)`` (letters stay letters), with
    every control character, not only C0, written as its ``\\uXXXX`` escape. It reads back as the same value."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _RAW_IN_JSON.search(text) else text


def has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def bad_text(value: Any, where: str = "") -> str | None:
    """The path of the first text in ``value`` (keys too) that is not valid Unicode (a lone surrogate), else
    ``None``: ``reason``, ``scenario.sides[0].name``."""
    if isinstance(value, str):
        return (where or "text") if has_surrogate(value) else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and has_surrogate(key):
                return shown(path)
            found = bad_text(item, path)
            if found is not None:
                return found
        return None
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found = bad_text(item, f"{where}[{i}]")
            if found is not None:
                return found
    return None


def escaped(value: Any) -> Any:
    """``value`` with each lone surrogate in its texts (keys too) written as its visible escape (``\\ud800``)."""
    if isinstance(value, str):
        return _SURROGATE.sub(_escape, value) if has_surrogate(value) else value
    if isinstance(value, dict):
        return {escaped(k): escaped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [escaped(v) for v in value]
    return value
