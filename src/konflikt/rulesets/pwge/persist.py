"""What outlasts a conflict: the diplomatic and social distances (0–10) and spent experience dice.

"Sociala och diplomatiska avstånd kvarstår mellan varje konflikt" — social and diplomatic distances remain between
conflicts. :func:`updated_characters` returns each participant's character document with them brought up to date,
ready to be written back to its character file.
"""

from __future__ import annotations

import copy
from typing import Any

from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState


def updated_characters(state: PwgeState) -> dict[str, dict[str, Any]]:
    """Participant id → its character document after this conflict.

    In a diplomatic (social) conflict both characters of every pair record their diplomatic_distance
    (social_distance) to each other, keyed by the other's name. Experience dice spent as tokens are gone. Body
    points are not carried over: social/diplomatic ones are restored between conflicts, and physical healing is
    Parallel Worlds' business.
    """
    docs = [copy.deepcopy(dict(c)) for c in state.characters]
    if state.kind not in PHYSICAL:
        field = "diplomatic_distance" if state.kind == "diplomatic" else "social_distance"
        for (i, j), distance in state.dist.items():
            docs[i][field][state.people[j].name] = distance
            docs[j][field][state.people[i].name] = distance
    if state.options.experience_dice:
        for i, doc in enumerate(docs):
            doc["experience_dice"] = state.xp[i]
    return {f.pid: docs[i] for i, f in enumerate(state.people)}
