"""Which rule moves the balance: each rule option and each number of the participants varied, ranked by how much
one side's win chance moves (``konflikt sensitivity SCENARIO``).

Every variant is one ``--set PATH=VALUE`` (``options.morale=next_hit``, ``budolf.status=7``) on top of the
baseline's own, applied by the same machinery as every scenario command (:mod:`konflikt.core.overrides`), so a row
of the ranking is a command a designer can type again: ``konflikt odds SCENARIO --set …``. What is varied:

- each rule option: every other choice of a choice, the other value of a yes/no, one step either way of a number
  (inside its bounds); free text (a ladder, a track's boxes) cannot be stepped and is listed as not varied;
- each whole number a participant's document holds (characters inlined, as ``konflikt scenario show`` prints
  them), and each number of a table it holds (``skills.Stångvapen``): one step either way.

A variant the scenario model or the rule options refuse (a Status of 0, a bound crossed by a combination) is listed
with the reason, not ranked. Each variant is answered as ``konflikt odds SCENARIO`` answers it: exactly where the
ruleset solves the whole conflict (in floats within a stated bound, or Fractions), within a time budget per
variant; else both the variant and the baseline are played from the same seed (common random numbers) and the
change is the mean of the per-conflict differences, with its 95% interval.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.analysis.exact import DEFAULT_MAX_STATES, StateSpaceTooLarge, conflict_odds
from konflikt.core.batch import Z95, Batch
from konflikt.core.conflict import new_state
from konflikt.core.deadline import OutOfTime, deadline
from konflikt.core.messages import _
from konflikt.core.odds import Probability, json_number
from konflikt.core.overrides import dump_value, parse_value
from konflikt.core.scenario import Scenario
from konflikt.errors import KonfliktError, OptionError, ScenarioError
from konflikt.sim.engine import KERNEL_CHUNK, check_count, choose_engine, chunks
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies

KERNEL_CONFLICTS = 200_000
"""Conflicts per simulated variant on a kernel (as ``odds`` estimates): ±0.2 points (95%) on a share, less on a
change where the paired conflicts stay in step."""
REFERENCE_CONFLICTS = 2_000
"""Conflicts per simulated variant on the reference runner (hundreds a second): ±2.2 points on a share."""
EXACT_SECONDS = 10.0
"""The time an exact solve of one variant may take before that variant is simulated instead (an option the
compact model does not mirror sends the solver to the State API: Fimbulfrost's robbers with ``mishaps=always``
took 67 s there)."""
MAX_DEPTH = 2
"""A participant's numbers are read this deep: ``kraft``, ``skills.Stångvapen``."""

Load = Callable[[Sequence[str]], Scenario]
"""The scenario with these ``--set`` texts applied after the baseline's (the command line's ``scenario_named``)."""
Progress = Callable[[int, int, str], None]
"""Told (variants done, variants in all, the variant being answered) as the work goes."""


@dataclass(frozen=True)
class Variant:
    """One what-if: a path stepped from its baseline value to another, as ``--set`` text."""

    lever: str
    kind: str
    before: Any
    after: Any

    @property
    def setting(self) -> str:
        return f"{self.lever}={value_text(self.after)}"


def value_text(value: Any) -> str:
    """A value as a designer types it after ``--set PATH=``: a word as is, else TOML (``true``, ``7``, ``"1"``)."""
    if isinstance(value, str) and parse_value(value) == value and value == value.strip() and value:
        return value
    return dump_value(value)


def _segment(word: str) -> str:
    """A path segment, double-quoted where it holds what the path syntax reads (``.``, ``[``, ``]``, ``"``)."""
    if any(c in word for c in '.[]"\\') or word != word.strip():
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _steps(value: int | float) -> list[int | float]:
    """One step either way: a whole number ±1; a decimal ±10% of itself (±0.1 at 0)."""
    if isinstance(value, int):
        return [value - 1, value + 1]
    step = abs(value) * 0.1 or 0.1
    return [value - step, value + step]


def option_variants(scenario: Scenario) -> tuple[list[Variant], list[tuple[str, str]]]:
    """Each rule option's other values, from the value this scenario plays with; and the options not varied, why."""
    values = scenario.ruleset.options.resolve(scenario.options)
    variants: list[Variant] = []
    skipped: list[tuple[str, str]] = []
    for option in scenario.ruleset.options:
        value = values[option.name]
        lever = f"options.{option.name}"
        if option.type is bool:
            others: list[Any] = [not value]
        elif option.choices:
            others = [c for c in option.choices if c != value]
        elif option.type is int:
            low, high = option.bounds()
            others = [v for v in _steps(value) if low <= v <= high]
        elif option.type is float:
            others = _steps(value)
        else:
            skipped.append((lever, "free text: no step to take (compare the values you mean with konflikt compare)"))
            continue
        if not others:
            skipped.append((lever, "no other value inside its bounds"))
        variants += [Variant(lever, "option", value, other) for other in others]
    return variants, skipped


def participant_variants(scenario: Scenario) -> list[Variant]:
    """Each number each participant's document holds (characters inlined), one step either way."""
    variants: list[Variant] = []

    def walk(table: Mapping[str, Any], path: list[str], depth: int) -> None:
        for key, value in table.items():
            if not isinstance(key, str):
                continue
            if _number(value):
                lever = ".".join(_segment(p) for p in [*path, key])
                variants.extend(Variant(lever, "participant", value, other) for other in _steps(value))
            elif isinstance(value, Mapping) and depth < MAX_DEPTH:
                walk(value, [*path, key], depth + 1)

    for side in scenario.document.get("sides") or []:
        for part in side.get("participants") or []:
            if isinstance(part, Mapping) and isinstance(part.get("id"), str):
                walk({k: v for k, v in part.items() if k != "id"}, [part["id"]], 1)
    return variants


def all_variants(scenario: Scenario, only: Sequence[str] = ()) -> tuple[list[Variant], list[tuple[str, str]]]:
    """Every variant (rule options first, then the participants' numbers), kept to the levers that hold one of
    ``only`` (a word of the path, case ignored) where it is given."""
    options, skipped = option_variants(scenario)
    variants = options + participant_variants(scenario)
    if only:
        words = [w.lower() for w in only]
        variants = [v for v in variants if any(w in v.lever.lower() for w in words)]
        skipped = [s for s in skipped if any(w in s[0].lower() for w in words)]
        if not variants:
            raise KonfliktError(
                _("--only {only}: no rule option or participant's number matches", only=", ".join(only))
            )
    return variants, skipped


# --- answering one scenario ------------------------------------------------------------------------------------


@dataclass
class Answer:
    """One scenario's win chance for the side asked about: exact (a Fraction, or a float within ``bound``) or
    estimated (``wins``: a win per conflict played, in the seed's order)."""

    p: Probability
    method: str
    bound: float | None = None
    absolute: bool = False
    wins: np.ndarray | None = None
    engine: str | None = None
    why: str | None = None


def side_share(winners: Mapping[Any, Probability], side: str) -> Probability:
    """The chance ``side`` is among the winners (a win shared by several sides counts for each)."""
    total: Probability = Fraction(0)
    for who, p in winners.items():
        if isinstance(who, tuple) and side in who:
            total += p
    return total


def exact_answer(
    scenario: Scenario, policies: Mapping[str, str], side: str, max_states: int, exact: bool, seconds: float | None
) -> Answer:
    """The win chance as ``konflikt odds SCENARIO`` computes it (floats within a bound, or Fractions).

    Raises:
        StateSpaceTooLarge, OutOfTime: out of exact reach (more states than ``max_states``, or past ``seconds``).
    """
    from konflikt.analysis.compact import UNIT_ROUNDOFF
    from konflikt.analysis.questions import shown_bound

    seats = seat_policies(scenario, dict(policies))
    humans = sorted(s for s, p in seats.items() if p is None)
    if humans:
        raise KonfliktError(_("sensitivity needs a policy for every seat; human: {seats}", seats=", ".join(humans)))
    chosen = {s: p for s, p in seats.items() if p is not None}
    state = new_state(scenario, {})
    if seconds is None:
        odds = conflict_odds(state, chosen, max_states, exact=exact)
    else:
        with deadline(time.monotonic() + seconds):
            odds = conflict_odds(state, chosen, max_states, exact=exact)
    p = side_share(odds.winners(), side)
    if exact:
        return Answer(p, "exact")
    if odds.method == "model":
        return Answer(float(p), "exact", shown_bound(odds) + odds.absolute_bound, odds.absolute_bound > 0)
    return Answer(float(p), "exact", UNIT_ROUNDOFF)


def _won(batch: Batch, side: str) -> np.ndarray:
    wins = np.array([isinstance(label, tuple) and side in label for label in batch.winners.labels], dtype=bool)
    return wins[batch.winners.codes] if len(wins) else np.zeros(batch.n, dtype=bool)


def simulated_wins(
    scenario: Scenario, policies: Mapping[str, str], side: str, n: int | None, seed: int, engine: str = "auto"
) -> tuple[np.ndarray, str]:
    """Whether ``side`` won each of ``n`` conflicts played from ``seed``, and the engine that played them.

    A kernel plays the blocks ``konflikt sim`` plays (block ``i`` from ``SeedSequence(seed, spawn_key=(i,))``), so
    a share equals ``konflikt sim --seed`` at the same ``n``; the reference runner plays each conflict from a seed
    of its own (``spawn_key=(i,)``), so the baseline and a variant roll the same dice conflict by conflict until
    the rules make them roll differently (common random numbers at the finest grain).
    """
    used, kernel, _why = choose_engine(scenario, {}, dict(policies), engine)
    if n is None:
        n = KERNEL_CONFLICTS if kernel is not None else REFERENCE_CONFLICTS
    check_count(n)
    parts: list[np.ndarray] = []
    if kernel is not None:
        for index, count in chunks(n, KERNEL_CHUNK):
            parts.append(
                _won(kernel.run(count, np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))), side)
            )
    else:
        seats = seat_policies(scenario, dict(policies))
        for index in range(n):
            parts.append(
                _won(run_chunk(scenario, {}, seats, 1, np.random.SeedSequence(seed, spawn_key=(index,))), side)
            )
    return np.concatenate(parts), used


def paired_change(base: np.ndarray, other: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The mean of the per-conflict differences (``other − base``, the same seeds) and its 95% interval: the normal
    interval of a mean of n paired differences (narrower than the unpaired one where the pairs agree), widened to
    ±3/n at least (the rule of three: no pair that differs in n says only that fewer than 3 in n would)."""
    d = other.astype(np.int8) - base.astype(np.int8)
    n = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    half = max(Z95 * sd / math.sqrt(n), 3 / n)
    return mean, (max(-1.0, mean - half), min(1.0, mean + half))


# --- the whole ranking -----------------------------------------------------------------------------------------


@dataclass
class Row:
    """One variant's answer: its win chance, the change from the baseline and how it was had."""

    variant: Variant
    p: Probability
    change: Probability
    method: str
    interval: tuple[float, float] | None = None
    n: int | None = None
    engine: str | None = None
    why: str | None = None
    bound: float | None = None


def swing(rows: Sequence[Row]) -> Probability:
    """How far a lever moves the chance: the largest |change| of its variants."""
    changes: list[Probability] = [r.change if r.change >= 0 else -r.change for r in rows]
    return max(changes, key=float)


@dataclass
class Ranking:
    """A sensitivity run: the baseline, each variant's row, the levers ranked, what was refused or not varied."""

    title: str
    side: str
    side_name: str
    baseline: Answer
    rows: list[Row] = field(default_factory=list)
    refused: list[tuple[Variant, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def levers(self) -> list[tuple[str, list[Row]]]:
        """Each path varied with its rows, largest swing first (the largest |change| of its variants; a tie keeps
        the order the variants were made in: rule options, then participants)."""
        by_lever: dict[str, list[Row]] = {}
        for row in self.rows:
            by_lever.setdefault(row.variant.lever, []).append(row)
        return sorted(by_lever.items(), key=lambda kv: -float(swing(kv[1])))

    @property
    def exact(self) -> bool:
        return all(r.method == "exact" for r in self.rows) and self.baseline.method == "exact"

    def bound(self) -> float | None:
        """The largest error bound of the float answers (a change is within twice it), ``None`` for Fractions."""
        bounds = [b for b in [self.baseline.bound, *(r.bound for r in self.rows)] if b is not None]
        return max(bounds) if bounds else None

    def to_json(self) -> dict[str, Any]:
        def number(p: Probability) -> Any:
            return json_number(p)

        return {
            "title": self.title,
            "side": self.side,
            "side_name": self.side_name,
            "baseline": {
                "p": number(self.baseline.p),
                "method": self.baseline.method,
                **({"error_bound": self.baseline.bound} if self.baseline.bound is not None else {}),
                **({"why": self.baseline.why} if self.baseline.why else {}),
            },
            "variants": len(self.rows) + len(self.refused),
            "levers": [
                {
                    "lever": lever,
                    "swing": number(swing(rows)),
                    "rows": [self._row_json(r) for r in rows],
                }
                for lever, rows in self.levers()
            ],
            "refused": [{"set": v.setting, "why": why} for v, why in self.refused],
            "not_varied": [{"lever": lever, "why": why} for lever, why in self.skipped],
            "seconds": round(self.seconds, 3),
        }

    @staticmethod
    def _row_json(row: Row) -> dict[str, Any]:
        data: dict[str, Any] = {
            "set": row.variant.setting,
            "kind": row.variant.kind,
            "from": row.variant.before,
            "to": row.variant.after,
            "p": json_number(row.p),
            "change": json_number(row.change),
            "method": row.method,
        }
        if row.interval is not None:
            data["change_ci95"] = list(row.interval)
        if row.n is not None:
            data["n"], data["engine"] = row.n, row.engine
        if row.why:
            data["why"] = row.why
        return data


@dataclass
class Settings:
    """How a sensitivity run answers: the seats' policies, the side, exact or floats, the budgets, the seed."""

    policies: Mapping[str, str] = field(default_factory=dict)
    side: str | None = None
    max_states: int = DEFAULT_MAX_STATES
    exact: bool = False
    exact_seconds: float | None = EXACT_SECONDS
    n: int | None = None
    seed: int = 0


def side_of(scenario: Scenario, asked: str | None) -> str:
    """The side whose win chance is ranked: the one asked for (by id or name, case ignored), else the first."""
    if asked is None:
        return scenario.sides[0].id
    for side in scenario.sides:
        if asked.lower() in (side.id.lower(), side.name.lower()):
            return side.id
    from difflib import get_close_matches

    ids = [s.id for s in scenario.sides]
    near = get_close_matches(asked, ids, n=1)
    if near:
        raise KonfliktError(
            _(
                "--side {side}: no such side (did you mean {near}?) (sides: {sides})",
                side=repr(asked),
                near=repr(near[0]),
                sides=", ".join(ids),
            )
        )
    raise KonfliktError(_("--side {side}: no such side (sides: {sides})", side=repr(asked), sides=", ".join(ids)))


class Sensitivity:
    """Answers the baseline and its variants: exact where it can, else by paired simulation (kept per engine)."""

    def __init__(self, load: Load, settings: Settings) -> None:
        self.load = load
        self.settings = settings
        self.scenario = load([])
        self.side = side_of(self.scenario, settings.side)
        self._simulated: dict[str, tuple[np.ndarray, str]] = {}

    def baseline(self) -> Answer:
        s = self.settings
        try:
            return exact_answer(self.scenario, s.policies, self.side, s.max_states, s.exact, None)
        except StateSpaceTooLarge as exc:
            wins, engine = self._base_sim("auto")
            why = str(exc).split(";")[0]
            return Answer(float(wins.mean()), "estimated", wins=wins, engine=engine, why=why)

    def _base_sim(self, engine: str) -> tuple[np.ndarray, str]:
        if engine not in self._simulated:
            s = self.settings
            wins, used = simulated_wins(self.scenario, s.policies, self.side, s.n, s.seed, engine)
            self._simulated[engine] = self._simulated[used] = (wins, used)
        return self._simulated[engine]

    def answer(self, variant: Variant, base: Answer) -> Row:
        """One variant's row.

        Raises:
            ScenarioError, OptionError: the scenario model or the options refuse the variant.
        """
        s = self.settings
        scenario = self.load([variant.setting])
        new_state(scenario, {})  # the options' own checks (a combination refused) before any solving
        if base.method == "exact":
            try:
                found = exact_answer(scenario, s.policies, self.side, s.max_states, s.exact, s.exact_seconds)
                return Row(variant, found.p, found.p - base.p, "exact", bound=found.bound)
            except (StateSpaceTooLarge, OutOfTime) as exc:
                why: str | None = (
                    "solving took longer than its budget" if isinstance(exc, OutOfTime) else str(exc).split(";")[0]
                )
        else:
            why = base.why
        wins, engine = simulated_wins(scenario, s.policies, self.side, s.n, s.seed)
        base_wins, _engine = self._base_sim(engine)
        if len(base_wins) != len(wins):  # pragma: no cover - one n per engine
            raise KonfliktError(_("sensitivity: the baseline and a variant were played a different number of times"))
        change, interval = paired_change(base_wins, wins)
        return Row(variant, float(wins.mean()), change, "estimated", interval, len(wins), engine, why)

    def run(self, variants: Sequence[Variant], progress: Progress | None = None) -> Ranking:
        started = time.perf_counter()
        base = self.baseline()
        names = {side.id: side.name for side in self.scenario.sides}
        ranking = Ranking(self.scenario.title, self.side, names[self.side], base)
        for done, variant in enumerate(variants):
            if progress is not None:
                progress(done, len(variants), variant.setting)
            try:
                ranking.rows.append(self.answer(variant, base))
            except (ScenarioError, OptionError) as exc:
                ranking.refused.append((variant, _reason(exc, variant)))
            except OutOfTime:  # the whole run's --timeout: not this variant's to swallow
                raise
            except KonfliktError as exc:  # answered neither way (a conflict that can loop forever): said, not ranked
                ranking.refused.append((variant, f"not answered: {_reason(exc, variant)}"))
        if progress is not None:
            progress(len(variants), len(variants), "")
        ranking.seconds = time.perf_counter() - started
        return ranking


def _reason(exc: KonfliktError, variant: Variant) -> str:
    """The model's reason, without the file and ``--set`` the row already names."""
    text = " ".join(str(exc).split())
    marker = f"--set {variant.setting}: "
    return text.split(marker, 1)[1] if marker in text else text
