"""The compiled kernel against the reference runner: the same dice give the same conflict, and at scale the same odds.

Two kinds of evidence. (1) Dice replay: reference conflicts are played with their dice recorded; the kernel's loop
plays them, each conflict drawing its own recorded faces, and must end every one the same way — ending, winners,
every fate word and the number of steps — and use every face, which checks every rule and every heuristic choice on
the path. (2) Frequencies: at a fixed seed every
winner and ending frequency, and every frequent fate, lies within 4 standard errors (pooled two-sample) of the
reference runner's, and so does the mean length. Last, the kernel refuses what it does not mirror (a seat without
the heuristic), and ``konflikt sim`` then falls back to the reference runner.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any, cast

import numpy as np
import pytest

from konflikt.core.batch import Batch, Tally
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.rulesets.pwge import RULESET
from konflikt.rulesets.pwge.kernel import PwgeKernel, make_kernel
from konflikt.rulesets.pwge.kernel_loop import Replay
from konflikt.rulesets.pwge.kernel_tables import MAX_PEOPLE
from konflikt.sim.engine import choose_engine
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import Generators, Runner, play_scenario, seat_policies
from tests.rulesets.pwge.helpers import weak_diplomats

REFERENCE_N = {"duel": 450, "chase": 800, "negotiation": 600, "ball": 600, "shootout": 100}
"""Reference conflicts per scenario: the reference plays ~130 duels and ~30 shoot-outs a second, the budget of
this file; the dice-replay tests above carry the exactness, these the odds."""
KERNEL_N = 20_000
FREQUENT = 0.02
"""Fates at least this frequent (in either engine) are compared; rarer ones are noise at this n."""


class Recorder:
    """Wraps the reference runner's dice generator and keeps every face it gives."""

    def __init__(self, gen: np.random.Generator) -> None:
        self.gen = gen
        self.faces: list[int] = []

    def integers(self, low: int, high: int, size: int | None = None) -> Any:
        result = self.gen.integers(low, high, size=size)
        self.faces.extend(np.atleast_1d(result).tolist())
        return result


def kernel_of(scenario: Scenario, overrides: Mapping[str, object] | None = None) -> PwgeKernel:
    options = scenario.ruleset.options.resolve(scenario.options, dict(overrides or {}))
    made = make_kernel(scenario, options, seat_policies(scenario))
    assert isinstance(made, PwgeKernel), made
    return made


def conflict(batch: Batch, i: int) -> tuple[Hashable, Hashable, dict[str, Hashable], int]:
    """Conflict ``i`` of a batch, as labels."""
    fates = {pid: c.labels[int(c.codes[i])] for pid, c in batch.fates.items()}
    return (
        batch.endings.labels[int(batch.endings.codes[i])],
        batch.winners.labels[int(batch.winners.codes[i])],
        fates,
        int(batch.length[i]),
    )


@pytest.mark.parametrize(
    ("name", "overrides", "games"),
    [
        ("duel", {}, 40),
        ("duel", {"experience_dice": False, "max_tops_per_roll": 1, "sarad_from": 3}, 25),
        ("duel", {"dodge_keeps_range_difficulty": False, "max_is_in_range": False, "allvarligt_from": 5}, 20),
        ("chase", {}, 60),
        ("negotiation", {}, 50),
        ("negotiation", {"diplomatic_distance_penalty": False}, 30),
        ("negotiation", {"social_distance_and_damage": False}, 30),
        ("ball", {}, 50),
        ("ball", {"social_distance_and_damage": False}, 30),
        ("shootout", {}, 15),
        ("shootout", {"experience_dice": True, "max_tops_per_roll": 1, "dodge_keeps_range_difficulty": False}, 8),
        ("negotiation", {"experience_dice": True}, 50),
        ("negotiation", {"experience_dice": True, "social_distance_and_damage": False}, 30),
        ("chase", {"experience_dice": True}, 40),
    ],
)
def test_kernel_replays_the_reference_dice_to_the_same_end(name: str, overrides: dict[str, object], games: int) -> None:
    replay(load_scenario(f"pwge/{name}"), overrides, games)


PIRATE = {"id": "pirat2", "character": "builtin:rymdpirat", "attribute": "Smidighet", "identity_fit": "indirect"}
ROBOT = {"id": "mekano", "character": "builtin:mekano", "attribute": "Styrka", "fitting_skills": ["Närstrid"]}
ENVOY = {"id": "nova", "character": "builtin:kapten_nova", "attribute": "Karisma", "fitting_skills": ["Förhandla"]}


@pytest.mark.parametrize(
    ("name", "side", "extra", "setup"),
    [
        ("chase", 1, PIRATE, {}),
        ("duel", 0, ROBOT, {"start_distance": 2}),
        ("ball", 1, ENVOY, {}),
    ],
)
def test_kernel_replays_uneven_sides_to_the_same_end(
    name: str, side: int, extra: dict[str, Any], setup: dict[str, Any]
) -> None:
    """Two against one: several foes to choose among on the open table, a pair distance each, shrunken pools."""
    scenario = load_scenario(f"pwge/{name}")
    doc = copy.deepcopy(dict(scenario.document))
    doc["sides"][side]["participants"].append(extra)
    doc.setdefault("setup", {}).update(setup)
    replay(scenario_from_document(doc, scenario.source), {}, 20)


@pytest.mark.parametrize(
    ("name", "fields", "setup", "games"),
    [
        ("duel", [{"body_points": 6}, {"body_points": 6}], {}, 20),
        ("duel", [{"experience_dice": 30, "body_points": 60}] * 2, {}, 20),
        ("chase", [{}, {"melee_weapon": "spjut", "ranged_weapon": None}], {"start_distance": 1}, 40),
        ("shootout", [{"damage_taken": 10}, {"damage_taken": 6}], {}, 10),
    ],
    ids=[
        "fragile duel: order rolls",
        "experience dice at the last token",
        "chase with a spear: caught at Spjut",
        "carried damage: Nova out from the start, Zorak at 6 of 12",
    ],
)
def test_kernel_replays_rare_paths_to_the_same_end(
    name: str, fields: list[dict[str, Any]], setup: dict[str, Any], games: int
) -> None:
    """Paths the examples seldom walk: at 6 body points both buy turordning (order) and roll for it; with many
    erfarenhetstärningar (experience dice) and body points, hits bring the pool to one token while dice remain; a
    spear-armed pursuer without a gun closes from range 1 to Spjut (spear), the last melee distance: caught."""
    scenario = load_scenario(f"pwge/{name}")
    doc = copy.deepcopy(dict(scenario.document))
    for side, change in zip(doc["sides"], fields, strict=True):
        side["participants"][0].update(change)
    doc["setup"].update(setup)
    replay(scenario_from_document(doc, scenario.source), {"experience_dice": True}, games)


@pytest.mark.parametrize("surprise", [None, "pirater"])
def test_kernel_breaks_ties_between_twin_foes_as_the_heuristic_does(surprise: str | None) -> None:
    """Zorak against two identical captains: every deed against either is worth the same, so the Action order
    decides — the smaller one on the open table, the larger one for a frislag (the heuristic takes ``max``)."""
    scenario = load_scenario("pwge/duel")
    doc = copy.deepcopy(dict(scenario.document))
    twin = copy.deepcopy(doc["sides"][0]["participants"][0])
    twin.update({"id": "nova2", "name": "Kapten Nova II"})
    doc["sides"][0]["participants"].append(twin)
    if surprise:
        doc["setup"]["surprise"] = surprise
    replay(scenario_from_document(doc, scenario.source), {}, 25)


def test_kernel_replays_contest_totals_below_zero_to_the_same_end() -> None:
    """A move at diplomatic distance 10 by a 2T + 1 diplomat is 2T − 4: totals of −2 to 8, −1 among them (the mark
    the array flow once took for a roll still to make); the loop keeps a flag per roll and replays every one."""
    replay(weak_diplomats(10), {}, 40)


def test_kernel_replays_simultaneous_knock_outs_and_emptied_pools_as_deadlocks() -> None:
    """Duellists of 6 body points: some exchanges end with both felled, or both pools emptied, by an action and its
    response resolving samtidigt (simultaneously): a deadlock in the reference, and so in the kernel."""
    scenario = _variant("duel", {})
    doc = copy.deepcopy(dict(scenario.document))
    for side in doc["sides"]:
        side["participants"][0]["body_points"] = 6
    expected = replay(scenario_from_document(doc, scenario.source), {"experience_dice": False}, 40)
    endings = Counter((ending, all("out of the conflict" in fate for fate in fates.values()))
                      for ending, _, fates, _ in expected)  # fmt: skip
    assert endings[("deadlock", True)] >= 1, endings


def replay(
    scenario: Scenario, overrides: dict[str, object], games: int
) -> list[tuple[str, tuple[str, ...], dict[str, str], int]]:
    """Play ``games`` reference conflicts recording their dice, then all of them at once in the kernel, each
    conflict drawing its own recorded faces: every one must end exactly as in the reference."""
    seats = seat_policies(scenario)
    expected: list[tuple[str, tuple[str, ...], dict[str, str], int]] = []
    faces: list[list[int]] = []
    for seed in range(games):
        gen = Generators.from_seed(seed)
        recorder = Recorder(gen.dice)
        state = new_state(scenario, dict(overrides))
        Runner(seats, Generators(cast(np.random.Generator, recorder), gen.policy)).play(state)
        outcome = state.outcome()
        expected.append((outcome.ending, outcome.winners, outcome.participants, len(state.steps())))
        faces.append(recorder.faces)

    recorded = np.zeros((games, max(map(len, faces)) + 1), dtype=np.int64)  # 0 after each conflict's last face
    for seed, row in enumerate(faces):
        recorded[seed, : len(row)] = row
    dice = Replay(recorded, np.zeros(games, dtype=np.int64))
    batch = kernel_of(scenario, overrides).run(games, np.random.default_rng(0), dice=dice)
    for seed, want in enumerate(expected):
        assert conflict(batch, seed) == want, f"seed {seed}"
        assert dice.used[seed] == len(faces[seed]), f"seed {seed}: the kernel rolled fewer dice than the reference"
    return expected


def within(count_a: int, n_a: int, count_b: int, n_b: int) -> tuple[bool, str]:
    pa, pb = count_a / n_a, count_b / n_b
    pooled = (count_a + count_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    return abs(pa - pb) <= 4 * se, f"kernel {pa:.4f} vs reference {pb:.4f} (4 SE = {4 * se:.4f})"


def compare(what: str, kernel: Counter[Any], k_n: int, reference: Counter[Any], r_n: int, floor: float) -> list[str]:
    wrong = []
    for label in set(kernel) | set(reference):
        if max(kernel[label] / k_n, reference[label] / r_n) < floor:
            continue
        ok, words = within(kernel[label], k_n, reference[label], r_n)
        if not ok:
            wrong.append(f"{what} {label!r}: {words}")
    return wrong


VARIANTS: list[tuple[str, dict[str, object]]] = [
    *((name, {}) for name in sorted(REFERENCE_N)),
    ("negotiation", {"experience_dice": True}),
]
"""The bundled scenarios as they are, and the negotiation with experience dice (where the heuristic answers moves
paying with its dice)."""


@pytest.mark.parametrize(
    ("name", "overrides"), VARIANTS, ids=[f"{n}{'-' if o else ''}{'-'.join(o)}" for n, o in VARIANTS]
)
def test_kernel_frequencies_lie_within_four_standard_errors_of_the_reference(
    name: str, overrides: dict[str, object]
) -> None:
    scenario = load_scenario(f"pwge/{name}")
    reference = Tally()
    seats = seat_policies(scenario)
    reference.add(run_chunk(scenario, overrides, seats, REFERENCE_N[name], np.random.SeedSequence(7)))
    vectorised = Tally()
    vectorised.add(kernel_of(scenario, overrides).run(KERNEL_N, np.random.default_rng(np.random.SeedSequence(7))))
    k, r = vectorised, reference
    wrong = compare("winners", k.winners, k.n, r.winners, r.n, 0.0)
    wrong += compare("ending", Counter(k.endings), k.n, Counter(r.endings), r.n, 0.0)
    for pid, fates in r.fates.items():
        wrong += compare(f"{pid} fate", k.fates[pid], k.n, fates, r.n, FREQUENT)
    assert set(k.winners) <= set(r.winners) | {(), *((s.id,) for s in scenario.sides)}
    (k_mean, k_se), (r_mean, r_se) = k.resource_means()["steps"], r.resource_means()["steps"]
    if abs(k_mean - r_mean) > 4 * math.hypot(k_se, r_se):
        wrong.append(f"mean steps: kernel {k_mean:.2f} vs reference {r_mean:.2f}")
    assert k.length_stats()["mean"] == pytest.approx(k_mean)
    assert not wrong, "\n".join(wrong)


def test_the_kernel_is_registered_and_chosen_for_the_duel() -> None:
    assert RULESET.kernel is make_kernel
    used, kernel, note = choose_engine(load_scenario("pwge/duel"), {}, {}, "auto")
    assert used == "vectorised" and isinstance(kernel, PwgeKernel), note


def _variant(name: str, change: Mapping[str, Any]) -> Scenario:
    scenario = load_scenario(f"pwge/{name}")
    doc = copy.deepcopy(dict(scenario.document))
    for key, value in change.items():
        if isinstance(value, dict):
            doc.setdefault(key, {}).update(value)
        else:
            doc[key] = value
    return scenario_from_document(doc, scenario.source)


def _reason(scenario: Scenario, policies: Mapping[str, str] | None = None) -> str:
    options = scenario.ruleset.options.resolve(scenario.options, {})
    made = make_kernel(scenario, options, seat_policies(scenario, policies))
    assert isinstance(made, str), "the kernel should have refused"
    return made


@pytest.mark.parametrize(
    ("name", "surprise", "options", "games"),
    [
        ("duel", "pirater", {}, 25),
        ("chase", "flyende", {}, 25),
        ("shootout", "bordare", {}, 12),
        ("shootout", "besattning", {"free_attack": False}, 8),
    ],
)
def test_kernel_replays_a_surprise_to_the_same_end(
    name: str, surprise: str, options: dict[str, object], games: int
) -> None:
    """The surprisers choose the starting distance, then each has a frislag (free attack): no token, no response."""
    replay(_variant(name, {"setup": {"surprise": surprise}}), options, games)


def test_sim_falls_back_to_the_reference_when_the_kernel_refuses() -> None:
    used, kernel, note = choose_engine(load_scenario("pwge/shootout"), {}, {"mekano": "random"}, "auto")
    assert used == "reference" and kernel is None and "mekano plays random" in note


@pytest.mark.parametrize(("name", "copied"), [("duel", 1), ("chase", 1), ("chase", 0), ("ball", 1)])
def test_kernel_replays_three_sides_to_the_same_end(name: str, copied: int) -> None:
    """A third side (a copy of side ``copied``): goals, dry pools and chases with more than one other side."""
    scenario = load_scenario(f"pwge/{name}")
    doc = copy.deepcopy(dict(scenario.document))
    third = copy.deepcopy(doc["sides"][copied])
    third["id"] = "tredje"
    third["participants"][0].update(id="ny", name=f"{third['participants'][0]['name']} III")
    doc["sides"].append(third)
    replay(scenario_from_document(doc, scenario.source), {}, 20)


def test_the_kernel_refuses_first_dry_side_ends_with_three_sides_and_sim_uses_the_reference() -> None:
    """Several sides may win together under the option: the kernel's one-winner labels cannot say it."""
    scenario = load_scenario("pwge/duel")
    doc = copy.deepcopy(dict(scenario.document))
    third = copy.deepcopy(doc["sides"][1])
    third["id"] = "tredje"
    third["participants"][0].update(id="ny", name="Zorak III")
    doc["sides"].append(third)
    three = scenario_from_document(doc, scenario.source)
    options = three.ruleset.options.resolve(three.options, {"first_dry_side_ends": True})
    reason = make_kernel(three, options, seat_policies(three))
    assert isinstance(reason, str) and "first_dry_side_ends" in reason
    used, kernel, note = choose_engine(three, {"first_dry_side_ends": True}, {}, "auto")
    assert used == "reference" and kernel is None and "first_dry_side_ends" in note
    two = scenario.ruleset.options.resolve(scenario.options, {"first_dry_side_ends": True})
    assert isinstance(make_kernel(scenario, two, seat_policies(scenario)), PwgeKernel), "two sides: the same rule"


@pytest.mark.parametrize(("seat", "policy"), [("nova", "random"), ("zorak", "human")])
def test_the_kernel_refuses_a_seat_without_the_heuristic(seat: str, policy: str) -> None:
    reason = _reason(load_scenario("pwge/duel"), {seat: policy})
    assert "heuristic" in reason and f"{seat} plays {policy}" in reason


def test_a_conflict_settled_before_the_first_action_gives_the_reference_outcome_every_time() -> None:
    scenario = _variant("chase", {"setup": {"start_distance": 7}})
    reference = play_scenario(scenario, 1).outcome()
    batch = kernel_of(scenario).run(5, np.random.default_rng(1))
    assert conflict(batch, 4)[:3] == (reference.ending, reference.winners, reference.participants)
    assert batch.endings.counts() == Counter({"goal_reached": 5})


@pytest.mark.parametrize(("name", "games"), [("duel", 20), ("negotiation", 20), ("shootout", 6)])
def test_kernel_replays_attributes_left_to_the_seats(name: str, games: int) -> None:
    """No participant names its attribute: each seat chooses it first (the heuristic: its highest), once, before
    any die; the kernel plays those steps on the real state and starts every conflict after them."""
    scenario = load_scenario(f"pwge/{name}")
    doc = copy.deepcopy(dict(scenario.document))
    for side in doc["sides"]:
        for participant in side["participants"]:
            participant.pop("attribute", None)
    replay(scenario_from_document(doc, scenario.source), {}, games)


def test_the_kernel_refuses_more_participants_than_its_loop_holds() -> None:
    scenario = load_scenario("pwge/duel")
    doc = copy.deepcopy(dict(scenario.document))
    extra = doc["sides"][1]["participants"][0]
    doc["sides"][1]["participants"] = [
        {**copy.deepcopy(extra), "id": f"zorak{k}", "name": f"Zorak {k}"} for k in range(MAX_PEOPLE)
    ]
    reason = _reason(scenario_from_document(doc, scenario.source))
    assert f"at most {MAX_PEOPLE} participants" in reason and f"has {MAX_PEOPLE + 1})" in reason
