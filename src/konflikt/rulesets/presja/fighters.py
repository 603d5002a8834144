"""The fixed facts of one participant for the length of a conflict, read once from its Character."""

from __future__ import annotations

from dataclasses import dataclass

from konflikt.core.scenario import Participant
from konflikt.rulesets.presja.models import Character
from konflikt.rulesets.presja.track import Box, body_indices, build_track

Text = str | dict[str, str]
"""A content text: one string, or a table of languages (shown with ``konflikt.core.i18n.localized``)."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """A participant's static data: what never changes during the conflict (kept flat for speed)."""

    id: str
    name: str
    side: int
    skill: int | None
    skill_name: Text
    zmysly: int
    damage: int
    weapon_name: Text
    ranged: bool
    reach: int
    weapon_aspect: Text | None
    weapon_boxes: int
    absorption: int
    armour_name: Text
    aspects: tuple[Text, ...]
    track: tuple[Box, ...]
    cialo: int
    body: frozenset[int]
    """Indices of the boxes Ciało adds (drawn in round brackets)."""
    player: bool
    warlike: int
    edges: tuple[str, ...]
    initiative_edge: Text | None
    may_concede: bool
    character: Character


def make_fighter(part: Participant, side: int, base: tuple[Box, ...], above_3: str) -> Fighter:
    """Read a scenario participant into a :class:`Fighter` (its track built from the base and Ciało)."""
    ch: Character = part.data
    weapon = ch.weapon_data()
    armour = ch.armour_data()
    return Fighter(
        id=part.id,
        name=part.name,
        side=side,
        skill=ch.skill,
        skill_name=ch.skill_name,
        zmysly=ch.zmysly,
        damage=weapon.damage,
        weapon_name=weapon.name,
        ranged=weapon.ranged,
        reach=weapon.reach,
        weapon_aspect=weapon.aspect,
        weapon_boxes=weapon.aspect_boxes if weapon.aspect else 0,
        absorption=armour.absorption,
        armour_name=armour.name,
        aspects=tuple(ch.aspects),
        track=build_track(base, ch.cialo, above_3),
        cialo=ch.cialo,
        body=body_indices(base, ch.cialo, above_3),
        player=ch.player,
        warlike=ch.warlike,
        edges=tuple(ch.edges),
        initiative_edge=ch.initiative_edge,
        may_concede=ch.may_concede,
        character=ch,
    )
