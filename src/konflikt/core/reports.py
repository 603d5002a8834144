"""What a ruleset says about its balancing reports (``konflikt report``): the content, as data, of each report.

A ruleset registers its reports on :attr:`konflikt.core.ruleset.Ruleset.reports` the way it registers its odds
questions. It supplies what only it knows — who takes part, the scenario document of one match, its own rating of
the entrants, which fate means death — and no statistics: the report machinery that plays the matches, fits the
ratings and draws the plots lives above simulation and analysis in :mod:`konflikt.reports` (it needs both, and a
ruleset may import neither). Two kinds of report exist, one dataclass each:

* :class:`RoundRobin`: every ordered pair of entrants (weapons, say) meets ``n`` times at each level, and a
  Bradley–Terry fit rates them (Le våld's weapons against the text's "Bra").
* :class:`Ladder`: one side against a ladder of opponents (Fimbulfrost's heroes from the robber band to the dragon).
* :class:`Choices`: "is there a dominant choice?" — each option's share under optimal play (or, where that is out
  of reach, one step of improvement by seeded playouts), and its alternatives' cost.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from konflikt.core.scenario import Scenario


@dataclass(frozen=True)
class Entrant:
    """One entrant of a round robin: its name in the text, an English gloss, and the text's own rating (if any)."""

    name: str
    english: str
    reference: float | None = None


@dataclass(frozen=True)
class RoundRobin:
    """A rating by duels: every ordered pair of different entrants, and each entrant against itself (the mirror
    match, which must come out even), ``n`` times at each level.

    Attributes:
        entrants: the entrants, in the text's order.
        match: the scenario document of ``a`` (side ``sides[0]``) against ``b`` (``sides[1]``) at a level.
        sides: the two side ids of a match document.
        entrant_word: what an entrant is, in the text's word with English beside it (a table column, a plot axis).
        reference_name: the text's own rating of the entrants (``'"Bra"'``); ``""`` when the text gives none.
        baseline: the entrant the others are measured against on the plot's probability axis.
        level_name, level_unit: what a level is (``skill``, ``%``).
        levels: the levels played unless the designer asks for others; ``level_range``: the levels allowed.
        scenario_words: the match in words, for the plot's caption.
    """

    entrants: Callable[[], Sequence[Entrant]]
    match: Callable[[str, str, int], dict[str, Any]]
    baseline: str
    entrant_word: str
    scenario_words: str
    reference_name: str = ""
    sides: tuple[str, str] = ("side_a", "side_b")
    level_name: str = "level"
    level_unit: str = ""
    levels: tuple[int, ...] = (1,)
    level_range: tuple[int, int] = (1, 100)


@dataclass(frozen=True)
class Rung:
    """One opponent of a ladder: its name, its numbers (in the text's words), its level and its scenario."""

    name: str
    numbers: Mapping[str, int]
    level: float
    bundled: bool
    document: Mapping[str, Any]


@dataclass(frozen=True)
class Ladder:
    """One side (the heroes) against each opponent of a ladder: their chance, the endings, consequences, deaths.

    Attributes:
        heroes: the heroes' participant ids; ``hero_side``: their side; ``opponent``: the opponent's participant id.
        rungs: the opponents for the given plain levels (and, with ``bundled``, the bundled opponents too).
        levels: the plain levels played unless the designer asks for others; ``level_range``: the levels allowed.
        level_words: what a rung's level is, for the plot's axis.
        endings: ending id → column heading, the endings the table shows besides the heroes' win.
        consequences: participant → fate label → how many consequences that fate holds, for a scenario.
        dead: the prefix of a fate label that means the participant died.
        scenario_words: the scenarios in words, for the plot's caption.
    """

    heroes: tuple[str, ...]
    hero_side: str
    opponent: str
    rungs: Callable[[Sequence[int], bool], list[Rung]]
    consequences: Callable[[Scenario], Mapping[str, Mapping[Hashable, int]]]
    dead: str
    level_words: str
    scenario_words: str
    endings: Mapping[str, str] = field(default_factory=dict)
    levels: tuple[int, ...] = ()
    level_range: tuple[int, int] = (1, 100)


@dataclass(frozen=True)
class Choices:
    """Is there a dominant choice? Under optimal play of both sides (a ruleset's round game), how often each option
    of each kind of decision is chosen, and what the best option of another kind costs there.

    Attributes:
        scenarios: the bundled scenarios (``RULESET/NAME``) the report solves.
        group: a round game's choice → (kind of decision, option), both in the system's words with English; ``None``
            for a choice that is no decision (a pass).
        concede: the option that is conceding (presja's ``poddanie się``), reported on its own: where it is right.
        scenario_words: the scenarios and what "optimal" covers, for the report's caption.
    """

    scenarios: tuple[str, ...]
    group: Callable[[Hashable], tuple[str, str] | None]
    scenario_words: str
    concede: str | None = None
    method: str = "optimal"
    """``optimal``: the scenarios' round games solved exactly. ``rollout``: where optimal play is out of reach, one
    step of policy improvement over the heuristic (:mod:`konflikt.analysis.rollout`): at each decision met in
    ``Report.n`` conflicts of heuristic play, every option scored by :attr:`playouts` seeded playouts of the
    heuristic; ``group`` then takes the State's action, and :attr:`decision` names the decision."""
    decision: Callable[[Sequence[str]], str | None] | None = None
    """For ``rollout``: the kind of decision, from the kinds of the legal actions (``None``: not reported)."""
    playouts: int = 16
    levels: tuple[int, ...] = (1,)
    """Unused (the command's ``--levels`` asks for one): the report solves its scenarios as they are."""
    level_range: tuple[int, int] = (1, 100)


@dataclass(frozen=True)
class Report:
    """One balancing report of a ruleset, as ``konflikt report ID-NAME`` runs it.

    Attributes:
        name: the report's short name within its ruleset (``weapons``): the command is ``<ruleset>-<name>``.
        title: one line for the list and the table's title.
        summary: what the report answers, for ``--help``; quote the text that asks the question.
        content: the report's data (a :class:`RoundRobin` or a :class:`Ladder`).
        n: conflicts per match (round robin) or per opponent (ladder) unless the designer asks for another number.
    """

    name: str
    title: str
    summary: str
    content: RoundRobin | Ladder | Choices
    n: int = 2000


__all__ = ["Entrant", "Ladder", "Report", "RoundRobin", "Rung"]


def decision_named(kinds: Sequence[str], decisions: Sequence[tuple[frozenset[str], str]], least: int = 1) -> str | None:
    """The name of the first of ``decisions`` (its action kinds, its name) whose kinds hold every kind offered, where
    at least ``least`` are offered (``None``: not a decision the report counts). A choices report's ``decision``."""
    found = set(kinds)
    for words, name in decisions:
        if len(found) >= least and found <= words:
            return name
    return None
