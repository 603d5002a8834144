"""What-if in one line: ``--set PATH=VALUE`` applied to a scenario document before it is validated.

A path names a value of the scenario document as the TOML file holds it:

- by participant id: ``hedda.kraft``, ``snurre.skills.Stångvapen`` (any field of the ruleset's character model, set
  over the character file as an inline field would be: a table inside it, such as ``skills``, is first copied from
  the character so that only the key named changes);
- by side id: ``heddas.goal``;
- by position: ``sides.0.participants.1.status`` (or ``sides[0].participants[1].status``, the sweep's form);
- ``options.NAME`` (a rule option), ``setup.…`` (the ruleset's set-up), ``title``, ``seed``, ``gm``.

Each segment is matched as written, else by a field's other spelling (``sjal`` is the ``själ`` the file holds), else
ignoring case and accents (``stangvapen``); a segment that names nothing is refused with the nearest path
("did you mean"). Values are read as TOML (``60``, ``1.5``, ``true``, ``"quoted"``, ``["a", "b"]``,
``{ a = 1 }``); a word that is no TOML value is a string (``Svärd``). The scenario model then validates the whole
document as it validates a file, and a value it refuses is one line naming the ``--set`` and its value.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import difflib
import re
import tomllib
import types
import typing
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from pydantic import AliasChoices, BaseModel, ValidationError

from konflikt.core.messages import N_, _
from konflikt.core.ruleset import Ruleset, get_ruleset
from konflikt.core.scenario import (
    CharacterSource,
    ParticipantSpec,
    Scenario,
    ScenarioSpec,
    SideSpec,
    _character_fields,
    scenario_from_document,
)
from konflikt.errors import KonfliktError, ScenarioError

MAX_SETTINGS = 200
"""The most ``--set`` one command takes (a what-if is a handful; a script's hundreds are a scenario file)."""
MAX_PATH = 500
"""The longest path read (characters)."""


@dataclass(frozen=True)
class Setting:
    """One ``PATH=VALUE`` as typed, its path's segments and its value read as TOML."""

    text: str
    path: str
    segments: tuple[str, ...]
    value: Any


def parse_value(raw: str) -> Any:
    """A TOML value (``60``, ``true``, ``"x"``, ``[1, 2]``, ``{ a = 1 }``); a bare word is a string (``Svärd``).

    Raises:
        KonfliktError: a list or table that is not TOML (``[a, b]``: its strings need quotes).
    """
    text = raw.strip()
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        if text[:1] in ("[", "{"):
            raise KonfliktError(
                _('{raw} is not a TOML list or table (strings inside one need quotes: ["a", "b"])', raw=repr(raw))
            ) from None
        return raw
    if isinstance(value, datetime.date | datetime.time):  # 2024-01-01 and 12:00 are words here, not dates
        return raw
    return value


_LINE_BREAK = re.compile("[\x00\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""What ends a line (``str.splitlines``), and NUL."""

_SEGMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|([^.\[\]"]+)|\[([^\]]*)\]')


def split_path(path: str) -> tuple[str, ...]:
    """``a.b[0]."c.d"`` → ``("a", "b", "0", "c.d")``: dots separate segments, ``[n]`` is a segment of its own, and a
    double-quoted segment may hold dots.

    Raises:
        KonfliktError: an empty segment, an unclosed quote or bracket.
    """
    if not path or len(path) > MAX_PATH:
        raise KonfliktError(
            _("path {path}: name a value (1–{most} characters), e.g. hedda.kraft", path=repr(path[:80]), most=MAX_PATH)
        )
    segments: list[str] = []
    at = 0
    expect_segment = True
    while at < len(path):
        if path[at] == "." and not expect_segment:
            at += 1
            expect_segment = True
            continue
        match = _SEGMENT.match(path, at)
        if match is None or (expect_segment is False and match.group(3) is None):
            raise KonfliktError(_("path {path}: cannot read it at {rest}", path=repr(path), rest=repr(path[at:])))
        quoted, bare, index = match.groups()
        if index is not None:
            if not index.strip():
                raise KonfliktError(_("path {path}: an empty [] (write [0], [1], …)", path=repr(path)))
            segments.append(index.strip())
        elif quoted is not None:
            segments.append(quoted.replace('\\"', '"').replace("\\\\", "\\"))
        else:
            segments.append(bare.strip())
        at = match.end()
        expect_segment = False
    if expect_segment or any(not s for s in segments):
        raise KonfliktError(_("path {path}: an empty segment (two dots, or a dot at an end)", path=repr(path)))
    return tuple(segments)


def parse_setting(text: str) -> Setting:
    """``PATH=VALUE`` → a :class:`Setting` (the value read as TOML).

    Raises:
        KonfliktError: no ``=``, an empty or unreadable path, a value that is no TOML list or table.
    """
    if _LINE_BREAK.search(text):
        # TOML reads "3\nstatus=60" as the value 3 and a second key it then dropped: status was never set
        raise KonfliktError(
            _(
                "--set {text}: one PATH=VALUE on one line, without line breaks or NUL (give --set once for each)",
                text=repr(text),
            )
        )
    path, sep, raw = text.partition("=")
    path = path.strip()
    if not sep or not path:
        raise KonfliktError(
            _("--set {text} is not of the form PATH=VALUE (e.g. --set hedda.kraft=14)", text=repr(text))
        )
    try:
        segments = split_path(path)
        value = parse_value(raw)
    except KonfliktError as exc:
        raise KonfliktError(_("--set {text}: {error}", text=repr(text), error=exc)) from None
    return Setting(text, path, segments, value)


def parse_settings(texts: Sequence[str] | None) -> list[Setting]:
    texts = list(texts or [])
    if len(texts) > MAX_SETTINGS:
        raise KonfliktError(_("at most {most} --set at a time, not {count}", most=MAX_SETTINGS, count=len(texts)))
    return [parse_setting(t) for t in texts]


# --- what each level of a document may hold -------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """What a value inside a scenario document is: a table with known fields (``fields``: name → shape, with the
    spellings that are one field in ``same``), a table with free keys (``each``: every value's shape), a list
    (``item``), or a single value (none of them)."""

    what: str
    fields: Mapping[str, Shape] | None = None
    same: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    each: Shape | None = None
    item: Shape | None = None
    extra: bool = False

    @property
    def table(self) -> bool:
        return self.fields is not None or self.each is not None


VALUE = Shape("a value")
ANYTHING = Shape("a value", each=None, extra=True)


_LETTERS: dict[int, str] = {ord(k): v for k, v in {"ø": "o", "ł": "l", "æ": "ae", "ß": "ss", "đ": "d"}.items()}


def _fold(word: str) -> str:
    """Lowercase, accents dropped (``Stångvapen`` → ``stangvapen``; ``ø`` → ``o``, ``ł`` → ``l``)."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.translate(_LETTERS)


def shape_of(annotation: Any, what: str) -> Shape:
    """The shape of a pydantic field's annotation: a model → its fields; ``dict`` → free keys; ``list`` → items;
    a union → its richest member (``str | Weapon``: the weapon's fields, where the document holds a table)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return shape_of(args[0], what)
    if origin in (Union, types.UnionType):
        shapes = [shape_of(a, what) for a in args if a is not type(None)]
        return next((s for s in shapes if s.fields is not None), None) or next(
            (s for s in shapes if s.table or s.item is not None), VALUE
        )
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_shape(annotation, what)
    if origin in (dict, Mapping) or annotation is dict:
        return Shape(what, each=shape_of(args[1], what) if len(args) == 2 else ANYTHING)
    if origin in (list, tuple, Sequence) or annotation in (list, tuple):
        item = args[0] if args and (origin is not tuple or (len(args) == 2 and args[1] is Ellipsis)) else Any
        return Shape(what, item=shape_of(item, what) if item is not Any else ANYTHING)
    return VALUE


def model_shape(model: type[BaseModel], what: str, extra: Mapping[str, Shape] | None = None) -> Shape:
    """A pydantic model's fields by every spelling it reads (name, alias, each validation alias)."""
    fields: dict[str, Shape] = {}
    same: dict[str, frozenset[str]] = {}
    for name, info in model.model_fields.items():
        spellings = {name}
        if info.alias:
            spellings.add(info.alias)
        alias = info.validation_alias
        if isinstance(alias, str):
            spellings.add(alias)
        elif isinstance(alias, AliasChoices):
            spellings.update(c for c in alias.choices if isinstance(c, str))
        shape = shape_of(info.annotation, f"{what}'s {name}")
        for spelling in spellings:
            fields[spelling] = shape
            same[spelling] = frozenset(spellings)
    fields.update(extra or {})
    allow = model.model_config.get("extra") == "allow"
    return Shape(what, fields=fields, same=same, extra=allow)


def participant_shape(ruleset: Ruleset | None) -> Shape:
    """A participant: the scenario's own fields (id, name, character, policy) and the ruleset's character fields."""
    base = model_shape(ParticipantSpec, "a participant")
    if ruleset is None:
        return dataclasses.replace(base, extra=True)
    own = model_shape(ruleset.character, f"a {ruleset.id} character")
    assert base.fields is not None and own.fields is not None
    return Shape(
        f"a {ruleset.id} participant",
        fields={**own.fields, **base.fields},
        same={**own.same, **base.same},
        extra=own.extra,
    )


def document_shape(ruleset: Ruleset | None) -> Shape:
    """The whole scenario document: its top-level fields, each side and participant, options and set-up."""
    participant = participant_shape(ruleset)
    side = model_shape(SideSpec, "a side", {"participants": Shape("participants", item=participant)})
    options = (
        Shape("the rule options", fields={o.name: VALUE for o in ruleset.options})
        if ruleset is not None
        else Shape("the rule options", each=VALUE)
    )
    setup = model_shape(ruleset.setup, f"{ruleset.id}'s setup") if ruleset is not None else ANYTHING
    return model_shape(
        ScenarioSpec, "the scenario", {"sides": Shape("sides", item=side), "options": options, "setup": setup}
    )


# --- applying settings ---------------------------------------------------------------------------------------


class _Remembered:
    """A character source asked once per participant: a campaign library hands each character out once, and the
    document is validated more than once here (the settings applied, then, on an error, one at a time)."""

    def __init__(self, source: CharacterSource) -> None:
        self.source = source
        self.answers: dict[tuple[str | None, str, str], Mapping[str, Any] | None] = {}

    def __call__(self, ref: str | None, pid: str, ruleset: Ruleset) -> Mapping[str, Any] | None:
        key = (ref, pid, ruleset.id)
        if key not in self.answers:
            self.answers[key] = self.source(ref, pid, ruleset)
        return self.answers[key]


def remembered(source: CharacterSource | None) -> CharacterSource | None:
    return source if source is None or isinstance(source, _Remembered) else _Remembered(source)


@dataclass
class _Where:
    document: dict[str, Any]
    source: str
    base: Path | None
    characters: CharacterSource | None
    ruleset: Ruleset | None


def _ids(document: Mapping[str, Any]) -> tuple[dict[str, list[str | int]], dict[str, list[str | int]]]:
    """Each participant's and each side's id → its position in the document (``sides[1].participants[0]``)."""
    participants: dict[str, list[str | int]] = {}
    sides: dict[str, list[str | int]] = {}
    for si, side in enumerate(document.get("sides") or []):
        if not isinstance(side, Mapping):
            continue
        if isinstance(side.get("id"), str):
            sides.setdefault(side["id"], ["sides", si])
        for pi, part in enumerate(side.get("participants") or []):
            if isinstance(part, Mapping) and isinstance(part.get("id"), str):
                participants.setdefault(part["id"], ["sides", si, "participants", pi])
    return participants, sides


def id_position(document: Mapping[str, Any], word: str) -> list[str | int] | None:
    """Where the participant or side with id ``word`` stands in the document (``["sides", 1, "participants", 0]``),
    or ``None`` (a sweep's axis path may begin with an id, as ``--set`` does)."""
    participants, sides = _ids(document)
    found = participants.get(word) or sides.get(word)
    return list(found) if found is not None else None


def participant_named(document: Mapping[str, Any], text: str) -> str | None:
    """The id of the participant a ``PATH=VALUE`` sets a field of (by id or by position), or ``None``."""
    segments = parse_setting(text).segments
    participants, _sides = _ids(document)
    by_fold = {_fold(pid): pid for pid in participants}
    if _fold(segments[0]) in by_fold and segments[0] not in document:
        return by_fold[_fold(segments[0])]
    if len(segments) > 4 and segments[0] == "sides" and segments[2] == "participants":
        sides = list(document.get("sides") or [])
        at = _index(sides, segments[1])
        side = sides[at] if at is not None else None
        members = list(side.get("participants") or []) if isinstance(side, Mapping) else []
        index = _index(members, segments[3])
        if index is not None and isinstance(members[index], Mapping):
            return str(members[index].get("id"))
    return None


def _shown(path: Sequence[str | int], ids: Mapping[tuple[str | int, ...], str]) -> str:
    """A position as the user writes it: by participant or side id where one starts it."""
    for size in (4, 2):
        head = tuple(path[:size])
        if len(path) >= size and head in ids:
            return ".".join([ids[head], *map(str, path[size:])])
    return ".".join(map(str, path))


def known_paths(document: Mapping[str, Any], ruleset: Ruleset | None) -> list[str]:
    """Every path a setting may name in this document: its values by id and position, and every field of the
    ruleset's character model for each participant, and of its set-up and options (the "did you mean" list)."""
    shape = document_shape(ruleset)
    participants, sides = _ids(document)
    ids = {tuple(v): k for k, v in (participants | sides).items()}
    out: list[str] = []

    def walk(value: Any, shape: Shape, path: list[str | int], depth: int) -> None:
        if depth > 6:
            return
        if isinstance(value, Mapping):
            names = list(value) + [k for k in (shape.fields or {}) if k not in value and _primary(shape, k)]
            for key in names:
                child = (shape.fields or {}).get(key) or shape.each or ANYTHING
                out.append(_shown([*path, key], ids))
                walk(value.get(key), child, [*path, key], depth + 1)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                out.append(_shown([*path, i], ids))
                walk(item, shape.item or ANYTHING, [*path, i], depth + 1)

    walk(document, shape, [], 0)
    return list(dict.fromkeys(p for p in out if p))


def _primary(shape: Shape, key: str) -> bool:
    """One spelling of each field in the lists shown (the field's own name where it has aliases)."""
    same = shape.same.get(key)
    return same is None or key == min(same, key=lambda s: (not s.isascii(), s))


def _nearest(word: str, known: Sequence[str]) -> str | None:
    by_fold: dict[str, str] = {}
    for k in known:
        by_fold.setdefault(_fold(k), k)
    close = difflib.get_close_matches(_fold(word), list(by_fold), n=1, cutoff=0.6)
    return by_fold[close[0]] if close else None


def _refuse(setting: Setting, where: str, doc: Mapping[str, Any], ruleset: Ruleset | None, keys: Sequence[str]) -> None:
    """No such path: the nearest at the level it failed (at the top, the nearest whole path: ``weapon`` →
    ``hedda.weapon``), else what that level holds."""
    segment = setting.segments[len(keys)] if len(keys) < len(setting.segments) else setting.path
    prefix = ".".join(keys)
    level = _level_names(doc, ruleset, keys)
    near = _nearest(segment, level)
    guess = (f"{prefix}.{near}" if prefix else near) if near else None
    if guess is None and not prefix:
        guess = _nearest(setting.path, known_paths(doc, ruleset))
    if guess is not None:
        hint = " " + _("(did you mean {guess}?)", guess=repr(guess))
    else:
        shown = ", ".join(level[:SHOWN]) + (", …" if len(level) > SHOWN else "")
        hint = " " + _("(it holds: {names})", names=shown) if level else ""
    raise KonfliktError(f"--set {setting.text}: {where}{hint}")


SHOWN = 12
"""A path that names nothing, and nothing near it: this many of the names that level holds are listed."""


def _level_names(doc: Mapping[str, Any], ruleset: Ruleset | None, keys: Sequence[str]) -> list[str]:
    """What may follow ``keys`` (as typed) in a path: the next segments the known paths have."""
    prefix = ".".join(keys)
    out = []
    for path in known_paths(doc, ruleset):
        if not prefix and "." not in path:
            out.append(path)
        elif path.startswith(prefix + ".") and "." not in path[len(prefix) + 1 :]:
            out.append(path[len(prefix) + 1 :])
    if not prefix:
        participants, sides = _ids(doc)
        out += [*participants, *sides]
    return list(dict.fromkeys(out))


def _match_key(table: Mapping[str, Any], shape: Shape, segment: str) -> str | None:
    """The key of ``table`` that ``segment`` names: as written; another spelling of the same field the table holds
    (``sjal`` → ``själ``); ignoring case and accents, among the table's keys and the shape's fields."""
    if segment in table:
        return segment
    for spelling in shape.same.get(segment, ()):
        if spelling in table:
            return spelling
    if shape.fields is not None and segment in shape.fields:
        return segment
    folded = _fold(segment)
    for key in [*table, *(shape.fields or {})]:
        if _fold(key) == folded:
            for spelling in shape.same.get(key, ()):
                if spelling in table:
                    return spelling
            return key
    return None


def _character_value(where: _Where, position: Sequence[str | int], key: str) -> tuple[str | None, Any]:
    """A field of a participant's character (file, bundled, library) that the scenario does not write inline: the
    spelling the character uses (``själ`` for ``sjal``) and its value; ``(None, None)`` where it has none."""
    part = where.document["sides"][position[1]]["participants"][position[3]]
    if where.ruleset is None or not part.get("character"):
        return None, None
    try:
        spec = ParticipantSpec.model_validate(part)
        fields = _character_fields(where.ruleset, spec, where.source, where.base, list(position), where.characters)
    except (ValidationError, KonfliktError):
        return None, None  # the document's own validation says what is wrong with it
    for spelling in sorted(model_shape(where.ruleset.character, "").same.get(key, frozenset({key}))):
        if spelling in fields:
            return spelling, copy.deepcopy(fields[spelling])
    return None, None


def _apply(where: _Where, setting: Setting) -> list[str | int]:
    """Set one value in ``where.document``; its position in the document (``["sides", 1, …]``)."""
    doc = where.document
    shape = document_shape(where.ruleset)
    participants, sides = _ids(doc)
    typed: list[str] = []  # the segments as typed, for "did you mean"
    position: list[str | int] = []
    node: Any = doc
    segments = list(setting.segments)
    first = segments[0]
    if first not in (shape.fields or {}) and _match_key(doc, shape, first) is None:
        by_fold = {_fold(k): k for k in [*participants, *sides]}
        pid = by_fold.get(_fold(first))
        if pid is None:
            why = _("no {name} in the scenario (neither a field nor a participant's or side's id)", name=repr(first))
            _refuse(setting, why, doc, where.ruleset, [])
        assert pid is not None
        position = list(participants.get(pid) or sides[pid])
        node = doc["sides"][position[1]]
        shape = (shape.fields or {})["sides"].item or ANYTHING
        if len(position) == 4:
            node = node["participants"][position[3]]
            shape = participant_shape(where.ruleset)
        typed.append(first)
        segments = segments[1:]
        if not segments:
            whole = (
                _("{name} is a whole participant; name one of its fields ({name}.name, …)", name=first)
                if len(position) == 4
                else _("{name} is a whole side; name one of its fields ({name}.name, …)", name=first)
            )
            raise KonfliktError(f"--set {setting.text}: {whole}")
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        here = ".".join(typed) or _("the scenario")
        if isinstance(node, list):
            index = _index(node, segment)
            if index is None:
                listed = (
                    _("{here} is a list of 1 entry; no [{segment}] in it", here=here, segment=segment)
                    if len(node) == 1
                    else _(
                        "{here} is a list of {count} entries; no [{segment}] in it",
                        here=here,
                        count=len(node),
                        segment=segment,
                    )
                )
                raise KonfliktError(f"--set {setting.text}: {listed}")
            position.append(index)
            typed.append(str(index))
            shape = shape.item or ANYTHING
            if last:
                node[index] = setting.value
                return position
            node = node[index]
            continue
        if not isinstance(node, dict):
            raise KonfliktError(
                f"--set {setting.text}: "
                + _("{here} is {value}, a single value: nothing inside it to set", here=here, value=repr(node))
            )
        key = _match_key(node, shape, segment)
        if key is None:
            if shape.each is not None or shape.extra:
                key = segment  # a table of free keys (skills, set-up wield): a new key is the model's to judge
            else:
                why = _("no {name} in {here} ({what})", name=repr(segment), here=here, what=_shape_words(shape.what))
                _refuse(setting, why, doc, where.ruleset, typed)
        assert key is not None
        child = (shape.fields or {}).get(key) or shape.each or ANYTHING
        inherited: Any = None
        if key not in node and len(position) == 4 and position[0] == "sides" and position[2] == "participants":
            spelling, inherited = _character_value(where, position, key)
            key = spelling or key  # the character's spelling of the field (själ), so the scenario's overrides it
        position.append(key)
        typed.append(key)
        if last:
            node[key] = setting.value
            return position
        if key not in node:
            if inherited is not None:
                node[key] = inherited  # a table of the character's, copied: only the key named changes
            elif child.item is not None:
                raise KonfliktError(
                    f"--set {setting.text}: " + _("{path} is no list here to index; set it whole", path=".".join(typed))
                )
            elif not child.table and not child.extra:
                raise KonfliktError(
                    f"--set {setting.text}: "
                    + _("{path} holds a single value, nothing inside it", path=".".join(typed))
                )
            else:
                node[key] = {}
        node = node[key]
        shape = child
    return position  # pragma: no cover - the loop returns at the last segment


SHAPE_WORDS = {
    "the scenario": N_("the scenario"),
    "a participant": N_("a participant"),
    "a side": N_("a side"),
    "the rule options": N_("the rule options"),
    "participants": N_("participants"),
    "sides": N_("sides"),
}
"""The fixed names of a document's levels, marked for the common catalog (a ruleset's own, ``a levald character``,
stay as the shapes write them)."""


_RULESET_SHAPE = re.compile(r"a ([a-z0-9_\-]+) (participant|character)|([a-z0-9_\-]+)'s setup")


def _shape_words(what: str) -> str:
    """A level's name (:attr:`Shape.what`) in the language in use: the fixed ones, and a ruleset's participant,
    character and set-up; a field's own name stays as the shape writes it."""
    if what in SHAPE_WORDS:
        return _(SHAPE_WORDS[what])
    found = _RULESET_SHAPE.fullmatch(what)
    if found is None:
        return what
    ruleset, kind, setup = found.groups()
    if setup is not None:
        return _("{ruleset}'s setup", ruleset=setup)
    if kind == "participant":
        return _("a {ruleset} participant", ruleset=ruleset)
    return _("a {ruleset} character", ruleset=ruleset)


def _index(items: list[Any], segment: str) -> int | None:
    """A list entry by position (``0``, ``-1``) or, in a list of tables with ids (sides, participants), by id."""
    if re.fullmatch(r"-?\d{1,9}", segment):
        index = int(segment)
        return index % len(items) if -len(items) <= index < len(items) else None
    for i, item in enumerate(items):
        if isinstance(item, Mapping) and isinstance(item.get("id"), str) and _fold(item["id"]) == _fold(segment):
            return i
    return None


def apply_settings(
    document: Mapping[str, Any],
    settings: Sequence[Setting],
    source: str,
    base: Path | None = None,
    characters: CharacterSource | None = None,
) -> dict[str, Any]:
    """A copy of the scenario ``document`` (as read from its file) with each setting applied, in order; the paths
    checked (one line with the nearest path where one names nothing), the values not yet (the model's, next)."""
    out = copy.deepcopy(dict(document))
    try:
        ruleset: Ruleset | None = get_ruleset(str(out.get("ruleset")))
    except KonfliktError:
        ruleset = None
    where = _Where(out, source, base, characters, ruleset)
    for setting in settings:
        _apply(where, setting)
    return out


def scenario_with_settings(
    document: Mapping[str, Any],
    settings: Sequence[Setting],
    source: str,
    base: Path | None = None,
    characters: CharacterSource | None = None,
) -> Scenario:
    """The scenario of ``document`` with ``settings`` applied, validated as a file is. A value the model refuses is
    one line naming the ``--set`` that brought it (found by applying them one at a time) and what is wrong."""
    characters = remembered(characters)
    changed = apply_settings(document, settings, source, base, characters)
    try:
        return scenario_from_document(changed, source, base=base, characters=characters)
    except ScenarioError as exc:
        failed = exc
    culprit = _culprit(document, settings, source, base, characters)
    reason = str(failed).removeprefix(f"{source}: ")
    if culprit is None:
        raise ScenarioError(
            _(
                "{source}: with {settings}: {reason}",
                source=source,
                settings=" ".join("--set " + s.text for s in settings),
                reason=reason,
            )
        ) from None
    raise ScenarioError(f"{source}: --set {culprit.text}: {reason}") from None


def _culprit(
    document: Mapping[str, Any],
    settings: Sequence[Setting],
    source: str,
    base: Path | None,
    characters: CharacterSource | None,
) -> Setting | None:
    """The first setting after which the document no longer validates (``None``: the scenario fails without any)."""
    for count in range(len(settings) + 1):
        try:
            scenario_from_document(
                apply_settings(document, settings[:count], source, base, characters), source, base, characters
            )
        except ScenarioError:
            return settings[count - 1] if count else None
    return settings[-1] if settings else None


# --- TOML out --------------------------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_\-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else _string(key)


def _string(text: str, multiline: bool = False) -> str:
    if (
        multiline
        and "\n" in text
        and '"""' not in text
        and "\\" not in text
        and not text.endswith('"')
        and all(c == "\n" or c.isprintable() for c in text)
    ):
        return '"""\n' + text + '"""'
    out = ['"']
    for c in text:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def dump_value(value: Any, multiline: bool = False) -> str:
    """One TOML value inline: a string, number, boolean, list or inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value, multiline)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(str(k))} = {dump_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(dump_value(v) for v in value) + "]"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    raise KonfliktError(_("{value}: not a value a TOML file can hold", value=repr(value)))


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def dump_toml(document: Mapping[str, Any]) -> str:
    """A scenario document as a TOML file: plain values first, then ``[tables]`` and ``[[lists of tables]]``
    (sides and their participants); tables inside a list's entry inline (``skills = { … }``)."""
    lines: list[str] = []

    def table(doc: Mapping[str, Any], prefix: str, inline_tables: bool) -> None:
        doc = {k: v for k, v in doc.items() if v is not None}  # TOML has no null: a value left unset
        for key, value in doc.items():
            if inline_tables or not (isinstance(value, Mapping) or _is_table_list(value)):
                lines.append(f"{_key(str(key))} = {dump_value(value, multiline=True)}")
        if inline_tables:
            return
        for key, value in doc.items():
            name = f"{prefix}{_key(str(key))}"
            if isinstance(value, Mapping):
                lines.extend(["", f"[{name}]"])
                table(value, name + ".", False)
        for key, value in doc.items():
            name = f"{prefix}{_key(str(key))}"
            if _is_table_list(value):
                for entry in value:
                    lines.extend(["", f"[[{name}]]"])
                    entry_lists = {k: v for k, v in entry.items() if _is_table_list(v)}
                    table({k: v for k, v in entry.items() if k not in entry_lists}, name + ".", True)
                    table(entry_lists, name + ".", False)

    table(document, "", False)
    return "\n".join(lines).lstrip("\n") + "\n"


__all__ = [
    "Setting",
    "apply_settings",
    "dump_toml",
    "id_position",
    "known_paths",
    "parse_setting",
    "parse_settings",
    "parse_value",
    "participant_named",
    "scenario_with_settings",
    "split_path",
]
