"""The character library: campaigns, their characters between conflicts, and each character's history.

A character is kept as its document (the scenario files' character format, checked by its ruleset's model) with the
delayed effects the rules have set in motion (``core.campaign``). A conflict played from a campaign is linked to it
with its cast (which participant is which library character, and the fields it started with); when the conflict's
last step is committed, the same transaction writes the aftermath back through the ruleset's ``settle`` and records
a history row naming the conflict, so a conflict killed at its end and resumed writes back exactly once, and undo
past the end gives the characters back as they were.

Every function here runs inside a transaction the caller holds (``Store.transaction``) or only reads.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from konflikt.core.campaign import Carried, Rest
from konflikt.core.messages import N_, _
from konflikt.core.ruleset import Ruleset, get_ruleset
from konflikt.core.scenario import ID_PATTERN, WITHIN_SCENARIO, validation_message
from konflikt.core.state import State
from konflikt.errors import KonfliktError, OptionError, StoreError
from konflikt.safe_text import bad_text, shown

SINCE_VERSION = 3
"""The schema version that brought the library's tables (the file's version is ``konflikt.store.db.SCHEMA_VERSION``)."""
DEFAULT_CAMPAIGN = "default"

SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    days INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS characters (
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    document TEXT NOT NULL,
    pending TEXT NOT NULL DEFAULT '[]',
    updated TEXT NOT NULL,
    UNIQUE (campaign_id, name)
);
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    kind TEXT NOT NULL,
    conflict_id INTEGER REFERENCES conflicts(id) ON DELETE SET NULL,
    what TEXT NOT NULL,
    lines TEXT NOT NULL DEFAULT '[]',
    before TEXT,
    after TEXT,
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS campaign_conflicts (
    conflict_id INTEGER PRIMARY KEY REFERENCES conflicts(id) ON DELETE CASCADE,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    cast TEXT NOT NULL
);
"""

COLUMNS = {
    "campaigns": {"id", "name", "created", "days"},
    "characters": {"id", "campaign_id", "name", "ruleset", "document", "pending", "updated"},
    "history": {"id", "character_id", "at", "kind", "conflict_id", "what", "lines", "before", "after", "undone"},
    "campaign_conflicts": {"conflict_id", "campaign_id", "cast"},
}

#: A participant's fields that belong to the scenario, not to the character.
SCENARIO_ONLY = frozenset({"id", "policy", "character"})

#: History kinds: how a character came to be as it is.
ADDED, EDITED, CONFLICT, UNDONE, RESTED = "added", "edited", "conflict", "undone", "rest"


@dataclass(frozen=True)
class Character:
    """One character of a campaign's library."""

    id: int
    campaign: str
    name: str
    ruleset: str
    document: dict[str, Any]
    pending: tuple[dict[str, Any], ...]
    updated: str


@dataclass(frozen=True)
class HistoryRow:
    at: str
    kind: str
    conflict_id: int | None
    what: str
    lines: tuple[str, ...]
    undone: bool


@dataclass(frozen=True)
class Cast:
    """A conflict's link to its campaign: participant id → (library name, the character fields it started with)."""

    campaign: str
    members: Mapping[str, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {pid: {"name": name, "started": dict(started)} for pid, (name, started) in self.members.items()}


@dataclass(frozen=True)
class Ending:
    """A conflict's last step as the store needs it: the outcome's words and the aftermath's documents."""

    outcome: str
    title: str
    characters: Mapping[str, Mapping[str, Any]]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _loads(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise StoreError(_("the character library holds a damaged {what}; left untouched", what=_(what))) from None


def ending_of(state: State, title: str) -> Ending | None:
    """The ending of a finished conflict (``None`` while it goes on): what ``Store.append`` writes back."""
    if not state.is_terminal():
        return None
    ruleset = get_ruleset(state.ruleset)
    aftermath = ruleset.aftermath(state) if ruleset.aftermath is not None else None
    characters = {pid: dict(doc) for pid, doc in aftermath.characters.items()} if aftermath is not None else {}
    return Ending(state.outcome().summary, title, characters)


def check_name(name: str, what: str = N_("a character name")) -> str:
    # fullmatch: the pattern's "$" also matches before a final newline ("budolf\n" was a twin of "budolf")
    if not re.fullmatch(ID_PATTERN, name) or len(name) > 64:
        raise StoreError(
            _(
                "{name} is not {what}: lower-case letters, digits, '-' and '_' (budolf, sir-rudolf)",
                name=repr(shown(name[:80], newlines=False)),
                what=_(what),
            )
        )
    return name


PENDING_FIELDS: dict[str, dict[str, type]] = {
    "omdomme-back": {"amount": int, "why": str},
    "death-mark": {"days": int, "why": str},
    "refill": {"pool": str, "to": int, "days": int},
    "rest": {"minutes": int},
}
"""The delayed effects the rulesets set in motion (``core.campaign``), with the fields each one's rules read: a
library row holding another shape is damage, said in one line (a KeyError in ``chars show``, ``campaign rest``
and ``run --campaign`` before)."""


def _pending_ok(effect: Any) -> bool:
    if not isinstance(effect, dict) or not isinstance(effect.get("effect"), str):
        return False
    fields = PENDING_FIELDS.get(effect["effect"])
    if fields is None:
        return True  # another ruleset's own effect: its rules read it
    return all(
        isinstance(effect.get(key), kind) and not isinstance(effect.get(key), bool) for key, kind in fields.items()
    )


def validated(
    ruleset: Ruleset, document: Mapping[str, Any], where: str, within_scenario: bool = False
) -> dict[str, Any]:
    """The document as its ruleset's model reads it; a document it refuses is one line naming the field. Text
    that is not Unicode (invalid bytes on the command line) and a ``true`` or ``false`` where the model wants a
    number (which it would read as 1 or 0) are refused here too.

    ``within_scenario``: the document comes from a conflict's end, whose scenario already checked it against its
    own content (a consequence of a scenario's own lists); by hand (``chars add``, ``chars edit``) it is checked
    against the ruleset's bundled content."""
    bad = bad_text(dict(document))
    if bad is not None:
        raise StoreError(
            _(
                "{where}: {field}: text that is not valid UTF-8 (invalid bytes); nothing was changed",
                where=where,
                field=bad,
            )
        )
    try:
        model = ruleset.character.model_validate(dict(document), context={WITHIN_SCENARIO: within_scenario})
    except ValidationError as exc:
        raise StoreError(validation_message(where, exc)) from None
    read = model.model_dump() | model.model_dump(by_alias=True) if isinstance(model, BaseModel) else {}
    out = dict(document)
    for key, value in document.items():
        if isinstance(value, bool) and isinstance(read.get(key), int | float) and not isinstance(read.get(key), bool):
            raise StoreError(
                _(
                    "{where}: {key} = {value}: a number is wanted, not true or false",
                    where=where,
                    key=key,
                    value=str(value).lower(),
                )
            )
        if isinstance(value, str) and isinstance(read.get(key), str):
            out[key] = read[key]  # as the model reads it: a name without the spaces or line break around it
    return out


def has_library(conn: sqlite3.Connection) -> bool:
    """Whether the file has the library's tables (a read-only open of an older file has not)."""
    row = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'characters'").fetchone()
    return bool(row[0])


# ---- campaigns and characters ------------------------------------------------------------------------------------
def campaign_id(conn: sqlite3.Connection, campaign: str, create: bool = False) -> int | None:
    check_name(campaign, N_("a campaign name"))
    if not has_library(conn):
        return None
    row = conn.execute("SELECT id FROM campaigns WHERE name = ?", (campaign,)).fetchone()
    if row is not None:
        return int(row[0])
    if not create:
        return None
    cur = conn.execute("INSERT INTO campaigns (name, created) VALUES (?, ?)", (campaign, _now()))
    assert cur.lastrowid is not None
    return cur.lastrowid


def campaigns(conn: sqlite3.Connection) -> list[tuple[str, int, int]]:
    """Each campaign: its name, its days of rest so far, and how many characters it holds."""
    if not has_library(conn):
        return []
    rows = conn.execute(
        "SELECT c.name, c.days, (SELECT count(*) FROM characters h WHERE h.campaign_id = c.id) "
        "FROM campaigns c ORDER BY c.name"
    ).fetchall()
    return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]


def _character(row: Sequence[Any], campaign: str) -> Character:
    document, pending = _loads(row[3], N_("character document")), _loads(row[4], N_("list of delayed effects"))
    if not isinstance(document, dict) or not isinstance(pending, list) or not all(_pending_ok(p) for p in pending):
        raise StoreError(
            _(
                "the character library holds a damaged character {name} (its document or delayed effects); left "
                "untouched",
                name=repr(shown(str(row[1])[:80], newlines=False)),
            )
        )
    return Character(int(row[0]), campaign, str(row[1]), str(row[2]), document, tuple(pending), str(row[5]))


_FIELDS = "id, name, ruleset, document, pending, updated"


def characters(conn: sqlite3.Connection, campaign: str) -> list[Character]:
    cid = campaign_id(conn, campaign)
    if cid is None:
        return []
    rows = conn.execute(f"SELECT {_FIELDS} FROM characters WHERE campaign_id = ? ORDER BY name", (cid,)).fetchall()
    return [_character(r, campaign) for r in rows]


def find(conn: sqlite3.Connection, campaign: str, name: str) -> Character | None:
    cid = campaign_id(conn, campaign)
    if cid is None:
        return None
    row = conn.execute(
        f"SELECT {_FIELDS} FROM characters WHERE campaign_id = ? AND name = ?", (cid, check_name(name))
    ).fetchone()
    return None if row is None else _character(row, campaign)


def get(conn: sqlite3.Connection, campaign: str, name: str) -> Character:
    found = find(conn, campaign, name)
    if found is None:
        raise StoreError(
            _(
                "no character {name} in campaign {campaign} (see 'konflikt chars --campaign {plain}')",
                name=repr(name),
                campaign=repr(campaign),
                plain=campaign,
            )
        )
    return found


def add(conn: sqlite3.Connection, campaign: str, name: str, ruleset: Ruleset, document: Mapping[str, Any]) -> None:
    """A new character (refused if the campaign has one of that name)."""
    check_name(name)
    document = validated(ruleset, document, name)
    cid = campaign_id(conn, campaign, create=True)
    if find(conn, campaign, name) is not None:
        raise StoreError(
            _(
                "campaign {campaign} already has a character {name} (chars edit, or chars delete first)",
                campaign=repr(campaign),
                name=repr(name),
            )
        )
    cur = conn.execute(
        "INSERT INTO characters (campaign_id, name, ruleset, document, pending, updated) VALUES (?,?,?,?,?,?)",
        (cid, name, ruleset.id, _dumps(document), "[]", _now()),
    )
    assert cur.lastrowid is not None
    _history(conn, cur.lastrowid, ADDED, None, f"added to campaign {campaign!r}", (), None, (document, ()))


def update(
    conn: sqlite3.Connection,
    character: Character,
    carried: Carried,
    kind: str,
    what: str,
    conflict_id: int | None = None,
) -> None:
    """Write the character as ``carried`` has it, with a history row saying what changed it."""
    ruleset = get_ruleset(character.ruleset)
    document = validated(ruleset, carried.document, character.name, within_scenario=kind in (CONFLICT, UNDONE))
    carried = Carried(document, carried.pending, carried.lines)
    conn.execute(
        "UPDATE characters SET document = ?, pending = ?, updated = ? WHERE id = ?",
        (_dumps(carried.document), _dumps(list(carried.pending)), _now(), character.id),
    )
    before = (character.document, character.pending)
    _history(conn, character.id, kind, conflict_id, what, carried.lines, before, (carried.document, carried.pending))


def delete(conn: sqlite3.Connection, campaign: str, name: str) -> None:
    character = get(conn, campaign, name)
    conn.execute("DELETE FROM characters WHERE id = ?", (character.id,))


def _history(
    conn: sqlite3.Connection,
    character_id: int,
    kind: str,
    conflict_id: int | None,
    what: str,
    lines: Sequence[str],
    before: tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]] | None,
    after: tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]] | None,
) -> None:
    def state(value: tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]] | None) -> str | None:
        return None if value is None else _dumps({"document": dict(value[0]), "pending": list(value[1])})

    conn.execute(
        "INSERT INTO history (character_id, at, kind, conflict_id, what, lines, before, after) "
        "VALUES (?,?,?,?,?,?,?,?)",
        (character_id, _now(), kind, conflict_id, what, _dumps(list(lines)), state(before), state(after)),
    )


def history(conn: sqlite3.Connection, character: Character) -> list[HistoryRow]:
    rows = conn.execute(
        "SELECT at, kind, conflict_id, what, lines, undone FROM history WHERE character_id = ? ORDER BY id",
        (character.id,),
    ).fetchall()
    return [
        HistoryRow(str(r[0]), str(r[1]), r[2], str(r[3]), tuple(_loads(r[4], "history row")), bool(r[5])) for r in rows
    ]


# ---- conflicts of a campaign ---------------------------------------------------------------------------------------
def link(conn: sqlite3.Connection, conflict_id: int, cast: Cast) -> None:
    cid = campaign_id(conn, cast.campaign, create=True)
    conn.execute(
        "INSERT INTO campaign_conflicts (conflict_id, campaign_id, cast) VALUES (?,?,?)",
        (conflict_id, cid, _dumps(cast.to_json())),
    )


def _linked(conn: sqlite3.Connection, conflict_id: int) -> tuple[str, dict[str, Any]] | None:
    if not has_library(conn):
        return None
    row = conn.execute(
        "SELECT c.name, l.cast FROM campaign_conflicts l JOIN campaigns c ON c.id = l.campaign_id "
        "WHERE l.conflict_id = ?",
        (conflict_id,),
    ).fetchone()
    return None if row is None else (str(row[0]), _loads(row[1], "cast"))


_MISSING = object()


def _default(ruleset: Ruleset, key: str) -> Any:
    field = ruleset.character.model_fields.get(key)
    if field is None:
        return _MISSING
    default = field.get_default(call_default_factory=True)
    return default.model_dump(mode="json") if isinstance(default, BaseModel) else default


def _spelled(ruleset: Ruleset, key: str, started: Mapping[str, Any]) -> str:
    """``key`` as the character's own document spells it (``själ`` for a model field ``sjal``)."""
    if key in started:
        return key
    for name, info in ruleset.character.model_fields.items():
        alias = info.validation_alias
        spellings = {name, *(getattr(alias, "choices", None) or ([alias] if isinstance(alias, str) else []))}
        if key in spellings:
            return next((str(k) for k in spellings if k in started), key)
    return key


def changed_fields(
    ruleset: Ruleset, library: Mapping[str, Any], started: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, Any]:
    """The library's document with what the conflict changed: each field the aftermath gives other than the
    conflict started with, and each field it dropped that had other than its default (it is back at its default:
    a pool emptied). Fields the scenario set for this conflict only (an attribute in use) are not carried."""
    after = {_spelled(ruleset, key, started): value for key, value in after.items()}
    document = dict(library)
    for key, value in started.items():
        if key not in after and _default(ruleset, key) not in (value, _MISSING):
            document.pop(key, None)
    for key, value in after.items():
        if key not in started and _default(ruleset, key) == value:
            continue  # a default the aftermath spells out: nothing changed
        if started.get(key) != value:
            document[key] = value
    return document


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def changes(ruleset: Ruleset, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Each field that differs, as ``field: before → after`` (a field left out is at the model's default)."""

    def shown(document: Mapping[str, Any], key: str) -> str:
        if key in document:
            return _shown(document[key])
        default = _default(ruleset, key)
        return "—" if default is _MISSING else _shown(default)

    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        if before.get(key) != after.get(key):
            lines.append(f"{key}: {shown(before, key)} → {shown(after, key)}")
    return lines


def _written(conn: sqlite3.Connection, conflict_id: int) -> bool:
    done = conn.execute(
        "SELECT count(*) FROM history WHERE conflict_id = ? AND kind = ? AND undone = 0", (conflict_id, CONFLICT)
    ).fetchone()[0]
    return bool(done)


def needs_write_back(conn: sqlite3.Connection, conflict_id: int) -> bool:
    """A campaign's conflict whose characters are not written back yet."""
    return _linked(conn, conflict_id) is not None and not _written(conn, conflict_id)


def campaign_of(conn: sqlite3.Connection, conflict_id: int) -> str | None:
    linked = _linked(conn, conflict_id)
    return None if linked is None else linked[0]


def write_back(conn: sqlite3.Connection, conflict_id: int, ending: Ending) -> None:
    """Write a campaign conflict's characters back, once, through each ruleset's ``settle``."""
    linked = _linked(conn, conflict_id)
    if linked is None or _written(conn, conflict_id):
        return
    campaign, cast = linked
    for pid, member in cast.items():
        if pid not in ending.characters:
            continue
        character = find(conn, campaign, member["name"])
        if character is None:  # deleted while the conflict went on
            continue
        ruleset = get_ruleset(character.ruleset)
        aftermath = {k: v for k, v in ending.characters[pid].items() if k not in SCENARIO_ONLY}
        after = changed_fields(ruleset, character.document, member["started"], aftermath)
        rules = ruleset.campaign
        if rules is not None:
            carried = rules.settle(character.document, character.pending, after)
        else:
            carried = Carried(after, character.pending)
        what = f"conflict {conflict_id}: {ending.title} — {ending.outcome}"
        lines = (*changes(ruleset, character.document, carried.document), *carried.lines)
        carried = Carried(carried.document, carried.pending, lines)
        update(conn, character, carried, CONFLICT, what, conflict_id)


def conflict_changes(conn: sqlite3.Connection, conflict_id: int) -> list[tuple[str, tuple[str, ...]]]:
    """What a campaign conflict's write-back changed: each character's name and the lines of its settle rule."""
    if not has_library(conn):
        return []
    rows = conn.execute(
        "SELECT c.name, h.lines FROM history h JOIN characters c ON c.id = h.character_id "
        "WHERE h.conflict_id = ? AND h.kind = ? AND h.undone = 0 ORDER BY h.id",
        (conflict_id, CONFLICT),
    ).fetchall()
    return [(str(name), tuple(_loads(lines, "history row"))) for name, lines in rows]


def undo_write_back(conn: sqlite3.Connection, conflict_id: int) -> None:
    """Give a campaign conflict's characters back as they were before its write-back (undo past its end)."""
    if not has_library(conn):
        return
    rows = conn.execute(
        "SELECT h.id, h.character_id, h.before FROM history h WHERE h.conflict_id = ? AND h.kind = ? AND h.undone = 0",
        (conflict_id, CONFLICT),
    ).fetchall()
    for history_id, character_id, before in rows:
        was = _loads(before, "history row")
        conn.execute(
            "UPDATE characters SET document = ?, pending = ?, updated = ? WHERE id = ?",
            (_dumps(was["document"]), _dumps(was["pending"]), _now(), character_id),
        )
        conn.execute("UPDATE history SET undone = 1 WHERE id = ?", (history_id,))
        what = f"conflict {conflict_id} undone past its end: the character as it was before it"
        _history(conn, character_id, UNDONE, conflict_id, what, (), None, (was["document"], was["pending"]))


# ---- time ----------------------------------------------------------------------------------------------------------
def rest(
    conn: sqlite3.Connection, campaign: str, time: Rest, overrides: Mapping[str, str] | None = None
) -> list[tuple[str, tuple[str, ...]]]:
    """Apply ``time`` to every character of the campaign by its ruleset's rest rule; what changed, per character.

    ``overrides`` (``campaign rest --option name=value``) set rule options of the rest: each goes to the rulesets
    of the campaign's characters that have an option of that name, and one that none of them has is refused
    before anything changes."""
    cid = campaign_id(conn, campaign)
    if cid is None:
        raise StoreError(
            _("no campaign {campaign} (add a character with 'konflikt chars add' first)", campaign=repr(campaign))
        )
    everyone = characters(conn, campaign)
    options = _rest_options({character.ruleset for character in everyone}, dict(overrides or {}))
    changes: list[tuple[str, tuple[str, ...]]] = []
    for character in everyone:
        rules = get_ruleset(character.ruleset).campaign
        if rules is None:
            continue
        carried = rules.rest(character.document, character.pending, time, options[character.ruleset])
        if carried.document == character.document and list(carried.pending) == list(character.pending):
            changes.append((character.name, carried.lines))
            continue
        update(conn, character, carried, RESTED, f"rest: {time}")
        changes.append((character.name, carried.lines))
    minutes = time.minutes()
    if minutes is not None and minutes >= 24 * 60:
        conn.execute("UPDATE campaigns SET days = days + ? WHERE id = ?", (minutes // (24 * 60), cid))
    return changes


def _rest_options(rulesets: set[str], overrides: dict[str, str]) -> dict[str, Mapping[str, Any]]:
    """Each ruleset's options for a rest: its defaults, with the overrides it has a name for."""
    known: dict[str, set[str]] = {rid: {o.name for o in get_ruleset(rid).options} for rid in rulesets}
    for name in overrides:
        if not any(name in names for names in known.values()):
            names = ", ".join(sorted(set().union(*known.values()))) or _("none")
            raise OptionError(
                _(
                    "unknown rule option {name} for this campaign's rulesets (known: {known})",
                    name=repr(name),
                    known=names,
                )
            )
    return {
        rid: get_ruleset(rid).options.resolve({k: v for k, v in overrides.items() if k in known[rid]})
        for rid in rulesets
    }


def check_document(ruleset_id: str, document: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        ruleset = get_ruleset(ruleset_id)
    except KonfliktError as exc:
        raise StoreError(f"{where}: {exc}") from None
    return validated(ruleset, document, where)
