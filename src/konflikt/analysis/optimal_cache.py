"""Solved games kept on disk, by the digest of the scenario document, its rule options and konflikt's version.

Where: ``$KONFLIKT_CACHE`` if set, else the user's cache folder (``$XDG_CACHE_HOME/konflikt`` on Linux, by
platformdirs). A file that cannot be read back — cut short, overwritten, from another version — is solved again and
written anew, never an error; a folder that cannot be written to only means solving again next time.

Each file is compressed (zlib: a solved knife fight's tables are long runs of repeated numbers, 34–104 MB raw) and
begins with a one-line JSON header (the scenario's title, what was solved, the version, when, the raw size) so that
``konflikt cache`` lists and sizes the folder without unpickling anything. The version is part of the key: a
solution from another release is never read (its rules may differ), and ``konflikt cache --clear`` removes them.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = 2
"""Bumped whenever what is stored changes shape (2: a JSON header line, then the zlib-compressed pickle)."""
PREFIX = "optimal-"
SUFFIX = ".pickle.z"
LEVEL = 6
"""zlib's level: 6 packs a solved game about as well as 9 in a third of the time."""


def cache_dir() -> Path:
    env = os.environ.get("KONFLIKT_CACHE")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("konflikt", appauthor=False))


def _version() -> str:
    from konflikt import __version__

    return __version__


def cache_key(document: Any, options: Any, what: str) -> str:
    """A digest of the scenario document (characters inlined), the rule options, what was solved and the version."""
    text = json.dumps([document, options, what, FORMAT, _version()], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def path_for(key: str) -> Path:
    return cache_dir() / f"{PREFIX}{key}{SUFFIX}"


def load(key: str) -> Any | None:
    """What was stored under ``key``, or ``None`` (missing, unreadable, or not what this version wrote)."""
    path = path_for(key)
    try:
        with path.open("rb") as handle:
            header = json.loads(handle.readline())
            if header.get("format") != FORMAT or header.get("key") != key:
                return None
            stored = pickle.loads(zlib.decompress(handle.read()))  # our own cache folder, written by this module
        if isinstance(stored, dict) and stored.get("key") == key:
            return stored["payload"]
    except Exception:  # any damage: solve again (see the module)
        return None
    return None


def save(key: str, payload: Any, title: str = "", what: str = "") -> None:
    """Store ``payload`` under ``key`` atomically (a temporary file renamed over the old one); failures are quiet."""
    path = path_for(key)
    try:
        raw = pickle.dumps({"key": key, "payload": payload}, protocol=pickle.HIGHEST_PROTOCOL)
        packed = zlib.compress(raw, LEVEL)
        header = {
            "format": FORMAT,
            "key": key,
            "title": title,
            "what": what,
            "version": _version(),
            "saved": time.strftime("%Y-%m-%d %H:%M:%S"),
            "raw_bytes": len(raw),
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as handle:
            handle.write(json.dumps(header, ensure_ascii=False).encode() + b"\n")
            handle.write(packed)
            tmp = handle.name
        os.replace(tmp, path)
    except OSError:
        return


@dataclass(frozen=True)
class Entry:
    """One file of the cache folder, as ``konflikt cache`` lists it."""

    path: Path
    size: int
    title: str
    what: str
    version: str
    saved: str
    raw_bytes: int
    current: bool
    """Readable by this version (an older format or release is never read, only taking room)."""


def entries() -> Iterator[Entry]:
    """Every solved game in the cache folder (this version's and others'), oldest first; unreadable headers too."""
    folder = cache_dir()
    if not folder.is_dir():
        return
    found = [p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.is_file()]
    for path in sorted(found, key=lambda p: p.stat().st_mtime):
        header: dict[str, Any] = {}
        try:
            with path.open("rb") as handle:
                header = json.loads(handle.readline()) if path.name.endswith(SUFFIX) else {}
        except (OSError, ValueError):
            header = {}
        if not isinstance(header, dict):
            header = {}
        yield Entry(
            path=path,
            size=path.stat().st_size,
            title=str(header.get("title", "")),
            what=str(header.get("what", "")),
            version=str(header.get("version", "?")),
            saved=str(header.get("saved", "")),
            raw_bytes=int(header.get("raw_bytes", 0) or 0),
            current=header.get("format") == FORMAT and header.get("version") == _version(),
        )


def clear(stale_only: bool = False) -> tuple[int, int]:
    """Remove the cache's solved games (only those this version cannot read, with ``stale_only``); returns how many
    files and bytes went."""
    files = freed = 0
    for entry in list(entries()):
        if stale_only and entry.current:
            continue
        try:
            entry.path.unlink()
        except OSError:
            continue
        files, freed = files + 1, freed + entry.size
    return files, freed
