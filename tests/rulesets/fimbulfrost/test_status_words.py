"""Issue 40, Fimbulfrost in its own words: the status names the consequences taken (not the list's ids), and the
opponent's split of the hits names the heroes (``2 to Budolf``), not their seat ids (``budolf 2``).
"""

from __future__ import annotations

from konflikt.core.actions import Action
from konflikt.core.scenario import load_scenario
from tests.cli.test_table_screen import played, reach


def test_status_names_the_consequences_taken_not_their_ids() -> None:
    """Fails on ``konsekvenser (consequences)=skramme``."""
    state = played("fimbulfrost/robbers", 15)
    taken = [(row, e) for row, ids in zip(state.hero_ids, state.taken, strict=True) for e in ids]  # type: ignore[attr-defined]
    assert taken
    status = state.status()
    for row, entry_id in taken:
        entry = state.catalogue.entry(entry_id)  # type: ignore[attr-defined]
        shown = status[row]["konsekvenser (consequences)"]
        assert f"{entry.da} ({entry.en})" in shown, shown
        assert entry_id not in shown.split(", "), shown


def test_the_split_of_the_hits_names_the_heroes() -> None:
    """Fails on ``fordel skade (split the hits): budolf 2``."""
    state = reach("fimbulfrost/robbers", 2, lambda s: any(a.kind == "hit" for a in s.legal_actions()))
    names = {p.id: p.name for p in load_scenario("fimbulfrost/robbers").participants()}
    seat = state.current_player()
    text = state.describe_action(seat, Action.of("hit", budolf=2, rudolf=1))
    assert text == f"fordel skade (split the hits): 2 to {names['budolf']}, 1 to {names['rudolf']}", text
