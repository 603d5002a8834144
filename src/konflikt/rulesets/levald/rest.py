"""Between fights: what carries out of a fight (the aftermath); rest is the campaign's (:mod:`.campaign`).

The text: "Omtöckning återvinns i alla fall med ett poäng per runda då man vilar. Det ska nog finnas någon gräns för
hur lite omtöckning man kan ha kvar, förmodligen en poäng per skada inklusive skråmor." Healing time is announced
for later ("läkningstid ... det tar jag sen"), so wounds stay ticked.
"""

from __future__ import annotations

from typing import Any

from konflikt.core.i18n import percent
from konflikt.core.outcome import Aftermath
from konflikt.core.state import State
from konflikt.rulesets.levald.i18n import _, pgettext
from konflikt.rulesets.levald.models import Weapon, bundled_weapons
from konflikt.rulesets.levald.narration import FATE_TEXT, wound_marks
from konflikt.rulesets.levald.rules import daze_penalty

BOX_KEYS = ("skråma", "lätt", "allvarlig", "kritisk", "dödlig")
"""The wound boxes as a character file names them, in the order of rules.WOUNDS."""


def _weapon_field(weapon: Weapon) -> str | dict[str, Any]:
    """A weapon of the text's table by name; any other as its whole table, so the document loads anywhere."""
    if any(w == weapon for w in bundled_weapons()):
        return weapon.name
    return weapon.model_dump(exclude_defaults=True)


def aftermath(state: State) -> Aftermath:
    """What a finished fight leaves on each character sheet, as the text says, and nothing it does not say.

    Carried: every ticked wound box ("Då kryssar man i den rutan"; healing time is announced for later, so boxes
    stay) and the Omtöckning as the fight left it ("Omtöckning återvinns … med ett poäng per runda då man vilar":
    :func:`.campaign.rest_between` applies the rest). Not carried: Gard, which the text describes only within a
    fight (as one is forced back, loses footing and tires): the next fight starts with full Gard (konflikt's own).
    """
    from konflikt.rulesets.levald.state import LevaldState

    assert isinstance(state, LevaldState)
    characters: dict[str, dict[str, Any]] = {}
    lines = []
    for i, fighter in enumerate(state.fighters):
        document = state.characters[i].model_dump(mode="json", exclude_none=True, exclude={"gard_now"})
        document["name"] = fighter.name
        document["weapon"] = _weapon_field(fighter.in_hand)
        if fighter.shield is not None:
            document["shield"] = _weapon_field(fighter.shield)
        document["daze"] = state.daze[i]
        document["wounds"] = dict(zip(BOX_KEYS, state.wounds[i], strict=True))
        characters[fighter.id] = document
        lines.append(
            _(
                "{name}: {fate}; wound boxes {boxes}; daze {daze} ({penalty}), recovered one point per round of rest, "
                "down to {floor} (one per wound); Gard full at the next fight (konflikt's own)",
                name=fighter.name,
                fate=FATE_TEXT[state.fate[i]],
                boxes=wound_marks(state.wounds[i]) or pgettext("wound boxes", "none"),
                daze=state.daze[i],
                penalty=percent(daze_penalty(state.daze[i]), 0),
                floor=sum(state.wounds[i]),
            )
        )
    return Aftermath(characters=characters, lines=tuple(lines))
