"""Issue 40, the table's screen: each prompt says what it decides and how much is at stake, menus a person can read,
consequences named at the table, the set-up's numbers, a status current at every prompt, endings in words.

Each test reaches the state it needs by the scenario's policies from a fixed seed, then asks the screen.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from konflikt.cli.prompts import SHOWN, build_menu, choice_text
from konflikt.cli.render import outcome_panel, print_events, setup_lines, status_table
from konflikt.cli.table import TableSession
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import State
from konflikt.sim.runner import Generators, Runner, seat_policies
from konflikt.store.db import Store


def reach(name: str, seed: int, until: Callable[[State], bool]) -> State:
    """The scenario played by its policies from ``seed`` until ``until`` holds."""
    scenario = load_scenario(name)
    state = new_state(scenario)
    runner = Runner(seat_policies(scenario), Generators.from_seed(seed))
    while not until(state):
        assert not state.is_terminal(), f"{name} seed {seed}: never reached"
        runner.step(state)
    return state


def played(name: str, seed: int) -> State:
    return reach(name, seed, lambda s: s.is_terminal())


def text_of(renderable: object, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, markup=False, no_color=True).print(renderable)
    return out.getvalue()


def at_table(
    tmp_path: Path,
    name: str,
    seed: int,
    state: State,
    humans: dict[str, str],
    answers: Callable[[str], str],
    dice: str = "auto",
    width: int = 80,
) -> tuple[TableSession, str]:
    """A table session resumed at ``state`` (its steps replayed), the ``humans`` asked through ``answers``."""
    scenario = load_scenario(name)
    store = Store.open(tmp_path / "s.sqlite")
    conflict = Conflict(scenario, {}, seed)
    conflict_id = store.create(conflict)
    steps = state.steps()
    for n, step in enumerate(steps):
        store.append(conflict_id, n, step, "policy", None)
    conflict.steps = steps
    out = io.StringIO()
    console = Console(file=out, width=width, markup=False, no_color=True)
    table = TableSession(
        console, store, conflict_id, conflict, ["policy"] * len(steps), seat_policies(scenario, humans), dice,
        ask=lambda prompt, secret: answers(prompt),
    )  # fmt: skip
    table.run()
    return table, out.getvalue()


def listed_numbers(screen: str) -> list[int]:
    return [int(n) for n in re.findall(r"^\s+(\d+)\. ", screen, re.MULTILINE)]


# ---- what is at stake -----------------------------------------------------------------------------------------
def absorbing(state: State) -> bool:
    return getattr(state, "phase", "") == "absorb" and len(state.legal_actions()) > SHOWN


def test_presja_absorb_states_the_pressure_and_lists_at_most_nine_the_text_s_own_first(tmp_path: Path) -> None:
    """The absorb menu listed 19 to 62 ways with nothing marked and no amount: now the pressure and the track first,
    at most nine ways (one box that takes it all, a lower box and a consequence, a consequence alone), the
    recommended one for Enter, and 'more' for the rest, each by its own number."""
    state = reach("presja/knife_fight", 1, absorbing)
    seat = state.current_player()
    legal = list(state.legal_actions(seat))
    pressure = state.hits[state.ptr][2]  # type: ignore[attr-defined]
    feed = iter(["more", "quit"])
    _, screen = at_table(tmp_path, "presja/knife_fight", 1, state, {seat: "human"}, lambda _: next(feed))
    first, _, rest = screen[screen.index("decides:") :].partition("more choices: type 'more'")
    assert f"przyjmuje presję (takes pressure) {pressure} from" in first
    shown = listed_numbers(first)
    assert len(shown) == SHOWN < len(legal)
    assert "[Enter]" in first
    first_way = state.describe_action(seat, legal[shown[0] - 1])
    assert first_way.count("box") == 1 and "konsekwencja" not in first_way  # one box that takes it all
    assert sorted(shown + listed_numbers(rest)) == list(range(1, len(legal) + 1))  # 'more': the rest


def test_enter_takes_the_recommended_choice(tmp_path: Path) -> None:
    state = reach("presja/knife_fight", 1, absorbing)
    seat = state.current_player()
    menu = build_menu(state, seat, list(state.legal_actions(seat)), state.legal_actions(seat)[3])
    assert menu.default == 3 and 3 in menu.shown
    feed = iter([""])
    table, _ = at_table(tmp_path, "presja/knife_fight", 1, state, {seat: "human"}, lambda _: next(feed, "quit"))
    assert table.store.load(table.id).sources[len(state.steps())] == "human"


def test_fimbulfrost_consequence_prompt_says_how_many_are_owed_and_why() -> None:
    state = reach("fimbulfrost/robbers", 15, lambda s: bool(s.asks) and s.asks[0][0] == "cons")  # type: ignore[attr-defined]
    stake = state.decision_stake(state.current_player())
    count = state.asks[0][2]  # type: ignore[attr-defined]
    assert f"buys {count} konsekvens(er) (consequence(s))" in stake
    assert "Status" in stake  # why: the opponent's Status kept, or the hero's below 0


def test_presja_roll_says_the_chance_to_hit_not_eight_thresholds() -> None:
    state = reach("presja/knife_fight", 1, lambda s: s.is_chance_node())
    rows = state.roll_stakes()
    assert 1 <= len(rows) <= 2 and all("Atak trafia" in label or "Obrona" in label for label, _ in rows)


def test_fimbulfrost_pool_rolls_show_the_successes_needed_and_the_1s_only_where_they_count() -> None:
    first = reach("fimbulfrost/robbers", 2, lambda s: s.is_chance_node())
    labels = [label for label, _ in first.roll_stakes()]
    assert "at least one 1" not in " ".join(labels)  # round 1: the 1s mean nothing
    assert any("Status" in label and "needs" in label for label in labels)
    later = reach("fimbulfrost/robbers", 2, lambda s: s.is_chance_node() and s.round == 2 and s.phase == 8)  # type: ignore[attr-defined]
    assert any(label.startswith("at least one 1 (ulykke") for label, _ in later.roll_stakes())


def test_pwge_contest_roll_says_the_chance_to_come_out_ahead() -> None:
    state = reach("pwge/duel", 1, lambda s: s.is_chance_node() and s.contest is not None)  # type: ignore[attr-defined]
    rows = state.roll_stakes()
    assert len(rows) == 1 and "ahead of" in rows[0][0] and 0 < rows[0][1] < 1


# ---- menus and tables in words -----------------------------------------------------------------------------------
def test_choices_and_status_name_people_and_list_entries_not_ids() -> None:
    """``fordel skade: budolf 2`` and ``konsekvenser: skramme, brukket-arm`` read as names and list words."""
    state = reach("fimbulfrost/robbers", 2, lambda s: any(a.kind == "hit" for a in s.legal_actions()))
    names = {p.id: p.name for p in load_scenario("fimbulfrost/robbers").participants()}
    seat = state.current_player()
    texts = [choice_text(state, seat, a, names) for a in state.legal_actions(seat)]
    assert all("budolf" not in t and "rudolf" not in t for t in texts) and any("Budolf" in t for t in texts)
    ended = played("fimbulfrost/robbers", 15)
    shown = text_of(status_table(ended, names=names))
    taken = [e for row in ended.taken for e in row]  # type: ignore[attr-defined]
    assert taken and not any(re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", shown) for e in taken)


def test_presja_compel_names_the_consequence_not_its_id() -> None:
    state = reach("presja/knife_fight", 1, lambda s: getattr(s, "phase", "") == "compel" and len(s.legal_actions()) > 1)
    texts = [choice_text(state, state.current_player(), a) for a in state.legal_actions()]
    assert not any(re.search(r"\b(belzee|massimo):(mild|moderate|severe)", t) for t in texts), texts
    assert any("konsekwencja" in t for t in texts)


def test_presja_invocations_show_their_cost_before_choosing() -> None:
    state = reach("presja/knife_fight", 1, lambda s: getattr(s, "phase", "") == "invoke")
    seat = state.current_player()
    costs = [choice_text(state, seat, a) for a in state.legal_actions(seat) if a.kind in ("invoke", "fate_point")]
    assert costs and all(re.search(r"— cost: (free|1 Punkt Losu|1 pole)", t) for t in costs), costs


def test_endings_are_in_words_and_a_fate_names_its_person_once() -> None:
    for name, seed in (("presja/knife_fight", 1), ("levald/duel", 1), ("fimbulfrost/robbers", 1), ("pwge/duel", 1)):
        state = played(name, seed)
        names = {p.id: p.name for p in load_scenario(name).participants()}
        panel = text_of(outcome_panel(state, names))
        title = panel.splitlines()[0]
        words = state.ending_words(state.outcome().ending)
        assert f"outcome: {words}" in title and "_" not in title and "(" in words, title  # 'wyeliminowany (taken out)'
        for who in names.values():
            assert f"{who}: {who}:" not in panel


# ---- the set-up and a current table ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "wanted"),
    [
        ("presja/knife_fight", ["Zmysły (Senses): +2", "Czynnik Obrażeń", "Czynnik Wyparowań", "Ciało (Body): 0"]),
        ("levald/duel", ["Anfallsmod", "Försvarsmod", "Skada skyddad / öppen", "Stridsvana", "6/12/28/38"]),
        ("fimbulfrost/robbers", ["Omdømme (reputation, round-1 dice): 4", "Rustningspulje (armour pool): 5"]),
        ("pwge/duel", ["handlingspöl (action pool): 12", "Smidighet 4", "Svärdskonst 2", "kroppspoäng"]),
    ],
)
def test_the_opening_panel_and_state_show_every_number_the_rules_read(
    tmp_path: Path, name: str, wanted: list[str]
) -> None:
    state = new_state(load_scenario(name))
    text = "\n".join(setup_lines(state))
    for fact in wanted:
        assert fact in text, (fact, text)
    human = load_scenario(name).participants()[0].id
    feed = iter(["state", "quit"])
    _, screen = at_table(tmp_path, name, 1, state, {human: "human"}, lambda _: next(feed))
    assert screen.count("set-up (the numbers the rules read)") == 2  # when play starts, and at 'state'


def test_the_status_at_a_new_initiative_roll_shows_it_being_decided_not_the_last_holder() -> None:
    state = reach("levald/duel", 19, lambda s: getattr(s, "phase", "") == "init_roll")
    names = {p.id: p.name for p in load_scenario("levald/duel").participants()}
    shown = " ".join(text_of(status_table(state, names=names), width=200).split())
    assert "initiativ avgörs nu (being decided: Stridsvana)" in shown
    assert "initiativ Hedda" not in shown and "initiativ Snurre" not in shown


# ---- a consequence named at the table ------------------------------------------------------------------------------
NAMED = "Złamany nos od kufla"


def test_a_consequence_named_at_the_table_reaches_the_log_the_status_and_the_save(tmp_path: Path) -> None:
    """ "Gracz, który bierze konsekwencję, powinien opisać co się stało": after choosing a way that takes a
    consequence the player says what it is; the name is the one the log, the table and the save hold."""
    state = reach("presja/knife_fight", 1, lambda s: getattr(s, "phase", "") == "absorb")
    seat = state.current_player()
    session: dict[str, TableSession] = {}
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        if "name the consequence" in prompt:
            return NAMED
        if len(asked) > 1:
            return "quit"
        table = session["table"]
        assert table.menu is not None
        return str(next(i + 1 for i, a in enumerate(table.menu.legal) if a.get("cons") == "moderate"))

    original = TableSession.run

    def run(self: TableSession) -> State:
        session["table"] = self
        return original(self)

    TableSession.run = run  # type: ignore[method-assign]
    try:
        table, screen = at_table(tmp_path, "presja/knife_fight", 1, state, {seat: "human"}, answer)
    finally:
        TableSession.run = original  # type: ignore[method-assign]
    assert asked[1] == f"{seat} name the consequence › "
    absorbed = [e.text for e in table.state.history() if e.kind == "absorb"][-1]
    assert f"konsekwencja umiarkowana (moderate) '{NAMED}'" in absorbed
    assert NAMED in " ".join(screen.split())  # the log line on the screen
    assert NAMED in table.state.status()[seat]["konsekwencje (consequences)"]
    saved = table.store.load(table.id).conflict
    assert any(NAMED in str(step.action) for step in saved.steps if step.action is not None)
    assert NAMED in [e.text for e in saved.replay().history() if e.kind == "absorb"][-1]


def test_the_default_view_prints_each_event_whole_at_any_width() -> None:
    """The default view cut each event to one row with "…"; now each wraps under its first line."""
    state = played("levald/duel", 1)
    events = [e for e in state.history() if e.visible_to is None]
    out = io.StringIO()
    print_events(Console(file=out, width=60, markup=False, no_color=True), events, compact=True)
    screen = out.getvalue()
    assert "…" not in screen and max(len(line) for line in screen.splitlines()) <= 60
    assert re.sub(r"\s+", "", screen) == "".join(re.sub(r"\s+", "", e.text) for e in events)
