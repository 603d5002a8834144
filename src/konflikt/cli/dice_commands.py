"""``konflikt roll`` and ``konflikt odds``: dice, per-ruleset questions, and (later) whole conflicts."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from typer.core import TyperCommand

from konflikt.analysis.exact import DEFAULT_MAX_STATES, StateSpaceTooLarge
from konflikt.analysis.questions import whole_conflict_answer
from konflikt.cli.common import (
    PolicyOption,
    RuleOption,
    SetOption,
    overrides_for,
    scenario_named,
    seat_overrides,
    time_limit,
    working,
)
from konflikt.cli.completion import complete_scenario_or_ruleset
from konflikt.cli.i18n import N_, _, ngettext, whole
from konflikt.cli.render import LONG_FRACTION, plain_console, probability_table, probability_text
from konflikt.core.conflict import new_state
from konflikt.core.odds import OddsAnswer
from konflikt.core.ruleset import get_ruleset, ruleset_ids
from konflikt.core.scenario import Scenario
from konflikt.dice import Dice, DiceExpression, SuccessPool, exact_seconds, parse_dice
from konflikt.dice.distribution import decimal_text, fraction_text, mean, value_text
from konflikt.dice.opposed import Opposed
from konflikt.errors import DiceError, KonfliktError
from konflikt.safe_text import json_text
from konflikt.sim.runner import seat_policies
from konflikt.store.db import Store

DICE_WORDS = {
    "successes": N_("successes"),
    "outcome": N_("outcome"),
    "who is higher": N_("who is higher"),
    "margin A−B": N_("margin A−B"),
    "mean successes": N_("mean successes"),
    "mean margin A−B": N_("mean margin A−B"),
    "mean": N_("mean"),
    "successes,ones": N_("successes,ones"),
    "A higher": N_("A higher"),
    "B higher": N_("B higher"),
    "tie": N_("tie"),
    "yes": N_("yes"),
    "no": N_("no"),
}
"""The words of a dice answer that are also its JSON keys: shown in the language in use, kept in English in JSON."""


def shown_key(key: str) -> str:
    """A dice answer's label or key as printed (``successes`` → ``framgångar``); other keys as they are."""
    word = DICE_WORDS.get(key)
    return _(word) if word is not None else key


def shown_rows(rows: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(shown_key(key), p) for key, p in rows]


def rounded_note() -> str:  # a message, looked up when printed
    return _("decimals rounded to 6 digits; the exact fractions with --exact or --json")


def check_seed(seed: int | None) -> int | None:
    if seed is not None and not 0 <= seed < 2**63:
        raise KonfliktError(_("seed {seed} must be a whole number from 0 to 2**63 - 1", seed=seed))
    return seed


MAX_EXACT_SECONDS = 3.0
"""Exact dice odds estimated to take longer than this are refused before they start."""


def check_budget(dice: Dice) -> None:
    seconds = exact_seconds(dice)
    if seconds > MAX_EXACT_SECONDS:
        raise DiceError(
            _(
                "the exact odds of {dice} would take about {seconds} s (the limit is {limit} s): use fewer or smaller "
                "dice, or sample it with 'konflikt roll {dice} --times 10000'",
                dice=dice.notation,
                seconds=whole(round(seconds)),
                limit=whole(round(MAX_EXACT_SECONDS)),
            )
        )


def dice_answer(dice: Dice) -> OddsAnswer:
    """The exact distribution of a dice expression: a sum with at-least/at-most, a yes/no test, or a pool's
    successes (with the joint successes × 1s). Refuses, before starting, what would take more than a few seconds."""
    check_budget(dice)
    if isinstance(dice, SuccessPool) or (isinstance(dice, DiceExpression) and dice.pool):
        successes = dice.successes()
        if isinstance(dice, SuccessPool):
            rule = "4–6"
        else:
            rule = _("each die {rule}", rule=" ".join(map(str, dice.compare or ())))
        with_ones = isinstance(dice, SuccessPool) or (isinstance(dice, DiceExpression) and dice.has_ones())
        joint = [(dice.outcome_label(k), p) for k, p in dice.distribution().items()]
        return OddsAnswer(
            _("{dice}: successes ({rule})", dice=dice.notation, rule=rule),
            "successes",
            [(str(k), p) for k, p in successes.items()],
            distributions={"successes,ones": joint} if with_ones else {},
            probabilities={"mean successes": mean(successes)},
            cumulative=True,
        )
    if isinstance(dice, Opposed):
        return opposed_answer(dice)
    dist = dice.distribution()
    if isinstance(dice, DiceExpression) and dice.compare is not None:
        rows = [(dice.outcome_label(k), p) for k, p in dist.items()]
        return OddsAnswer(
            dice.notation, "outcome", rows, probabilities={f"P({dice.notation})": dist.get(True, Fraction(0))}
        )
    rows = [(dice.outcome_label(k), p) for k, p in dist.items()]
    return OddsAnswer(dice.notation, "outcome", rows, probabilities={"mean": mean(dist)}, cumulative=True)


def opposed_answer(dice: Opposed) -> OddsAnswer:
    """``A vs B``: who is higher (ties shown) and the margin A−B; or, judged by a rule, the rule's outcomes."""
    dist = dice.distribution()
    sides = f"A = {dice.a.notation}, B = {dice.b.notation}"
    if dice.judge is not None:
        judge = dice.judge
        rows = [(str(k), dist.get(k, Fraction(0))) for k in dist]
        return OddsAnswer(
            f"{dice.notation} ({sides})", judge.label, rows, cumulative=judge.numeric, notes=list(judge.notes)
        )
    margin = dice.margin()
    kind = ", " + _("each side's successes") if dice.a.pool or dice.b.pool else ""
    return OddsAnswer(
        f"{dice.notation} ({sides}{kind})",
        "who is higher",
        [(str(k), p) for k, p in dist.items()],
        distributions={"margin A−B": [(str(k), p) for k, p in margin.items()]},
        probabilities={"mean margin A−B": mean(margin)},
    )


@dataclass(frozen=True)
class ComparedAnswer:
    """Several dice expressions' exact answers, compared outcome by outcome (``konflikt odds 3d6 4d6kh3 2d10``)."""

    answers: tuple[OddsAnswer, ...]
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        labels = {a.label for a in self.answers}
        return labels.pop() if len(labels) == 1 else "outcome"

    @property
    def numeric(self) -> bool:
        return all(a.cumulative for a in self.answers)

    def rows(self) -> list[tuple[str, list[Fraction]]]:
        """Every outcome of any of them, with each one's probability (0 where it cannot happen), in order."""
        keys: list[str] = []
        for answer in self.answers:
            keys += [k for k, _ in answer.outcomes if k not in keys]
        if self.numeric:
            keys.sort(key=int)
        tables = [{k: Fraction(p) for k, p in a.outcomes} for a in self.answers]
        return [(k, [t.get(k, Fraction(0)) for t in tables]) for k in keys]

    def to_json(self) -> dict[str, Any]:
        return {
            "expressions": list(self.names),
            "label": self.label,
            "outcomes": {k: [fraction_text(p) for p in ps] for k, ps in self.rows()},
            "answers": [{"expression": n, **a.to_json()} for n, a in zip(self.names, self.answers, strict=True)],
        }


MAX_COMPARED = 8
"""``konflikt odds A B C …``: at most this many expressions side by side."""


def compared_answer(dice: list[Dice]) -> ComparedAnswer:
    if len(dice) > MAX_COMPARED:
        raise DiceError(
            _("compare at most {most} dice expressions at a time, not {count}", most=MAX_COMPARED, count=len(dice))
        )
    answers = tuple(dice_answer(d) for d in dice)
    if any(not isinstance(p, Fraction) for a in answers for _, p in a.outcomes):  # pragma: no cover - dice are exact
        raise DiceError(_("only exact answers are compared"))
    return ComparedAnswer(answers, tuple(d.notation for d in dice))


def print_compared(compared: ComparedAnswer, exact: bool) -> None:
    """One table: a row per outcome, a column per expression; then each one's mean."""
    from rich.table import Table
    from rich.text import Text

    console = plain_console()
    table = Table(title=Text(_("compared: {names}", names=", ".join(compared.names))), title_justify="left")
    table.add_column(Text(shown_key(compared.label)), justify="right", overflow="fold")
    for name in compared.names:
        table.add_column(Text(name), justify="right", overflow="fold")
    for key, ps in compared.rows():
        table.add_row(Text(key), *(fraction_text(p) if exact else probability_text(p) for p in ps))
    console.print(table)
    for name, answer in zip(compared.names, compared.answers, strict=True):
        for what, p in answer.probabilities.items():
            shown = (
                f"{fraction_text(p)} ≈ {decimal_text(p)}"
                if exact and isinstance(p, Fraction)
                else value_text(Fraction(p))
            )
            console.print(f"{name}: {shown_key(what)} {shown}", highlight=False, markup=False)
    if not exact:
        console.print(rounded_note(), style="dim")


def print_answer(
    answer: OddsAnswer | ComparedAnswer, as_json: bool, extra: dict[str, Any] | None = None, exact: bool = False
) -> None:
    if isinstance(answer, ComparedAnswer):
        if as_json:
            typer.echo(json_text({**(extra or {}), **answer.to_json()}, indent=2))
        else:
            print_compared(answer, exact)
        return
    if as_json:
        typer.echo(json_text({**(extra or {}), **answer.to_json()}, indent=2))
        return
    console = plain_console()

    def word(key: str) -> str:  # the answer's own words for its keys (a ruleset's), else the dice answer's
        return answer.shown(key) if key in answer.words else shown_key(key)

    def rows_shown(rows: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
        return [(word(key), p) for key, p in rows]

    console.print(
        probability_table(
            answer.title, word(answer.label), rows_shown(answer.outcomes), exact, answer.cumulative, answer.played
        )
    )
    for name, p in answer.probabilities.items():
        if not isinstance(p, Fraction):
            shown = probability_text(p)
        elif exact and p.denominator != 1:
            shown = f"{fraction_text(p)} ≈ {decimal_text(p)}"
        else:
            shown = value_text(p)
        console.print(f"{word(name)}: {shown}", highlight=False, markup=False)
    for name, rows in answer.distributions.items():
        if len(rows) <= 40:
            key = word(name)
            console.print(probability_table(key, key, rows_shown(rows), exact, played=answer.played))
        else:
            console.print(
                _("{name}: {count} outcomes, every one in --json", name=word(name), count=whole(len(rows))),
                style="dim",
                markup=False,
            )
    for note in answer.notes:
        console.print(note, style="dim", highlight=False, markup=False)
    if answer.error_bound is not None:
        # an absolute bound comes from a solve without the clock, for a conflict too large for the exact fractions
        bound = f"{answer.error_bound:.1e}"
        if answer.absolute:
            floats = _(
                "floats: every probability within an absolute error of {bound} of the exact value; decimals rounded "
                "to 6 digits",
                bound=bound,
            )
        else:
            floats = _(
                "floats: every probability within a relative error of {bound} of the exact value; decimals rounded "
                "to 6 digits; the exact fractions with --exact",
                bound=bound,
            )
        console.print(
            floats,
            style="dim",
            highlight=False,
            markup=False,
        )
    elif not exact and any(
        len(fraction_text(p)) > LONG_FRACTION for _, p in answer.outcomes if isinstance(p, Fraction)
    ):
        console.print(rounded_note(), style="dim")


def parse_params(words: list[str]) -> dict[str, str]:
    """``--attack 3 --weapon=1`` → ``{"attack": "3", "weapon": "1"}``."""
    params: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") or word == "--":
            raise KonfliktError(_("unexpected argument {word}: parameters are given as --name value", word=repr(word)))
        name, sep, value = word[2:].partition("=")
        if not sep:
            if i + 1 >= len(words):
                raise KonfliktError(_("--{name} needs a value", name=name))
            value = words[i + 1]
            i += 1
        params[name.replace("_", "-").replace("-", "_")] = value
        i += 1
    return params


FACES_SHOWN = 20
"""``roll`` shows each die's face up to this many dice (a table's handful); beyond, the result alone."""


def register(app: typer.Typer) -> None:
    @app.command()
    def roll(
        expression: Annotated[
            list[str],
            typer.Argument(
                metavar="EXPR",
                help="Dice: 4dF, 3d6, 2T+2, 6d6 pool, d100, 4d6kh3, 2d10+1d4-2, 4dF+2>=3, 6d6>=4, 3d6r1, 2d6*3, "
                "max(2d6,1d12), 2d6 vs 2d6, d100<=60 vs d100<=55 by quality.",
            ),
        ],
        seed: Annotated[int | None, typer.Option(help="Seed for a repeatable roll.")] = None,
        times: Annotated[int, typer.Option(min=1, max=10_000, help="How many rolls.")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Roll dice (seeded when asked). The words of an expression need no quotes: konflikt roll 6d6 pool."""
        dice = read_expression(" ".join(expression))
        rng = np.random.default_rng(check_seed(seed))
        rolled = [dice.roll(rng) for _ in range(times)]  # the same draws as sample(), with each die's face kept
        if as_json:
            results = [result for result, _ in rolled]
            typer.echo(json.dumps({"expression": dice.notation, "seed": seed, "results": results}))
            return
        for result, faces in rolled:  # each die as it fell, where the dice have faces (as play shows them)
            fell = f"{dice.faces_text(faces)} → " if faces is not None and len(faces) <= FACES_SHOWN else ""
            typer.echo(f"{dice.notation}: {fell}{dice.describe(result)}")

    @app.command(cls=OddsCommand, context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def odds(
        ctx: typer.Context,
        target: Annotated[
            str | None,
            typer.Argument(
                help="A dice expression; a ruleset id and a question; or a scenario (file or RULESET/NAME).",
                autocompletion=complete_scenario_or_ruleset,
            ),
        ] = None,
        as_json: Annotated[
            bool,
            typer.Option(
                "--json",
                help="Print JSON: outcomes mapped to 'p/q' strings (a whole conflict: JSON numbers, with "
                "'error_bound', unless --exact).",
            ),
        ] = False,
        saved: Annotated[int | None, typer.Option(help="Odds from saved conflict ID as it stands now.")] = None,
        from_step: Annotated[
            int | None, typer.Option(min=0, help="With --saved: odds as the conflict stood after this many steps.")
        ] = None,
        db: Annotated[Path | None, typer.Option(help="The save database for --saved.")] = None,
        option: RuleOption = None,
        settings: SetOption = None,
        policy: PolicyOption = None,
        max_states: Annotated[int, typer.Option(min=1, help="Give up above this many states.")] = DEFAULT_MAX_STATES,
        exact: Annotated[
            bool,
            typer.Option(
                "--exact",
                help="Show every probability as an exact fraction; a whole conflict is then solved in fractions "
                "(the same answer, slower) instead of floats with a stated error bound.",
            ),
        ] = False,
        plot: Annotated[
            Path | None, typer.Option(help="Also draw the distribution (with at least / at most) to this PNG/SVG.")
        ] = None,
        timeout: Annotated[float | None, typer.Option(help="Give up after this many seconds.")] = None,
        full: Annotated[
            bool, typer.Option("--full", help="A whole conflict: every fate and consequence, not the summary.")
        ] = False,
    ) -> None:
        """Exact odds: of dice (4dF), of a ruleset's question (presja exchange --attack 3 --defense 5), or of a
        whole conflict (a scenario, or --saved ID from the table: in floats with a stated error bound, or in
        fractions with --exact)."""
        with time_limit(timeout, _("exact odds")), working(_("computing exact odds")):
            answer, extra = odds_of(
                list(ctx.args), target, saved, db, option, policy, max_states, from_step, exact, settings
            )
        if isinstance(answer, OddsAnswer) and not (as_json or full) and ("scenario" in extra or "saved" in extra):
            from konflikt.cli.odds_summary import print_summary

            print_summary(answer, plain_console(), exact)  # a whole conflict at a glance; --full: every fate
        else:
            print_answer(answer, as_json, extra, exact)
        plot_answer(answer, plot)


def questions_help() -> str:
    """Every ruleset's odds questions with all their parameters (for ``konflikt odds --help``)."""
    lines = ["Per-ruleset questions (konflikt odds RULESET QUESTION --param value):"]
    for ruleset_id in ruleset_ids():
        for name, question in get_ruleset(ruleset_id).odds.items():
            params = " ".join(
                f"--{p.name.replace('_', '-')} {'|'.join(p.choices) if p.choices else p.type.__name__.upper()}"
                + ("" if p.required else f" (default {p.default})")
                for p in question.params
            )
            lines.append(f"{ruleset_id} {name} {params}: {question.doc}")
    from konflikt.analysis.dice_questions import opposed_rules

    lines.append("Opposed rules (konflikt odds 'A vs B by RULE', the rule's options with -o name=value):")
    lines += [f"by {name}: {rule.doc}" for name, rule in opposed_rules().items()]
    lines.append("Several expressions compared side by side: konflikt odds 3d6 4d6kh3 2d10 [--plot F]")
    return "\n\n".join(lines)


class OddsCommand(TyperCommand):
    """``odds``: its help ends with every ruleset's questions, read from the registry only when help is asked."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.epilog = questions_help()
        super().format_help(ctx, formatter)


def odds_of(
    rest: list[str],
    target: str | None,
    saved: int | None,
    db: Path | None,
    option: list[str] | None,
    policy: list[str] | None,
    max_states: int,
    from_step: int | None = None,
    exact: bool = False,
    settings: list[str] | None = None,
) -> tuple[OddsAnswer | ComparedAnswer, dict[str, Any]]:
    """The answer of ``konflikt odds`` and what JSON adds to it (computed inside the time limit). A whole conflict
    is solved in floats unless ``exact`` (then in Fractions); JSON says which (``exact``, ``error_bound``)."""
    is_scenario = target is not None and ("/" in target or target.endswith(".toml"))
    if settings and (saved is not None or not is_scenario):
        raise KonfliktError(
            _(
                "--set {setting}: --set goes with a scenario (konflikt odds RULESET/NAME --set …)",
                setting=settings[0],
            )
        )
    if saved is not None:
        if target is not None:
            raise KonfliktError(_("give either a TARGET or --saved ID, not both"))
        store = Store.open(db, readonly=True)
        try:
            loaded = store.load(saved)
        finally:
            store.close()
        conflict = loaded.conflict
        names = dict(loaded.seats)
        names.update(seat_overrides(conflict.scenario, policy))
        if from_step is not None and from_step > len(conflict.steps):
            raise KonfliktError(
                ngettext(
                    "--from-step {step}: saved conflict {id} has {n} step",
                    "--from-step {step}: saved conflict {id} has {n} steps",
                    len(conflict.steps),
                    step=from_step,
                    id=saved,
                )
            )
        upto = len(conflict.steps) if from_step is None else from_step
        state = conflict.replay(upto)
        if state.is_terminal():
            raise KonfliktError(
                ngettext(
                    "saved conflict {id} is over after {n} step: {outcome}",
                    "saved conflict {id} is over after {n} steps: {outcome}",
                    upto,
                    id=saved,
                    outcome=state.outcome().summary,
                )
            )
        try:
            answer = whole_conflict_answer(
                conflict.scenario,
                state,
                seat_policies(conflict.scenario, names),
                max_states,
                ngettext(
                    "{title}, after {n} step: who wins (exact)",
                    "{title}, after {n} steps: who wins (exact)",
                    upto,
                    title=conflict.scenario.title,
                )
                if exact
                else ngettext(
                    "{title}, after {n} step: who wins",
                    "{title}, after {n} steps: who wins",
                    upto,
                    title=conflict.scenario.title,
                ),
                exact=exact,
            )
        except StateSpaceTooLarge as exc:  # out of exact reach: say so, and estimate from the state as it stood
            from konflikt.cli.odds_estimate import estimated_answer

            title = ngettext(
                "{title}, after {n} step: who wins (≈ estimated)",
                "{title}, after {n} steps: who wins (≈ estimated)",
                upto,
                title=conflict.scenario.title,
            )
            answer, extra = estimated_answer(conflict.scenario, {}, names, exc, start=state, title=title)
            return answer, {"saved": saved, "from_step": upto, **extra}
        return answer, {"saved": saved, "from_step": upto, **_how_exact(answer)}
    if from_step is not None:
        raise KonfliktError(_("--from-step goes with --saved ID"))
    if target is None:
        raise KonfliktError(_("name what to compute: a dice expression, RULESET QUESTION, or a scenario"))
    if target in ruleset_ids():
        ruleset = get_ruleset(target)
        if not rest or rest[0].startswith("--"):
            known = ", ".join(ruleset.odds) or _("none yet")
            raise KonfliktError(_("name a question for {ruleset} (known: {known})", ruleset=target, known=known))
        question_name, params = rest[0], parse_params(rest[1:])
        if question_name not in ruleset.odds:
            known = ", ".join(ruleset.odds) or _("none yet")
            raise KonfliktError(
                _(
                    "unknown question {question} for {ruleset} (known: {known})",
                    question=repr(question_name),
                    ruleset=target,
                    known=known,
                )
            )
        answer = ruleset.odds[question_name].ask(params)
        return answer, {"ruleset": target, "params": params}
    if rest and ("/" in target or target.endswith(".toml")):
        raise KonfliktError(
            _("unexpected arguments after {target}: {words}", target=repr(target), words=" ".join(rest))
        )
    if is_scenario:
        scenario = scenario_named(target, settings)
        answer, extra = scenario_answer(scenario, option, policy, max_states, exact)
        return answer, {"scenario": scenario.source, **({"set": list(settings)} if settings else {}), **extra}
    words = [target, *rest]
    try:
        dice = read_expression(" ".join(words), option)  # unquoted words of one expression: 6d6 pool, 2d6 vs 2d6
    except DiceError as exc:
        several = read_several(words, option) if len(words) > 1 else None
        if several is not None:  # several expressions, each a word of its own: compared side by side
            compared = compared_answer(several)
            return compared, {"expressions": list(compared.names)}
        raise DiceError(
            _(
                "{why}; or name a ruleset ({rulesets}) and a question, or a scenario",
                why=exc,
                rulesets=", ".join(ruleset_ids()),
            )
        ) from None
    return dice_answer(dice), {"expression": dice.notation}


def scenario_answer(
    scenario: Scenario,
    option: list[str] | None,
    policy: list[str] | None,
    max_states: int,
    exact: bool,
    n: int | None = None,
    seed: int = 0,
) -> tuple[OddsAnswer, dict[str, Any]]:
    """A whole conflict's odds from its opening (``-o`` options and ``--policy`` seats applied): exact (in floats
    within a stated bound, or in Fractions with ``exact``), else, out of exact reach, estimated by simulation; and
    what JSON adds (``exact``/``error_bound``, or ``estimated`` with ``n``): ``n`` conflicts played from ``seed``
    (``None``: as many as ``odds`` plays)."""
    overrides = overrides_for(scenario, option)
    chosen = seat_overrides(scenario, policy)
    seats = seat_policies(scenario, chosen)
    try:
        answer = whole_conflict_answer(scenario, new_state(scenario, overrides), seats, max_states, exact=exact)
    except StateSpaceTooLarge as exc:  # out of exact reach: say so, and estimate
        from konflikt.cli.odds_estimate import estimated_answer

        return estimated_answer(scenario, overrides, chosen, exc, n=n, seed=seed)
    return answer, _how_exact(answer)


def read_expression(text: str, option: list[str] | None = None) -> Dice:
    """A dice expression; ``A vs B by RULE`` with the systems' opposed rules (and ``-o`` options for the rule)."""
    if re.search(r"\bby\b", text, re.IGNORECASE):
        from konflikt.analysis.dice_questions import read_dice
        from konflikt.core.options import parse_assignments

        return read_dice(text, parse_assignments(option or []))
    if option:
        raise KonfliktError(
            _(
                "-o {option}: rule options go with a scenario or with an opposed rule ('A vs B by quality')",
                option=option[0],
            )
        )
    return parse_dice(text)


def read_several(words: list[str], option: list[str] | None) -> list[Dice] | None:
    """Each word its own expression (``3d6 4d6kh3 2d10``); ``None`` when the words were meant as one (the first
    is no expression alone, or a word joins two: ``vs``, ``by``); the first word that is not an expression: one
    line naming it."""
    if any(word.strip().lower() in ("vs", "by") for word in words):
        return None
    try:
        first = read_expression(words[0], option)
    except DiceError:
        return None
    return [first, *(read_expression(word, option) for word in words[1:])]


def _how_exact(answer: OddsAnswer) -> dict[str, Any]:
    """What JSON says of a whole conflict's numbers: exact fractions, or floats within a bound, relative or
    absolute (``error_bound_kind``)."""
    if answer.error_bound is None:
        return {"exact": True}
    kind = "absolute" if answer.absolute else "relative"
    return {"exact": False, "error_bound": answer.error_bound, "error_bound_kind": kind}


def plot_answer(answer: OddsAnswer | ComparedAnswer, path: Path | None) -> None:
    """Draw the answer's main distribution to ``path`` (PNG or SVG by its suffix), and say so on stderr; several
    expressions compared: one line (numbers) or bar (words) per expression on the same axes."""
    if path is None:
        return
    if path.suffix.lower() not in (".png", ".svg"):
        raise KonfliktError(_("--plot {path}: name a .png or .svg file", path=path))
    if isinstance(answer, ComparedAnswer):
        written = compared_plot(answer, path)
    else:
        from konflikt.sim.plots import distribution_plot

        written = distribution_plot(answer.title, answer.label, answer.outcomes, answer.cumulative, path)
    typer.echo(_("wrote {path}", path=written), err=True)


def compared_plot(compared: ComparedAnswer, out: Path) -> Path:
    import matplotlib.pyplot as plt

    from konflikt.sim import plots  # matplotlib without a screen, text kept as text in SVG

    rows = compared.rows()
    keys = [k for k, _ in rows]
    title = "compared: " + ", ".join(compared.names)
    fig, ax = plt.subplots(figsize=(max(6.0, 0.28 * len(rows) + 2, 0.11 * len(title)), 4.2))
    count = len(compared.names)
    for i, (name, answer) in enumerate(zip(compared.names, compared.answers, strict=True)):
        ps = [float(row[i]) for _, row in rows]
        if compared.numeric:  # each expression over its own outcomes: no line along the impossible ones
            ax.plot(
                [int(k) for k, _ in answer.outcomes], [float(p) for _, p in answer.outcomes], marker=".", label=name
            )
        else:
            width = 0.8 / count
            ax.bar([j + (i - (count - 1) / 2) * width for j in range(len(keys))], ps, width, label=name)
    if compared.numeric:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.set_xticks(range(len(keys)), keys)
    ax.set_xlabel(compared.label)
    ax.set_ylabel("probability")
    ax.set_ylim(0, max((float(p) for _, row in rows for p in row), default=1) * 1.15)
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    ax.legend()
    fig.tight_layout()
    plots._write(fig, out, [(out, {"dpi": 120})])
    return out


__all__ = ["dice_answer", "fraction_text", "register"]
