"""Whole-conflict questions for the command line: exact odds from a scenario or from a saved conflict."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction

from konflikt.analysis.exact import DEFAULT_MAX_STATES, conflict_odds
from konflikt.core.odds import OddsAnswer
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.errors import KonfliktError


def _rows(dist: Mapping[Hashable, Fraction], name: Mapping[Hashable, str] | None = None) -> list[tuple[str, Fraction]]:
    rows = [((name or {}).get(k, str(k)), p) for k, p in dist.items()]
    return sorted(rows, key=lambda kv: -kv[1])


BOX = "pole"
"""The kind of a mark that is a box of a track (presja's Tor Presji, ``rulesets/presja/model.py``): each
participant's boxes are a distribution of their own."""


def _mark(mark: Hashable) -> str:
    """A mark without its participant, as the fate words write it: ``moderate 'Skręcenie kostki'``."""
    assert isinstance(mark, tuple)
    if len(mark) == 3:
        return f"{mark[1]} '{mark[2]}'"
    return " ".join(str(x) for x in mark[1:])


def whole_conflict_answer(
    scenario: Scenario,
    state: State,
    seats: Mapping[str, Policy | None],
    max_states: int = DEFAULT_MAX_STATES,
    title: str | None = None,
) -> OddsAnswer:
    """Exact odds of every outcome of the conflict from ``state``, under the seats' policies.

    The winner rows name every side and "nobody", each once, also at probability 0: a side that cannot win is a
    finding, and the rows sum to 1 over all of them (a win shared by several sides is a row of its own).
    """
    humans = sorted(s for s, p in seats.items() if p is None)
    if humans:
        raise KonfliktError(
            f"exact odds need a policy for every seat, but {', '.join(humans)} "
            f"{'is' if len(humans) == 1 else 'are'} human: add --policy SEAT=heuristic"
        )
    policies = {s: p for s, p in seats.items() if p is not None}
    odds = conflict_odds(state, policies, max_states)
    side_names = {side.id: side.name for side in scenario.sides}
    found = odds.winners()
    # every side is a row, and so is "nobody": a side that cannot win shows 0, so the rows sum to 1 over all of them
    every: dict[Hashable, Fraction] = {(side.id,): Fraction(0) for side in scenario.sides} | {(): Fraction(0)}
    winners_dist = every | dict(found)
    winners: dict[Hashable, str] = {}
    for w in winners_dist:
        assert isinstance(w, tuple)
        winners[w] = " + ".join(str(side_names.get(s, s)) for s in w) if w else "nobody"
    distributions: dict[str, list[tuple[str, Fraction]]] = {"ending": _rows(odds.endings())}
    for p in scenario.participants():
        distributions[f"{p.name}: fate"] = _rows(odds.fates(p.id))
        if odds.marks is not None:
            named: dict[Hashable, Fraction] = {
                m: q for m, q in odds.marks.items() if isinstance(m, tuple) and m and m[0] == p.id
            }
            boxes = {m: q for m, q in named.items() if m[1] == BOX}  # type: ignore[index]
            named = {m: q for m, q in named.items() if m not in boxes}
            if named:
                distributions[f"{p.name}: consequences (each, by name)"] = _rows(named, {m: _mark(m) for m in named})
            if boxes:
                distributions[f"{p.name}: track boxes marked (each)"] = _rows(boxes, {m: _mark(m) for m in boxes})
    probabilities: dict[str, Fraction] = {}
    if odds.lengths is not None:
        distributions[f"length ({odds.unit})"] = [(str(n), q) for n, q in odds.lengths.items()]
        mean = odds.expected_length()
        if mean is not None:
            probabilities[f"expected length ({odds.unit})"] = mean
    how = "a compact model of the rules" if odds.method == "model" else "the State API"
    return OddsAnswer(
        title or f"{scenario.title}: who wins (exact)",
        "winner",
        _rows(winners_dist, winners),
        distributions=distributions,
        probabilities=probabilities,
        notes=[
            f"exact over {odds.states:,} distinct states ({how}), policies: "
            + ", ".join(f"{s}={p.name}" for s, p in sorted(policies.items()))
        ],
    )
