"""What outlasts a conflict: the diplomatic and social distances (0–10), unspent experience dice, physical damage.

"Sociala och diplomatiska avstånd kvarstår mellan varje konflikt" — social and diplomatic distances remain between
conflicts. :func:`aftermath` (the ruleset's ``aftermath`` hook) returns each participant's character document with
them brought up to date, ready to be written back to its character file, and says so in the text's words.
"""

from __future__ import annotations

import copy
from typing import Any

from konflikt.core.outcome import Aftermath
from konflikt.core.state import State
from konflikt.rulesets.pwge import narration
from konflikt.rulesets.pwge.i18n import _, ngettext
from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState


def updated_characters(state: PwgeState) -> dict[str, dict[str, Any]]:
    """Participant id → its character document after this conflict.

    In a diplomatic (social) conflict with the distance in play (the text's suggestion,
    ``social_distance_and_damage``) both characters of every pair record their diplomatic_distance
    (social_distance) to each other, keyed by the other's name; without it no distance was in play, and what the
    characters hold stays as it was (a default start distance is not written as if the conflict had set it).
    Experience dice spent as tokens are gone. Physical damage carries over: after a fight or a chase each document's
    ``damage_taken`` is the physical kroppspoäng lost so far (they are "de som man blir av med genom att få fysiskt
    stryk", and only the social and diplomatic ones "återställs för det mesta helt mellan varje konflikt"); healing
    them is Parallel Worlds' business (the campaign's rest, option ``healing_per_day``, or the GM's edit). The
    attribute in use and the weapons in hand belong to this conflict, so the documents keep the character's own.
    """
    docs = [copy.deepcopy(dict(c)) for c in state.characters]
    if state.kind not in PHYSICAL and state.distance_in_play():  # without the suggestion no distance was in play
        field = "diplomatic_distance" if state.kind == "diplomatic" else "social_distance"
        for (i, j), distance in state.dist.items():
            docs[i][field][state.people[j].name] = distance
            docs[j][field][state.people[i].name] = distance
    if state.kind in PHYSICAL:
        for i, f in enumerate(state.people):
            docs[i]["damage_taken"] = f.body - state.body[i]
    if state.options.experience_dice:
        for i, doc in enumerate(docs):
            doc["experience_dice"] = state.xp[i]
    return {f.pid: docs[i] for i, f in enumerate(state.people)}


def aftermath(state: State) -> Aftermath:
    """The between-conflict rules applied to a finished conflict: the documents, and the lines for the table."""
    assert isinstance(state, PwgeState)
    docs = updated_characters(state)
    lines: list[str] = []
    if state.kind not in PHYSICAL and state.distance_in_play():
        field = "diplomatic_distance" if state.kind == "diplomatic" else "social_distance"
        for (i, j), distance in sorted(state.dist.items()):
            a, b = state.people[i], state.people[j]
            before = state.characters[i][field].get(b.name, state.characters[j][field].get(a.name))
            start = state.setup.relation_distance if before is None else before
            if start != distance:
                change = _("{start} → {end}", start=start, end=distance)
            else:
                change = _("still {end}", end=distance)
            fields = {"a": a.name, "b": b.name, "change": change}
            if state.kind == "diplomatic":
                line = _("{a}–{b}: diplomatic distance {change} of 0–10, kept for the next conflict", **fields)
            else:
                line = _("{a}–{b}: social distance {change} of 0–10, kept for the next conflict", **fields)
            lines.append(line)
        if state.tracks_body():
            lines.append(_("the diplomatic and social body points are restored in full"))
    if state.kind in PHYSICAL:
        for i, f in enumerate(state.people):
            lost = f.body - state.body[i]
            if lost != f.damage_taken:
                lines.append(
                    ngettext(
                        "{name}: {n} body point lost ({left} of {full} left), carried into the next conflict "
                        "(damage_taken {before} → {n}; healing is Parallel Worlds')",
                        "{name}: {n} body points lost ({left} of {full} left), carried into the next conflict "
                        "(damage_taken {before} → {n}; healing is Parallel Worlds')",
                        lost,
                        name=f.name,
                        left=state.body[i],
                        full=f.body,
                        before=f.damage_taken,
                    )
                )
    if state.options.experience_dice:
        for i, f in enumerate(state.people):
            spent = f.experience_dice - state.xp[i]
            if spent:
                text = _(
                    "{name}: {dice} spent, {left} left", name=f.name, dice=narration.dice_words(spent), left=state.xp[i]
                )
                lines.append(text)
    return Aftermath(characters=docs, lines=tuple(lines))
