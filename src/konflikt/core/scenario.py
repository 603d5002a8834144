"""Scenario files: TOML, validated with pydantic, errors that name the file, the field path and the value.

A scenario names its ruleset, sets rule options, lists the sides with their participants (inline, or a character
file: a path relative to the scenario, ``builtin:NAME`` for the ruleset's bundled characters, or ``lib:NAME`` for a
campaign's character library), gives each seat a policy, and carries a ruleset-specific ``[setup]`` table.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, ValidationInfo

from konflikt.core.i18n import BILINGUAL, LocalText, checked_text, current, localized
from konflikt.core.messages import N_, _, ngettext
from konflikt.core.ruleset import Ruleset, get_ruleset
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.safe_text import control_character

ID_PATTERN = r"^[a-z0-9][a-z0-9_\-]*$"

#: A seed: a whole number from 0 to 2**63 - 1 (numpy's ``SeedSequence`` refuses negatives; text is not a number).
Seed = Annotated[int, Field(strict=True, ge=0, lt=2**63)]


def _not_a_boolean(value: Any) -> Any:
    # pydantic reads true as 1 and false as 0 for an int: `omdomme = true` was Omdømme 1, `Karisma = true` 1
    if isinstance(value, bool):
        raise ValueError(_("a number is wanted, not true or false"))
    return value


Number = Annotated[int, BeforeValidator(_not_a_boolean)]
"""A whole number of a model (``omdomme``, ``kraft``, a skill's %): ``true`` and ``false`` are refused, not read as
1 and 0. Every ``int`` of the rulesets' models is one (``tests/reliability/test_models_48.py``)."""


def _one_line_name(value: str) -> str:
    text = value.strip()
    if not text:
        raise ValueError(_("a name is wanted, not empty text"))
    bad = control_character(text)
    if bad is not None:
        raise ValueError(_("a name is one line of text without control characters, and this one holds {bad}", bad=bad))
    return text


Name = Annotated[str, AfterValidator(_one_line_name)]
"""A name people read (a character's, a participant's, a side's): spaces around it dropped, then one line with no
control character (``"Budolf\\n"`` and ``"Bu\\x00dolf"`` were twins of ``"Budolf"`` that printed the same, and
``\\x1b…`` drives the terminal that prints it)."""


def _one_line_names(value: str | dict[str, str]) -> str | dict[str, str]:
    if isinstance(value, dict):
        return {language: _one_line_name(text) for language, text in value.items()}
    return _one_line_name(value)


LocalName = Annotated[str | dict[str, str], BeforeValidator(checked_text), AfterValidator(_one_line_names)]
"""A side's name: one ``Name``, or a table of languages of them (``{both = "Heltene (the heroes)", da = "Heltene",
sv = "Hjältarna"}``), as a side is often named by what it is rather than by a proper name."""


def within_scenario(info: ValidationInfo) -> bool:
    """Whether a character is being validated as part of a scenario, whose ``Setup.check_scenario`` then checks
    it against the scenario's own content (a file of consequence lists laid over the bundled ones); a character on
    its own (a library entry, ``chars add``, ``chars edit``) is checked against the bundled content instead."""
    return isinstance(info.context, Mapping) and bool(info.context.get(WITHIN_SCENARIO))


WITHIN_SCENARIO = "within_scenario"
"""The validation context's key that :func:`within_scenario` reads."""

#: The largest scenario or character file read (the bundled ones are a few kB).
MAX_FILE_BYTES = 1024 * 1024
#: How deeply tables and lists may nest in a scenario or conflict file (the bundled ones use 4).
MAX_DEPTH = 32
LIBRARY_PREFIX = "lib:"

CharacterSource = Callable[[str | None, str, Ruleset], Mapping[str, Any] | None]
"""A campaign's character library as scenario loading sees it: ``(character reference, participant id, ruleset)``
→ the character document to use, or ``None`` for the scenario's own. It must answer a ``lib:NAME`` reference (or
raise); the command line passes one in, so core never opens the store."""

_SOURCE: ContextVar[CharacterSource | None] = ContextVar("character_source", default=None)


@contextmanager
def characters_from(source: CharacterSource) -> Iterator[None]:
    """Scenario files loaded inside this block (``load_scenario``) take their characters from ``source`` too."""
    token = _SOURCE.set(source)
    try:
        yield
    finally:
        _SOURCE.reset(token)


class ParticipantSpec(BaseModel):
    """One participant: ids, seat policy, and any ruleset fields (merged over its character file)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=ID_PATTERN)
    name: Name | None = None
    character: str | None = Field(default=None, min_length=1)
    policy: str | None = Field(default=None, min_length=1)


class SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN)
    name: LocalName | None = None
    goal: LocalText | None = None
    participants: list[ParticipantSpec] = Field(min_length=1)


class ScenarioSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: str
    title: LocalText
    description: LocalText = ""
    seed: Seed | None = None
    gm: str | None = Field(default=None, min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)
    sides: list[SideSpec] = Field(min_length=2)
    setup: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Participant:
    """A participant as the rules see it: ids, name, side, seat policy and validated ruleset data."""

    id: str
    name: str
    side: str
    policy: str
    data: Any


@dataclass(frozen=True)
class Side:
    """A side as loaded: ``name`` in the language it was loaded in; ``names`` as the file gives it (one string or a
    table of languages), for a text said later in another language (``display_name``)."""

    id: str
    name: str
    goal: str | None
    participants: tuple[Participant, ...]
    names: str | Mapping[str, str] | None = None

    @property
    def display_name(self) -> str:
        """The side's name in the language in use."""
        return localized(self.names) if self.names else self.name


@dataclass(frozen=True)
class Scenario:
    """A loaded, validated scenario.

    Attributes:
        document: the scenario with every character file inlined: what a saved conflict stores, so that it
            replays on another machine without the files.
    """

    ruleset: Ruleset
    title: str
    description: str
    seed: int | None
    gm: str
    options: Mapping[str, Any]
    sides: tuple[Side, ...]
    setup: Any
    source: str
    document: Mapping[str, Any]

    def participants(self) -> list[Participant]:
        return [p for side in self.sides for p in side.participants]

    def participant(self, pid: str) -> Participant:
        for p in self.participants():
            if p.id == pid:
                return p
        raise KeyError(pid)


def format_loc(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or _("(top level)")


def validation_message(source: str, exc: ValidationError, prefix: Sequence[str | int] = ()) -> str:
    """One line for the first problem: file, field path, value, and what is wrong."""
    err = exc.errors()[0]
    loc = format_loc([*prefix, *err["loc"]])
    value = err.get("input")
    if isinstance(value, bool):
        shown = f" = {str(value).lower()}"  # as the file and --set spell it
    else:
        shown = "" if isinstance(value, dict) else f" = {value!r}"
    more = len(exc.errors()) - 1
    message = str(err["msg"])
    message = message[:1].lower() + message[1:]  # "Input should be…" → "input should be…"; quoted values as written
    if current() not in ("en", BILINGUAL):
        message = pydantic_message(err) or message
    text = f"{source}: {loc}{shown}: {message}"
    if not more:
        return text
    return ngettext("{text} (and {n} more problem)", "{text} (and {n} more problems)", more, text=text)


_PYDANTIC = {
    "missing": N_("field required"),
    "extra_forbidden": N_("extra inputs are not permitted"),
    "greater_than_equal": N_("input should be greater than or equal to {ge}"),
    "greater_than": N_("input should be greater than {gt}"),
    "less_than_equal": N_("input should be less than or equal to {le}"),
    "less_than": N_("input should be less than {lt}"),
    "int_type": N_("input should be a valid integer"),
    "int_parsing": N_("input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("input should be a valid number"),
    "float_parsing": N_("input should be a valid number, unable to parse string as a number"),
    "bool_type": N_("input should be a valid boolean"),
    "bool_parsing": N_("input should be a valid boolean, unable to interpret input"),
    "string_type": N_("input should be a valid string"),
    "string_too_short": N_("the text should be at least {min_length} characters long"),
    "string_too_long": N_("the text should be at most {max_length} characters long"),
    "too_short": N_("the number of items should be at least {min_length}, not {actual_length}"),
    "too_long": N_("the number of items should be at most {max_length}, not {actual_length}"),
    "string_pattern_mismatch": N_("string should match pattern '{pattern}'"),
    "literal_error": N_("input should be {expected}"),
    "enum": N_("input should be {expected}"),
    "list_type": N_("input should be a valid list"),
    "dict_type": N_("input should be a valid dictionary"),
    "model_type": N_("input should be a table"),
    "model_attributes_type": N_("input should be a table"),
}
"""pydantic's problems konflikt's files meet, in the words of the common catalog (English keeps pydantic's own)."""


def pydantic_message(err: Any) -> str | None:
    """A pydantic problem in the language in use, or ``None`` for one :data:`_PYDANTIC` does not know."""
    kind = err.get("type")
    ctx = err.get("ctx") or {}
    if kind == "value_error" and "error" in ctx:
        return _("value error, {reason}", reason=str(ctx["error"]))
    if kind not in _PYDANTIC:
        return None
    fields = {k: v for k, v in ctx.items() if isinstance(v, str | int | float)}
    if isinstance(fields.get("expected"), str):  # "'p', 'q' or 'r'": the last "or" is pydantic's English
        fields["expected"] = str(fields["expected"]).replace("' or '", "' " + _("or") + " '")
    try:
        return _(_PYDANTIC[kind], **fields)
    except (KeyError, IndexError):
        return None


def check_depth(value: Any, source: str, limit: int = MAX_DEPTH) -> None:
    """Refuse documents nested deeper than ``limit`` before recursive code (pydantic, copies) meets them."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping | list | tuple):
            if depth >= limit:
                raise ScenarioError(
                    _("{source}: tables or lists nested more than {limit} deep", source=source, limit=limit)
                )
            children = item.values() if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in children)


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES, what: str | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes: no devices, pipes or folders, nothing unbounded.

    Raises:
        ScenarioError: missing, not a regular file, unreadable, or too large (one line naming the file).
    """
    what = what or _("a TOML file")
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer (fstat then refuses it)
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            mode = os.fstat(fh.fileno()).st_mode
            data = fh.read(limit + 1) if stat.S_ISREG(mode) else b""
    except FileNotFoundError:
        raise ScenarioError(_("{path}: no such file", path=path)) from None
    except IsADirectoryError:
        raise ScenarioError(_("{path}: a folder, not {what}", path=path, what=what)) from None
    except (OSError, ValueError) as exc:
        raise ScenarioError(
            _("{path}: cannot be read ({reason})", path=path, reason=getattr(exc, "strerror", None) or exc)
        ) from None
    if not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise ScenarioError(_("{path}: a folder, not {what}", path=path, what=what))
        raise ScenarioError(
            _("{path}: not a regular file (a device, pipe or socket), not {what}", path=path, what=what)
        )
    if len(data) > limit:
        raise ScenarioError(
            _("{path}: larger than {limit} bytes, too large for {what}", path=path, limit=grouped(limit), what=what)
        )
    return data


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file that is a regular file of at most :data:`MAX_FILE_BYTES` (no devices, pipes or folders)."""
    data = read_regular_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(_("{path}: not a UTF-8 text file", path=path)) from None
    return parse_toml(text, str(path))


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as a document, every way it can fail one line naming ``source`` (a file, or an upload)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if current() not in ("en", BILINGUAL):  # tomllib's words are English; the place it names is not
            raise ScenarioError(toml_problem(source, str(exc))) from None
        raise ScenarioError(_("{source}: not valid TOML: {error}", source=source, error=exc)) from None
    except RecursionError:
        raise ScenarioError(_("{source}: nested too deeply to be a scenario", source=source)) from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise ScenarioError(_("{source}: a value konflikt cannot read ({error})", source=source, error=exc)) from None
    check_depth(doc, source)
    return doc


def toml_problem(source: str, error: str) -> str:
    """A TOML file's problem in the language in use: where it is, without tomllib's English words."""
    where = re.search(r"at line (\d+), column (\d+)", error)
    if where is not None:
        return _(
            "{source}: not valid TOML at line {line}, column {column}",
            source=source,
            line=where.group(1),
            column=where.group(2),
        )
    if "end of document" in error:
        return _("{source}: not valid TOML: the file ends in the middle of a value", source=source)
    return _("{source}: not valid TOML", source=source)


def bundled_examples() -> Path:
    return Path(str(resources.files("konflikt") / "examples"))


def find_scenario(name: str) -> Path:
    """A path as given, or a bundled example as ``RULESET/NAME`` (``presja/knife_fight``)."""
    if "\x00" in name or len(name) > 4096:
        raise ScenarioError(_("{name}: not a file name", name=repr(name[:80])))
    path = Path(name)
    try:
        if path.exists() or path.is_symlink():
            return path
        bundled = bundled_examples() / (name if name.endswith(".toml") else name + ".toml")
        if bundled.exists():
            return bundled
    except OSError as exc:
        raise ScenarioError(_("{path}: cannot be read ({reason})", path=name, reason=exc.strerror or exc)) from None
    raise ScenarioError(
        _("{name}: no such file, and no bundled example of that name (see 'konflikt examples')", name=name)
    )


def load_scenario(
    name: str | Path, characters: CharacterSource | None = None, settings: Sequence[str] = ()
) -> Scenario:
    """A scenario file (or bundled ``RULESET/NAME``), validated; ``settings``: ``PATH=VALUE`` what-ifs applied to
    its document first (``hedda.kraft=14``, ``options.max_rounds=30``: :mod:`konflikt.core.overrides`)."""
    path = find_scenario(str(name))
    source = characters if characters is not None else _SOURCE.get()
    if settings:
        from konflikt.core.overrides import parse_settings, scenario_with_settings

        parsed = parse_settings(settings)
        return scenario_with_settings(read_toml(path), parsed, str(path), base=path.parent, characters=source)
    return scenario_from_document(read_toml(path), str(path), base=path.parent, characters=source)


def scenario_from_document(
    doc: Mapping[str, Any], source: str, base: Path | None = None, characters: CharacterSource | None = None
) -> Scenario:
    """Validate a scenario document (a parsed TOML file, or the inlined copy stored with a saved conflict)."""
    check_depth(doc, source)
    try:
        spec = ScenarioSpec.model_validate(doc)
    except ValidationError as exc:
        raise ScenarioError(validation_message(source, exc)) from None
    try:
        ruleset = get_ruleset(spec.ruleset)
    except KonfliktError as exc:
        raise ScenarioError(
            _("{source}: ruleset = {ruleset}: {error}", source=source, ruleset=repr(spec.ruleset), error=exc)
        ) from None
    try:
        ruleset.options.resolve(spec.options)
    except KonfliktError as exc:
        raise ScenarioError(_("{source}: options: {error}", source=source, error=exc)) from None

    default_policy = "heuristic" if "heuristic" in ruleset.policies else "random"
    seen: set[str] = set()
    sides: list[Side] = []
    inlined_sides: list[dict[str, Any]] = []
    for si, side in enumerate(spec.sides):
        if side.id in seen:
            raise ScenarioError(
                _(
                    "{source}: {field} = {value}: this id is used twice",
                    source=source,
                    field=format_loc(["sides", si, "id"]),
                    value=repr(side.id),
                )
            )
        seen.add(side.id)
        members: list[Participant] = []
        inlined_members: list[dict[str, Any]] = []
        for pi, part in enumerate(side.participants):
            where: list[str | int] = ["sides", si, "participants", pi]
            if part.id in seen:
                raise ScenarioError(
                    _(
                        "{source}: {field} = {value}: this id is used twice",
                        source=source,
                        field=format_loc([*where, "id"]),
                        value=repr(part.id),
                    )
                )
            seen.add(part.id)
            fields = _character_fields(ruleset, part, source, base, where, characters)
            try:
                data = ruleset.character.model_validate(fields, context={WITHIN_SCENARIO: True})
            except ValidationError as exc:
                raise ScenarioError(validation_message(source, exc, where)) from None
            policy = part.policy or default_policy
            if policy != "human":
                try:
                    ruleset.policy(policy)
                except KonfliktError as exc:
                    raise ScenarioError(f"{source}: {format_loc([*where, 'policy'])} = {policy!r}: {exc}") from None
            name = part.name or fields.get("name") or part.id
            members.append(Participant(part.id, str(name), side.id, policy, data))
            inlined_members.append({"id": part.id, "name": str(name), "policy": policy, **_plain(fields)})
        goal = localized(side.goal) if side.goal is not None else None
        shown = localized(side.name) if side.name else side.id
        sides.append(Side(side.id, shown, goal, tuple(members), names=side.name))
        inlined_sides.append(
            {k: v for k, v in {"id": side.id, "name": side.name, "goal": side.goal}.items() if v is not None}
            | {"participants": inlined_members}
        )
    gm = spec.gm or default_policy
    if gm != "human":
        try:
            ruleset.policy(gm)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: gm = {gm!r}: {exc}") from None
    try:
        setup = ruleset.setup.model_validate(spec.setup)
    except ValidationError as exc:
        raise ScenarioError(validation_message(source, exc, ["setup"])) from None

    document = {
        "ruleset": spec.ruleset,
        "title": spec.title,
        "description": spec.description,
        **({"seed": spec.seed} if spec.seed is not None else {}),
        "gm": gm,
        "options": dict(spec.options),
        "sides": inlined_sides,
        "setup": dict(spec.setup),
    }
    scenario = Scenario(
        ruleset,
        localized(spec.title),
        localized(spec.description),
        spec.seed,
        gm,
        dict(spec.options),
        tuple(sides),
        setup,
        source,
        document,
    )
    check = getattr(ruleset.setup, "check_scenario", None)
    if check is not None:
        try:
            check(setup, scenario)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: setup: {exc}") from None
    return scenario


def _character_fields(
    ruleset: Ruleset,
    part: ParticipantSpec,
    source: str,
    base: Path | None,
    where: list[str | int],
    characters: CharacterSource | None = None,
) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    library = None
    if characters is not None:
        try:
            library = characters(part.character, part.id, ruleset)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: {format_loc([*where, 'character'])} = {part.character!r}: {exc}") from None
    if library is not None:
        fields.update(library)
    elif part.character and part.character.startswith(LIBRARY_PREFIX):
        raise ScenarioError(
            _(
                "{source}: {field} = {value}: a character library reference, read only by 'konflikt run' and "
                "'konflikt play' (from a campaign)",
                source=source,
                field=format_loc([*where, "character"]),
                value=repr(part.character),
            )
        )
    elif part.character:
        path = _character_path(ruleset, part.character, base) if "\x00" not in part.character else None
        if path is None or not _exists(path):
            why = _("no such file")
            if part.character.startswith("builtin:"):
                why = not_bundled(ruleset, part.character.removeprefix("builtin:"))
            raise ScenarioError(f"{source}: {format_loc([*where, 'character'])} = {part.character!r}: {why}")
        fields.update(read_toml(path))
    fields.update(part.model_extra or {})
    if part.name:
        fields["name"] = part.name
    fields.setdefault("name", part.id)
    return fields


def not_bundled(ruleset: Ruleset, name: str) -> str:
    """Why ``builtin:NAME`` names nothing: the ruleset's bundled characters listed, so a character of another
    ruleset or a typo is put right from the line itself (no path inside konflikt's installation)."""
    folder = ruleset.content_dir / "characters" if ruleset.content_dir is not None else None
    bundled = ", ".join(sorted(p.stem for p in folder.glob("*.toml"))) if folder is not None else ""
    return _(
        "no bundled {ruleset} character {name} (bundled: {bundled})",
        ruleset=ruleset.id,
        name=repr(name),
        bundled=bundled or _("none"),
    )


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def bundled_character(ruleset: Ruleset, name: str) -> Path:
    """The file of the ruleset's bundled character ``name`` (``builtin:NAME``), or one line listing the bundled
    ones (``chars add builtin:NAME`` reads it; a scenario's ``character`` goes through :func:`_character_fields`)."""
    path = _character_path(ruleset, f"builtin:{name}", None)
    if path is None or not _exists(path):
        raise ScenarioError(f"builtin:{name}: {not_bundled(ruleset, name)}")
    return path


def _character_path(ruleset: Ruleset, ref: str, base: Path | None) -> Path | None:
    if ref.startswith("builtin:"):
        if ruleset.content_dir is None:
            return None
        name = ref.removeprefix("builtin:")
        return ruleset.content_dir / "characters" / (name if name.endswith(".toml") else name + ".toml")
    path = Path(ref)
    return path if path.is_absolute() or base is None else base / path


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
