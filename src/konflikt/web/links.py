"""Join links: one unguessable token per seat of each table, kept beside the save database.

The store's schema belongs to the store, so the tokens live in a small JSON file next to it
(``<db>.links.json``, owner-only permissions). They outlive a server restart: a player's link keeps working.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from konflikt.errors import StoreError

TOKEN_BYTES = 18


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class Links:
    """Tokens by table and seat, and the console's key; every change is written atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.admin = ""
        self.tables: dict[int, dict[str, str]] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.admin = str(data["admin"])
                self.tables = {int(k): {str(s): str(t) for s, t in v.items()} for k, v in data["tables"].items()}
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                raise StoreError(f"{path}: the join links cannot be read ({exc}); move it away to start anew") from None
        if not self.admin:
            self.admin = new_token()
            self.save()

    @classmethod
    def beside(cls, db: Path) -> Links:
        return cls(db.with_name(db.name + ".links.json"))

    def save(self) -> None:
        data = {"admin": self.admin, "tables": {str(k): v for k, v in sorted(self.tables.items())}}
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def ensure(self, table: int, seats: list[str]) -> dict[str, str]:
        """The table's tokens, making any that are missing (a conflict begun in the terminal gets them here)."""
        tokens = self.tables.setdefault(table, {})
        missing = [s for s in seats if s not in tokens]
        for seat in missing:
            tokens[seat] = new_token()
        if missing:
            self.save()
        return dict(tokens)

    def seat_of(self, table: int, token: str) -> str | None:
        """The seat a token acts for, compared in constant time; ``None`` for an unknown token."""
        found = None
        for seat, known in self.tables.get(table, {}).items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def is_admin(self, key: str) -> bool:
        return secrets.compare_digest(self.admin.encode(), key.encode())
