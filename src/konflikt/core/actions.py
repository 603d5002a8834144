"""Actions a seat takes, chance outcomes, and the steps that make up a conflict's replayable record.

An :class:`Action` is a kind plus named arguments, hashable and JSON-friendly, so that the same value serves the
rules, the save file, the command line and exact analysis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from konflikt.core.messages import _
from konflikt.errors import InvalidActionError

Scalar: TypeAlias = str | int | bool | None
ArgValue: TypeAlias = Scalar | tuple[Any, ...]
ChanceOutcome: TypeAlias = int | tuple[int, ...]
"""What a chance node yields: a number, or a small tuple of numbers (see :mod:`konflikt.dice`)."""


def _freeze(value: Any) -> ArgValue:
    """Turn JSON lists back into tuples so that actions stay hashable."""
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if value is None or isinstance(value, str | int | bool):
        return value
    raise InvalidActionError(_("action argument {value} is not a string, number, boolean or list", value=repr(value)))


def _thaw(value: ArgValue) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One decision: ``kind`` (a word from the game) and sorted named arguments."""

    kind: str
    args: tuple[tuple[str, ArgValue], ...] = ()

    @classmethod
    def of(cls, kind: str, **args: Any) -> Action:
        """Build an action; arguments are sorted so equal decisions compare equal."""
        return cls(kind, tuple(sorted((k, _freeze(v)) for k, v in args.items())))

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        return self.kind + " " + " ".join(f"{k}={_show(v)}" for k, v in self.args)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: _thaw(v) for k, v in self.args}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise InvalidActionError(_("not an action: {data}", data=repr(data)))
        return cls.of(data["kind"], **{k: v for k, v in data.items() if k != "kind"})

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the ``str()`` form back: ``attack target=massimo tactic=offensive``."""
        words = text.split()
        if not words:
            raise InvalidActionError(_("empty action"))
        args: dict[str, Any] = {}
        for word in words[1:]:
            if "=" not in word:
                raise InvalidActionError(
                    _(
                        "action argument {word} in {text} is not of the form name=value",
                        word=repr(word),
                        text=repr(text),
                    )
                )
            key, raw = word.split("=", 1)
            args[key] = _parse_value(raw)
        return cls.of(words[0], **args)


def _show(value: ArgValue) -> str:
    if isinstance(value, tuple):
        if len(value) == 1:
            return _show(value[0]) + ","
        return ",".join(_show(v) for v in value) if value else "-"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _parse_value(raw: str) -> Any:
    if raw == "-":
        return ()
    if raw.endswith(",") and raw.count(",") == 1:
        return (_parse_value(raw[:-1]),)
    if "," in raw:
        return tuple(_parse_value(part) for part in raw.split(","))
    if raw == "none":
        return None
    if raw in ("yes", "no"):
        return raw == "yes"
    try:
        return int(raw)
    except ValueError:
        return raw


@dataclass(frozen=True, slots=True)
class Step:
    """One applied input: a seat's action, a chance outcome, or the joint actions of a simultaneous node.

    A chance step may also hold ``faces``, the dice as they fell (typed at the table die by die, or rolled face by
    face). They are narration only: the rules, :meth:`State.key` and exact analysis see the ``outcome`` alone (a
    4dF total, a pool's successes and 1s), and a step without faces (a typed total, an older record) replays the same.
    """

    node: str
    action: Action | None = None
    outcome: ChanceOutcome | None = None
    joint: tuple[tuple[str, Action], ...] = field(default=())
    faces: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"node": self.node}
        if self.action is not None:
            data["action"] = self.action.to_json()
        if self.outcome is not None:
            data["outcome"] = list(self.outcome) if isinstance(self.outcome, tuple) else self.outcome
        if self.joint:
            data["joint"] = {seat: action.to_json() for seat, action in self.joint}
        if self.faces is not None:
            data["faces"] = list(self.faces)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        try:
            outcome = data.get("outcome")
            return cls(
                node=str(data["node"]),
                action=Action.from_json(data["action"]) if "action" in data else None,
                outcome=tuple(outcome) if isinstance(outcome, list) else outcome,
                joint=tuple(sorted((s, Action.from_json(a)) for s, a in data.get("joint", {}).items())),
                faces=_faces(data.get("faces")),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidActionError(_("not a step: {data}", data=repr(data))) from exc


def _faces(value: Any) -> tuple[int, ...] | None:
    """A step's recorded faces: a list of whole numbers, or none."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(type(f) is int for f in value):
        raise InvalidActionError(_("faces {value} are not a list of whole numbers", value=repr(value)))
    return tuple(value)
