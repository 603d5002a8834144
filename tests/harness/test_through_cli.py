"""The harness that plays a marked rule test again at ``konflikt play`` (tests/through_cli.py) can fail: a typed
line that means another choice, an option that does not reach the table, or a state set by hand is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from konflikt.core.state import GM
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of
from tests.through_cli import NotReplayable, Recorder, replay_driven, typed_lines


def _duel(recorder: Recorder, **options: object):  # type: ignore[no-untyped-def]
    with recorder.watching():
        state = state_of(document(fighter("gorm"), fighter("snurre", "Spjut"), "Svärd", options=dict(options)))
        move(state, gorm="hold", snurre="hold")
        act(state, "attack")
        act(state, "defend")
        roll(state, 35, 99, 10)
    return state


def test_a_driven_state_is_typed_seat_by_seat_and_dice_as_they_fell(tmp_path: Path) -> None:
    recorder = Recorder()
    state = _duel(recorder)
    assert list(recorder.driven.values()) == [state]
    origin = recorder.origins[state]
    # hold is the second of (advance, hold, leave, retreat), typed seat by seat; attack and defend first on their
    # menus; both d100 in one prompt (the rules let them be rolled together); the damage roll's total
    assert typed_lines(origin, state.steps()) == ["2", "2", "1", "1", "35 99", "10"]
    assert replay_driven(recorder, tmp_path) == 1


def test_a_choice_typed_as_another_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder()
    _duel(recorder)
    from tests import through_cli

    real = through_cli._typed_choice

    def off_by_one(shadow, seat, action):  # type: ignore[no-untyped-def]
        typed = real(shadow, seat, action)
        if typed and typed[0] == "1" and len(shadow.legal_actions(seat)) > 1:
            return ["2", *typed[1:]]
        return typed

    monkeypatch.setattr(through_cli, "_typed_choice", off_by_one)
    with pytest.raises(AssertionError, match="other steps"):
        replay_driven(recorder, tmp_path)


def test_an_option_that_does_not_reach_the_table_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = Recorder()
    with recorder.watching():
        state = state_of(document(fighter("a"), fighter("b"), "Svärd"), {"allow_leave": False})
        move(state, a="retreat", b="retreat")  # the third choice without leaving; with it, the third is to leave
    from tests import through_cli

    assert through_cli._overrides(recorder.origins[state]) == {"allow_leave": "false"}
    monkeypatch.setattr(through_cli, "_overrides", lambda origin: {})
    with pytest.raises(AssertionError):
        replay_driven(recorder, tmp_path)


def test_a_state_set_by_hand_is_refused(tmp_path: Path) -> None:
    recorder = Recorder()
    state = _duel(recorder)
    state.gard[state.index["snurre"]] = 12
    assert state.view(GM)
    with pytest.raises(NotReplayable, match="by hand"):
        replay_driven(recorder, tmp_path)


def test_a_fork_and_a_clone_are_played_from_where_they_were_copied(tmp_path: Path) -> None:
    recorder = Recorder()
    with recorder.watching():
        state = state_of(document(fighter("gorm"), fighter("snurre", "Spjut"), "Svärd"))
        move(state, gorm="hold", snurre="hold")
        forked, cloned = state.fork(), state.clone()
        for copy in (forked, cloned):
            act(copy, "attack")
            act(copy, "defend")
    assert recorder.origins[forked].before == tuple(state.steps()) and not recorder.origins[cloned].before
    assert replay_driven(recorder, tmp_path) == 3
