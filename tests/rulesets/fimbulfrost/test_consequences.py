"""Consequence lists: data, once per hero (carried ones count), death last, monster lists, the revenant's death-mark,
resources lost, a user's own lists, and consequences bought for a defeated opponent."""

from __future__ import annotations

from pathlib import Path

import pytest

from konflikt.core.actions import Action
from konflikt.errors import IllegalActionError, ScenarioError
from konflikt.rulesets.fimbulfrost.models import REQUIRED_LISTS, load_catalogue
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy
from konflikt.rulesets.fimbulfrost.rules import available_entries, hero_list
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import (
    ALL,
    act,
    budolf_below_0_in_round1,
    hero,
    present_each_other,
    roll,
    start,
    to_round2,
)


def test_bundled_lists_are_danish_with_english_and_cover_every_kind() -> None:
    cat = load_catalogue()
    for name in (*REQUIRED_LISTS, "drage", "heks", "genganger"):
        lst = cat.lists[name]
        assert lst.da and lst.en
        assert all(e.da and e.en for e in lst.entries)
    for name in ("runde1", "runde2", "runde3", "drage", "heks", "genganger"):  # "Det inkluderer blandt “død”"
        for round_no in (1, 2, 3):
            assert any(e.death and round_no in e.runder for e in cat.lists[name].entries), (name, round_no)
    assert any(e.death_mark for e in cat.lists["genganger"].entries)
    assert any(e.loses for e in cat.lists["runde3"].entries)


def test_monster_list_replaces_the_round_list_where_it_has_entries() -> None:
    cat = load_catalogue()
    assert hero_list(cat, None, 2) == "runde2"
    assert hero_list(cat, "drage", 2) == "drage"
    assert hero_list(cat, "drage", 1) == "drage"
    assert hero_list(cat, "genganger", 1) == "genganger"
    one_round = [e.id for e in available_entries(cat, "drage", 1, [])]
    assert one_round == ["drage-rystet", "drage-flygtet", "drage-rendt-i-skraek", "doed"]


def _lose_round3(state: FimbulfrostState) -> None:
    to_round2(state)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "done")
    act(state, "done")


def test_an_entry_may_be_chosen_once_per_hero() -> None:
    state = start()
    _lose_round3(state)
    act(state, "consequence", entry="skramme")
    with pytest.raises(IllegalActionError, match="already taken"):
        act(state, "consequence", entry="skramme")


@pytest.mark.through_cli
def test_doed_is_forced_only_when_nothing_else_is_left_but_never_forbidden_before() -> None:
    """ "spilleren bliver kun tvunget ud i at vælge denne, hvis der ikke er flere valgmuligheder tilbage": forced
    then, not forbidden before (the old rule refused death while anything else was left)."""
    state = start()
    _lose_round3(state)
    assert Action.of("consequence", entry="doed") in state.legal_actions()
    act(state, "consequence", entry="doed")
    assert state.fate[0] == 2


def test_carried_consequences_count_unless_the_option_is_off() -> None:
    budolf = hero("budolf", character="builtin:budolf", konsekvenser=["skramme"])
    state = start(heroes=[budolf, hero("rudolf", character="builtin:rudolf")])
    _lose_round3(state)
    assert Action.of("consequence", entry="skramme") not in state.legal_actions()
    state = start(
        heroes=[budolf, hero("rudolf", character="builtin:rudolf")], options={"carried_consequences_count": False}
    )
    _lose_round3(state)
    assert Action.of("consequence", entry="skramme") in state.legal_actions()


@pytest.mark.through_cli
def test_a_lost_resource_consequence_empties_the_pool() -> None:
    state = start()
    _lose_round3(state)
    act(state, "consequence", entry="rustning-flaeret")
    assert state.pools[0][0] == 0


@pytest.mark.through_cli
def test_dead_hero_buys_no_more() -> None:
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", konsekvenser=["skramme", "grej-tabt", "rustning-flaeret"])],
        opponent=hero("ulv", character="builtin:ulveflok", status=12),
    )
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", stil=False, stunt=False, snak=False)
    roll(state, 0)
    act(state, "done")
    assert state.asks == [("cons", 0, 12, 3)]
    for _ in range(4):  # dybt-saar, brukket-arm, taget-til-fange, mistet-haand
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == [Action.of("consequence", entry="doed")]
    act(state, "consequence", entry="doed")
    assert state.is_terminal() and state.fate == [2]
    assert "død (dead)" in state.outcome().participants["budolf"]


@pytest.mark.through_cli
def test_revenant_death_mark_even_for_a_victor() -> None:
    state = start(opponent=hero("genganger", character="builtin:genganger"))
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)  # revenant at 1
    roll(state, 0)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 1, 2)
    roll(state, 0)
    assert state.result == 1
    act(state, "spare") if state.asks[0][0] == "opp" else None
    assert state.asks == [("mishap", 0, 2, 2)]
    act(state, "consequence", entry="genganger-kulde")
    act(state, "consequence", entry="genganger-doedsmaerket")
    outcome = state.outcome()
    assert outcome.ending == "opponent_defeated"
    assert outcome.data["death_marked"] == 1
    assert "Dødsmærket" in outcome.participants["budolf"]
    assert "står (standing)" in outcome.participants["budolf"]


@pytest.mark.through_cli
def test_defeated_opponent_consequences_from_its_list_bought_in_turns() -> None:
    state = start()
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)
    assert state.opp_status == -1 and state.asks == [("opp", 0, 1, 1)]
    assert Action.of("spare") in state.legal_actions()
    act(state, "consequence", entry="modstander-fanget")
    assert state.is_terminal()
    assert "Taget til fange" in state.outcome().participants["roeverne"]


def test_user_lists_replace_bundled_lists_by_name(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[lists.runde3]\nda = "min"\nen = "mine"\n[[lists.runde3.entries]]\nid = "egen"\nda = "Egen"\nen = "own"\n'
        "severity = 1\n",
        encoding="utf-8",
    )
    state = start(setup={"konsekvenslister": str(path)})
    _lose_round3(state)
    assert state.legal_actions() == [Action.of("consequence", entry="egen")]
    act(state, "consequence", entry="egen")
    # Budolf's list is exhausted: the rest cannot be bought; Rudolf may still take the entry once
    assert state.current_player() == "rudolf"
    act(state, "consequence", entry="egen")
    assert state.is_terminal()
    assert any(e.kind == "exhausted" for e in state.history())


def test_user_list_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[lists.runde3]\nda = "x"\nen = "x"\nentries = []\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.toml"):
        start(setup={"konsekvenslister": str(path)})
    with pytest.raises(ScenarioError, match="no such file"):
        start(setup={"konsekvenslister": str(tmp_path / "missing.toml")})


@pytest.mark.through_cli
def test_the_opponents_death_may_be_bought_with_the_first_point() -> None:
    """ "kan spillerne købe konsekvenser til modstanderen for det antal point": no death-last order for the
    opponent's list (the old rule offered 'Dræbt' only when the rest of the list was gone)."""
    state = start()
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)
    assert state.asks == [("opp", 0, 1, 1)]
    assert Action.of("consequence", entry="modstander-draebt") in state.legal_actions()
    act(state, "consequence", entry="modstander-draebt")
    assert state.is_terminal()
    assert "Dræbt" in state.outcome().participants["roeverne"]


def test_a_refused_consequence_says_the_true_reason() -> None:
    """A consequence typed that is not offered is refused with the reason that holds now: death kept off the round-1
    list by the option round1_death = false, an entry that would cost nothing (under konflikt's own option
    consequence_must_cost), or an entry of another list (the hero's død while buying for the opponent), never "død
    may be chosen only when nothing else is left", which the default does not rule."""
    out_in_round1 = budolf_below_0_in_round1({"round1_death": False})
    with pytest.raises(IllegalActionError, match=r"round1_death = false"):
        act(out_in_round1, "consequence", entry="doed")

    lost = start(options={"consequence_must_cost": True})  # Budolf has no gear: losing it would cost him nothing
    _lose_round3(lost)
    assert lost.chars[0].grej == 0
    with pytest.raises(IllegalActionError, match=r"would cost .* nothing"):
        act(lost, "consequence", entry="grej-tabt")

    won = start()
    present_each_other(won)
    roll(won, 4)
    roll(won, 3)
    act(won, "split", opponent=4)
    act(won, "split", opponent=3)  # the robbers at −1: one consequence may be bought for them
    assert won.asks[0][0] == "opp"
    with pytest.raises(IllegalActionError, match=r"not on the list in use now") as refused:
        act(won, "consequence", entry="doed")
    assert "only when nothing else is left" not in str(refused.value)


@pytest.mark.through_cli
def test_a_dead_opponent_is_bought_nothing_more() -> None:
    """Dræbt (killed) ends the purchases for the opponent, however many points below 0 are left: nothing worse can
    befall it (konflikt's own stop: the text names no opponent's list)."""
    state = start(opponent=hero("roeverne", character="builtin:roeverbanden", status=4))
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)  # the robbers at −3: three consequences may be bought
    assert state.asks == [("opp", 0, 3, 1)]
    act(state, "consequence", entry="modstander-draebt")
    assert state.is_terminal() and state.opp_taken == ["modstander-draebt"]


def test_a_hero_dead_before_a_lost_round_3_buys_nothing_more() -> None:
    """ "skal alle heltene købe sig negative konsekvenser … vi ser nu, om de overlever": every hero, those already out
    too, but not one already dead (død): Rudolf chose death when knocked out in runde 2, only Budolf pays."""
    state = start(
        heroes=[hero("budolf", character="builtin:budolf"), hero("rudolf", character="builtin:rudolf", status=2)]
    )
    to_round2(state)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 3)
    act(state, "hit", rudolf=3)  # Rudolf 2 → −1: one consequence
    assert state.asks == [("cons", 1, 1, 2)]
    act(state, "consequence", entry="doed")
    assert state.fate == [0, 2] and state.round == 3
    act(state, "armour", dice=1)
    act(state, "done")
    roll(state, 0)
    assert state.result == 2 and state.asks == [("cons", 0, 4, 3)], "the robbers keep 4: Budolf alone buys 4"


def _robbers_at_minus(points: int) -> FimbulfrostState:
    """The robbers (Status 7 − points) defeated in round 1 by the heroes' 4 + 3 successes: ``points`` below 0."""
    state = start(opponent=hero("roeverne", character="builtin:roeverbanden", status=7 - points))
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)
    assert state.asks == [("opp", 0, points, 1)]
    return state


@pytest.mark.parametrize(
    ("first", "ruled_out"),
    [
        ("modstander-flygter", ("modstander-fanget", "modstander-draebt")),
        ("modstander-fanget", ("modstander-flygter", "modstander-draebt")),
    ],
)
@pytest.mark.through_cli
def test_opposing_fates_of_the_opponent_are_not_bought_together(first: str, ruled_out: tuple[str, ...]) -> None:
    """An opponent that flees (Flygter) is not also taken prisoner (Taget til fange) or killed (Dræbt), and one taken
    prisoner does not also flee or die by the heroes' purchase: each rules out the others, both ways; the other
    entries (wounded, loot left behind) stay."""
    state = _robbers_at_minus(4)
    act(state, "consequence", entry=first)
    offered = {str(a.get("entry")) for a in state.legal_actions() if a.kind == "consequence"}
    assert offered == {"modstander-saaret", "modstander-bytte"}
    for entry in ruled_out:
        with pytest.raises(IllegalActionError, match="opposing fates exclude each other"):
            act(state, "consequence", entry=entry)


@pytest.mark.through_cli
def test_the_heuristic_buys_a_fled_opponent_no_capture_and_no_death() -> None:
    """Five points below 0: the heuristic buys the mildest first (Flygter), then what does not oppose it (wounded, loot
    left), and the rest cannot be bought (the old list sold it flight, capture and death together)."""
    state = _robbers_at_minus(5)
    while not state.is_terminal():
        state.apply_action(HeuristicPolicy().choose(state, state.current_player(), None))  # type: ignore[arg-type]
    assert sorted(state.opp_taken) == ["modstander-bytte", "modstander-flygter", "modstander-saaret"]
    assert any(e.kind == "exhausted" for e in state.history())
    assert "Dræbt" not in state.outcome().participants["roeverne"]


def test_an_exclusion_must_name_another_entry_of_its_list(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        '[lists.modstander]\nda = "x"\nen = "x"\n[[lists.modstander.entries]]\nid = "flygter"\nda = "Flygter"\n'
        'en = "flees"\nseverity = 1\nexcludes = ["fanget"]\n',
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError, match=r"mine\.toml.*'flygter' excludes 'fanget'"):
        start(setup={"konsekvenslister": str(path)})
