"""The ruleset registry: what a system supplies to the engine, and where to find it by id.

Each sub-package of :mod:`konflikt.rulesets` registers one :class:`Ruleset` when imported; the registry imports
them by name on first use, so ``core`` never imports a ruleset directly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from pydantic import BaseModel

from konflikt.core.actions import Action
from konflikt.core.campaign import CampaignRules
from konflikt.core.conformance import ConformanceTable, conformance_path, load_conformance
from konflikt.core.i18n import localized
from konflikt.core.messages import N_, _
from konflikt.core.odds import OddsQuestion
from konflikt.core.options import Options, OptionSet
from konflikt.core.outcome import Aftermath, fate_parts
from konflikt.core.reports import Report
from konflikt.core.state import State
from konflikt.dice.opposed import OpposedRule
from konflikt.errors import KonfliktError

if TYPE_CHECKING:
    from konflikt.core.scenario import Scenario


class Policy(Protocol):
    """Chooses an action for a seat. A human seat is a front end, not a policy."""

    name: str

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action: ...


class ExactModel(Protocol):
    """A conflict as a Markov chain over compact states (tuples of small ints), for exact analysis.

    Built by a ruleset's ``exact_model`` hook from the rules code itself (never a hand copy of the rules); solved by
    ``konflikt.analysis.compact``. One step of the chain is one round of the system (an exchange, a round) under
    the policies the model was built for.
    """

    unit: str
    """What one step is, in the system's words (``exchanges``, ``rounds``): the unit of :meth:`length`."""

    def encode(self, state: State) -> Hashable | None:
        """The compact state of ``state``, or ``None`` where the model cannot start from it (mid-round)."""
        ...

    def successors(self, compact: Hashable) -> tuple[int, Sequence[tuple[Hashable, int]]]:
        """One round on from a compact state that has not ended: a denominator and (next compact state, numerator)
        pairs, merged (so each probability is numerator / denominator; integers keep the solver fast)."""
        ...

    def end(self, compact: Hashable) -> Hashable | None:
        """The outcome label of an ended compact state (as ``analysis.exact.outcome_label`` writes it), else
        ``None``."""
        ...

    def length(self, compact: Hashable) -> int:
        """The rounds played when the conflict is at ``compact``, in :attr:`unit` (the outcome's length)."""
        ...


class RoundGame(Protocol):
    """A conflict as a game over compact states, for optimal play (``konflikt.analysis.optimal_model``).

    Each round the seats of :attr:`turns` choose in turn (each seeing the choices before it), then the round is
    resolved by the rules code over the dice; a compact state holds no round number (the solver carries it, up to
    :attr:`cap`). The choices a game exposes are the decisions it optimises (presja: the declarations); whatever
    else the rules ask is played by the heuristic inside :meth:`resolve`, and the game says so in :attr:`scope`.
    """

    unit: str
    """What one round is, in the system's words (``exchanges``)."""
    turns: tuple[str, ...]
    """The seats that choose each round, in order."""
    scope: str
    """Which decisions are optimised and which are left to the heuristic, in words."""

    def start(self, state: State) -> tuple[Hashable, int, tuple[Hashable, ...]] | None:
        """Where ``state`` stands: (compact state, rounds left including this one, the choices made this round so
        far), or ``None`` where it is not at one of the game's decisions or round starts."""
        ...

    def choices(self, compact: Hashable, made: tuple[Hashable, ...]) -> Sequence[Hashable]:
        """The choices of ``turns[len(made)]`` after ``made``; empty when the round is decided (a concession)."""
        ...

    def policy_choice(self, compact: Hashable, made: tuple[Hashable, ...]) -> Hashable:
        """What the seat's heuristic chooses there."""
        ...

    def resolve(self, compact: Hashable, made: tuple[Hashable, ...]) -> tuple[int, Sequence[tuple[Hashable, int]]]:
        """The round's end once everyone has chosen: a denominator and (next compact state, numerator) pairs."""
        ...

    def end(self, compact: Hashable) -> Hashable | None:
        """The outcome label of an ended compact state (``outcome_label``'s shape: ending, winners, fates)."""
        ...

    def deadlock(self, compact: Hashable) -> Hashable:
        """The outcome label when the round cap ends the conflict at ``compact``."""
        ...

    def action(self, state: State, seat: str, choice: Hashable) -> Action:
        """The State's legal action that is ``choice``."""
        ...

    def describe(self, choice: Hashable) -> str:
        """A choice in the system's words, with English."""
        ...


GameFactory = Callable[[State, Mapping[str, Policy]], RoundGame | str | None]
"""A ruleset's ``round_game`` hook: the game of the conflict at ``state`` with ``policies`` for the seats it does not
optimise (the GM); a string saying why not; ``None`` where ``state`` is not at a round's start."""


ModelFactory = Callable[[State, Mapping[str, Policy]], ExactModel | str | None]
"""A ruleset's ``exact_model`` hook: a model for the conflict at ``state`` under ``policies``; a string saying why
it never will be one (a policy or an option it does not mirror); ``None`` where ``state`` is between rounds' starts
(the caller steps on through the State API and asks again)."""


class RandomPolicy:
    """Uniformly random among the legal actions: the baseline every ruleset has."""

    name = "random"

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        legal = state.legal_actions(seat)
        if not legal:
            raise KonfliktError(_("{seat} has no legal action to choose from", seat=seat))
        return legal[int(rng.integers(len(legal)))]


RULESETS = "konflikt.rulesets"
"""The entry-point group of the rulesets: name → the module that registers it when imported (``pyproject.toml``'s
``[project.entry-points."konflikt.rulesets"]``). A fifth system may live in a package of its own and declare itself
there; ``core`` names no ruleset."""
POLICIES = "konflikt.policies"
"""The entry-point group of the policies every ruleset has that search or solve the game (``konflikt.analysis``,
above ``core``): name → ``make_policy(name, argument)``, loaded on first use. A name may carry an argument after a
colon, the maker's to read (``mcts:2000``). Such a policy may define ``bind(scenario, names)``;
``sim.runner.seat_policies`` calls it with the scenario it plays."""


def entry_points(group: str) -> dict[str, EntryPoint]:
    """The installed entry points of ``group`` by name (the package's own and any other installed package's)."""
    return {point.name: point for point in metadata.entry_points(group=group)}


def search_policy_names() -> list[str]:
    return sorted(entry_points(POLICIES))


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine and the front ends need from one system.

    Attributes:
        id: the ruleset id used in scenario files (``presja``).
        name: the system's name: one string, or a table of languages (``konflikt.core.i18n.LocalText``; ``both`` the
            text's name with an English gloss); people read ``display_name``.
        language: the source text's language (ISO code).
        source: the source text's file name in ``shared/seeds``.
        summary: one paragraph for ``konflikt rules``.
        options: the named rule options with their defaults.
        character: pydantic model of one participant's data (character files and inline fields).
        setup: pydantic model of the scenario's ``[setup]`` table.
        new_state: builds the opening state from a loaded scenario and the resolved options.
        policies: policy name → factory; ``random`` is added for every ruleset.
        odds: per-ruleset exact questions for ``konflikt odds RULESET QUESTION``.
        aftermath: the between-conflict rules (see the field's docstring); ``None`` where nothing carries over.
        content_dir: the folder of bundled content (``characters/``, weapons, lists).
        terms: glossary of the system's own words → English, for the front ends.
    """

    id: str
    name: str | Mapping[str, str]
    language: str
    source: str
    summary: str
    options: OptionSet
    character: type[BaseModel]
    setup: type[BaseModel]
    new_state: Callable[[Scenario, Options], State]
    policies: Mapping[str, Callable[[], Policy]] = field(default_factory=dict)
    odds: Mapping[str, OddsQuestion] = field(default_factory=dict)
    content_dir: Path | None = None
    terms: Mapping[str, str] = field(default_factory=dict)
    aftermath: Callable[[State], Aftermath] | None = None
    """What the text says happens between conflicts: called on a finished conflict by ``run`` and ``play`` (and the
    campaign library), it returns each participant's character document as it carries into the next conflict."""
    campaign: CampaignRules | None = None
    """The rules between conflicts for a campaign's character library (``core.campaign``): what a finished
    conflict leaves on the sheet, what rest does, how the sheet reads; ``None``: the aftermath's documents as they
    are."""
    kernel: Callable[..., Any] | None = None
    """Optional vectorised simulator: ``kernel(scenario, options, seats)`` returns an object with
    ``run(n, rng) -> konflikt.core.batch.Batch``, or a string saying why it cannot play this scenario."""
    length_unit: str = "steps"
    """The system's own unit of a conflict's length (``exchanges``, ``rounds``, ``actions``), as sim and sweep
    report it. Without ``length_key`` the length is counted in engine steps and called ``steps``. An identifier
    (JSON and CSV keep it); people read :func:`unit_words`."""
    length_key: str | None = None
    """The field of ``ConflictOutcome.data`` holding the length in ``length_unit`` (an int); a kernel supplies the
    same as ``Batch.rounds``, or as the resource of this name."""
    fate_parts: Callable[[str, str], list[tuple[str, int]]] = fate_parts
    """Reads one participant's fate (``ConflictOutcome.participants``) and its name into (consequence, count)
    pairs, for the consequence marginals of ``konflikt sim``; the default cuts the words at ``;``, ``,`` and ``:``."""
    exact_model: ModelFactory | None = None
    """Optional compact model for exact whole-conflict odds (``rulesets/<id>/model.py``, see :class:`ExactModel`):
    ``konflikt.analysis.exact.conflict_odds`` solves it where it covers the state and the policies, and walks the
    State API otherwise."""
    round_game: GameFactory | None = None
    """Optional decision-exposing compact game for optimal play (see :class:`RoundGame`); without it optimal play
    walks the State API (``konflikt.analysis.optimal``)."""
    cap_endings: tuple[str, ...] = ("deadlock",)
    """The endings that mean a cap stopped the conflict (a round limit), not the rules' own ending: a sweep cell
    where they exceed 1% says so."""
    opposed: Callable[[Mapping[str, str]], Sequence[OpposedRule]] | None = None
    """The system's opposed rolls the dice language may name (``d100<=60 vs d100<=55 by quality``), made with rule
    option overrides (``-o name=value``): each binds the two sides to the ruleset's own rule functions."""
    reports: Mapping[str, Report] = field(default_factory=dict)
    """The balancing reports the text asks for (``konflikt report <id>-<name>``), name → content as data; the
    machinery that runs them lives in :mod:`konflikt.reports`, above simulation and analysis."""

    @property
    def display_name(self) -> str:
        """The system's name in the language in use."""
        return localized(self.name)

    def policy(self, name: str) -> Policy:
        base, colon, argument = name.partition(":")
        search = entry_points(POLICIES)
        if base in search and base not in self.policies:
            maker: Callable[[str, str | None], Policy] = search[base].load()
            return maker(base, argument if colon else None)
        factories: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, **self.policies}
        if name not in factories:
            raise KonfliktError(
                _(
                    "unknown policy {name} for {ruleset} (known: {known}, human)",
                    name=repr(name),
                    ruleset=self.id,
                    known=", ".join(self.policy_names()),
                )
            )
        return factories[name]()

    def conformance(self) -> ConformanceTable:
        """The ruleset's conformance table (``content/conformance.toml``): the text sentence by sentence."""
        if self.content_dir is None or not conformance_path(self.content_dir).exists():
            raise KonfliktError(_("ruleset {ruleset} has no conformance table", ruleset=self.id))
        return load_conformance(conformance_path(self.content_dir))

    def policy_names(self) -> list[str]:
        return sorted({"random", *self.policies, *search_policy_names()})

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "language": self.language,
            "source": self.source,
            "summary": self.summary,
            "options": [o.to_json() for o in self.options],
            "policies": [*self.policy_names(), "human"],
            "odds": {name: q.doc for name, q in self.odds.items()},
            "reports": {f"{self.id}-{name}": r.title for name, r in self.reports.items()},
        }


UNITS = {
    "steps": N_("steps"),
    "rounds": N_("rounds"),
    "exchanges": N_("exchanges"),
    "actions": N_("actions"),
    "days": N_("days"),
}
"""The units of a conflict's length and of rest between conflicts, marked for the common catalog."""


def unit_words(unit: str) -> str:
    """A unit (``rounds``, ``exchanges``) in the language in use; one konflikt does not know stays as it is."""
    return _(UNITS[unit]) if unit in UNITS else unit


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def ruleset_ids() -> list[str]:
    """Every installed ruleset's id (the entry points of :data:`RULESETS`)."""
    return sorted(entry_points(RULESETS))


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in _REGISTRY:
        installed = entry_points(RULESETS)
        if not installed:  # an install made before the entry points were declared (a developer's old venv)
            raise KonfliktError(
                _(
                    "no rulesets are installed (konflikt's entry points are missing): reinstall it, e.g. pip install "
                    "-e ."
                )
            )
        found = installed.get(ruleset_id)
        if found is None:
            known = ", ".join(ruleset_ids()) or _("none")
            raise KonfliktError(_("unknown ruleset {ruleset} (known: {known})", ruleset=repr(ruleset_id), known=known))
        found.load()  # the module registers its ruleset as it is imported
        if ruleset_id not in _REGISTRY:
            raise KonfliktError(_("ruleset package {ruleset} did not register itself", ruleset=repr(ruleset_id)))
    return _REGISTRY[ruleset_id]


def all_rulesets() -> list[Ruleset]:
    return [get_ruleset(rid) for rid in ruleset_ids()]
