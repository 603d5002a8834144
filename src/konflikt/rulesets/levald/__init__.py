"""Le våld ("the violence"): the melee combat of Biblioteksvärlden (Swedish), executable.

Secret simultaneous movement with arrow markers, initiative held or not held, opposed percentile rolls with
effect, Gard that soaks damage before the wound thresholds, and Omtöckning (daze) that slows everything down.
"""

from __future__ import annotations

from pathlib import Path

from konflikt.core.ruleset import Ruleset, register
from konflikt.rulesets.levald.campaign import CAMPAIGN
from konflikt.rulesets.levald.kernel import make_kernel
from konflikt.rulesets.levald.model import exact_model
from konflikt.rulesets.levald.models import Character, Setup
from konflikt.rulesets.levald.narration import fate_parts
from konflikt.rulesets.levald.odds import QUESTIONS, opposed_rules
from konflikt.rulesets.levald.options import OPTIONS
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.rulesets.levald.reports import REPORTS
from konflikt.rulesets.levald.rest import aftermath
from konflikt.rulesets.levald.state import LevaldState

RULESET = register(
    Ruleset(
        id="levald",
        name={
            "both": "Le våld (the violence) — Biblioteksvärlden melee combat",
            "sv": "Le våld — närstrid i Biblioteksvärlden",
            "en": "Le våld (the violence) — melee combat in Biblioteksvärlden",
            "da": "Le våld — nærkamp i Biblioteksvärlden",
            "pl": "Le våld — walka wręcz w Biblioteksvärlden",
        },
        language="sv",
        source="001_e8170c3b64f9e9a4.txt",
        summary=(
            "Each round both fighters secretly choose Avancera / Bibehålla / Retirera (advance / hold / retreat) or "
            "Lämna (leave); the distance (Kropp … Spjut, Fri) against each weapon's length decides who holds the "
            "initiative, which stays until the holder is damaged or the distance changes. The anfallare (attacker) "
            "attacks or regains Gard; the försvarare (defender) defends or counters. Opposed d100 rolls compare "
            "quality; damage is the roll's effect (tens + units) plus weapon dice, marked on Gard first, then "
            "compared with the thresholds Kraft/2, Kraft, Kraft+Själ, Kraft+Själ+10. Omtöckning (daze) costs "
            "−10% per started five beyond the first five."
        ),
        options=OPTIONS,
        character=Character,
        setup=Setup,
        new_state=LevaldState,
        policies={"heuristic": HeuristicPolicy},
        odds=QUESTIONS,
        opposed=opposed_rules,
        reports=REPORTS,
        content_dir=Path(__file__).parent / "content",
        kernel=make_kernel,
        exact_model=exact_model,
        aftermath=aftermath,
        fate_parts=fate_parts,
        campaign=CAMPAIGN,
        length_unit="rounds",
        length_key="rounds",
        terms={
            "Gard": "guard: passive defence points that soak damage first",
            "Omtöckning": "daze: −10% on all rolls per started five beyond the first five",
            "Stridsvana": "combat experience: the skill for movement and initiative contests",
            "Anfallare": "attacker: the one holding the initiative",
            "Försvarare": "defender: the one without the initiative",
            "Effekt": "effect: tens die + units die of the percentile roll",
            "Skadetrösklar": "wound thresholds: Lätt, Allvarlig, Kritisk, Dödlig",
            "Skråma": "scratch: damage below the lowest threshold",
            "Vinna terräng": "gain ground: the successful attacker's free move at the end of the round",
            "Delstrid": "sub-fight: one fighter against one or more",
        },
    )
)
