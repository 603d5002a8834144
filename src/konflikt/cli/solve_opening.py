"""``konflikt solve SCENARIO --at-opening``: the first decision's choices ranked, best first, without playing to it.

The same answer ``advise`` gives at the table's first prompt, from the same places (:mod:`konflikt.cli.table`'s
``optimal_rows``): where the ruleset has a round game, the solved game kept on disk (:mod:`.optimal_cache`) or
the worker that solves it beside us (:mod:`konflikt.analysis.background_solve`), waited for up to ``--wait``
seconds; a ruleset without one is searched from the opening within the time given. Until the solved game is at
hand the choices are ranked by the chance each gives if both sides then play like the built-in heuristic (exact
or ≈ estimated, :func:`konflikt.analysis.from_here.choice_odds`), saying so; the worker is left to finish, so the
next ``solve --at-opening`` of the same conflict answers from the cache at once.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import typer
from rich.text import Text

from konflikt.cli.i18n import _
from konflikt.core.i18n import number as number_text
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text

MAX_LEAD = 12
"""Decisions the solved game leaves to the heuristic (presja's invocations for the order of action) played through
at most, to reach the first one it optimises."""
HEURISTIC_SECONDS = 2.0
"""Time shared out among the choices for the heuristic's chances (exact for the bundled duels well within it)."""
SEARCH_SECONDS = 5.0
"""A ruleset without a round game: expectimax from the opening within this (``--seconds`` sets it)."""


@dataclass
class Ranked:
    """The first decision's choices, best first: each choice's number in the menu, words and its side's chance."""

    scenario: Scenario
    seat: str
    method: str
    rows: list[tuple[int, str, float]] = field(default_factory=list)
    why: str = ""
    estimated: bool = False
    before: list[tuple[str, str]] = field(default_factory=list)
    """The decisions before it that the solved game leaves to the heuristic: (seat, the heuristic's choice)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.source,
            "seat": self.seat,
            "method": self.method,
            **({"why_not_optimal": self.why} if self.why else {}),
            "estimated": self.estimated,
            "before": [{"seat": seat, "choice": words} for seat, words in self.before],
            "choices": [{"number": n, "choice": words, "p": p} for n, words, p in self.rows],
        }


def first_decision(state: State) -> str:
    """The seat deciding at the opening (a secret choice: the first seat still to choose).

    Raises:
        KonfliktError: the conflict opens with a roll (its decisions depend on the dice), or is over.
    """
    node = state.current_player()
    if node == CHANCE:
        raise KonfliktError(
            _(
                "the conflict opens with a roll ({roll}): its first decision depends on the dice; ask 'advise' at "
                "that prompt of 'konflikt play'",
                roll=state.roll_purpose(),
            )
        )
    if node == TERMINAL:
        raise KonfliktError(_("the conflict is over before any decision"))
    if node == SIMULTANEOUS:
        return sorted(state.waiting_for())[0]
    return node


def ranked_at_opening(
    scenario: Scenario, overrides: Mapping[str, Any], wait: float, seconds: float | None
) -> tuple[Ranked, str]:
    """The opening's choices ranked, and a line on how (optimal from the solved game, or the heuristic's)."""
    from konflikt.analysis.advice import optimal_from_here
    from konflikt.analysis.background_solve import prepared
    from konflikt.analysis.optimal_solve import advice
    from konflikt.cli.prompts import choice_text
    from konflikt.core.conflict import new_state
    from konflikt.core.names import scenario_names

    state = new_state(scenario, overrides)
    state.quiet = True
    seat = first_decision(state)
    names = scenario_names(scenario)
    legal = list(state.legal_actions(seat))

    def number(action: Any) -> int:
        return legal.index(action) + 1 if action in legal else 0

    background = prepared(scenario, overrides)
    if background is None:
        rows, why = optimal_from_here(scenario, state, seat, seconds or SEARCH_SECONDS)
        how = _("searched from the opening (no round game to solve once)")
    else:
        background.wait(wait)
        if background.ready():
            before: list[tuple[str, str]] = []
            rows, why = advice(scenario, state, seat)
            while rows is None and "played by the heuristic" in why and len(before) < MAX_LEAD:
                step = _heuristic_step(scenario, state, seat, names)
                if step is None:
                    break
                before.append(step)
                if state.current_player() in (CHANCE, TERMINAL):
                    why = _("a roll comes before the first decision the solved game optimises")
                    break
                seat = first_decision(state)
                rows, why = advice(scenario, state, seat)
            how = background.progress()
            if rows is not None:
                legal = list(state.legal_actions(seat))
                found = [(number(a), choice_text(state, seat, a, names), p) for a, p in rows]
                return Ranked(scenario, seat, "optimal", found, before=before), how
            state = new_state(scenario, overrides)  # the heuristic's ranking at the opening itself
            state.quiet = True
            seat = first_decision(state)
        else:
            rows, why = None, background.progress()
            how = ""
    if rows is not None:
        ranked = Ranked(
            scenario, seat, "optimal", [(number(a), choice_text(state, seat, a, names), p) for a, p in rows]
        )
        return ranked, how
    return _heuristic(scenario, state, seat, names, why), why


def _heuristic_step(scenario: Scenario, state: State, seat: str, names: Mapping[str, str]) -> tuple[str, str] | None:
    """Play ``seat``'s decision as its policy would (in place): the seat and the choice in words; ``None`` where the
    next step is no single seat's decision (a roll: what follows depends on the dice)."""
    import numpy as np

    from konflikt.cli.prompts import choice_text
    from konflikt.sim.runner import seat_policies

    if state.current_player() != seat:
        return None
    policy = seat_policies(scenario, {}).get(seat)
    if policy is None:
        return None
    action = policy.choose(state, seat, np.random.default_rng(0))
    words = choice_text(state, seat, action, names)
    state.apply_action(action)
    return names.get(seat, seat), words


def _heuristic(scenario: Scenario, state: State, seat: str, names: Mapping[str, str], why: str) -> Ranked:
    """Each choice's chance if both sides then play like the built-in heuristic, best first."""
    from konflikt.analysis.from_here import choice_odds
    from konflikt.cli.prompts import choice_text
    from konflikt.sim.runner import seat_policies

    seats = seat_policies(scenario, {})
    policies = {s: p for s, p in seats.items() if p is not None}
    side = next(s.name for s in scenario.sides if any(p.id == seat for p in s.participants))
    legal = list(state.legal_actions(seat))
    rows = []
    estimated = False
    for action, answer in choice_odds(scenario, state, seat, policies, HEURISTIC_SECONDS):
        mine = next((c.p for c in answer.chances if c.label.startswith(side)), 0.0)
        estimated = estimated or not answer.exact
        rows.append((legal.index(action) + 1, choice_text(state, seat, action, names), mine))
    rows.sort(key=lambda row: -row[2])
    return Ranked(scenario, seat, "heuristic", rows, why, estimated)


def print_ranked(ranked: Ranked, how: str, as_json: bool) -> None:
    from konflikt.cli.render import percent, plain_console

    if as_json:
        typer.echo(json_text({**ranked.to_json(), "how": how}, indent=1))
        return
    console = plain_console()
    name = next((str(p.name) for p in ranked.scenario.participants() if p.id == ranked.seat), ranked.seat)
    if ranked.method == "optimal":
        head = _("{name}'s first decision, best first: the win chance if both sides play optimally after it", name=name)
    else:
        kind = _("≈ estimated") if ranked.estimated else _("exact")
        head = _(
            "{name}'s first decision, best first: the win chance if both sides play like the built-in heuristic "
            "after it ({kind}; optimal play: {why})",
            name=name,
            kind=kind,
            why=ranked.why,
        )
    console.print(Text(f"{ranked.scenario.title}: {head}", style="bold"))
    for who, words in ranked.before:
        console.print(
            Text(
                "  "
                + _(
                    "(before it, played by the heuristic as in the solved game: {name}: {choice})",
                    name=who,
                    choice=words,
                )
            )
        )
    for rank, (number, words, p) in enumerate(ranked.rows, 1):
        console.print(
            Text(f"  {rank:>2}. {percent(p)} — " + _("{choice} (choice {number})", choice=words, number=number))
        )
    if how and ranked.method == "optimal":
        console.print(Text(how), style="dim")
    elif ranked.method == "heuristic" and "being solved" in ranked.why:
        console.print(
            Text(
                _(
                    "the worker goes on solving in the background and keeps the game on disk: ask again (or --wait "
                    "longer) for the optimal ranking"
                )
            ),
            style="dim",
        )


def at_opening(
    scenario: Scenario, overrides: Mapping[str, Any], wait: float, seconds: float | None, as_json: bool
) -> None:
    """``solve --at-opening``: rank the first decision's choices and print them (see the module)."""
    from konflikt.cli.common import working

    started = time.monotonic()
    waiting = f"{wait:g}"
    with working(_("ranking the first decision (waiting up to {seconds} s for the solved game)", seconds=waiting)):
        ranked, how = ranked_at_opening(scenario, overrides, wait, seconds)
    if ranked.method == "optimal" and how.startswith("optimal play solved"):
        how = _("{how}; answered in {seconds} s", how=how, seconds=number_text(time.monotonic() - started, 1))
    print_ranked(ranked, how, as_json)
