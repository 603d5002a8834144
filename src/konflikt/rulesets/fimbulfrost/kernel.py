"""A numpy kernel for Fimbulfrost: many conflicts at once, for balancing (``konflikt sim``, the opponent report).

It mirrors :class:`~konflikt.rulesets.fimbulfrost.state.FimbulfrostState` with the ``heuristic`` policy on every
seat and the default rules. Under those, every decision is a pure function of a few small numbers and the dice are
the only chance, so the scenario is compiled once into lookup tables, built by calling the very helpers the rules
and the policy use (``split_round1``, ``split_hits``, ``absorb``, ``dice_needed``, ``available_entries``):

* runde 1 — each hero's Omdømme successes (a mixed-radix index) decide the splits, the opponent's Status and the
  morale; with the opponent's answer they decide who is out and how many consequences each out hero buys;
* runde 2 — the same index with the Kamp hits decides the damage of the opponent's fight roll;
* runde 3 — who still stands and the opponent's Status decide, turn by turn round the table, the dice each hero
  gathers (free dice first, pool dice only to the 19/20 chance) and the pool dice spent;
* konsekvenser — under these rules a hero buys at most two batches in a conflict (when out, for the 1s of the
  defeating roll, or for a lost round 3; a hero out before a lost round 3 buys for it too, under the default
  ``round3_loss = every``), always the least harmful entry first, with death forced last, so (fate before buying,
  round, empty pools, count, count of a second batch) gives the fate's words, deaths, death marks and lost pools.
  An entry whose effect is already true (a pool empty) stays on the list; under konflikt's own option
  ``consequence_must_cost`` it is left out, and the empty pools are part of the key.

Per conflict the kernel then only draws dice, adds, compares and looks up, one conflict at a time in compiled code
(:mod:`.kernel_loop`, numba), rolling only the dice the conflict gets to. The draws are exact: a pool's successes
(4–6, p = 1/2 a die) are the set bits of uniform random bits, and the 1s among the other dice (p = 1/3 each) one
uniform draw below 3ᵏ read against a table. The streams differ from the reference runner's; the distribution does
not. ``length`` is the number of steps (decisions and rolls) as the reference runner counts it, since the outcome
has no ``rounds``.

A batch starts at the opening, or from a State at the start of round 2 or 3 (:meth:`FimbulfrostKernel.start_from`,
:class:`~konflikt.core.capabilities.StartsFrom`) on tables made for that State (:mod:`.kernel_entry`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from konflikt.core.batch import Batch, Coded
from konflikt.core.options import Options
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.rulesets.fimbulfrost.i18n import _
from konflikt.rulesets.fimbulfrost.models import Catalogue, Character, Entry, load_catalogue
from konflikt.rulesets.fimbulfrost.narrate import fate_text
from konflikt.rulesets.fimbulfrost.options import OPTIONS
from konflikt.rulesets.fimbulfrost.policies import (
    CONFIDENCE,
    HeuristicPolicy,
    least_harmful,
    split_hits,
    split_round1,
)
from konflikt.rulesets.fimbulfrost.rules import (
    P_SUCCESS,
    POOL_OPTION,
    Round3Option,
    absorb,
    available_entries,
    consequence_count,
    dice_needed,
    effects_already_true,
    hero_list,
    maneuver_bit,
    opponent_entries,
    points_below_zero,
    presentation_dice,
)

Arr = npt.NDArray[Any]

MIRRORED = frozenset(
    {"points_per_consequence", "carried_consequences_count", "round1_death", "pools_spent", "morale"}
    | {"consequence_must_cost"}
    | {"borrowed_time_dice", "question_dice"}
)
"""Options the kernel plays at any value (the dice options give dice only under options it refuses; ``pools_spent``
matters only to the aftermath). ``round3_loss`` may be ``every`` or ``each``; every other option must be at its
default."""
ROUND3_LOSS = ("every", "each")

MAX_TABLE = 1 << 20
"""The largest round-2 table (heroes' Omdømme outcomes × answer × Kamp) the kernel builds before it refuses."""
POOL_NAMES = ("rustning", "grej", "vaaben")
STAGES = ("won_1", "out_1", "won_2", "out_2", "won_3", "lost_3")
"""How a conflict ends: opponent defeated in round 1, every hero out in round 1, ..., round 3 lost."""
ENDINGS = ["opponent_defeated", "heroes_out", "heroes_lost"]
if Fraction(1, 2) != P_SUCCESS:  # pragma: no cover - the draws below read successes as random bits
    raise ImportError("the fimbulfrost kernel draws successes as random bits: it needs P_SUCCESS = 1/2")


# ---- the scalar mirror: what the heuristic does, from which the tables are built ---------------------------------
def presenters(n: int) -> list[int]:
    """Who presents each hero (``presenters = one_each``): the heuristic takes the next unused friend round the
    table."""
    used: set[int] = set()
    out = []
    for i in range(n):
        options = [j for j in [i, *(j for j in range(n) if j != i)] if j not in used]
        others = [(j - i) % n for j in options if j != i]
        j = (i + min(others)) % n if others else i
        used.add(j)
        out.append(j)
    return out


def round1_splits(
    status: Sequence[int], omdomme: int, opp_status: int, rolls: Sequence[int]
) -> tuple[int, list[int], int]:
    """Round 1, step 3 for one tuple of successes: (opponent's Status, morale per hero, split decisions asked)."""
    n = len(status)
    morale = [0] * n
    asked = 0
    for i, s in enumerate(rolls):
        if s == 0:
            continue
        if n == 1:
            opp_status -= s
            continue
        asked += 1
        friends = [j for j in range(n) if j != i]
        shares = split_round1(s, sum(rolls[i + 1 :]), opp_status, [status[f] + morale[f] for f in friends], omdomme)
        opp_status -= shares[0]
        for f, m in zip(friends, shares[1:], strict=True):
            morale[f] += m
    return opp_status, morale, asked


def take_hits(
    hstatus: list[int], morale: list[int], standing: list[bool], hits: int, per: int, morale_mode: str = "status_pool"
) -> tuple[int, dict[int, int]]:
    """The opponent's answer (steps 4B–C / 3B–C), in place: (1 if its split was asked, {hero out: consequences})."""
    targets = [i for i in range(len(hstatus)) if standing[i]]
    asked = int(bool(hits) and len(targets) > 1)
    shares = split_hits(hits, [hstatus[t] + morale[t] for t in targets]) if asked else [hits] * len(targets)
    outs = {}
    for t, d in zip(targets, shares, strict=True):
        if d <= 0:
            continue
        hstatus[t], morale[t] = absorb(hstatus[t], morale[t], d)
        if morale_mode == "next_hit":  # the rest of the bonus is gone after absorbing
            morale[t] = 0
        if hstatus[t] <= 0:
            standing[t], morale[t] = False, 0
            outs[t] = consequence_count(points_below_zero(hstatus[t]), per)
    return asked, outs


def gather(
    heroes: Sequence[Character], standing: Sequence[bool], opp_status: int
) -> tuple[list[int], list[list[int]], int]:
    """Round 3, step 1 as the heuristic plays it: (dice per hero, pool dice spent per hero, turns asked).

    Turns go round the table from the first standing hero; a hero with nothing left is passed over without being
    asked. Even wilder needs a friend at the table; the standing heroes all described in round 2.
    """
    n = len(heroes)
    dice, used, done = [0] * n, [0] * n, [False] * n
    pools = [[h.rustning, h.grej, h.vaaben] for h in heroes]
    spent = [[0, 0, 0] for _ in heroes]
    need = dice_needed(opp_status, CONFIDENCE)

    def options_left(j: int) -> list[str]:
        left = ["wilder"] if n > 1 and not used[j] & Round3Option.WILDER else []
        left += [f"m{k}" for k in range(len(heroes[j].manovrer)) if not used[j] & maneuver_bit(k)]
        left += [kind for k, kind in ((1, "gear"), (0, "armour")) if not used[j] & POOL_OPTION[kind] and pools[j][k]]
        return left

    asked, cursor = 0, -1
    while True:
        for step in range(1, n + 1):
            j = (cursor + step) % n
            if not standing[j] or done[j]:
                continue
            if not options_left(j):
                done[j] = True
                continue
            cursor = j
            break
        else:
            return dice, spent, asked
        i = cursor
        asked += 1
        deficit = need - sum(dice[j] for j in range(n) if standing[j])
        left = options_left(i)
        if deficit <= 0 or not left:
            done[i] = True
        elif left[0] == "wilder":
            used[i] |= Round3Option.WILDER
            dice[i] += 1
        elif left[0][0] == "m":
            k = int(left[0][1:])
            used[i] |= maneuver_bit(k)
            dice[i] += heroes[i].manovrer[k].dice
        else:
            k = 1 if left[0] == "gear" else 0
            take = min(pools[i][k], deficit)
            used[i] |= POOL_OPTION[left[0]]
            pools[i][k] -= take
            spent[i][k] += take
            dice[i] += take


def purchases(
    catalogue: Catalogue,
    list_name: str,
    round_no: int,
    taken: Sequence[str],
    allow_death: bool,
    pools: Sequence[int],
    omdomme: int,
    must_cost: bool = False,
) -> list[Entry]:
    """The entries the heuristic buys one after another in one batch (:func:`least_harmful` first) until the list runs
    out or death ends it. ``must_cost``: konflikt's own option ``consequence_must_cost``, under which an entry whose
    effect is already true is not offered (a pool emptied by an entry makes later entries that empty it cost
    nothing, as in the state)."""
    pools, seq = list(pools), list[Entry]()
    while True:
        entries = available_entries(
            catalogue,
            list_name,
            round_no,
            [*taken, *(e.id for e in seq)],
            allow_death,
            effects_already_true(pools, omdomme) if must_cost else frozenset(),
        )
        if not entries:
            return seq
        seq.append(catalogue.entry(entries[least_harmful(entries)].id))
        if seq[-1].loses is not None:
            pools[POOL_NAMES.index(seq[-1].loses)] = 0
        if seq[-1].death:
            return seq


def opponent_purchases(catalogue: Catalogue, list_name: str, round_no: int) -> list[Entry]:
    """The entries the heuristic buys for a defeated opponent, least harmful first, until its list runs out or it is
    killed."""
    seq: list[Entry] = []
    while entries := opponent_entries(catalogue, list_name, round_no, [e.id for e in seq]):
        seq.append(catalogue.entry(min(entries, key=lambda e: e.severity).id))
        if seq[-1].death:
            break
    return seq


def fate_words(fate: int, bought: Sequence[Entry], won: bool | None = None) -> str:
    """The fate as :meth:`Narration.build_outcome` writes it (consequences in id order)."""
    return fate_text(fate, sorted(bought, key=lambda e: e.id), won=won)


# ---- the compiled scenario ---------------------------------------------------------------------------------------
@dataclass
class HeroTables:
    """One hero's lookups by consequence key (:meth:`HeroTables.key`): labels, entries bought, death, death mark,
    whether he is out or dead, pools lost (bits)."""

    width: int
    label: Arr
    bought: Arr
    dead: Arr
    marked: Arr
    gone: Arr
    lost: Arr
    labels: list[Hashable]

    def key(self, pre: int, round_no: int, empty: int, count: int) -> int:
        """The key of a first batch of ``count`` entries in ``round_no`` (0: none), bought with fate ``pre`` (0
        standing, 1 out) and the pools in the bit mask ``empty`` empty; a second batch adds its count."""
        return (((pre * 4 + round_no) * 8 + empty) * self.width + min(count, self.width - 1)) * self.width


@dataclass
class Tables:
    """A compiled scenario. Index names: ``k1`` the heroes' round-1 successes (mixed radix ``radix1``), ``a = k1 ·
    (answer + 1) + hits`` after the opponent's Omdømme answer, ``b = a · (kamp + 1) + hits`` after its Kamp roll,
    ``c = standing mask · (status + 1) + opponent's Status`` at round 3. ``*_key[hero]`` is the hero's consequence
    key (see :class:`HeroTables`) once out, −1 while standing; ``*_steps`` the decisions and rolls of that part."""

    n: int
    status: int
    answer: int
    kamp: int
    per: int
    radix1: list[int]
    d1: list[int]
    t1_os: Arr
    t1_steps: Arr
    ta_steps: Arr
    ta_out: Arr
    ta_mask: Arr
    ta_r2: Arr
    ta_key: Arr
    tb_steps: Arr
    tb_out: Arr
    tb_mask: Arr
    tb_key: Arr
    tc_dice: Arr
    tc_spent: Arr
    tc_empty: Arr
    tc_steps: Arr
    heroes: list[HeroTables]
    opp_width: int
    opp_label: Arr
    opp_bought: Arr
    opp_labels: list[Hashable]
    pools: Arr
    every_pays: bool
    empty_at_start: list[int]
    r2_dice: int = 3
    """The dice a standing hero rolls in round 2 (Stil, Stunt, Snak): none in a batch started at round 3."""


def _hero_tables(catalogue: Catalogue, hero: Character, opp: Character, options: Options) -> HeroTables:
    """Every consequence history of one hero: a first batch (fate before it, round, empty pools, count) and, for a
    hero out before a lost round 3, a second batch in round 3 (count)."""
    carried = list(hero.konsekvenser) if options.carried_consequences_count else []
    start = [getattr(hero, p) for p in POOL_NAMES]

    def batch(round_no: int, pools: Sequence[int], taken: Sequence[str]) -> list[Entry]:
        allow_death = round_no != 1 or bool(options.round1_death)
        return purchases(
            catalogue,
            hero_list(catalogue, opp.konsekvensliste, round_no),
            round_no,
            taken,
            allow_death,
            pools,
            hero.omdomme,
            bool(options.consequence_must_cost),
        )

    def emptied(pools: Sequence[int], empty: int) -> list[int]:
        return [0 if empty >> k & 1 else size for k, size in enumerate(pools)]

    firsts = {(r, empty): batch(r, emptied(start, empty), carried) for r, empty in product(range(1, 4), range(8))}
    width = 1 + max(len(seq) for seq in firsts.values())
    seconds: dict[tuple[int, int, int], list[Entry]] = {}
    for (r, empty), seq in firsts.items():
        for c in range(len(seq) + 1):
            bought = seq[:c]
            if bought and bought[-1].death:
                continue
            lost = [e.loses for e in bought if e.loses]
            pools = [0 if name in lost else size for name, size in zip(POOL_NAMES, emptied(start, empty), strict=True)]
            seconds[r, empty, c] = batch(3, pools, [*carried, *(e.id for e in bought)])
    width = max(width, 1 + max((len(seq) for seq in seconds.values()), default=0))
    size = 2 * 4 * 8 * width * width
    tabs = {k: np.zeros(size, dtype=np.int64) for k in ("label", "bought", "dead", "marked", "gone", "lost")}
    labels: dict[Hashable, int] = {}
    tables = HeroTables(width, labels=[], **tabs)
    for pre, r, empty, c, c2 in product((0, 1), range(4), range(8), range(width), range(width)):
        first = firsts[r, empty][:c] if r else []
        second = seconds.get((r, empty, len(first)), []) if r and r < 3 else []
        bought = first + second[:c2]
        dead = bool(bought) and bought[-1].death
        fate = 2 if dead else pre
        key = tables.key(pre, r, empty, c) + c2
        tabs["label"][key] = labels.setdefault(fate_words(fate, bought), len(labels))
        tabs["bought"][key] = len(bought)
        tabs["dead"][key] = dead
        tabs["marked"][key] = any(e.death_mark for e in bought)
        tabs["gone"][key] = fate != 0
        tabs["lost"][key] = sum(1 << POOL_NAMES.index(name) for name in {e.loses for e in bought if e.loses})
    tables.labels = list(labels)
    return tables


def compile_scenario(scenario: Scenario, options: Options) -> Tables | str:
    """The lookup tables of a scenario, or why the kernel cannot play it."""
    parts = scenario.participants()
    heroes = [p.data for p in parts if p.data.role == "hero"]
    opp: Character = next(p.data for p in parts if p.data.role == "opponent")
    n, per = len(heroes), int(options.points_per_consequence)
    catalogue = load_catalogue(scenario.setup.lists_path(scenario.source))
    who = presenters(n)
    d1 = [presentation_dice(h.omdomme_this_fight, who[i] == i) for i, h in enumerate(heroes)]
    radix1 = [int(np.prod([d + 1 for d in d1[i + 1 :]])) for i in range(n)]
    k1_size = int(np.prod([d + 1 for d in d1]))
    om, kamp, status = opp.omdomme, opp.kamp, opp.status
    if k1_size * (om + 1) * (kamp + 1) > MAX_TABLE:
        cases = format(k1_size * (om + 1) * (kamp + 1), ",")
        return _("too many dice for the kernel's tables ({cases} round-2 cases)", cases=cases)
    hero_tabs = [_hero_tables(catalogue, h, opp, options) for h in heroes]
    empty_at_start = [sum(1 << k for k, p in enumerate(POOL_NAMES) if not getattr(h, p)) for h in heroes]
    opp_seqs = [[], *(opponent_purchases(catalogue, opp.nederlagsliste, r) for r in range(1, 4))]
    opp_width = 1 + max(len(s) for s in opp_seqs)
    opp_label = np.zeros(4 * opp_width, dtype=np.int64)
    opp_bought = np.zeros(4 * opp_width, dtype=np.int64)
    opp_labels: dict[Hashable, int] = {fate_words(0, [], won=False): 0}
    for r, c in product(range(1, 4), range(opp_width)):
        bought = opp_seqs[r][:c]
        opp_label[r * opp_width + c] = opp_labels.setdefault(fate_words(0, bought, won=True), len(opp_labels))
        opp_bought[r * opp_width + c] = len(bought)

    def key(i: int, r: int, count: int) -> int:
        """The consequence key of hero ``i`` out in round ``r`` with ``count`` to buy (pools as at the start)."""
        return hero_tabs[i].key(1, r, empty_at_start[i], count)

    tabs: dict[str, Any] = {"n": n, "status": status, "answer": om, "kamp": kamp, "per": per, "radix1": radix1}
    tabs |= {"every_pays": options.round3_loss == "every", "empty_at_start": empty_at_start}
    tabs |= _fight_tables([h.status for h in heroes], d1, radix1, om, kamp, status, per, key, str(options.morale))
    tabs |= _round3_tables(heroes, status)
    tabs |= {"heroes": hero_tabs, "opp_width": opp_width, "opp_label": opp_label, "opp_bought": opp_bought}
    tabs["opp_labels"] = list(opp_labels)
    tabs["pools"] = np.array([[getattr(h, p) for p in POOL_NAMES] for h in heroes], dtype=np.int64)
    return Tables(**tabs, d1=d1)


def _fight_tables(
    base: list[int],
    d1: list[int],
    radix1: list[int],
    om: int,
    kamp: int,
    status: int,
    per: int,
    key: Callable[[int, int, int], int],
    morale_mode: str,
) -> dict[str, Arr]:
    """Rounds 1 and 2 up to round 3: every tuple of Omdømme successes, answer hits and Kamp hits."""
    n, k1_size = len(base), int(np.prod([d + 1 for d in d1]))
    a_size, b_size = k1_size * (om + 1), k1_size * (om + 1) * (kamp + 1)
    out = {k: np.zeros(k1_size, dtype=np.int64) for k in ("t1_os", "t1_steps")}
    out |= {k: np.zeros(a_size, dtype=np.int64) for k in ("ta_steps", "ta_out", "ta_mask", "ta_r2")}
    out |= {k: np.zeros(b_size, dtype=np.int64) for k in ("tb_steps", "tb_out", "tb_mask")}
    out["ta_key"], out["tb_key"] = np.full((n, a_size), -1, dtype=np.int64), np.full((n, b_size), -1, dtype=np.int64)
    for rolls in product(*(range(d + 1) for d in d1)):
        k1 = sum(s * r for s, r in zip(rolls, radix1, strict=True))
        os1, morale1, asked = round1_splits(base, om, status, rolls)
        out["t1_os"][k1], out["t1_steps"][k1] = os1, n + sum(d > 0 for d in d1) + asked
        if os1 <= 0:  # defeated in round 1: no answer, no round 2
            continue
        for h1 in range(om + 1):
            a = k1 * (om + 1) + h1
            hst, mor, standing = list(base), list(morale1), [True] * n
            asked, outs = take_hits(hst, mor, standing, h1, per, morale_mode)
            if morale_mode == "round1":
                mor = [0] * n
            mask = sum(1 << i for i in range(n) if standing[i])
            out["ta_steps"][a], out["ta_out"][a], out["ta_mask"][a] = int(om > 0) + asked, not mask, mask
            out["ta_r2"][a] = 2 * mask.bit_count()  # each standing hero describes, then rolls
            for i, c in outs.items():
                out["ta_key"][i, a] = key(i, 1, c)
            for h2 in range(kamp + 1):
                b = a * (kamp + 1) + h2
                out["tb_key"][:, b] = out["ta_key"][:, a]
                if not mask:
                    out["tb_out"][b] = True
                    continue
                hst2, mor2, standing2 = list(hst), list(mor), list(standing)
                asked2, outs2 = take_hits(hst2, mor2, standing2, h2, per, morale_mode)
                mask2 = sum(1 << i for i in range(n) if standing2[i])
                out["tb_steps"][b], out["tb_out"][b], out["tb_mask"][b] = int(kamp > 0) + asked2, not mask2, mask2
                for i, c in outs2.items():
                    out["tb_key"][i, b] = key(i, 2, c)
    out["ta_out"], out["tb_out"] = out["ta_out"].astype(bool), out["tb_out"].astype(bool)
    return out


def _round3_tables(heroes: Sequence[Character], status: int) -> dict[str, Arr]:
    """Round 3's gathering for every set of standing heroes and every Status the opponent may have left."""
    n = len(heroes)
    c_size = (1 << n) * (status + 1)
    out = {"tc_dice": np.zeros((n, c_size), dtype=np.int64), "tc_spent": np.zeros((n, 3, c_size), dtype=np.int64)}
    out["tc_empty"] = np.zeros((n, c_size), dtype=np.int64)
    start = [[getattr(h, p) for p in POOL_NAMES] for h in heroes]
    out["tc_steps"] = np.zeros(c_size, dtype=np.int64)
    for mask, os2 in product(range(1, 1 << n), range(1, status + 1)):
        c = mask * (status + 1) + os2
        dice, spent, asked = gather(heroes, [bool(mask >> i & 1) for i in range(n)], os2)
        out["tc_dice"][:, c], out["tc_spent"][:, :, c] = dice, spent
        for i in range(n):
            out["tc_empty"][i, c] = sum(1 << k for k in range(3) if start[i][k] - spent[i][k] <= 0)
        out["tc_steps"][c] = asked + sum(d > 0 for d in dice)  # the turns, then a roll per hero with dice
    return out


def _policy_name(policy: Policy | None) -> str:
    return "heuristic" if isinstance(policy, HeuristicPolicy) else getattr(policy, "name", "human")


def make_kernel(scenario: Scenario, options: Options, seats: Mapping[str, Policy | None]) -> FimbulfrostKernel | str:
    """The vectorised kernel for ``scenario``, or why it cannot play it (an option or a seat's policy it does not
    mirror, or dice too many for its tables)."""
    for option in OPTIONS:
        if option.name == "round3_loss":
            if options[option.name] not in ROUND3_LOSS:
                return _(
                    "the fimbulfrost kernel plays round3_loss = 'every' or 'each' only, not {value}",
                    value=repr(options[option.name]),
                )
            continue
        if option.name not in MIRRORED and options[option.name] != option.default:
            return _(
                "the fimbulfrost kernel plays {option} = {default} only, not {value}",
                option=option.name,
                default=repr(option.default),
                value=repr(options[option.name]),
            )
    for seat, policy in seats.items():
        if not isinstance(policy, HeuristicPolicy):
            return _(
                "the fimbulfrost kernel mirrors the heuristic policy only; {seat} plays {policy}",
                seat=seat,
                policy=_policy_name(policy),
            )
    tables = compile_scenario(scenario, options)
    if isinstance(tables, str):
        return tables
    if max(len(h.labels) for h in tables.heroes) > np.iinfo(np.int16).max:
        return _("too many fates for the kernel's int16 codes")
    parts = scenario.participants()
    heroes = [p for p in parts if p.data.role == "hero"]
    opp = next(p for p in parts if p.data.role == "opponent")
    kernel = FimbulfrostKernel(tables, [p.id for p in heroes], opp.id, heroes[0].side, opp.side)
    kernel.heroes, kernel.opponent, kernel.options = [p.data for p in heroes], opp.data, options
    kernel.catalogue = load_catalogue(scenario.setup.lists_path(scenario.source))
    kernel.carried = [
        frozenset(h.data.konsekvenser) if options.carried_consequences_count else frozenset() for h in heroes
    ]
    return kernel


class FimbulfrostKernel:
    """Plays many conflicts of one compiled scenario at once; see the module docstring."""

    def __init__(self, tables: Tables, hero_ids: list[str], opp_id: str, hero_side: str, opp_side: str) -> None:
        self.t = tables
        self._tables = loop_tables(tables)
        self.hero_ids, self.opp_id = hero_ids, opp_id
        self.winner_labels: list[Hashable] = [(hero_side,), (opp_side,)]
        # what a State must share to start a batch (set by make_kernel; a kernel without them plays the opening)
        self.heroes: list[Character] = []
        self.opponent: Character | None = None
        self.options: Options | None = None
        self.catalogue: Catalogue | None = None
        self.carried: list[frozenset[str]] = []
        self._starts: dict[Hashable, tuple[Arr, ...] | None] = {}
        """Loop tables per round start met (:meth:`start_from`), by what they are made from."""
        self._seen: Any = None
        """The last State's heroes found to be this kernel's (their copies are checked once)."""

    def start_from(self, state: State) -> tuple[Arr, ...] | None:
        """The loop's tables for a batch from ``state``, a conflict of this kernel's scenario at the start of a round
        (every consequence of the last one bought: :func:`.model.at_round_start`), made by
        :func:`.kernel_entry.entry_tables` for rounds 2 and 3. ``None`` within a round (the caller steps the State on
        to the next round's start), for a State the tables cannot hold, or for another conflict."""
        from konflikt.rulesets.fimbulfrost.kernel_entry import entry_tables
        from konflikt.rulesets.fimbulfrost.model import at_round_start
        from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

        if not isinstance(state, FimbulfrostState) or self.options is None:
            return None
        round_no = at_round_start(state)
        if not round_no:
            return None
        if state.chars is not self._seen:
            same = list(state.chars) == self.heroes and state.opp == self.opponent
            if not same or list(state.carried) != self.carried or state.catalogue != self.catalogue:
                return None
            self._seen = state.chars
        if repr(state.options) != repr(self.options):
            return None
        if round_no == 1:
            return self._tables  # the opening itself: at_round_start holds nothing else in round 1
        key: Hashable = (
            round_no, state.opp_status, tuple(state.hstatus), tuple(state.morale), tuple(state.fate),
            tuple(map(tuple, state.pools)), tuple(map(tuple, state.taken)), tuple(state.back), tuple(state.borrowed),
        )  # fmt: skip
        if key not in self._starts:
            if len(self._starts) > 4096:
                self._starts.clear()
            tables = entry_tables(self.t, state, round_no, self)
            self._starts[key] = None if tables is None else loop_tables(tables)
        return self._starts[key]

    def run_from(self, start: tuple[Arr, ...], n: int, rng: np.random.Generator) -> Batch:
        """Play ``n`` conflicts from a start (:meth:`start_from`); lengths count the steps from there."""
        return self._play(n, rng, None, start)

    def consequence_counts(self) -> dict[str, dict[Hashable, int]]:
        """Participant → fate label → how many consequences that fate holds: a report reads expectations off the
        fates (of this kernel's batches or of exact odds) without parsing their words."""
        t = self.t
        out = {
            hid: {h.labels[int(code)]: int(bought) for code, bought in zip(h.label, h.bought, strict=True)}
            for hid, h in zip(self.hero_ids, t.heroes, strict=True)
        }
        out[self.opp_id] = {t.opp_labels[int(c)]: int(b) for c, b in zip(t.opp_label, t.opp_bought, strict=True)}
        return out

    def run(self, n: int, rng: np.random.Generator) -> Batch:
        """Play ``n`` conflicts with dice from ``rng``."""
        return self._play(n, rng, None)

    def run_traced(self, n: int, rng: np.random.Generator) -> tuple[Batch, dict[str, Arr]]:
        """Like :meth:`run`, and also every roll as (successes, 1s) per hero and round, so that a test can replay the
        same dice through the reference state: ``s1, h1, s2, o2, h2, s3, o3`` (hero rolls are ``[hero, conflict]``)."""
        trace: dict[str, list[Arr]] = {}
        batch = self._play(n, rng, trace)
        return batch, {k: np.concatenate(v, axis=-1) for k, v in trace.items()}

    def run_traced_from(self, start: tuple[Arr, ...], n: int, rng: np.random.Generator) -> tuple[Batch, dict[str, Arr]]:
        """:meth:`run_traced` from a start (:meth:`start_from`)."""
        trace: dict[str, list[Arr]] = {}
        batch = self._play(n, rng, trace, start)
        return batch, {k: np.concatenate(v, axis=-1) for k, v in trace.items()}

    def _play(
        self,
        n: int,
        rng: np.random.Generator,
        trace: dict[str, list[Arr]] | None,
        tables: tuple[Arr, ...] | None = None,
    ) -> Batch:
        from konflikt.rulesets.fimbulfrost.kernel_loop import FATE, play

        t = self.t
        # every row int16 and in one array (codes, length, numbers, the heroes' fates: kernel_loop's rows): a fresh
        # batch's memory costs page faults, and int64 rows cost 80 bytes a conflict where these take 28
        out = np.empty((FATE + t.n, n), np.int16)
        rows = np.zeros((5 * t.n + 2, n) if trace is not None else (0, 0), np.int64)
        loop: Any = play  # its arguments: the tables, then the outputs
        loop(rng, *(self._tables if tables is None else tables), out, rows)
        if trace is not None:
            k = t.n
            for name, part in (("s1", rows[:k]), ("h1", rows[k]), ("s2", rows[k + 1 : 2 * k + 1]),
                               ("o2", rows[2 * k + 1 : 3 * k + 1]), ("h2", rows[3 * k + 1]),
                               ("s3", rows[3 * k + 2 : 4 * k + 2]), ("o3", rows[4 * k + 2 :])):  # fmt: skip
                trace.setdefault(name, []).append(part)
        numbers, fates = out[FATE - len(NUMBERS) : FATE], out[FATE:]
        fate_codes = {hid: Coded(fates[i], t.heroes[i].labels) for i, hid in enumerate(self.hero_ids)}
        fate_codes[self.opp_id] = Coded(out[3], t.opp_labels)
        return Batch(
            Coded(out[0], self.winner_labels),
            Coded(out[1], list(ENDINGS)),
            fate_codes,
            out[2],
            dict(zip(NUMBERS, numbers, strict=True)),
        )


NUMBERS = ("round", "opponent_status", "consequences", "opponent_consequences", "dead", "out", "death_marked",
           "dice_spent")  # fmt: skip
"""The outcome numbers of a batch, in the order of ``kernel_loop``'s rows."""


def loop_tables(t: Tables) -> tuple[Arr, ...]:
    """The tables as the compiled loop reads them (``kernel_loop.play``'s arguments before the outputs)."""
    size = max(len(h.label) for h in t.heroes)
    hero = np.zeros((t.n, size, 8), np.int16)  # a key's six numbers in 16 bytes: the table in the caches
    for i, h in enumerate(t.heroes):
        for column, name in enumerate(("label", "bought", "dead", "marked", "gone", "lost")):
            hero[i, : len(h.label), column] = getattr(h, name)
    consts = np.array([t.n, t.status, t.answer, t.kamp, t.per, t.opp_width, int(t.every_pays), t.r2_dice], np.int64)
    i64 = np.int64
    return (
        consts,
        np.array(t.d1, i64),
        np.array(t.radix1, i64),
        np.stack([t.t1_os, t.t1_steps]).astype(i64),
        np.stack([t.ta_steps, t.ta_out, t.ta_mask, t.ta_r2]).astype(i64),
        t.ta_key.astype(i64),
        np.stack([t.tb_steps, t.tb_out, t.tb_mask]).astype(i64),
        t.tb_key.astype(i64),
        t.tc_dice.astype(i64),
        t.tc_spent.astype(i64),
        t.tc_empty.astype(i64),
        t.tc_steps.astype(i64),
        hero,
        np.array([h.width for h in t.heroes], i64),
        np.stack([t.opp_label, t.opp_bought]).astype(i64),
        t.pools.astype(i64),
        np.array(t.empty_at_start, i64),
    )
