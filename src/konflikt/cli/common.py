"""Helpers shared by the commands that load scenarios and options."""

from __future__ import annotations

import secrets

from konflikt.core.errors import KonfliktError
from konflikt.core.options import parse_assignments
from konflikt.core.scenario import Scenario


class Stopped(KeyboardInterrupt):
    """Ctrl-C with what to say instead of the bare "stopped" (``play`` says how to resume)."""


def overrides_for(scenario: Scenario, option: list[str] | None) -> dict[str, str]:
    """``--option name=value`` pairs, checked against the scenario's ruleset now (so errors come before play)."""
    overrides = parse_assignments(option or [])
    scenario.ruleset.options.resolve(scenario.options, overrides)
    return overrides


def seat_overrides(scenario: Scenario, policy: list[str] | None) -> dict[str, str]:
    """``--policy seat=name`` pairs (``gm`` names the game master's seat)."""
    from konflikt.core.state import GM

    result: dict[str, str] = {}
    seats = {p.id for p in scenario.participants()}
    for text in policy or []:
        seat, sep, name = text.partition("=")
        if not sep:
            raise KonfliktError(f"--policy {text!r} is not of the form seat=policy")
        seat = GM if seat in ("gm", GM) else seat
        if seat not in seats and seat != GM:
            raise KonfliktError(f"--policy {text!r}: no seat {seat!r} (seats: {', '.join(sorted(seats))}, gm)")
        if name != "human":
            scenario.ruleset.policy(name)
        result[seat] = name
    return result


def choose_seed(seed: int | None, scenario: Scenario) -> int:
    if seed is not None:
        if not 0 <= seed < 2**63:
            raise KonfliktError(f"seed {seed} must be a whole number from 0 to 2**63 - 1")
        return seed
    if scenario.seed is not None:
        return scenario.seed
    return secrets.randbelow(2**31)
