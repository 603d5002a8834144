"""Pure rule functions of PWGE: pool size, token loss, wound levels, distances, reach and difficulty.

They take plain numbers and return plain numbers, so that the state machine, the policies, the odds questions and
a later vectorised kernel all share one statement of each rule.
"""

from __future__ import annotations

from konflikt.rulesets.pwge.i18n import _, pgettext

MELEE_NAMES: tuple[str, ...] = ("Kropp", "Dolk", "Svärd", "Stav", "Spjut")
"""Närstridsavstånd (melee distances), inside out: body, dagger, sword, staff, spear — all within ranged 0."""

MELEE_GLOSS: dict[str, str] = {"Kropp": "body", "Dolk": "dagger", "Svärd": "sword", "Stav": "staff", "Spjut": "spear"}

LAST_MELEE = len(MELEE_NAMES) - 1
"""Distance codes 0..4 are the melee distances; code ``LAST_MELEE + r`` is ranged distance ``r`` (r ≥ 1)."""

WOUND_LEVELS: tuple[str, ...] = ("oskadd", "skadad", "Skråma", "Sårad", "Allvarligt skadad")
WOUND_GLOSS: dict[str, str] = {
    "oskadd": "unhurt",
    "skadad": "hurt",
    "Skråma": "scratch",
    "Sårad": "wounded",
    "Allvarligt skadad": "seriously wounded",
}
TOKEN_LOSS: tuple[int, ...] = (0, 1, 2, 3, 5)
"""Tokens lost per wound level: any damage −1; Skråma −1 more; Sårad −2 more; Allvarligt skadad −2 more."""


def pool_size(attribute: int, identity_fit: str, fitting_skills: int, others_on_side: int) -> int:
    """Handlingspölens storlek (the action pool's size).

    2 × the attribute; +4 if the identity fits directly, +2 if indirectly; +2 per fitting skill; −1 per other
    person on the same side. Never below 0.
    """
    identity = {"direct": 4, "indirect": 2}.get(identity_fit, 0)
    return max(0, 2 * attribute + identity + 2 * fitting_skills - others_on_side)


def wound_level(damage: int, skrama_from: int, sarad_from: int, allvarligt_from: int) -> int:
    """The wound level (index into :data:`WOUND_LEVELS`) of one hit of ``damage`` points (a stand-in for PW)."""
    if damage <= 0:
        return 0
    if damage >= allvarligt_from:
        return 4
    if damage >= sarad_from:
        return 3
    if damage >= skrama_from:
        return 2
    return 1


def token_loss(level: int) -> int:
    """Marker lost for being damaged at a wound level (1, 2, 3, 5; 0 when unhurt)."""
    return TOKEN_LOSS[level]


def lose_tokens(tokens: int, level: int) -> int:
    """Tokens left after a hit of the given wound level; a pool never goes below 0."""
    return max(0, tokens - token_loss(level))


def damage_points(roll_total: int, armour: int) -> int:
    """Skada (damage): 1T + weapon modifier (already in ``roll_total``) − armour, at least 0 (a stand-in)."""
    return max(0, roll_total - armour)


# ---- distances ---------------------------------------------------------------------------------------------------
def ranged_of(code: int) -> int:
    """The ranged distance of a distance code: 0 for every melee distance, else 1, 2, …"""
    return max(0, code - LAST_MELEE)


def code_of_ranged(ranged: int) -> int:
    """The distance code of ranged distance ``ranged`` ≥ 1."""
    return LAST_MELEE + ranged


def melee_distance_name(code: int) -> str:
    """A melee distance's name in the language in use (``Svärd (sword)`` in the bilingual register)."""
    return (
        pgettext("distance", "body"),
        pgettext("distance", "dagger"),
        pgettext("distance", "sword"),
        pgettext("distance", "staff"),
        pgettext("distance", "spear"),
    )[code]


def distance_label(code: int) -> str:
    """A distance in the text's words: a melee name (``Svärd``), or ``avstånd 3``; glossed in the bilingual register
    (``Svärd (sword)``, ``avstånd 3 (range 3)``)."""
    if code <= LAST_MELEE:
        return melee_distance_name(code)
    return _("range {n}", n=ranged_of(code))


def wound_name(level: int) -> str:
    """A wound level (an index into :data:`WOUND_LEVELS`) in the language in use (``Sårad (wounded)`` in the
    bilingual register)."""
    return (
        pgettext("wound", "unhurt"),
        pgettext("wound", "hurt"),
        pgettext("wound", "scratch"),
        pgettext("wound", "wounded"),
        pgettext("wound", "seriously wounded"),
    )[level]


TYPED_DISTANCES: dict[str, int] = {
    **{name.lower(): i for i, name in enumerate(MELEE_NAMES)},
    **{gloss: MELEE_NAMES.index(name) for name, gloss in MELEE_GLOSS.items()},
    "krop": 0,
    "sværd": 2,
    "svaerd": 2,
    "spyd": 4,
    "ciało": 0,
    "cialo": 0,
    "sztylet": 1,
    "miecz": 2,
    "kij": 3,
    "włócznia": 4,
    "wlocznia": 4,
}
"""The melee distances as a start distance may be typed: the text's Swedish names, English, Danish and Polish."""


def parse_distance(text: str | int) -> int:
    """Read a starting distance: a melee name (``Svärd``, ``sword``, ``sværd``, ``miecz``) or a ranged number ≥ 1;
    returns its code."""
    if isinstance(text, int):
        if text < 1:
            raise ValueError(
                _("ranged distance {value} must be at least 1 (0 is a melee distance: name it)", value=text)
            )
        return code_of_ranged(text)
    if text.lower() in TYPED_DISTANCES:
        return TYPED_DISTANCES[text.lower()]
    if text.isdigit():
        return parse_distance(int(text))
    raise ValueError(
        _(
            "unknown distance {value} (melee: {names}; ranged: 1, 2, …)",
            value=repr(text),
            names=pgettext("distances", "body, dagger, sword, staff, spear"),
        )
    )


def closer(code: int, longest_weapon: int) -> int | None:
    """One step closer; from ranged 1 into melee at the longest weapon's optimal distance; None at Kropp."""
    if code == 0:
        return None
    if code == LAST_MELEE + 1:
        return longest_weapon
    return code - 1


def farther(code: int, longest_weapon: int, max_ranged: int) -> int | None:
    """One step farther; from the longest weapon's distance (or beyond) out to ranged 1; None at the cap."""
    if code <= LAST_MELEE:
        return LAST_MELEE + 1 if code >= longest_weapon else code + 1
    if ranged_of(code) >= max_ranged:
        return None
    return code + 1


def melee_reach(code: int, weapon_length: int) -> str:
    """How a melee weapon of ``weapon_length`` works at ``code``: ``optimal``, ``short`` or ``none``.

    Equal: the attack bonus applies. Distance shorter than the weapon: usable, without the bonus. Longer (or any
    ranged distance): no attack, though defence is still possible.
    """
    if code > LAST_MELEE or code > weapon_length:
        return "none"
    return "optimal" if code == weapon_length else "short"


def ranged_band(code: int, kort: int, max_range: int, max_reachable: bool = True) -> int | None:
    """The difficulty modifier of a ranged attack: 0 at distance 0 (like melee), 2 up to Kort, 4 up to Max.

    None when out of range. ``max_reachable`` decides the text's silence on exactly Max ("less than Max").
    """
    ranged = ranged_of(code)
    if ranged == 0:
        return 0
    if ranged <= kort:
        return 2
    if ranged < max_range or (max_reachable and ranged == max_range):
        return 4
    return None


def relation_step(distance: int, way: str) -> int | None:
    """A diplomatic or social distance one step closer or farther on the 0–10 scale (None past the ends)."""
    new = distance - 1 if way == "closer" else distance + 1
    return new if 0 <= new <= 10 else None


def diplomatic_penalty(distance: int) -> int:
    """− (distance ÷ 2, rounded down) on diplomatic action rolls: the longer the distance, the harder (stand-in)."""
    return distance // 2
