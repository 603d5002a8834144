"""Le våld's rules as small pure functions: distances, rolls, movement, initiative, damage, daze and rest.

Everything here takes and returns plain ints, strings and tuples so that the state machine, the odds questions, the
exact model and the compiled duel kernel (``duel_loop.py``, numba) share exactly the same rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar

from konflikt.dice import effect

if TYPE_CHECKING:
    import numpy as np

# ---- distances (Avstånd) and weapon lengths (Vapenlängd) ------------------------------------------------------------
DISTANCES: tuple[str, ...] = ("Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Klo", "Hugg", "Svans", "Fri")
"""Every distance, inside out: the seven of the text with the monsters' Klo, Hugg, Svans between Spjut and Fri."""
MONSTER_DISTANCES: tuple[str, ...] = ("Klo", "Hugg", "Svans")
WEAPON_LENGTHS: tuple[str, ...] = tuple(d for d in DISTANCES if d != "Fri")
"""A weapon's length uses the distance names, except Fri (which no weapon reaches)."""
DISTANCE_ENGLISH = {
    "Kropp": "body",
    "Sköld": "shield",
    "Dolk": "dagger",
    "Svärd": "sword",
    "Stång": "pole",
    "Spjut": "spear",
    "Klo": "claw",
    "Hugg": "bite",
    "Svans": "tail",
    "Fri": "free",
}


def distance_scale(monsters: bool) -> tuple[str, ...]:
    """The distances a fight moves along: with Klo, Hugg, Svans only when a beast's weapon uses them."""
    return DISTANCES if monsters else tuple(d for d in DISTANCES if d not in MONSTER_DISTANCES)


Reach = Literal["too_far", "optimal", "too_close"]
REACH_TEXT = {"too_far": "för långt (too far)", "optimal": "optimalt (optimal)", "too_close": "för kort (too close)"}


def reach(distance: int, length: int) -> Reach:
    """Where the enemy stands relative to one's own weapon length (both as indices into :data:`DISTANCES`)."""
    if distance > length:
        return "too_far"
    if distance == length:
        return "optimal"
    return "too_close"


# ---- rolls: target, level, quality ----------------------------------------------------------------------------------
FAILURE, SUCCESS, EXCEPTIONAL = 0, 1, 2
LEVEL_TEXT = ("misslyckat (failure)", "lyckat (success)", "exceptionellt (exceptional success)")


def daze_penalty(daze: int) -> int:
    """Omtöckning's modifier on all rolls: −10 for every started five beyond the first five (10 → −10, 34 → −60)."""
    if daze <= 0:
        return 0
    return -10 * ((daze - 1) // 5)


def level(roll: int, target: int, exceptional: str = "fifth") -> int:
    """FAILURE, SUCCESS or EXCEPTIONAL for a d100 reading (1–100, 00 = 100) against a target value.

    ``exceptional``: ``fifth`` (roll ≤ target // 5), ``doubles`` (11, 22, … 99, 00 that succeed) or ``off``.
    """
    if roll > target:
        return FAILURE
    if exceptional == "fifth" and roll <= target // 5:
        return EXCEPTIONAL
    if exceptional == "doubles" and (roll == 100 or (roll % 11 == 0 and roll < 100)):
        return EXCEPTIONAL
    return SUCCESS


def quality(roll: int, target: int, exceptional: str = "fifth", by_effect: bool = True) -> tuple[int, int]:
    """A roll's quality as (level, effect); a failure is (0, 0) whatever its dice, so failures never beat each other.

    With ``by_effect`` off, equal levels are equal quality (the effect does not break ties).
    """
    success_level = level(roll, target, exceptional)
    if success_level == FAILURE:
        return (0, 0)
    return (success_level, effect(roll) if by_effect else 0)


def attack_wins(attack: tuple[int, int], defences: tuple[tuple[int, int], ...]) -> bool:
    """An attack roll wins when it succeeds and its quality is higher than every defence roll's (ties: defence)."""
    return attack[0] >= SUCCESS and all(attack > d for d in defences)


def contest_winner(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """An opposed roll (Stridsvana): 0 or 1 for the winner, ``None`` when nobody wins (both fail, or equal quality)."""
    if a > b:
        return 0
    if b > a:
        return 1
    return None


# ---- movement (Avancera / Bibehålla / Retirera / Lämna) ----------------------------------------------------------
WISH = {"advance": -1, "hold": 0, "retreat": 1, "leave": 1}
"""Each movement choice as the change of distance it asks for (leaving moves like a retreat)."""
WISH_TEXT = {-1: "Avancera (advance)", 0: "Bibehålla (hold)", 1: "Retirera (retreat)"}


def move(distance: int, change: int, last: int) -> int:
    """The distance after a change, kept within Kropp (0) … Fri (``last``)."""
    return min(max(distance + change, 0), last)


def movement_change(wish_a: int, wish_b: int, winner: int | None, step: int = 1) -> int:
    """The change of distance the two wishes give.

    Same wish: that change (``step`` steps); different wishes: the contest winner's wish, or with no winner the
    option that nobody chose (advance vs retreat → hold; advance vs hold → retreat; hold vs retreat → advance).
    """
    if wish_a == wish_b:
        return wish_a * step
    if winner is not None:
        return (wish_a, wish_b)[winner]
    (nobody,) = {-1, 0, 1} - {wish_a, wish_b}
    return nobody


def leave_is_free(distance: int, enemy_length: int) -> bool:
    """Leaving is free when the distance is longer than the enemy's weapon; otherwise the enemy gets a free attack."""
    return distance > enemy_length


# ---- initiative ------------------------------------------------------------------------------------------------------
Initiative = Literal["none", "a", "b", "roll"]


def initiative(reach_a: Reach, reach_b: Reach) -> Initiative:
    """The initiative table: ``a``/``b`` attacks; ``roll``: an opposed Stridsvana roll; ``none``: both too far."""
    if reach_a == "too_far" and reach_b == "too_far":
        return "none"
    if reach_a == "too_far":
        return "b"
    if reach_b == "too_far":
        return "a"
    if reach_a == "optimal" and reach_b != "optimal":
        return "a"
    if reach_b == "optimal" and reach_a != "optimal":
        return "b"
    return "roll"


def initiative_afresh(reach_a: Reach, reach_b: Reach, damaged_holder_rolls: bool) -> Initiative:
    """The initiative decided afresh; ``damaged_holder_rolls``: the holder was damaged (and the distance held) under
    ``holder_damaged = roll``, so "ett nytt slag" decides it — unless one of the two is too far, who stays
    "automatiskt försvarare" (a new roll never gives the initiative to a weapon that does not reach)."""
    decision = initiative(reach_a, reach_b)
    if damaged_holder_rolls and decision != "none" and "too_far" not in (reach_a, reach_b):
        return "roll"
    return decision


def keeps_initiative(distance: int, holder_length: int) -> bool:
    """Whether a holder whose initiative nothing re-decides (not damaged, the distance not changed) keeps it: only
    while its own weapon reaches. A step of gaining ground that does not count as a change of distance
    (``gain_ground_changes_initiative = false``) may leave it too far, and then "den som är på för långt avstånd
    [blir] automatiskt försvarare": the table decides afresh."""
    return distance <= holder_length


def may_counter(distance: int, defender_length: int) -> bool:
    """The defender may counter-attack when the distance is equal to its weapon length or shorter."""
    return distance <= defender_length


# ---- damage (Skada), thresholds (Skadetrösklar), wounds and daze -------------------------------------------------
WOUNDS: tuple[str, ...] = ("Skråma", "Lätt", "Allvarlig", "Kritisk", "Dödlig")
WOUND_ENGLISH = {
    "Skråma": "scratch",
    "Lätt": "light",
    "Allvarlig": "serious",
    "Kritisk": "critical",
    "Dödlig": "deadly",
}
SKRAMA, LATT, ALLVARLIG, KRITISK, DODLIG = range(5)
NO_WOUND = -1


def thresholds(kraft: int, sjal: int, round_up: bool = False) -> tuple[int, int, int, int]:
    """Lätt = Kraft / 2, Allvarlig = Kraft, Kritisk = Kraft + Själ, Dödlig = Kraft + Själ + 10 (Snurre 6/12/28/38)."""
    light = -(-kraft // 2) if round_up else kraft // 2
    return (light, kraft, kraft + sjal, kraft + sjal + 10)


def wound_level(damage: int, limits: tuple[int, int, int, int]) -> int:
    """The highest threshold the damage reaches (≥); below the lowest: a Skråma."""
    result = SKRAMA
    for index, limit in enumerate(limits, start=LATT):
        if damage >= limit:
            result = index
    return result


def gard_counts(prepared: bool, ranged: bool, shield: bool) -> bool:
    """Gard counts only in melee when prepared, and against ranged attacks only with a shield and prepared."""
    return prepared and (not ranged or shield)


def uses_guarded_dice(gard: int, counts: bool, exceptional: bool) -> bool:
    """The guarded dice are rolled while the target has Gard that counts, unless the hit was exceptional."""
    return gard > 0 and counts and not exceptional


def apply_hit(
    gard: int, hit_effect: int, dice: int, guarded: bool, limits: tuple[int, int, int, int], empty_gard_scratch: bool
) -> tuple[int, int, int]:
    """One hit of ``hit_effect + dice`` damage → (Gard left, wound level or NO_WOUND, damage compared).

    Guarded: the damage is marked on Gard first and only what overflows is compared with the thresholds (damage
    that exactly empties Gard gives no wound unless ``empty_gard_scratch``). Open: all of it is compared.
    """
    total = hit_effect + dice
    if not guarded:
        return gard, wound_level(total, limits), total
    if total < gard or (total == gard and not empty_gard_scratch):
        return gard - total, NO_WOUND, 0
    overflow = total - gard
    return 0, wound_level(overflow, limits), overflow


def daze_gained(wound: int, hit_effect: int, dice: int) -> int:
    """Omtöckning from one hit: Skråma 1; Lätt the weapon's dice; Allvarlig dice + effect; no wound 0.

    Kritisk and Dödlig give none: the text gives them no Omtöckning ("En Kritisk skada gör att rollpersonen är
    utslagen"), and a fighter taken out rolls nothing that a penalty could change.
    """
    if wound == NO_WOUND or wound >= KRITISK:
        return 0
    if wound == SKRAMA:
        return 1
    if wound == LATT:
        return dice
    return dice + hit_effect


GardCount = TypeVar("GardCount", int, "np.ndarray[Any, Any]")


def regain_gard(gard: GardCount, gard_max: GardCount | int, points: GardCount | int = 1) -> GardCount:
    """Gard after "Båda återfår ett poäng Gard" (nobody fights, or the attacker does not attack): +1 a time, never
    above the maximum. Plain arithmetic, so the state (ints) and the kernel (arrays, ``points`` a 0/1 mask) share it.
    """
    total = gard + points
    over = (total > gard_max) * (total - gard_max)
    result: GardCount = total - over
    return result


# ---- rest ------------------------------------------------------------------------------------------------------------
def rest(daze: int, wounds: int, rounds: int, floor_per_wound: bool = True) -> int:
    """Omtöckning after ``rounds`` rounds of rest: one point a round, never below one per wound (scratches too)."""
    floor = min(daze, wounds) if floor_per_wound else 0
    return max(daze - rounds, floor)
