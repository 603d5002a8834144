"""Per-ruleset exact questions (``konflikt odds presja exchange --attack 3 --defense 5``) and their answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from konflikt.core.i18n import percent
from konflikt.core.messages import _
from konflikt.dice.distribution import fraction_text
from konflikt.errors import KonfliktError

Probability = Fraction | float
"""A probability as answered: a Fraction where it is exact, a float where it was computed in floats (the answer's
``error_bound`` then says how far from the exact value it may be)."""


def percent_text(p: Probability) -> str:
    """A chance as a percentage with two decimals, never rounded to a false certainty (``>99.99%``, ``<0.01%``):
    how the terminal's prompts, the browser's roll forms and the odds tables write a chance. Written the language's
    way (:func:`konflikt.core.i18n.percent`: ``12,50 %``, ``<0,01 %`` in Swedish, Danish and Polish)."""
    value = float(p) * 100
    if 0 < value < 0.005:
        return "<" + percent(0.01, 2)
    if 99.995 <= value < 100 and p != 1:
        return ">" + percent(99.99, 2)
    return percent(value, 2)


def json_number(p: Probability) -> str | float:
    """A probability for JSON: an exact Fraction as its ``"p/q"`` string, a float as a JSON number."""
    return fraction_text(p) if isinstance(p, Fraction) else float(p)


@dataclass(frozen=True)
class OddsParam:
    """One ``--name value`` parameter of a question."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    required: bool = False

    def coerce(self, raw: str) -> Any:
        if self.type is bool:
            if raw.lower() in ("true", "yes", "on", "1"):
                return True
            if raw.lower() in ("false", "no", "off", "0"):
                return False
            raise KonfliktError(_("--{name} takes true or false, not {value}", name=self.name, value=repr(raw)))
        if self.type is int:
            try:
                return int(raw)
            except ValueError:
                raise KonfliktError(
                    _("--{name} takes a whole number, not {value}", name=self.name, value=repr(raw))
                ) from None
        if self.choices is not None and raw not in self.choices:
            raise KonfliktError(
                _(
                    "--{name} takes one of {choices}, not {value}",
                    name=self.name,
                    choices=", ".join(self.choices),
                    value=repr(raw),
                )
            )
        return raw


@dataclass
class OddsAnswer:
    """An exact answer: a main distribution, optional further ones, and single probabilities.

    Attributes:
        title: what was asked, in words.
        label: what the main distribution's outcomes are ("pressure", "successes"...).
        outcomes: the main distribution as (outcome label, probability) rows, in display order.
        distributions: further named distributions.
        probabilities: named single probabilities ("attack wins").
        notes: lines of explanation.
        cumulative: the outcomes are numbers in increasing order, so "at least" and "at most" mean something.
        error_bound: ``None`` where every probability is an exact Fraction; else they are floats, each within this
            relative error of the exact value (whole conflicts computed in floats, ``konflikt odds SCENARIO``), or
            absolute error where ``absolute``.
        absolute: ``error_bound`` is absolute, on every probability shown (Le våld's block solve: the round cap's
            share is bounded as mass, not relative to each label's).
        played: an estimate's sample: the conflicts played, every probability the share of them that ended so
            (a count over ``played``, not an exact value); ``None`` for computed odds.
        words: the words people read for keys that stay identifiers in JSON (a distribution's name ``Budolf: fate``,
            a probability's name, a row's label ``nobody``), in the language in use; a key without an entry is shown
            as it is (:meth:`shown`).
    """

    title: str
    label: str
    outcomes: Sequence[tuple[str, Probability]]
    distributions: Mapping[str, Sequence[tuple[str, Probability]]] = field(default_factory=dict)
    probabilities: Mapping[str, Probability] = field(default_factory=dict)
    notes: Sequence[str] = ()
    cumulative: bool = False
    error_bound: float | None = None
    played: int | None = None
    absolute: bool = False
    words: Mapping[str, str] = field(default_factory=dict)

    def shown(self, key: str) -> str:
        """A key (a distribution's or probability's name, a row's label) in the words people read."""
        return self.words.get(key, key)

    @property
    def exact(self) -> bool:
        """Every probability is an exact Fraction (computed, not estimated)."""
        return self.error_bound is None and self.played is None

    def at_least(self) -> list[tuple[str, Probability]]:
        """P(outcome ≥ each row's outcome), in the rows' order."""
        left: Probability = sum((p for _, p in self.outcomes), Fraction(0))
        out = []
        for key, p in self.outcomes:
            out.append((key, left))
            left -= p
        return out

    def at_most(self) -> list[tuple[str, Probability]]:
        """P(outcome ≤ each row's outcome), in the rows' order."""
        seen: Probability = Fraction(0)
        out = []
        for key, p in self.outcomes:
            seen += p
            out.append((key, seen))
        return out

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "question": self.title,
            "label": self.label,
            "outcomes": {k: json_number(p) for k, p in self.outcomes},
        }
        if self.cumulative:
            data["at_least"] = {k: json_number(p) for k, p in self.at_least()}
            data["at_most"] = {k: json_number(p) for k, p in self.at_most()}
        if self.distributions:
            data["distributions"] = {
                name: {k: json_number(p) for k, p in rows} for name, rows in self.distributions.items()
            }
        if self.probabilities:
            data["probabilities"] = {k: json_number(p) for k, p in self.probabilities.items()}
        return data


@dataclass(frozen=True)
class OddsQuestion:
    """A named exact question a ruleset answers."""

    name: str
    doc: str
    params: tuple[OddsParam, ...]
    compute: Callable[..., OddsAnswer]

    def ask(self, raw: Mapping[str, str]) -> OddsAnswer:
        known = {p.name: p for p in self.params}
        for name in raw:
            if name not in known:
                raise KonfliktError(
                    _(
                        "unknown parameter --{name} for '{question}' (known: {known})",
                        name=name,
                        question=self.name,
                        known=", ".join(f"--{p}" for p in known),
                    )
                )
        values: dict[str, Any] = {}
        for p in self.params:
            if p.name in raw:
                values[p.name] = p.coerce(raw[p.name])
            elif p.required:
                raise KonfliktError(
                    _("'{question}' needs --{name} ({help})", question=self.name, name=p.name, help=p.help)
                )
            else:
                values[p.name] = p.default
        return self.compute(**values)
