"""Shared pieces of the campaign tests: the bundled characters' files, and the library read straight from SQLite."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from konflikt.core.scenario import bundled_examples

CHARACTERS = bundled_examples().parent / "rulesets"


def character_file(ruleset: str, name: str) -> Path:
    return CHARACTERS / ruleset / "content" / "characters" / f"{name}.toml"


def documents(db: Path, campaign: str = "default") -> dict[str, dict[str, Any]]:
    """Each library character's document, read without konflikt (read-only)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT h.name, h.document FROM characters h JOIN campaigns c ON c.id = h.campaign_id WHERE c.name = ?",
            (campaign,),
        ).fetchall()
    finally:
        conn.close()
    return {name: json.loads(doc) for name, doc in rows}


def pending(db: Path, name: str) -> list[dict[str, Any]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT pending FROM characters WHERE name = ?", (name,)).fetchone()
    finally:
        conn.close()
    return list(json.loads(row[0]))


def history_kinds(db: Path, name: str) -> list[tuple[str, int | None, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT h.kind, h.conflict_id, h.undone FROM history h JOIN characters c ON c.id = h.character_id "
            "WHERE c.name = ? ORDER BY h.id",
            (name,),
        ).fetchall()
    finally:
        conn.close()
    return [(str(k), c, int(u)) for k, c, u in rows]
