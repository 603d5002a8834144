"""Fimbulfrost: combat in three rounds — Omdømme (reputation); Stil, Stunt og Snak (style, stunt and talk);
Ressourcer (resources) — with d6 success pools and consequence lists. Source: seed 002 (Danish).
"""

from __future__ import annotations

from pathlib import Path

from konflikt.core.ruleset import Ruleset, register
from konflikt.rulesets.fimbulfrost.campaign import CAMPAIGN
from konflikt.rulesets.fimbulfrost.carry import aftermath
from konflikt.rulesets.fimbulfrost.game import round_game
from konflikt.rulesets.fimbulfrost.kernel import make_kernel
from konflikt.rulesets.fimbulfrost.model import exact_model
from konflikt.rulesets.fimbulfrost.models import Character, Setup
from konflikt.rulesets.fimbulfrost.odds import QUESTIONS
from konflikt.rulesets.fimbulfrost.options import OPTIONS
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy
from konflikt.rulesets.fimbulfrost.reports import REPORTS
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

RULESET = register(
    Ruleset(
        id="fimbulfrost",
        name={
            "both": "Fimbulfrost (kamp i tre runder: combat in three rounds)",
            "da": "Fimbulfrost (kamp i tre runder)",
            "en": "Fimbulfrost (combat in three rounds)",
            "sv": "Fimbulfrost (strid i tre rundor)",
            "pl": "Fimbulfrost (walka w trzech rundach)",
        },
        language="da",
        source="002_4c207fadc00080de.txt",
        summary=(
            "Heroes face one opponent over at most three rounds. Runde 1, Omdømme: each hero is presented (by "
            "himself: Omdømme − 1 dice; by a friend: Omdømme dice); successes (4–6) come off the opponent's Status "
            "or become morale for a friend; then the opponent answers with its Omdømme. Runde 2, Stil, Stunt og "
            "Snak: one die per area described; the opponent answers with Kamp. Runde 3, Ressourcer: even wilder, "
            "gear, armour, maneuvers; one last roll decides. Status ≤ 0 is out; points below 0 buy consequences, "
            "each entry once, death forced when nothing else is left; each 1 in the defeating roll costs its hero one."
        ),
        options=OPTIONS,
        character=Character,
        setup=Setup,
        new_state=FimbulfrostState,
        policies={"heuristic": HeuristicPolicy},
        odds=QUESTIONS,
        reports=REPORTS,
        content_dir=Path(__file__).parent / "content",
        kernel=make_kernel,
        exact_model=exact_model,
        round_game=round_game,
        aftermath=aftermath,
        campaign=CAMPAIGN,
        length_unit="rounds",
        length_key="round",
        cap_endings=(),
        terms={
            "Omdømme": "reputation (round-1 dice)",
            "Status": "status (the conflict's hit points)",
            "Kamp": "fight (the opponent's round-2 dice)",
            "Rustning": "armour pool",
            "Grej": "gear pool",
            "våbenpulje": "weapon pool",
            "Stil, Stunt, Snak": "style, stunt, talk",
            "morale-bonus": "morale bonus",
            "konsekvens": "consequence",
            "ulykke": "mishap (a rolled 1)",
            "overvundet": "defeated",
            "lånt tid": "borrowed time",
        },
    )
)

__all__ = ["RULESET", "FimbulfrostState", "aftermath"]
