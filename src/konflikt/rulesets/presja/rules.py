"""The rules of one exchange as small pure functions (the compiled kernel, ``kernel_exchange.py``, mirrors these).

Everything here takes plain ints and returns plain ints, so tests and exact odds can use them directly.
"""

from __future__ import annotations

from konflikt.rulesets.presja.i18n import N_

TACTICS = ("none", "defensive", "offensive")
TACTIC_NAMES = {
    "none": N_("no tactic"),
    "defensive": N_("defensive tactic: +1 defence, −1 attack"),
    "offensive": N_("offensive tactic: +1 attack, −1 defence"),
}
"""Each tactic's name (a message of the catalog: translated where it is shown)."""
_TACTIC_MODS = {"none": (0, 0), "defensive": (-1, 1), "offensive": (1, -1)}


def tactic_mods(tactic: str) -> tuple[int, int]:
    """(Attack change, Defence change) of a declared tactic: defensive −1/+1, offensive +1/−1."""
    return _TACTIC_MODS[tactic]


def pressure(attack: int, defence: int, damage: int = 0, absorption: int = 0, margin_bonus: int = 0) -> int:
    """Presja dealt by one attack.

    Only when Attack ≥ Defence (margin 0 or more) are the weapon's Czynnik Obrażeń (damage factor) added to the
    Attack and the armour's Czynnik Wyparowań (absorption factor) to the Defence; what remains above is pressure.
    A margin below 0 deals nothing, whatever the weapon. ``margin_bonus`` is what a weapon aspect adds "do
    osiągniętego Marginesu Sukcesu" (to the margin achieved): only to a margin of 0 or more, so it never turns a
    miss into a hit nor brings the damage factor to one.
    """
    if attack < defence:
        return 0
    return max(0, attack - defence + margin_bonus + damage - absorption)


def fighting_level(skill: int | None, unskilled: int, surprised: bool, surprise_level: int) -> int:
    """The level a participant rolls at this exchange.

    Without a combat skill the default level (``unskilled``); taken by surprise, słaby (Poor, −1) unless the skill
    is already lower — and with no combat skill at all the default level lowered by one ("domyślny poziom
    obniżamy o jeden (czyli w efekcie fatalny (-3))": −2 − 1 with the default ``unskilled``).
    """
    if skill is None:
        return unskilled - 1 if surprised else unskilled
    return min(skill, surprise_level) if surprised else skill


def concede_fate_points(consequences_taken: int) -> int:
    """Fate points for conceding: 1, and 1 more per consequence taken in this conflict."""
    return 1 + consequences_taken


def positional_advantages(foes_on_target: int, foes_near: int, friends_near: int) -> tuple[bool, bool, bool]:
    """(numbers, flanking, surrounded) for an attack on one target, from the positions.

    Args:
        foes_on_target: the attacker's side attacking this target this exchange from the target's own zone.
        foes_near: the attacker's side in the target's zone or attacking it.
        friends_near: the target's side (the target included) in the target's zone.

    Numbers: the attackers outnumber the target's side there. Flanking: two or more attack the target where it
    stands (one can come at it from the side, "zachodzi go z boku"). Surrounded: three or more, "ze wszystkich
    stron" (from all sides), with numbers and flanking (the text: hard to surround anyone without first
    outnumbering and flanking them). How many make "from the side" and "from all sides" is konflikt's own.
    """
    numbers = foes_near > friends_near
    flanking = foes_on_target >= 2
    surrounded = foes_on_target >= 3 and numbers and flanking
    return numbers, flanking, surrounded
