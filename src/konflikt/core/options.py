"""Named rule options: every gap in a source text, and every optional rule, is one of these.

An option has a name, a type, a default, a one-line doc and, where the text has them, the source's own words.
Scenario files set them under ``[options]``; the command line with ``--option name=value``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from konflikt.core.messages import _
from konflikt.core.thousands import grouped
from konflikt.errors import OptionError

#: No integer option goes beyond ± this, whatever its own bounds (10**18 pressure boxes is not a rule).
INT_LIMIT = 1_000_000
#: Text options (box lists, names) are short.
STR_LIMIT = 1_000
#: An integer on the command line has at most this many digits before it is even parsed.
DIGITS_LIMIT = 30

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One named rule option.

    Attributes:
        name: snake_case name used in files and on the command line.
        type: ``bool``, ``int``, ``float`` or ``str``.
        default: the value used when nobody sets it (the digest's default).
        doc: one line saying what it changes.
        source: the source text's own words behind it, when there are any.
        choices: the allowed values of a ``str`` option (``None``: free text).
        minimum: the smallest allowed value of an ``int`` option.
        maximum: the largest allowed value of an ``int`` option (without one, :data:`INT_LIMIT` still holds).
        check: a ruleset's own check of a typed value (a box list's length and sizes); raises
            :class:`OptionError` with the reason.
    """

    name: str
    type: type
    default: Any
    doc: str
    source: str | None = None
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)

    def bounds(self) -> tuple[int, int]:
        """The allowed range of an ``int`` option: its own bounds, inside the generic ±:data:`INT_LIMIT`."""
        low = -INT_LIMIT if self.minimum is None else self.minimum
        high = INT_LIMIT if self.maximum is None else self.maximum
        return low, high

    def range_text(self) -> str:
        """The range as ``konflikt rules`` shows it: ``1–6``, ``0–1000000`` (empty for non-int options)."""
        if self.type is not int:
            return ""
        low, high = self.bounds()
        return f"{low}–{high}"

    def coerce(self, value: Any) -> Any:
        """Check a value from a file or the command line (strings are parsed) and return it typed."""
        if isinstance(value, str) and self.type is not str:
            return self.coerce(self._parse(value))
        if self.type is bool:
            if not isinstance(value, bool):
                raise OptionError(
                    _("option {name} takes true or false, not {value}", name=repr(self.name), value=repr(value))
                )
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(
                    _("option {name} takes a whole number, not {value}", name=repr(self.name), value=repr(value))
                )
            low, high = self.bounds()
            if not low <= value <= high:
                shown = value if abs(value) < 10**12 else _("a number of {digits} digits", digits=len(str(abs(value))))
                if self.minimum is not None and value < self.minimum:
                    raise OptionError(
                        _(
                            "option {name} must be at least {minimum}, not {value}",
                            name=repr(self.name),
                            minimum=self.minimum,
                            value=shown,
                        )
                    )
                if self.maximum is not None and value > self.maximum:
                    raise OptionError(
                        _(
                            "option {name} must be at most {maximum}, not {value}",
                            name=repr(self.name),
                            maximum=self.maximum,
                            value=shown,
                        )
                    )
                raise OptionError(
                    _(
                        "option {name} must be from {low} to {high}, not {value}",
                        name=repr(self.name),
                        low=low,
                        high=high,
                        value=shown,
                    )
                )
        elif self.type is float:
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise OptionError(
                    _("option {name} takes a finite number, not {value}", name=repr(self.name), value=repr(value))
                )
            value = float(value)
        elif self.type is str:
            if not isinstance(value, str):
                raise OptionError(_("option {name} takes text, not {value}", name=repr(self.name), value=repr(value)))
            if len(value) > STR_LIMIT:
                raise OptionError(
                    _(
                        "option {name} takes at most {most} characters, not {length}",
                        name=repr(self.name),
                        most=STR_LIMIT,
                        length=grouped(len(value)),
                    )
                )
            if self.choices is not None and value not in self.choices:
                raise OptionError(
                    _(
                        "option {name} takes one of {choices}, not {value}",
                        name=repr(self.name),
                        choices=", ".join(self.choices),
                        value=repr(value),
                    )
                )
        if self.check is not None:
            self.check(value)
        return value

    def _parse(self, text: str) -> Any:
        raw = text.strip()
        if self.type is bool:
            if raw.lower() in _TRUE:
                return True
            if raw.lower() in _FALSE:
                return False
            raise OptionError(
                _("option {name} takes true or false, not {value}", name=repr(self.name), value=repr(text))
            )
        if self.type is int and not (raw.isascii() and len(raw.lstrip("+-")) <= DIGITS_LIMIT):
            raise OptionError(
                _("option {name} takes a whole number, not {value}", name=repr(self.name), value=_short(text))
            )
        try:
            return self.type(raw)
        except ValueError:
            if self.type is int:
                raise OptionError(
                    _("option {name} takes a whole number, not {value}", name=repr(self.name), value=_short(text))
                ) from None
            raise OptionError(
                _("option {name} takes a number, not {value}", name=repr(self.name), value=_short(text))
            ) from None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "doc": self.doc,
        }
        if self.source:
            data["source"] = self.source
        if self.choices:
            data["choices"] = list(self.choices)
        if self.type is int:
            data["minimum"], data["maximum"] = self.minimum, self.maximum
        return data


class Options(Mapping[str, Any]):
    """The resolved option values of one conflict; read as ``options.name`` or ``options["name"]``."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no rule option {name!r}") from None

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Options, (self._values,))


class OptionSet:
    """The declared options of one ruleset."""

    def __init__(self, *options: RuleOption, check: Callable[[Options], None] | None = None) -> None:
        """``check``: the ruleset's test of options together (``skrama_from ≤ sarad_from``), raising OptionError."""
        self.check = check
        names = [o.name for o in options]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate option names in {names}")
        for option in options:
            option.coerce(option.default)
        self._options = {o.name: o for o in options}

    def __iter__(self) -> Iterator[RuleOption]:
        return iter(self._options.values())

    def __contains__(self, name: object) -> bool:
        return name in self._options

    def __getitem__(self, name: str) -> RuleOption:
        return self._options[name]

    def defaults(self) -> Options:
        return Options({o.name: o.default for o in self})

    def resolve(self, *layers: Mapping[str, Any]) -> Options:
        """Defaults, then each layer of overrides in turn (scenario file, then command line)."""
        values = {o.name: o.default for o in self}
        for layer in layers:
            for name, value in layer.items():
                if name not in self._options:
                    known = ", ".join(sorted(self._options)) or _("none")
                    raise OptionError(_("unknown rule option {name} (known: {known})", name=repr(name), known=known))
                values[name] = self._options[name].coerce(value)
        options = Options(values)
        if self.check is not None:
            self.check(options)
        return options


def _short(text: str) -> str:
    return (
        repr(text)
        if len(text) <= 40
        else _("{start}… ({length} characters)", start=repr(text[:20]), length=grouped(len(text)))
    )


def parse_assignments(texts: list[str]) -> dict[str, str]:
    """Read ``name=value`` strings from the command line."""
    result: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise OptionError(_("option {text} is not of the form name=value", text=repr(text)))
        result[name.strip()] = value.strip()
    return result
