"""Fimbulfrost's rules as small pure functions, importable by the state machine, the policies, the odds questions
and a later vectorised kernel alike.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from enum import IntFlag
from fractions import Fraction
from functools import cache
from math import comb

from konflikt.dice import SuccessPool
from konflikt.rulesets.fimbulfrost.models import Catalogue, Entry

SUCCESS_FROM = 4
"""A die showing 4–6 is a success ("4-6 er succeser", said of every round's roll); a 1 is a potential mishap
(ulykke). The one statement of the rule: the state's rolls, the exact odds and the kernel's draws all follow it."""
P_SUCCESS = Fraction(7 - SUCCESS_FROM, 6)
"""A die's chance of a success (1/2)."""
OTHER_FACES = SUCCESS_FROM - 1
"""The faces that are not successes (1–3); a die that is not a success shows a 1 with chance 1/OTHER_FACES."""


def success_pool(dice: int) -> SuccessPool:
    """``dice`` d6 rolled as the rules read them: successes from :data:`SUCCESS_FROM`, and the 1s."""
    return SuccessPool(dice, success_from=SUCCESS_FROM)


AREAS = ("stil", "stunt", "snak")
AREA_EN = {"stil": "style", "stunt": "stunt", "snak": "talk"}


class Round3Option(IntFlag):
    """Round 3's options, each once per hero ("indtil alle har foretaget hver handling en gang"): one bit each in a
    hero's mask of options used, the same bits for the state, the policy and the kernel. Maneuver ``j`` is
    :func:`maneuver_bit` ``(j)``, the bits from ``MANEUVER`` up."""

    WILDER = 1
    GEAR = 2
    ARMOUR = 4
    WEAPON = 8
    BORROWED = 16
    QUESTION = 32
    MANEUVER = 64


POOL_OPTION = {"armour": Round3Option.ARMOUR, "gear": Round3Option.GEAR, "weapon": Round3Option.WEAPON}
"""The round-3 option that takes dice from each pool."""


def maneuver_bit(j: int) -> int:
    """The bit of a hero's ``j``-th maneuver in his mask of round-3 options used."""
    return int(Round3Option.MANEUVER) << j


def presentation_dice(omdomme: int, by_self: bool) -> int:
    """Round 1, step 1: presenting yourself you roll Omdømme − 1 dice; presented by a friend, Omdømme + 0."""
    return max(0, omdomme - 1) if by_self else omdomme


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``total`` successes into ``parts`` ordered shares (a stars-and-bars enumeration)."""
    if parts <= 0:
        if total == 0:
            yield ()
        return
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def absorb(status: int, morale: int, damage: int) -> tuple[int, int]:
    """Damage to a hero: morale bonus absorbs first, the rest comes off Status. Returns (status, morale left)."""
    soaked = min(morale, damage)
    return status - (damage - soaked), morale - soaked


def points_below_zero(status: int) -> int:
    """A hero or opponent at Status ≤ 0 is out (overvundet); the points below 0 buy consequences."""
    return max(0, -status)


def consequence_count(points: int, per: int = 1) -> int:
    """How many list entries ``points`` buy: one per ``per`` points, rounded up (the default: one per point)."""
    return -(-points // per) if points > 0 else 0


def buy_back_count(points: int, per: int = 1) -> int:
    """Optional buy-back: buy off the points below 0 and one extra consequence, to return at Status 1."""
    return consequence_count(points, per) + 1


def loss_shares(remaining: int, standing: int, mode: str) -> list[int]:
    """A lost round 3: consequences per standing hero for the opponent's remaining Status.

    ``each``: every hero buys the whole amount (as written); ``shared``: they split it, earlier heroes paying
    the remainder.
    """
    if standing <= 0:
        return []
    if mode == "each":
        return [remaining] * standing
    base, extra = divmod(remaining, standing)
    return [base + (1 if i < extra else 0) for i in range(standing)]


POOLS = ("rustning", "grej", "vaaben")
"""A hero's resource pools (Rustning, Grej, våbenpulje), in the order the state keeps them."""


def effects_already_true(pools: Sequence[int], omdomme: int) -> frozenset[str]:
    """The mechanical effects a consequence could have that are already true of a hero: every empty pool (an entry
    that empties it takes nothing), and Omdømme at 0 (an entry costing Omdømme takes nothing)."""
    true = {name for name, size in zip(POOLS, pools, strict=True) if size <= 0}
    return frozenset(true | ({"omdomme"} if omdomme <= 0 else set()))


def costs_something(entry: Entry, already_true: frozenset[str]) -> bool:
    """Whether taking ``entry`` would change the hero: an entry whose every mechanical effect is already true (gear
    lost with an empty gear pool) changes nothing; an entry without mechanical effects (a wound, a scar) always costs
    its harm. Read by konflikt's own option ``consequence_must_cost`` and by the heuristic's order."""
    return not entry.effects or not entry.effects <= already_true


def excluded(entry: Entry, taken: Collection[str], listed: Sequence[Entry]) -> bool:
    """Whether ``entry`` is ruled out by an entry already taken that it excludes, or that excludes it (opposing fates
    such as fleeing, being captured and being killed: the relation goes both ways)."""
    if any(other in taken for other in entry.excludes):
        return True
    return any(entry.id in other.excludes for other in listed if other.id in taken)


def available_entries(
    catalogue: Catalogue,
    list_name: str,
    round_no: int,
    taken: Sequence[str],
    allow_death: bool = True,
    already_true: frozenset[str] = frozenset(),
) -> tuple[Entry, ...]:
    """The entries a hero may buy now from his own list: every entry of the list for this round not yet chosen (and
    not excluded by one chosen), and death (død), which "spilleren bliver kun tvunget ud i at vælge … hvis der ikke er
    flere valgmuligheder tilbage på listen": forced when nothing else is left, never forbidden before. An entry
    whose effect is already true (gear lost with no gear) stays on the list until it is chosen.

    Args:
        taken: entries the hero already has (this conflict, and carried ones when they count).
        allow_death: False only in round 1 under the option ``round1_death = false``.
        already_true: effects already true of the hero (:func:`effects_already_true`) under konflikt's own option
            ``consequence_must_cost``, which leaves out the entries that would cost nothing; empty by default.
    """
    listed = catalogue.lists[list_name].entries
    entries = [e for e in listed if round_no in e.runder and e.id not in taken and not excluded(e, taken, listed)]
    others = tuple(e for e in entries if not e.death and costs_something(e, already_true))
    deaths = tuple(e for e in entries if e.death) if allow_death else ()
    return others + deaths


def opponent_entries(catalogue: Catalogue, list_name: str, round_no: int, taken: Sequence[str]) -> tuple[Entry, ...]:
    """The entries the heroes may buy for a defeated opponent: every unused one of its list for this round that no
    entry taken excludes (it cannot both flee and be captured or killed), death (dræbt) as soon as they can pay for
    it ("kan spillerne købe konsekvenser til modstanderen for det antal point"): the death-last rule is for the
    heroes' own lists."""
    listed = catalogue.lists[list_name].entries
    return tuple(e for e in listed if round_no in e.runder and e.id not in taken and not excluded(e, taken, listed))


def hero_list(catalogue: Catalogue, special: str | None, round_no: int) -> str:
    """The list a hero buys from: the opponent's special list when it has entries for this round, else the round's."""
    if special is not None and any(round_no in e.runder for e in catalogue.lists[special].entries):
        return special
    return f"runde{round_no}"


@cache
def success_distribution(dice: int) -> tuple[Fraction, ...]:
    """P(exactly k successes) for k = 0..dice: binomial with p = :data:`P_SUCCESS`."""
    return tuple(comb(dice, k) * P_SUCCESS**k * (1 - P_SUCCESS) ** (dice - k) for k in range(dice + 1))


@cache
def p_defeat(dice: int, status: int) -> Fraction:
    """The exact chance that ``dice`` d6 roll at least ``status`` successes (an opponent at ``status`` falls)."""
    if status <= 0:
        return Fraction(1)
    dist = success_distribution(dice)
    return sum(dist[status:], Fraction(0))


@cache
def dice_needed(status: int, chance: Fraction) -> int:
    """The fewest dice that defeat an opponent at ``status`` with at least ``chance`` (capped at 4·status + 8)."""
    cap = 4 * max(status, 0) + 8
    for n in range(cap + 1):
        if p_defeat(n, status) >= chance:
            return n
    return cap
