"""PWGE — Parallel Worlds Gamist's Edition: conflicts fought with handlingspölar (action pools of tokens).

Source: ``shared/seeds/000_2a78769688e39a97.txt`` (Swedish). Combat, chases, diplomatic and social conflicts with
one mechanic: every action, response, counter, order, distance change and top costs a token.
"""

from __future__ import annotations

from pathlib import Path

from konflikt.core.ruleset import Ruleset, register
from konflikt.rulesets.pwge.campaign import CAMPAIGN
from konflikt.rulesets.pwge.kernel import make_kernel
from konflikt.rulesets.pwge.model import exact_model
from konflikt.rulesets.pwge.models import Character, Setup
from konflikt.rulesets.pwge.odds import QUESTIONS, opposed_rules
from konflikt.rulesets.pwge.options import OPTIONS
from konflikt.rulesets.pwge.persist import aftermath
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.reports import REPORTS
from konflikt.rulesets.pwge.state import PwgeState

RULESET = register(
    Ruleset(
        id="pwge",
        name={
            "both": "PWGE — Parallel Worlds Gamist's Edition (action-pool conflicts)",
            "sv": "PWGE — Parallel Worlds Gamist's Edition (konflikter med handlingspöl)",
            "en": "PWGE — Parallel Worlds Gamist's Edition (action-pool conflicts)",
            "da": "PWGE — Parallel Worlds Gamist's Edition (konflikter med handlingspulje)",
            "pl": "PWGE — Parallel Worlds Gamist's Edition (konflikty z pulą akcji)",
        },
        language="sv",
        source="000_2a78769688e39a97.txt",
        summary=(
            "Each character gets a handlingspöl (action pool) of tokens: 2 × the attribute that fits the "
            "approach, +4/+2 for the identity fitting directly/indirectly, +2 per fitting skill, −1 per other "
            "person on the side. There is no turn order: whoever speaks buys an action; the target may counter and "
            "respond, the actor may counter the response, order may be bought, and every roll may be topped "
            "(damage also counter-topped and counter-counter-topped), each for one token. Damage costs tokens "
            "(1, 2, 3, 5 by wound level). A conflict ends when a side reaches its goal, when one side's pools run "
            "out first, or in deadlock. The roll, damage and wounds stand in for Parallel Worlds' own rules, "
            "which are not in the text."
        ),
        options=OPTIONS,
        character=Character,
        setup=Setup,
        new_state=PwgeState,
        policies={"heuristic": HeuristicPolicy},
        odds=QUESTIONS,
        opposed=opposed_rules,
        content_dir=Path(__file__).parent / "content",
        kernel=make_kernel,
        exact_model=exact_model,
        aftermath=aftermath,
        campaign=CAMPAIGN,
        reports=REPORTS,
        cap_endings=(),
        length_unit="actions",
        length_key="actions",
        terms={
            "handlingspöl": "action pool",
            "marker": "token",
            "handling": "action",
            "svarshandling": "response",
            "mothandling": "counter",
            "turordning": "order",
            "turordningsslag": "order roll",
            "toppa": "top (reroll for a token)",
            "mot-toppa": "counter-top",
            "mot-mot-toppa": "counter-counter-top",
            "skadeslag": "damage roll",
            "frislag": "free attack",
            "avstånd": "distance",
            "erfarenhetstärningar": "experience dice",
            "kroppspoäng": "body points",
            "dödläge": "deadlock",
        },
    )
)

__all__ = ["RULESET", "PwgeState"]
