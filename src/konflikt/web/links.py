"""Join links: the console's key, kept beside the save database, and the seats' tokens, kept in it.

The console's key lives in a small JSON file next to the database (``<db>.links.json``, owner-only permissions), so
the GM's console link stays the same from one evening to the next. Each seat's token is a row of the database's
``links`` table (:meth:`konflikt.store.db.Store.link`), bound to the conflict it was made for: deleting the conflict
leaves the token bound to nothing, and the link answers "this table was deleted" instead of opening whatever
conflict comes next. The server keeps them in memory (:class:`Links`), read at start and added to as it makes them.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from konflikt.core.i18n import CHOICES
from konflikt.errors import StoreError
from konflikt.web.i18n import Said, _

TOKEN_BYTES = 18
LINKS_MAX_BYTES = 1024 * 1024
"""The console's key file is a few dozen bytes; an older server's, with every table's tokens, a few KB."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class TableDeleted(Said, StoreError):
    """A link made for a conflict that has been deleted: it opens nothing, and writes nothing."""

    def __init__(self, table: int) -> None:
        StoreError.__init__(self, f"this table was deleted (conflict {table})")
        self.table = table
        self.text = lambda: _(
            "this table was deleted (conflict {table}); ask your game master for a new link", table=table
        )


class Links:
    """The console's key (written atomically beside the database), and the join links the server knows of."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.admin = ""
        self.tables: dict[int, dict[str, str]] = {}
        """Live tables: table id → seat → token."""
        self.gone: dict[int, set[str]] = {}
        """Deleted tables: table id → the tokens that were made for it."""
        self.languages: dict[str, str] = {}
        """The language each seat reads (``"12/hedda"`` → ``pl``) and the console's (``"console"``): chosen on the
        page, kept in the file with the console's key, so a reload, another evening or a restarted server finds it."""
        legacy = False
        if path.exists():
            try:
                if path.stat().st_size > LINKS_MAX_BYTES:
                    raise ValueError(f"larger than {LINKS_MAX_BYTES:,} bytes")
                data = json.loads(path.read_text(encoding="utf-8"))
                self.admin = str(data["admin"])
                legacy = "tables" in data  # an older server's tokens: the store took them in (schema 4)
                chosen = data.get("languages", {})
                if isinstance(chosen, dict):
                    self.languages = {str(k)[:100]: str(v) for k, v in list(chosen.items())[:100_000] if v in CHOICES}
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
                why = " ".join(str(exc).split())[:200]
                raise StoreError(f"{path}: the console's key cannot be read ({why}); move it away to start anew") from (
                    None
                )
            if not self.admin.isascii() or not self.admin.isprintable() or not 0 < len(self.admin) <= 200:
                raise StoreError(f"{path}: the console's key is not one konflikt made; move it away to start anew")
        if not self.admin or legacy:
            self.admin = self.admin or new_token()
            self.save()

    @classmethod
    def beside(cls, db: Path) -> Links:
        return cls(db.with_name(db.name + ".links.json"))

    def save(self) -> None:
        data: dict[str, object] = {"admin": self.admin}
        if self.languages:
            data["languages"] = self.languages
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def load(self, rows: Iterable[tuple[str, int, int | None, str]]) -> None:
        """The store's links (:meth:`konflikt.store.db.Store.links`): live where they still open their conflict."""
        for token, table, conflict, seat in rows:
            if conflict == table:
                self.tables.setdefault(table, {})[seat] = token
            else:
                self.gone.setdefault(table, set()).add(token)

    def add(self, table: int, tokens: dict[str, str]) -> None:
        self.tables[table] = dict(tokens)

    def forget(self, table: int) -> None:
        """The table's conflict is gone: its links answer "deleted" from now on."""
        tokens = self.tables.pop(table, {})
        self.gone.setdefault(table, set()).update(tokens.values())

    def seat_of(self, table: int, token: str) -> str | None:
        """The seat a token acts for, compared in constant time; ``None`` for an unknown token.

        Raises:
            TableDeleted: the token was made for this table, whose conflict has been deleted.
        """
        found = None
        given = token.encode("utf-8", "surrogatepass")
        for seat, known in self.tables.get(table, {}).items():
            if secrets.compare_digest(known.encode(), given):
                found = seat
        if found is None and any(secrets.compare_digest(t.encode(), given) for t in self.gone.get(table, ())):
            raise TableDeleted(table)
        return found

    def language(self, place: str) -> str | None:
        """The language chosen for ``place`` (``"12/hedda"``, ``"console"``), or ``None``: the server's."""
        return self.languages.get(place)

    def choose_language(self, place: str, language: str) -> None:
        """Remember the language chosen for ``place`` (written at once)."""
        if language not in CHOICES:
            raise ValueError(language)
        if self.languages.get(place) != language:
            self.languages[place] = language
            self.save()

    def is_admin(self, key: str) -> bool:
        return secrets.compare_digest(self.admin.encode(), key.encode("utf-8", "surrogatepass"))
