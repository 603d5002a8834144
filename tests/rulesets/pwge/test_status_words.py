"""The table ``play`` and the browser show for PWGE: each cell in words a game master reads, not code names."""

from __future__ import annotations

from tests.examples import phases_of_goldens

SCENARIOS = ["pwge/ball", "pwge/chase", "pwge/duel", "pwge/negotiation", "pwge/shootout"]


def test_the_phase_is_said_in_words_at_every_step_of_every_golden() -> None:
    """The phase cell was the engine's own name (``counter_response``, ``contest``): every phase the bundled
    conflicts pass through is said in the text's words (handling, svarshandling, mothandling, turordning…) with
    the English beside them."""
    _, codes = phases_of_goldens(SCENARIOS)
    assert not codes, f"phases shown as code names: {sorted(codes)}"


def test_a_distance_choice_says_closer_to_or_farther_from_the_other() -> None:
    """The choice read "ändra avstånd (change distance) farther to Rymdpirat": a step away is *from* the other."""
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import Generators, Runner, seat_policies

    scenario = load_scenario("pwge/chase")
    state = new_state(scenario)
    policies = {s: p for s, p in seat_policies(scenario).items() if p is not None}
    runner = Runner(policies, Generators.from_seed(1), trusted=True)
    said: set[str] = set()
    for _ in range(400):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            seat = state.current_player()
            said |= {state.describe_action(seat, a) for a in state.legal_actions(seat) if a.get("way")}
        runner.step(state)
    assert said, "no distance choice met"
    assert all("farther from " in s or "closer to " in s for s in said), said
    assert not any("farther to " in s for s in said), said


def test_counts_take_the_singular_or_the_plural_and_a_fate_does_not_repeat_the_name() -> None:
    """Issue 43: "Kapten Nova: Kapten Nova:" (the front ends print the name before the fate), "1 body points",
    "1 erfarenhetstärningar"."""
    from konflikt.rulesets.pwge.persist import aftermath
    from tests.rulesets.pwge.helpers import act, make, person, texts

    state = make(person("ann", experience_dice=1, body_points=1), person("bo", experience_dice=2),
                 options={"experience_dice": True})  # fmt: skip
    opening = texts(state)
    assert any(t.endswith("on the side; 1 erfarenhetstärning (experience die)") for t in opening), opening
    assert any(t.endswith("on the side; 2 erfarenhetstärningar (experience dice)") for t in opening), opening
    assert any("+2×0 fitting skills −0 others on the side" in t for t in opening), opening
    act(state, "attack", target="bo", weapon="melee", pay="die")
    assert any(t.endswith("— 6 tokens and 0 experience dice left") for t in texts(state))
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee", pay="die")
    assert any(t.endswith("— 6 tokens and 1 experience die left") for t in texts(state))
    act(state, "no_counter")
    state.declare_goal("red", "Bo gives way")
    fates = state.outcome().participants
    assert fates["ann"] == "6 tokens left, 1 body point, worst hit oskadd (unhurt)"
    assert not fates["bo"].startswith("Bo")
    lines = aftermath(state).lines
    assert "Ann: 1 erfarenhetstärning (experience die) spent, 0 left" in lines
    assert "Bo: 1 erfarenhetstärning (experience die) spent, 1 left" in lines
