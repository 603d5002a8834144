"""Solved games kept on disk, by the digest of the scenario document and its rule options.

Where: ``$KONFLIKT_CACHE`` if set, else the user's cache folder (``$XDG_CACHE_HOME/konflikt`` on Linux, by
platformdirs). A file that cannot be read back — cut short, overwritten, from another version — is solved again and
written anew, never an error; a folder that cannot be written to only means solving again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

FORMAT = 1
"""Bumped whenever what is stored changes shape."""


def cache_dir() -> Path:
    env = os.environ.get("KONFLIKT_CACHE")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("konflikt", appauthor=False))


def cache_key(document: Any, options: Any, what: str) -> str:
    """A digest of the scenario document (characters inlined), the rule options and what was solved."""
    text = json.dumps([document, options, what, FORMAT], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def path_for(key: str) -> Path:
    return cache_dir() / f"optimal-{key}.pickle"


def load(key: str) -> Any | None:
    """What was stored under ``key``, or ``None`` (missing, unreadable, or not what this version wrote)."""
    path = path_for(key)
    try:
        with path.open("rb") as handle:
            stored = pickle.load(handle)  # our own cache folder, written by this module
        if isinstance(stored, dict) and stored.get("format") == FORMAT and stored.get("key") == key:
            return stored["payload"]
    except Exception:  # any damage: solve again (see the module)
        return None
    return None


def save(key: str, payload: Any) -> None:
    """Store ``payload`` under ``key`` atomically (a temporary file renamed over the old one); failures are quiet."""
    path = path_for(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False, suffix=".tmp") as handle:
            pickle.dump({"format": FORMAT, "key": key, "payload": payload}, handle, protocol=pickle.HIGHEST_PROTOCOL)
            tmp = handle.name
        os.replace(tmp, path)
    except OSError:
        return
