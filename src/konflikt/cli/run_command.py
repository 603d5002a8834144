"""``konflikt run SCENARIO``: play a whole conflict, policy seats deciding, chance sampled from the seed."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from konflikt.cli.campaign_command import keep_in_campaign, print_changes
from konflikt.cli.common import (
    PolicyOption,
    RuleOption,
    ScenarioArgument,
    SetOption,
    check_library_settings,
    choose_seed,
    overrides_for,
    scenario_named,
    seat_overrides,
    write_output,
)
from konflikt.cli.i18n import _, policy_label, styled
from konflikt.cli.info_commands import listed_instead
from konflikt.cli.line_input import ask_line
from konflikt.cli.prompts import list_choices, read_choice
from konflikt.cli.render import (
    aftermath_of,
    outcome_panel,
    plain_console,
    print_events,
    status_table,
)
from konflikt.core.actions import Action
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.names import scenario_names
from konflikt.core.scenario import Scenario, characters_from
from konflikt.core.state import GM, State
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text
from konflikt.sim.header import writable_file
from konflikt.sim.runner import Generators, Runner, seat_policies
from konflikt.store.source import LibrarySource


def ask_at_terminal(console: Console) -> Callable[[State, str], Action]:
    """A plain prompt for human seats (``konflikt play`` is the full table assistant)."""

    def decide(state: State, seat: str) -> Action:
        legal = list(state.legal_actions(seat))
        list_choices(console, state, seat, legal)
        while True:
            try:
                text = ask_line(console, Text(_("{seat} choose 1-{count} › ", seat=seat, count=len(legal))))
                return read_choice(text, state, seat, legal)
            except KonfliktError as exc:
                console.print(str(exc), style="red", highlight=False, markup=False)

    return decide


def header(console: Console, scenario: Scenario, seed: int, played_by: Mapping[str, str] | None = None) -> None:
    """The scenario's title, seed, description and sides, each participant with who plays it (human or a policy)."""
    played_by = played_by or {}
    text = Text(scenario.title, style="bold")
    text.append(" — " + scenario.ruleset.display_name + "\n" + _("seed {seed}", seed=seed))
    if scenario.description:
        text.append(f"\n{scenario.description}")
    for side in scenario.sides:
        names = ", ".join(f"{p.name} ({policy_label(played_by.get(p.id, p.policy))})" for p in side.participants)
        text.append("\n")
        if side.goal:
            line = styled(
                _("side {side}: {names} — goal: {goal}"), side=(side.name, "bold"), names=names, goal=side.goal
            )
        else:
            line = styled(_("side {side}: {names}"), side=(side.name, "bold"), names=names)
        text.append_text(line)
    console.print(Panel(text, expand=False))


def register(app: typer.Typer) -> None:
    @app.command()
    def run(
        scenario_name: ScenarioArgument,
        seed: Annotated[int | None, typer.Option(help="Seed (default: the scenario's, else a fresh one).")] = None,
        option: RuleOption = None,
        settings: SetOption = None,
        policy: PolicyOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the events and the outcome as JSON.")] = False,
        save: Annotated[Path | None, typer.Option(help="Write the whole conflict (replayable) as JSON.")] = None,
        campaign: Annotated[
            str | None, typer.Option(help="Take characters from this campaign's library; write them back.")
        ] = None,
        db: Annotated[Path | None, typer.Option("--db", help="The save database holding the campaign.")] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the outcome.")] = False,
    ) -> None:
        """Play a whole conflict and print the narrated log and the outcome."""
        if listed_instead(scenario_name, "run", as_json):
            return
        source = LibrarySource(db, campaign)
        with characters_from(source):
            scenario = scenario_named(scenario_name, settings)
        check_library_settings(scenario, source.taken, settings)
        overrides = overrides_for(scenario, option)
        seats = seat_policies(scenario, seat_overrides(scenario, policy))
        the_seed = choose_seed(seed, scenario)
        console = plain_console()
        state = new_state(scenario, overrides)
        humans = [s for s, p in seats.items() if p is None]
        if humans and as_json:
            raise KonfliktError(
                _("--json plays without a terminal, but these seats are human: {seats}", seats=", ".join(humans))
            )
        if save is not None:
            writable_file(save)  # before the first question: a conflict typed at the terminal must not be lost
        runner = Runner(seats, Generators.from_seed(the_seed), decide=ask_at_terminal(console))
        narrated = not as_json and not quiet
        if narrated:
            header(console, scenario, the_seed, seat_overrides(scenario, policy))
            print_events(console, state.history())
        shown = len(state.history())

        def narrate(s: State) -> None:
            nonlocal shown
            if not narrated:
                return
            events = [e for e in s.history()[shown:] if e.visible(GM)]
            print_events(console, events)
            shown = len(s.history())

        runner.play(state, on_step=narrate)
        outcome = state.outcome()
        cast = source.cast(scenario)
        if cast is not None:
            seat_policy_names = {p.id: p.policy for p in scenario.participants()} | seat_overrides(scenario, policy)
            kept = Conflict.of(state, scenario, overrides, the_seed)
            conflict_id, changes = keep_in_campaign(db, kept, cast, seat_policy_names)
        if save is not None:
            write_output(save, json.dumps(Conflict.of(state, scenario, overrides, the_seed).to_json(), indent=1))
        if as_json:
            payload = {
                "scenario": scenario.source,
                "ruleset": scenario.ruleset.id,
                "seed": the_seed,
                "options": dict(state.options),
                "events": [e.to_json() for e in state.history()],
                "steps": [s.to_json() for s in state.steps()],
                "outcome": outcome.to_json(),
                "aftermath": aftermath.to_json() if (aftermath := aftermath_of(state)) is not None else None,
            }
            if cast is not None:
                payload["campaign"] = {"name": cast.campaign, "conflict": conflict_id, "changes": dict(changes)}
            typer.echo(json_text(payload, indent=1))
            return
        names = scenario_names(scenario)
        if narrated:
            console.print(status_table(state, _("After the conflict"), names=names))
        console.print(outcome_panel(state, names), highlight=False)
        if cast is not None:
            print_changes(console, cast.campaign, conflict_id, changes)
