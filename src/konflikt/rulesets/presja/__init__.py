"""`presja`: physical conflicts (Konflikty fizyczne) in a FATE variant — 4dF, Atak/Obrona, the pressure track.

Source: ``shared/seeds/003_5ba08cd670b8dcaf.txt`` (Polish). Importing this package registers the ruleset.
"""

from __future__ import annotations

from pathlib import Path

from konflikt.core.ruleset import Ruleset, register
from konflikt.rulesets.presja.aftermath import aftermath
from konflikt.rulesets.presja.campaign import CAMPAIGN
from konflikt.rulesets.presja.game import round_game
from konflikt.rulesets.presja.kernel import make_kernel
from konflikt.rulesets.presja.model import exact_model
from konflikt.rulesets.presja.models import Character, Setup
from konflikt.rulesets.presja.odds import QUESTIONS, opposed_rules
from konflikt.rulesets.presja.options import OPTIONS
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.reports import REPORTS
from konflikt.rulesets.presja.state import PresjaState

RULESET = register(
    Ruleset(
        id="presja",
        name={
            "both": "Konflikty fizyczne (physical conflicts, a FATE variant)",
            "pl": "Konflikty fizyczne (wariant FATE)",
            "en": "Konflikty fizyczne (physical conflicts, a FATE variant)",
            "sv": "Konflikty fizyczne (fysiska konflikter, en FATE-variant)",
            "da": "Konflikty fizyczne (fysiske konflikter, en FATE-variant)",
        },
        language="pl",
        source="003_5ba08cd670b8dcaf.txt",
        summary=(
            "Each sekwencja walki (exchange) every participant declares in the order of Zmysły (Senses), rolls 4dF "
            "+ skill once — the result is both Atak (Attack) and Obrona (Defence) — and may invoke aspects or spend "
            "Punkty Losu (fate points). Where Attack ≥ Defence, the weapon's Czynnik Obrażeń (damage factor) and the "
            "armour's Czynnik Wyparowań (absorption factor) are added and the rest is presja (pressure), marked on "
            "the Tor Presji Fizycznej (pressure track) or taken as Konsekwencje (consequences); what cannot be "
            "absorbed takes the character out. Conceding before the roll earns fate points."
        ),
        options=OPTIONS,
        character=Character,
        setup=Setup,
        new_state=PresjaState,
        policies={"heuristic": HeuristicPolicy},
        odds=QUESTIONS,
        opposed=opposed_rules,
        kernel=make_kernel,
        exact_model=exact_model,
        round_game=round_game,
        reports=REPORTS,
        aftermath=aftermath,
        campaign=CAMPAIGN,
        length_unit="exchanges",
        length_key="exchanges",
        content_dir=Path(__file__).parent / "content",
        terms={
            "presja": "pressure",
            "Atak": "Attack",
            "Obrona": "Defence",
            "sekwencja walki": "exchange",
            "Zmysły": "Senses",
            "Ciało": "Body",
            "Punkt Losu": "fate point",
            "Konsekwencja": "consequence",
            "Tor Presji Fizycznej": "physical pressure track",
            "Czynnik Obrażeń": "damage factor",
            "Czynnik Wyparowań": "absorption factor",
            "strefa": "zone",
            "aspekt sytuacyjny": "situation aspect",
            "wyeliminowany": "taken out",
            "pokonany": "conceded",
            "przewaga": "advantage",
        },
    )
)

__all__ = ["RULESET", "PresjaState"]
