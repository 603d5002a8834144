"""Whole-conflict questions for the command line: exact odds from a scenario or from a saved conflict."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from konflikt.analysis.compact import UNIT_ROUNDOFF
from konflikt.analysis.exact import DEFAULT_MAX_STATES, ConflictOdds, conflict_odds
from konflikt.core.messages import _, ngettext
from konflikt.core.odds import OddsAnswer, Probability
from konflikt.core.ruleset import Policy, unit_words
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError


def _rows(
    dist: Mapping[Hashable, Probability], name: Mapping[Hashable, str] | None = None
) -> list[tuple[str, Probability]]:
    rows = [((name or {}).get(k, str(k)), p) for k, p in dist.items()]
    return sorted(rows, key=lambda kv: -kv[1])


def gamma(k: int) -> float:
    """γ_k = k·u / (1 − k·u): the relative error of a sum or product of k roundings of non-negative numbers."""
    ku = k * UNIT_ROUNDOFF
    return ku / (1 - ku)


def shown_bound(odds: ConflictOdds) -> float:
    """A relative bound for every number the answer shows when ``odds`` are floats: each probability of the
    distribution is within ``odds.error_bound``; a shown number sums at most one term per (label, length) pair
    (a marginal over the labels, the length over the labels, the mean length's products), and a sum of m
    non-negative terms each within b is within b + γ_m·(1 + b)."""
    terms = max(1, len(odds.distribution)) * max(1, len(odds.lengths or ())) + 1
    b = odds.error_bound
    return b + gamma(terms) * (1 + b)


def _float_rows(rows: Sequence[tuple[str, Probability]]) -> list[tuple[str, Probability]]:
    return [(k, float(p)) for k, p in rows]


BOX = "pole"
"""The kind of a mark that is a box of a track (presja's Tor Presji, ``rulesets/presja/model.py``): each
participant's boxes are a distribution of their own."""
WOUND = "sår"
"""The kind of a mark that is a wound box (Le våld's, ``rulesets/levald/model.py``: where the fate words do not
tell the boxes apart, each box's chance of being ticked at least once)."""


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
    exact: bool = True,
) -> OddsAnswer:
    """Exact odds of every outcome of the conflict from ``state``, under the seats' policies.

    The winner rows name every side and "nobody", each once, also at probability 0: a side that cannot win is a
    finding, and the rows sum to 1 over all of them (a win shared by several sides is a row of its own).

    With ``exact=False`` the solver computes in floats where it can (a compact model: the same answer within a
    relative bound, faster) and the answer's ``error_bound`` says how close every number shown is. The State-API
    solver has only Fractions: its answer is then those Fractions, each rounded to the nearest float (within
    2⁻⁵³), and a note says so.
    """
    humans = sorted(s for s, p in seats.items() if p is None)
    if humans:
        raise KonfliktError(
            ngettext(
                "exact odds need a policy for every seat, but {seats} is human: add --policy SEAT=heuristic",
                "exact odds need a policy for every seat, but {seats} are human: add --policy SEAT=heuristic",
                len(humans),
                seats=", ".join(humans),
            )
        )
    policies = {s: p for s, p in seats.items() if p is not None}
    odds = conflict_odds(state, policies, max_states, exact=exact)
    side_names = {side.id: side.name for side in scenario.sides}
    found = odds.winners()
    # every side is a row, and so is "nobody": a side that cannot win shows 0, so the rows sum to 1 over all of them
    every: dict[Hashable, Probability] = {(side.id,): Fraction(0) for side in scenario.sides}
    every[()] = Fraction(0)
    winners_dist = every | dict(found)
    winners: dict[Hashable, str] = {}
    for w in winners_dist:
        assert isinstance(w, tuple)
        winners[w] = " + ".join(str(side_names.get(s, s)) for s in w) if w else "nobody"
    # the keys stay as JSON has them (identifiers a reader of --json and the summary look up); ``words`` shows them
    words: dict[str, str] = {"nobody": _("nobody"), "ending": _("ending")}
    distributions: dict[str, list[tuple[str, Probability]]] = {"ending": _rows(odds.endings())}
    for p in scenario.participants():
        distributions[f"{p.name}: fate"] = _rows(odds.fates(p.id))
        words[f"{p.name}: fate"] = _("{name}: fate", name=p.name)
        if odds.marks is not None:
            named: dict[Hashable, Probability] = {
                m: q for m, q in odds.marks.items() if isinstance(m, tuple) and m and m[0] == p.id
            }
            boxes = {m: q for m, q in named.items() if m[1] == BOX}  # type: ignore[index]
            wounds = {m: q for m, q in named.items() if m[1] == WOUND}  # type: ignore[index]
            named = {m: q for m, q in named.items() if m not in boxes and m not in wounds}
            if named:
                key = f"{p.name}: consequences (each, by name)"
                distributions[key] = _rows(named, {m: _mark(m) for m in named})
                words[key] = _("{name}: consequences (each, by name)", name=p.name)
            if boxes:
                key = f"{p.name}: track boxes marked (each)"
                distributions[key] = _rows(boxes, {m: _mark(m) for m in boxes})
                words[key] = _("{name}: track boxes marked (each)", name=p.name)
            if wounds:
                names = {m: str(m[2]) for m in wounds}  # type: ignore[index]
                key = f"{p.name}: sår (wounds) of each kind, at least one"
                distributions[key] = _rows(wounds, names)
                words[key] = _("{name}: wounds of each kind, at least one", name=p.name)
    probabilities: dict[str, Probability] = {}
    if odds.lengths is not None:
        distributions[f"length ({odds.unit})"] = [(str(n), q) for n, q in odds.lengths.items()]
        words[f"length ({odds.unit})"] = _("length ({unit})", unit=unit_words(odds.unit))
    mean = odds.expected_length()  # a model may know the mean without the distribution (Le våld's block solve)
    if mean is not None:
        probabilities[f"expected length ({odds.unit})"] = mean
        words[f"expected length ({odds.unit})"] = _("expected length ({unit})", unit=unit_words(odds.unit))
    how = _("a compact model of the rules") if odds.method == "model" else _("the State API")
    seats_used = _("policies: {policies}", policies=", ".join(f"{s}={p.name}" for s, p in sorted(policies.items())))
    states = grouped(odds.states)
    outcomes = _rows(winners_dist, winners)
    if exact:
        return OddsAnswer(
            title or _("{title}: who wins (exact)", title=scenario.title),
            _("winner"),
            outcomes,
            distributions=distributions,
            probabilities=probabilities,
            notes=[
                _(
                    "exact fractions over {states} distinct states ({how}), {policies}",
                    states=states,
                    how=how,
                    policies=seats_used,
                )
            ],
            words=words,
        )
    absolute = odds.absolute_bound > 0
    if odds.method == "model":
        # a relative bound b on a probability p ≤ 1 is an absolute one of at most b: with an absolute part, both add
        bound = shown_bound(odds) + odds.absolute_bound
        note = _(
            "computed in floats over {states} distinct states ({how}), {policies}",
            states=states,
            how=how,
            policies=seats_used,
        )
    else:  # the State-API solver has no float path: its Fractions, rounded once each
        bound = UNIT_ROUNDOFF
        note = _(
            "solved in exact fractions over {states} distinct states ({how}, which has no float path), {policies}; "
            "each shown as the nearest float (within 2^-53 relative)",
            states=states,
            how=how,
            policies=seats_used,
        )
    return OddsAnswer(
        title or _("{title}: who wins", title=scenario.title),
        _("winner"),
        _float_rows(outcomes),
        distributions={name: _float_rows(rows) for name, rows in distributions.items()},
        probabilities={name: float(p) for name, p in probabilities.items()},
        notes=[note],
        error_bound=bound,
        absolute=absolute,
        words=words,
    )
