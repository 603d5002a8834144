"""Gard 0: "När gard tar slut så är försvaret helt vidöppet. Man är för trött, saknar balans och kan inte backa
längre."

By default the sentence describes what Gard stands for (the rule the text gives for Gard 0 is the open dice and the
thresholds): a fighter without Gard moves and is pushed back as any other. The option ``gard_out_cannot_back``
reads it as a rule: the defender without Gard is "på annat sätt orörlig" when the attacker gains ground, and it may
not declare Retirera or Lämna.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.errors import IllegalActionError
from konflikt.rulesets.levald.kernel import make_kernel
from konflikt.rulesets.levald.model import exact_model
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.sim.runner import seat_policies
from tests.conftest import Result
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of

OPTION = {"gard_out_cannot_back": True}


def _attack_hits_b(options: dict[str, object] | None = None, **b_fields: object):  # type: ignore[no-untyped-def]
    """a's sword against b's spear at Svärd: a attacks; its hit leaves b without Gard."""
    state = state_of(document(fighter("a"), fighter("b", "Spjut", **b_fields), "Svärd", options))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 10)  # effect 5 + 3T6 10 = 15 on b's Gard 12: Gard 0, 3 falls through (a Skråma)
    assert state.gard[1] == 0 and state.phase == "ground"
    return state


def test_by_default_a_defender_without_gard_is_pushed_back_as_any_other() -> None:
    state = _attack_hits_b()
    assert [int(a["step"]) for a in state.legal_actions("a")] == [0, 1]
    act(state, "ground", step=0)
    assert Action.of("retreat") in state.legal_actions("b") and Action.of("leave") in state.legal_actions("b")


def test_with_the_option_a_defender_without_gard_is_ororlig_when_the_attacker_gains_ground() -> None:
    state = _attack_hits_b(OPTION)
    assert [int(a["step"]) for a in state.legal_actions("a")] == [-1, 0]  # follow in, or stand
    assert "follows in" in state.describe_action("a", Action.of("ground", step=-1))
    act(state, "ground", step=-1)
    assert state.scale[state.dist[0]] == "Dolk"


def test_with_the_option_a_fighter_without_gard_may_not_retreat_or_leave() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut", gard_now=0), "Svärd", OPTION))
    assert [a.kind for a in state.legal_actions("b")] == ["advance", "hold"]
    assert [a.kind for a in state.legal_actions("a")] == ["advance", "hold", "retreat", "leave"]
    with pytest.raises(IllegalActionError, match="kan inte backa längre"):
        move(state, a="hold", b="retreat")


def test_the_heuristic_holds_where_it_would_retreat_without_gard() -> None:
    """b's spear is too close at Svärd: it would retreat; without Gard under the option it holds."""
    for options, wish in (({}, "retreat"), (OPTION, "hold")):
        state = state_of(document(fighter("a"), fighter("b", "Spjut", gard_now=0), "Svärd", options))
        chosen = HeuristicPolicy().choose(state, "b", np.random.default_rng(0))
        assert chosen.kind == wish


def test_the_kernel_and_the_exact_model_refuse_the_option() -> None:
    scenario = load_scenario("levald/duel")
    options = scenario.ruleset.options.resolve(scenario.options, OPTION)
    reason = make_kernel(scenario, options, seat_policies(scenario))
    assert isinstance(reason, str) and "gard_out_cannot_back" in reason
    state = new_state(scenario, OPTION)
    policies = {s: p for s, p in seat_policies(scenario).items() if p is not None}
    assert "gard_out_cannot_back" in str(exact_model(state, policies))


SCENARIO = """ruleset = "levald"
title = "gard out"

[setup]
distance = "Svärd"

[[sides]]
id = "left"
[[sides.participants]]
id = "a"
name = "A"
policy = "heuristic"
kraft = 12
"själ" = 16
stridsvana = 50
gard = 12
weapon = "Svärd"
skills = { Enhandsvapen = 60 }

[[sides]]
id = "right"
[[sides.participants]]
id = "b"
name = "B"
policy = "heuristic"
kraft = 12
"själ" = 16
stridsvana = 50
gard = 12
gard_now = 0
weapon = "Spjut"
skills = { "Stångvapen" = 60 }
"""


def test_run_shows_a_spear_without_gard_holding_instead_of_retreating(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    path = tmp_path / "gard_out.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    plain = cli("run", str(path), "--seed", "1")
    read = cli("run", str(path), "--seed", "1", "-o", "gard_out_cannot_back=true")
    assert plain.code == 0 and read.code == 0, plain.err + read.err
    first = [" ".join(r.out.split()).split("Rörelse (movement) revealed: ")[1][:40] for r in (plain, read)]
    assert first[0].startswith("A Bibehålla (hold), B Retirera (retreat)")
    assert first[1].startswith("A Bibehålla (hold), B Bibehålla (hold)")
