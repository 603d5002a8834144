"""Between fights: carry a fighter's Gard, Omtöckning and wounds out of a fight, and let it rest.

The text: "Omtöckning återvinns i alla fall med ett poäng per runda då man vilar. Det ska nog finnas någon gräns för
hur lite omtöckning man kan ha kvar, förmodligen en poäng per skada inklusive skråmor." Healing time is announced
for later ("läkningstid ... det tar jag sen"), so wounds stay ticked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from konflikt.rulesets.levald.models import Character
from konflikt.rulesets.levald.rules import rest

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import LevaldState


def after_fight(state: LevaldState, pid: str) -> dict[str, Any]:
    """The character document of ``pid`` as the fight left it: Gard, Omtöckning and wound boxes carried over."""
    i = state.index[pid]
    fighter = state.fighters[i]
    skrama, latt, allvarlig, kritisk, dodlig = state.wounds[i]
    return {
        "gard_now": state.gard[i],
        "daze": state.daze[i],
        "wounds": {"skråma": skrama, "lätt": latt, "allvarlig": allvarlig, "kritisk": kritisk, "dödlig": dodlig},
        "weapon": fighter.weapon.name,
    }


def rest_character(character: Character, rounds: int, floor_per_wound: bool = True) -> Character:
    """The character after ``rounds`` rounds of rest: Omtöckning −1 a round down to one point per wound (option
    ``rest_floor_per_wound``), and Gard +1 a round up to its maximum (konflikt's choice: as in a round without a
    fight)."""
    if rounds < 0:
        raise ValueError(f"rest rounds must be 0 or more, not {rounds}")
    w = character.wounds
    wounds = sum(w.boxes())
    gard = character.gard if character.gard_now is None else character.gard_now
    return character.model_copy(
        update={
            "daze": rest(character.daze, wounds, rounds, floor_per_wound),
            "gard_now": min(gard + rounds, character.gard),
        }
    )
