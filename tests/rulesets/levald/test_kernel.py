"""The compiled duel kernel against the State: decision by decision exactly, and outcome frequencies statistically.

The exact tests put one duel of the kernel's loop and a ``LevaldState`` in the same situation and ask both what the
heuristic does (movement, attack or regain, defend or counter, gain ground). The statistical tests play the same
duel with the kernel (many) and the reference runner (fewer) and require every winner, ending and frequent fate
frequency, the mean length and every resource mean to agree within 4 standard errors (two-sample, pooled under
the hypothesis that both engines play the same game). The replay tests are exact: the kernel records every die
each duel drew, and the State, given those dice as table dice, plays the same duel to the same labels and numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np
import pytest

from konflikt.core.batch import Tally
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.dice import SumDice
from konflikt.rulesets.levald import duel_loop as L
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.duel_rounds import fate_label, quality
from konflikt.rulesets.levald.kernel import DuelKernel, dice_table, make_kernel
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.rulesets.levald.scenarios import duel_document
from konflikt.rulesets.levald.state import LevaldState
from konflikt.sim.engine import simulate
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies
from tests.rulesets.kernel_replay import assert_kernel_replays
from tests.rulesets.levald.helpers import document, fighter, state_of

H = HeuristicPolicy()
RNG = np.random.default_rng(0)
Z = 4.0


def kernel_for(scenario: Scenario, overrides: Mapping[str, Any] | None = None, **policies: str) -> DuelKernel:
    options = scenario.ruleset.options.resolve(scenario.options, dict(overrides or {}))
    made = make_kernel(scenario, options, seat_policies(scenario, policies))
    assert isinstance(made, DuelKernel), made
    return made


def reason_for(scenario: Scenario, overrides: Mapping[str, Any] | None = None, **policies: str) -> str:
    options = scenario.ruleset.options.resolve(scenario.options, dict(overrides or {}))
    made = make_kernel(scenario, options, seat_policies(scenario, policies))
    assert isinstance(made, str)
    return made


def duel(a: str, b: str, **kwargs: Any) -> Scenario:
    return scenario_from_document(duel_document(a, b, **kwargs), f"duel:{a}-{b}")


BITS = np.random.default_rng(0).bit_generator
"""The loop's dice (the heuristic's choices draw none)."""


# ---- the same situation, the same decision ------------------------------------------------------------------------
def situations(state: LevaldState) -> list[tuple[int, int, int, int, int, int]]:
    """(distance position, holder, daze a, daze b, Gard a, Gard b) over a grid that crosses every threshold."""
    dazes = (0, 5, 6, 16, 26, 31, 46, 71)
    full = state.fighters[0].gard_max
    gards = (0, 3, full // 2, full)
    return [
        (pos, holder, da, db, ga, gb)
        for pos, holder, (da, db), (ga, gb) in product(
            range(len(state.scale)), (-1, 0, 1), product(dazes, dazes), product(gards, gards)
        )
        if (ga, gb) == (gards[1], gards[3]) or (da, db) in ((0, 0), (16, 0), (31, 6))
    ]


def situated(base: LevaldState, pos: int, holder: int, daze: tuple[int, int], gard: tuple[int, int]) -> LevaldState:
    state = base.fork()
    assert isinstance(state, LevaldState)
    state.dist[0], state.holder[0] = pos, holder
    state.daze, state.gard = list(daze), list(gard)
    return state


@pytest.mark.parametrize(("a", "b"), [("Svärd", "Sköld"), ("Spjut", "Trästav"), ("Kortsvärd", "Långsvärd")])
def test_movement_wishes_are_the_heuristics(a: str, b: str) -> None:
    scenario = duel(a, b)
    base = new_state(scenario)
    assert isinstance(base, LevaldState)
    grid = situations(base)
    kernel = kernel_for(scenario)
    _, f, scale, _ = kernel.arrays[:4]
    for pos, holder, da, db, ga, gb in grid:
        pen = (L.daze_penalty(da), L.daze_penalty(db))
        state = situated(base, pos, holder, (da, db), (ga, gb))
        for me, seat in enumerate(("a", "b")):
            action = H.choose(state, seat, RNG)
            mine, theirs = f[L.LENGTH, me], f[L.LENGTH, 1 - me]
            got = L.wish(BITS, True, True, me, holder, scale[pos], mine, theirs, pen[me], pen[1 - me])
            assert (R.WISH[action.kind], action.kind == "leave") == got, (seat, pos, holder, da, db, ga, gb)


@pytest.mark.parametrize(("a", "b"), [("Svärd", "Sköld"), ("Spjut", "Trästav")])
def test_attack_regain_and_counter_choices_are_the_heuristics(a: str, b: str) -> None:
    scenario = duel(a, b, skill=45)
    base = new_state(scenario)
    assert isinstance(base, LevaldState)
    grid = [g for g in situations(base) if g[0] == 0 and g[1] == -1]  # at Kropp everyone may counter
    kernel = kernel_for(scenario)
    _, f = kernel.arrays[:2]
    table = kernel.arrays[-1]
    for att in (0, 1):
        dfn = 1 - att
        for pos, holder, da, db, ga, gb in grid:
            daze, gard = (da, db), (ga, gb)
            target = f[L.ATTACK, att] + L.daze_penalty(daze[att])
            state = situated(base, pos, holder, daze, gard)
            state.att, state.dfn, state.phase = att, dfn, "attacker"
            regain = L.regain_wish(gard[att], f[L.GARD_MAX, att], target)
            assert (H.choose(state, ("a", "b")[att], RNG).kind == "regain") == regain, (att, da, db, ga, gb)
            state.phase = "defender"
            levels = (L.level(daze[dfn], f[L.LEVEL_CAP, dfn]), L.level(daze[att], f[L.LEVEL_CAP, att]))
            pays = table[dfn, levels[0], levels[1], int(gard[att] > 0), int(gard[dfn] > 0)]
            counter = L.soaks(gard[dfn], f[L.GARD_MAX, dfn]) and pays
            assert (H.choose(state, ("a", "b")[1 - att], RNG).kind == "counter") == counter, (att, da, db, ga, gb)


@pytest.mark.parametrize("cornered", [[], ["a"], ["b"]])
@pytest.mark.parametrize(("a", "b"), [("Spjut", "Kortsvärd"), ("Sköld", "Långsvärd"), ("Trästav", "Spjut")])
def test_gain_ground_is_the_heuristics(a: str, b: str, cornered: list[str]) -> None:
    doc = document(fighter("a", a), fighter("b", b), "Svärd", cornered=cornered)
    scenario = scenario_from_document(doc, "test.toml")
    base = state_of(doc)
    kernel = kernel_for(scenario)
    _, f, scale, _ = kernel.arrays[:4]
    last = len(base.scale) - 1
    for att in (0, 1):
        for pos in range(len(base.scale)):
            ground = L.followed(pos, f[L.CORNERED, 1 - att] != 0, last)
            follows = L.gain_ground(BITS, True, scale[pos], scale[ground], f[L.LENGTH, att], f[L.LENGTH, 1 - att])
            state = situated(base, pos, att, (0, 0), (12, 12))
            state.att, state.dfn, state.phase = att, 1 - att, "ground"
            step = int(H.choose(state, ("a", "b")[att], RNG)["step"])
            assert (ground if follows else pos) == R.move(pos, step, last), (att, pos)


def test_quality_table_is_rules_quality() -> None:
    for target in (-30, 0, 1, 4, 5, 37, 60, 99, 100, 101, 150, 499, 500, 620):
        rolls = np.arange(1, 101)
        got = quality(rolls, np.full(100, target))
        want = [R.quality(int(r), target) for r in rolls]
        assert got.tolist() == [lvl * 100 + eff if lvl else 0 for lvl, eff in want], target


def test_three_d100_from_one_draw_are_uniform_and_independent() -> None:
    """Each of the three digits takes every face 1–100 (each within 4 SE of 1/100), and any two together are
    uniform on the 100 × 100 pairs (χ² within 4 SD of its mean): no digit leaks into another."""
    bits = np.random.default_rng(23).bit_generator
    n = 12_000
    rolls = np.array([L.three_d100(bits) for _ in range(n)])
    assert rolls.min() == 1 and rolls.max() == 100
    se = math.sqrt(0.01 * 0.99 / n)
    for k in range(3):
        shares = np.bincount(rolls[:, k], minlength=101)[1:] / n
        assert np.abs(shares - 0.01).max() <= Z * se, k
    cells, df = 100 * 100, 100 * 100 - 1
    for a, b in ((0, 1), (1, 2), (0, 2)):
        counts = np.bincount((rolls[:, a] - 1) * 100 + rolls[:, b] - 1, minlength=cells)
        chi2 = float(((counts - n / cells) ** 2).sum() / (n / cells))
        assert chi2 <= df + Z * math.sqrt(2 * df), (a, b, chi2)


@pytest.mark.parametrize("notation", [(1, 6, 0), (3, 6, 0), (4, 6, 0), (2, 6, 2), (2, 10, -1)])
def test_damage_dice_tables_are_the_dice(notation: tuple[int, int, int]) -> None:
    count, sides, modifier = notation
    dice = SumDice(count=count, sides=sides, modifier=modifier)
    table = dice_table(dice)
    assert table is not None
    counts = Counter(table.tolist())
    assert {v: counts[v] / table.size for v in counts} == {v: float(p) for v, p in dice.distribution().items()}


def test_fate_words_are_the_states() -> None:
    state = state_of(document(fighter("a"), fighter("b")))
    fates = ("fighting", "knocked_out", "dead", "left")
    for (index, fate), (wounds, daze) in product(
        enumerate(fates), [((0, 0, 0, 0, 0), 0), ((1, 0, 2, 0, 0), 27), ((0, 3, 0, 1, 0), 5), ((0, 0, 0, 0, 1), 0)]
    ):
        state.fate[0], state.wounds[0], state.daze[0] = fate, list(wounds), daze
        assert fate_label(index, wounds, daze) == state._fate_text(0)


# ---- the same game: frequencies within 4 standard errors ---------------------------------------------------------
def tally_of(batch: Any) -> Tally:
    tally = Tally()
    tally.add(batch)
    return tally


def assert_same_game(kernel: Tally, reference: Tally, min_share: float = 0.01) -> None:
    """Every winner and ending share, each fate share of at least ``min_share``, the mean length and every
    resource mean: |kernel − reference| ≤ 4 two-sample standard errors."""
    nk, nr = kernel.n, reference.n

    def shares(what: str, k: Mapping[Any, int], r: Mapping[Any, int], floor: float) -> None:
        for label in set(k) | set(r):
            pk, pr = k.get(label, 0) / nk, r.get(label, 0) / nr
            pooled = (k.get(label, 0) + r.get(label, 0)) / (nk + nr)
            if pooled < floor:
                continue
            se = math.sqrt(pooled * (1 - pooled) * (1 / nk + 1 / nr))
            assert abs(pk - pr) <= Z * se, f"{what} {label!r}: kernel {pk:.4f}, reference {pr:.4f}, se {se:.4f}"

    shares("winner", kernel.winners, reference.winners, 0.0)
    shares("ending", kernel.endings, reference.endings, 0.0)
    assert set(kernel.fates) == set(reference.fates)
    for pid in kernel.fates:
        shares(f"{pid} fate", kernel.fates[pid], reference.fates[pid], min_share)
    means_k, means_r = kernel.resource_means(), reference.resource_means()
    assert set(means_k) == set(means_r)
    for name, (mk, sk) in means_k.items():
        mr, sr = means_r[name]
        assert abs(mk - mr) <= Z * math.hypot(sk, sr) + 1e-12, f"{name}: kernel {mk:.3f}, reference {mr:.3f}"
    lk, lr = kernel.length_stats()["mean"], reference.length_stats()["mean"]
    var_k = sum(c * (v - lk) ** 2 for v, c in kernel.length.items()) / nk
    var_r = sum(c * (v - lr) ** 2 for v, c in reference.length.items()) / nr
    assert abs(lk - lr) <= Z * math.sqrt(var_k / nk + var_r / nr), f"rounds: kernel {lk:.2f}, reference {lr:.2f}"


def compare(
    scenario: Scenario, n_ref: int, overrides: Mapping[str, Any] | None = None, n_kernel: int = 20_000, **pol: str
) -> None:
    kernel = kernel_for(scenario, overrides, **pol)
    k = tally_of(kernel.run(n_kernel, np.random.default_rng(2026)))
    seats = seat_policies(scenario, pol)
    r = tally_of(run_chunk(scenario, dict(overrides or {}), seats, n_ref, np.random.SeedSequence(7)))
    assert_same_game(k, r)


def test_the_bridge_duel_matches_the_reference_runner() -> None:
    compare(load_scenario("levald/duel"), 1500)


@pytest.mark.parametrize(("a", "b"), [("Sköld", "Långsvärd"), ("Trästav", "Kortsvärd"), ("Kortsvärd", "Svärd")])
def test_weapon_pairs_match_the_reference_runner(a: str, b: str) -> None:
    compare(duel(a, b), 1000)


def test_random_seats_match_the_reference_runner() -> None:
    compare(load_scenario("levald/duel"), 1500, snurre="random", hedda="random")
    compare(duel("Sköld", "Spjut"), 1000, a="random")


def test_mirrored_options_match_the_reference_runner() -> None:
    scenario = duel("Sköld", "Trästav", skill=50, stridsvana=40)
    compare(
        scenario,
        400,
        {
            "two_defence_rolls": True,
            "step_size": 2,
            "deadly_wound": "knocked_out",
            "empty_gard_scratch": True,
            "light_threshold_round_up": True,
        },
    )
    compare(
        scenario,
        400,
        {
            "allow_leave": False,
            "gard_damage_is_damage": False,
            "gain_ground_changes_initiative": False,
            "max_rounds": 25,
        },
    )
    compare(duel("Svärd", "Spjut"), 500, {"free_attack_ignores_gard": True})


def test_conditions_of_the_setup_match_the_reference_runner() -> None:
    doc = document(
        fighter("a", "Svärd", daze=7, gard_now=5, wounds={"skråma": 1}),
        fighter("b", "Spjut", kraft=9),
        "Dolk",
        cornered=["b"],
        unprepared=["a"],
    )
    compare(scenario_from_document(doc, "test.toml"), 1200)


@pytest.mark.parametrize(
    ("a", "b", "daze", "distance"),
    [
        # at their common length: both hold, both fail every initiative roll (Stridsvana 50 − 50)
        ("Svärd", "Kortsvärd", (26, 28), "Svärd"),
        # nobody can hit (attack targets ≤ 0): a cycle of moves, every round a regain round, Gard refills
        ("Sköld", "Långsvärd", (31, 33), "Sköld"),
        ("Spjut", "Trästav", (36, 31), "Fri"),
    ],
)
def test_a_duel_no_die_can_change_ends_in_the_references_deadlock(
    a: str, b: str, daze: tuple[int, int], distance: str
) -> None:
    """The reference plays 300 rounds in which nothing can happen; the kernel skips them and must end exactly
    where the reference does: deadlock at max_rounds, the same Gard (refilled), Omtöckning and fate words."""
    doc = document(fighter("a", a, daze=daze[0], gard_now=3), fighter("b", b, daze=daze[1]), distance)
    scenario = scenario_from_document(doc, "test.toml")
    reference = run_chunk(scenario, {}, seat_policies(scenario), 1, np.random.SeedSequence(1))
    batch = kernel_for(scenario).run(50, np.random.default_rng(1))
    assert reference.endings.labels == ["deadlock"] and reference.length.tolist() == [300]
    assert set(batch.endings.counts()) == {"deadlock"} and set(batch.length.tolist()) == {300}
    for pid in ("a", "b"):
        assert list(batch.fates[pid].counts()) == reference.fates[pid].labels
    assert {k: set(v.tolist()) for k, v in batch.resources.items()} == {
        k: set(v.tolist()) for k, v in reference.resources.items()
    }


def test_a_beasts_reach_and_a_bow_match_the_reference_runner() -> None:
    """Klo/Hugg/Svans on the distance scale (a weapon of length Hugg), and a ranged weapon whose hits Gard stops
    only behind a shield, from inline weapon tables."""
    claw = {"name": "Klor", "skill": "Enhandsvapen", "attack_mod": 5, "defence_mod": -5}
    claw |= {"damage_guarded": "2T6", "damage_open": "2T6+2", "length": "Hugg"}
    bow = {"name": "Båge", "skill": "Enhandsvapen", "defence_mod": -20, "ranged": True}
    bow |= {"damage_guarded": "2T6", "damage_open": "3T6", "length": "Spjut"}
    beast = document(fighter("a", claw, kraft=16), fighter("b", "Spjut"), "Fri")
    # 1,500 reference duels: the beast's rare wounds make its Omtöckning heavy-tailed (600 left a.daze 4 SE low)
    compare(scenario_from_document(beast, "test.toml"), 1500)
    archer = document(fighter("a", bow), fighter("b", "Svärd"), "Fri", cornered=["a"])
    compare(scenario_from_document(archer, "test.toml"), 600)


# ---- what the kernel will not play --------------------------------------------------------------------------------
def test_refuses_sub_fights() -> None:
    assert "duels only" in reason_for(load_scenario("levald/one_against_two"))


def test_refuses_options_it_does_not_mirror() -> None:
    reason = reason_for(load_scenario("levald/duel"), {"exceptional": "doubles"})
    assert "exceptional" in reason and "'doubles'" in reason
    assert "bypass_dice" in reason_for(load_scenario("levald/duel"), {"bypass_dice": "guarded"})


def test_refuses_a_fighter_who_starts_out() -> None:
    doc = document(fighter("a", wounds={"kritisk": 1}), fighter("b"))
    assert "start standing" in reason_for(scenario_from_document(doc, "test.toml"))


def test_refuses_a_gm_who_may_change_the_conditions() -> None:
    doc = document(fighter("a"), fighter("b"), gm_conditions=True)
    scenario = scenario_from_document(doc, "test.toml")
    assert "GM" in reason_for(scenario, None, **{"@gm": "random"})
    assert isinstance(kernel_for(scenario), DuelKernel)


def test_refuses_human_seats() -> None:
    assert "policies only" in reason_for(load_scenario("levald/duel"), snurre="human")


def test_sim_uses_the_kernel_for_a_duel_and_labels_as_the_state() -> None:
    result = simulate(load_scenario("levald/duel"), 3000, seed=5)
    assert result.engine == "vectorised"
    assert set(result.tally.endings) <= {"left", "taken_out", "dead", "parted", "deadlock"}
    assert set(result.tally.winners) <= {(), ("snurres",), ("heddas",)}
    assert sum(result.tally.fates["hedda"].values()) == 3000
    fallback = simulate(load_scenario("levald/one_against_two"), 5, seed=5)
    assert fallback.engine == "reference" and "duels only" in fallback.note


def test_the_same_seed_gives_the_same_duels() -> None:
    kernel = kernel_for(load_scenario("levald/duel"))
    first, second = (kernel.run(500, np.random.default_rng(3)) for _ in range(2))
    assert first.length.tolist() == second.length.tolist()
    assert first.winners.codes.tolist() == second.winners.codes.tolist()


# ---- the same duels: the kernel's dice replayed through the State, duel by duel -------------------------------
def replay_roll(trace: Mapping[str, np.ndarray], j: int) -> Any:
    """Table dice for duel ``j``: the kernel's die for whichever roll the State asks for, by round and phase."""

    def roll(state: State) -> int:
        assert isinstance(state, LevaldState)
        r, phase, made = state.rounds, state.phase, len(state.rolls)
        if r >= trace["d100"].shape[0] or trace["d100"][r, 0, j] < 0:
            return 100  # a duel the kernel settled at once: no die can change it (every roll fails)
        if phase == "move_roll":
            value = trace["d100"][r, made, j]
        elif phase == "init_roll":
            value = trace["d100"][r, 2 + made, j]
        elif phase in ("attack_roll", "free_roll"):
            value = trace["d100"][r, 4, j]
        elif phase == "defence_roll":
            value = trace["d100"][r, 5, j] if made == 1 else trace["defence2"][r, j]
        elif phase == "counter_roll":
            value = trace["counter"][r, j]
        else:
            assert phase == "damage"
            value = trace["counter_damage" if state.after == "countered" else "damage"][r, j]
        assert value >= 0, f"duel {j}, round {r}: the State asks for a {phase} die the kernel did not draw"
        return int(value)

    return roll


def assert_same_duels(scenario: Scenario, overrides: Mapping[str, Any], n: int, seed: int) -> None:
    """The kernel's n duels, replayed with its dice through the State (heuristic seats), agree in every label; the
    kernel's length is the number of rounds."""
    assert_kernel_replays(
        kernel_for(scenario, overrides),
        scenario,
        overrides,
        n,
        seed,
        replay_roll,
        length=lambda state: int(state.outcome().data["rounds"]),
        drop=frozenset({"rounds"}),
    )


def test_the_kernels_dice_replayed_through_the_state_give_the_same_bridge_duels() -> None:
    assert_same_duels(load_scenario("levald/duel"), {}, 200, 11)


@pytest.mark.parametrize(("a", "b"), [("Spjut", "Sköld"), ("Långsvärd", "Trästav"), ("Kortsvärd", "Svärd")])
def test_the_kernels_dice_replayed_through_the_state_give_the_same_weapon_duels(a: str, b: str) -> None:
    assert_same_duels(duel(a, b, distance="Svärd"), {}, 100, 12)


@pytest.mark.parametrize(
    "overrides",
    [
        {"two_defence_rolls": True, "holder_damaged": "table"},
        {"empty_gard_scratch": False, "gard_damage_is_damage": False, "deadly_wound": "knocked_out"},
        {"free_attack_ignores_gard": True, "gain_ground_changes_initiative": False, "step_size": 2},
    ],
)
def test_the_kernels_dice_replayed_through_the_state_give_the_same_duels_under_options(
    overrides: dict[str, Any],
) -> None:
    assert_same_duels(duel("Svärd", "Sköld", distance="Stång"), overrides, 100, 13)
