"""One sekwencja walki (exchange) of a one-against-one fight, as a pure function of a small state and the dice.

The vectorised kernel keeps each conflict as an id into a table of :data:`Duel` states and looks the next state up
by ``(state, 4dF of the first − 4dF of the second)``; this module computes a missing table entry, once, in Python.
Why the difference of the dice is enough: with one attack each way every pressure depends on Attack − Defence
only, and so do the heuristic's invocations (its balance of pressure dealt and taken). The declarations come from
the real :class:`HeuristicPolicy` on a real :class:`PresjaState` (memoised by what they depend on); the absorbing
uses the real :func:`absorb_options` and the policy's own least-harm choice; the invocation loop mirrors
:mod:`.invoke` and the policy's ranking step for step (the kernel tests replay the kernel's dice through the State
to prove it, conflict by conflict).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from konflikt.rulesets.presja.options import ADVANTAGE_KINDS, POSITIONAL
from konflikt.rulesets.presja.policies import HeuristicPolicy, _least_harm, gm_holder
from konflikt.rulesets.presja.rules import concede_fate_points, pressure, tactic_mods
from konflikt.rulesets.presja.state import Declaration, PresjaState
from konflikt.rulesets.presja.track import Box, absorb_options, mark

Duel = tuple[
    int, int, tuple[int, int, int], tuple[int, int, int], int, int, int, int, int, int, int, int, int, int, int
]
"""(marked₀, marked₁, consequences₀, consequences₁, fate points₀, fate points₁, consequences taken in this
conflict₀, ₁, fate₀, fate₁, early, weapon aspect ticks₀, ₁, zone₀, zone₁); index 0 acts first. A consequence slot
is 0 empty, 1 taken (its free invocation unused), 2 free invocation used; a fate is 0 fighting, 1 taken out
(wyeliminowany), 2 conceded (pokonany). ``early`` is min(exchange, 3) when the exchange number matters (surprise in
the first, the GM's mobility advantage from the third), else 0."""
Round = tuple[int, tuple[int, int], tuple[tuple[int, int, int], tuple[int, int, int]], tuple[int, int], tuple[int, int]]
"""An exchange after the declarations: (steps, fate points, consequences, pressure dealt by 0 and 1, ticks)."""


class Decl(NamedTuple):
    """One duellist's declaration, without a target (in a duel an attack is on the other)."""

    kind: str
    """``attack``, ``defend``, ``move`` or ``concede``."""
    tactic: str
    """``none``, ``defensive`` or ``offensive``."""
    zone: int
    """The zone moved to (−1: no move)."""


DELTAS = 17
"""4dF − 4dF runs from −8 to +8."""


def timed(conflict: PresjaState) -> bool:
    """Whether the exchange number changes anything but the names (see :data:`Duel`)."""
    return bool(conflict.surprised) or bool(conflict.rule_values["advantage_mobility"])


def duel_of(conflict: PresjaState, a: int, b: int) -> Duel:
    """The kernel's state of participants ``a`` (first in order) and ``b`` at the start of an exchange."""
    c0, c1 = conflict.cons[a], conflict.cons[b]
    return (
        conflict.marked[a],
        conflict.marked[b],
        (c0[0], c0[1], c0[2]),
        (c1[0], c1[1], c1[2]),
        conflict.fate_points[a],
        conflict.fate_points[b],
        conflict.cons_new[a],
        conflict.cons_new[b],
        conflict.fate[a],
        conflict.fate[b],
        min(conflict.exchange, 3) if timed(conflict) else 0,
        conflict.ticks[a],
        conflict.ticks[b],
        conflict.zone[a],
        conflict.zone[b],
    )


Step = tuple[Duel, int, int]
"""One exchange's result: the next state, the steps (decisions and rolls) it took, and which consequence slots
were newly taken (bit ``3 * who + slot``; their names depend on the exchange number)."""


class ExchangeRules:
    """The fixed numbers of a duel and the exchange function over :data:`Duel` states."""

    def __init__(self, opening: PresjaState) -> None:
        self.opening = opening
        a, b = opening.order[0], opening.order[1]
        self.who = (a, b)
        f = opening.fighters
        rule_values: dict[str, Any] = opening.rule_values
        self.ids = (f[a].id, f[b].id)
        self.damage = (f[a].damage, f[b].damage)
        self.absorption = (f[a].absorption, f[b].absorption)
        self.track: tuple[tuple[Box, ...], tuple[Box, ...]] = (f[a].track, f[b].track)
        self.aspects = (len(f[a].aspects), len(f[b].aspects))
        self.scene = len(opening.situation)
        self.values = opening.values
        self.box_less = bool(rule_values["box_absorbs_less"])
        self.cons_less = bool(rule_values["consequence_absorbs_less"])
        self.bonus = int(rule_values["invoke_bonus"])
        self.fate_point = bool(rule_values["fate_point_without_aspect"])
        self.limit = int(rule_values["invoke_limit"])
        self.quality = bool(rule_values["advantage_weapon_quality"])
        self.boxes = (f[a].weapon_boxes, f[b].weapon_boxes) if self.quality else (0, 0)
        """Tick boxes of each weapon aspect that may be invoked (przewaga jakości broni)."""
        self.compels = bool(rule_values["compels"])
        """Whether the GM is asked about compels at the start of an exchange where anyone has a consequence."""
        self.window = int(bool(rule_values["allow_concede"]) and f[a].may_concede)
        """The step of the first's window to concede before the second's roll (the heuristic fights on): asked
        when it may concede. The second declared last, so it has no window before the first's roll."""
        self.clears = rule_values["weapon_aspect_clears"] == "exchange"
        self.timed = timed(opening)
        self.kinds = tuple(
            kind
            for kind, name, _ in ADVANTAGE_KINDS
            if (rule_values[name] == "gm" if kind in POSITIONAL else rule_values[name] is True)
        )
        """The advantages the GM is asked about each exchange in which someone attacks."""
        self.policy = HeuristicPolicy()
        self._rng = np.random.default_rng(0)  # the heuristic never draws; the API wants a generator
        self._scratch: PresjaState = opening.fork()  # type: ignore[assignment]
        self._decl: dict[tuple[Any, ...], tuple[Decl, Decl | None]] = {}
        self._own: dict[tuple[Any, ...], Decl] = {}
        self._adv: dict[tuple[Decl, Decl, int, tuple[int, int]], tuple[tuple[int, int], int]] = {}
        self._round: dict[tuple[Any, ...], Round] = {}
        self._hits: dict[tuple[int, int, tuple[int, ...], int], tuple[int, tuple[int, int, int], int] | None] = {}

    def _at(self, early: int) -> PresjaState:
        """The scratch state at exchange ``early`` (levels as surprise sets them)."""
        conflict = self._scratch
        exchange = max(early, 1)
        if conflict.exchange != exchange:
            conflict.exchange = exchange
            conflict.levels = conflict._fighting_levels()
        return conflict

    def levels(self, early: int) -> tuple[int, int]:
        conflict = self._at(early)
        return conflict.levels[self.who[0]], conflict.levels[self.who[1]]

    # ---- declarations, by the real policy on a real state ------------------------------------------------------
    def declare(
        self, m0: int, c0: tuple[int, ...], m1: int, c1: tuple[int, ...], early: int, zones: tuple[int, int]
    ) -> tuple[Decl, Decl | None]:
        """Both declarations (the second is ``None`` when the first concedes and the conflict ends there)."""
        key = (m0, c0, m1, c1, early, zones)
        found = self._decl.get(key)
        if found is None:
            first = self._declares(0, (m0, m1), (c0, c1), None, early, zones)
            second = None if first.kind == "concede" else self._declares(1, (m0, m1), (c0, c1), first, early, zones)
            found = self._decl[key] = (first, second)
        return found

    def second_declares(self, s: Duel, first: Decl) -> Decl:
        """What the heuristic declares second in state ``s`` after the first declared ``first`` (whoever chose it:
        a batch started between the two declarations)."""
        return self._declares(1, (s[0], s[1]), (s[2], s[3]), first, s[10], (s[13], s[14]))

    def _declares(
        self,
        i: int,
        marked: tuple[int, int],
        cons: tuple[tuple[int, ...], tuple[int, ...]],
        other: Decl | None,
        early: int,
        zones: tuple[int, int],
    ) -> Decl:
        """What the heuristic declares for participant ``i`` (0 first) — asked of the real policy.

        In a duel the heuristic's declaration reads both tracks and which consequence slots are taken, the other's
        declaration (threat and tactic) and both zones, never anyone's fate points (see
        ``HeuristicPolicy._declare_now``), so that is the memo's key; the kernel tests replay whole conflicts
        through the State to hold this to account.
        """
        key = (i, marked, tuple(c > 0 for c in cons[0]), tuple(c > 0 for c in cons[1]), other, early, zones)
        found = self._own.get(key)
        if found is not None:
            return found
        conflict = self._at(early)
        me, him = self.who[i], self.who[1 - i]
        conflict.zone[self.who[0]], conflict.zone[self.who[1]] = zones
        for k in (0, 1):
            conflict.marked[self.who[k]] = marked[k]
            conflict.cons[self.who[k]] = [1 if c else 0 for c in cons[k]]
        conflict.decl = [None] * len(conflict.fighters)
        if other is not None:
            conflict.decl[him] = Declaration(other.kind, me if other.kind == "attack" else -1, other.tactic, other.zone)
        conflict.phase, conflict.ptr = "declare", conflict.order.index(me)
        conflict._ver += 1
        conflict._cache = conflict._inv_cache = None
        action = self.policy.choose(conflict, conflict.fighters[me].id, self._rng)
        to = conflict.zone_ids.index(str(action["to"])) if action.kind == "move" else -1
        found = self._own[key] = Decl(action.kind, str(action.get("tactic") or "none"), to)
        return found

    # ---- the exchange ------------------------------------------------------------------------------------------
    def exchange(self, s: Duel, delta: int) -> Step:
        """The exchange from state ``s`` when the first participant's 4dF minus the second's is ``delta``."""
        first, second = self.declare(s[0], s[2], s[1], s[3], s[10], (s[13], s[14]))
        return self.exchange_declared(s, delta, first, second)

    def exchange_declared(self, s: Duel, delta: int, first: Decl, second: Decl | None) -> Step:
        """The exchange from ``s`` with these declarations (whoever made them: the heuristic, or optimal play)."""
        m0, m1, c0, c1, fp0, fp1, n0, n1, f0, f1, early, t0, t1, z0, z1 = s
        later = min(early + 1, 3) if self.timed else 0
        compel = 1 if self.compels and (any(c0) or any(c1)) else 0  # the GM heuristic's "pass", when asked
        if second is None or second.kind == "concede":
            if second is None:
                after = (m0, m1, c0, c1, fp0 + concede_fate_points(n0), fp1, n0, n1, 2, f1, later, t0, t1, z0, z1)
                return after, compel + 1, 0
            after = (m0, m1, c0, c1, fp0, fp1 + concede_fate_points(n1), n0, n1, f0, 2, later, t0, t1, z0, z1)
            return after, compel + 2, 0
        key = (first, second, delta, fp0, fp1, c0, c1, early, t0, t1, z0, z1)
        r = self._round.get(key)
        if r is None:
            r = self._round[key] = self._play_round(
                first, second, delta, [fp0, fp1], [list(c0), list(c1)], early, [t0, t1], (z0, z1)
            )
        extra, fp, cons, pressures, ticks = r
        m = [m0, m1]
        cons_l = [cons[0], cons[1]]
        new = [n0, n1]
        fate = [f0, f1]
        newly = 0
        for i in (0, 1):
            p = pressures[i]
            t = 1 - i
            if p <= 0 or fate[t] != 0:
                continue
            got = self._hit(t, m[t], cons_l[t], p)
            if got is None:
                fate[t] = 1
                continue
            m[t], cons_l[t], bits = got
            new[t] += bin(bits).count("1")
            newly |= bits << (3 * t)
            extra += 1
        t0, t1 = (0, 0) if self.clears else ticks
        z = [z0, z1]
        for i, d in ((0, first), (1, second)):  # moves happen at the end of the exchange
            if d.kind == "move" and fate[i] == 0:
                z[i] = d.zone
        after = (
            m[0], m[1], cons_l[0], cons_l[1], fp[0], fp[1], new[0], new[1], fate[0], fate[1], later, t0, t1, z[0], z[1]
        )  # fmt: skip
        return after, compel + 4 + self.window + extra, newly

    def _hit(self, t: int, marked: int, cons: tuple[int, ...], p: int) -> tuple[int, tuple[int, int, int], int] | None:
        """Absorbing ``p`` by the heuristic's least harm: (marked, consequence slots, newly taken bits) or ``None``
        when no way covers it (taken out at once)."""
        key = (t, marked, cons, p)
        if key in self._hits:
            return self._hits[key]
        free = (cons[0] == 0, cons[1] == 0, cons[2] == 0)
        options = absorb_options(self.track[t], marked, free, self.values, p, self.box_less, self.cons_less)
        found: tuple[int, tuple[int, int, int], int] | None = None
        if options:
            choice = _least_harm(self.track[t], options)
            after = list(cons)
            for slot in choice.cons:
                after[slot] = 1
            bits = sum(1 << slot for slot in choice.cons)
            found = (mark(marked, choice), (after[0], after[1], after[2]), bits)
        self._hits[key] = found
        return found

    def _play_round(
        self,
        first: Decl,
        second: Decl,
        delta: int,
        fp: list[int],
        cons: list[list[int]],
        early: int,
        ticks: list[int],
        zones: tuple[int, int],
    ) -> Round:
        """Rolls are made; the invocation round, the GM's advantages and both attacks: (steps, fate points,
        consequences, pressure dealt by 0 and by 1)."""
        lv = self.levels(early)
        res = (lv[0] + delta, lv[1])
        attacks = (first.kind == "attack", second.kind == "attack")
        amod = (tactic_mods(first.tactic)[0], tactic_mods(second.tactic)[0])
        dmod = (tactic_mods(first.tactic)[1], tactic_mods(second.tactic)[1])
        bonus = [0, 0]
        sharp = [0, 0]  # margin_bonus: a weapon aspect's +1 to a margin of success

        def hit(i: int, b: list[int], a: list[int], adv: tuple[int, int] = (0, 0)) -> int:
            if not attacks[i]:
                return 0
            j = 1 - i
            attack = res[i] + b[i] + amod[i] + adv[i]
            return pressure(attack, res[j] + b[j] + dmod[j], self.damage[i], self.absorption[j], a[i])

        def balance(who: int, extra: int = 0, to: int = -1, att: int = 0) -> float:
            b, a = list(bonus), list(sharp)
            b[who if to < 0 else to] += extra
            a[who] += att
            return hit(who, b, a) - 2.0 * hit(1 - who, b, a)

        steps = 0
        if any(fp) or any(any(c) for c in cons) or any(self.boxes):
            steps = self._invocations(fp, cons, bonus, sharp, ticks, balance)
        adv, asked = self._advantages(first, second, early, zones)
        c0, c1 = cons
        return (
            steps + asked,
            (fp[0], fp[1]),
            ((c0[0], c0[1], c0[2]), (c1[0], c1[1], c1[2])),
            (hit(0, bonus, sharp, adv), hit(1, bonus, sharp, adv)),
            (ticks[0], ticks[1]),
        )

    def _advantages(self, first: Decl, second: Decl, early: int, zones: tuple[int, int]) -> tuple[tuple[int, int], int]:
        """(+1 Attack per advantage for 0 and 1, the GM's steps) — the real GM heuristic on the scratch state.

        Asked after the invocations (which therefore see none of the GM's advantages); positional ones from the
        positions never apply in a duel (one attacker, one defender: no numbers, no flanking), which is checked on
        the way.
        """
        key = (first, second, early, zones)
        found = self._adv.get(key)
        if found is not None:
            return found
        attacks = (first.kind == "attack", second.kind == "attack")
        if not any(attacks):
            found = self._adv[key] = ((0, 0), 0)
            return found
        conflict = self._at(early)
        a, b = self.who
        conflict.decl = [None] * len(conflict.fighters)
        conflict.decl[a] = Declaration(first.kind, b if attacks[0] else -1, first.tactic, first.zone)
        conflict.decl[b] = Declaration(second.kind, a if attacks[1] else -1, second.tactic, second.zone)
        conflict.zone[a], conflict.zone[b] = zones
        conflict.holders = {}
        if any(conflict.advantages(i, j) for i, j in ((a, b), (b, a))):
            raise AssertionError("the presja kernel does not mirror positional advantages in a duel")
        pair = (min(a, b), max(a, b))
        conflict.holders = {(kind, *pair): gm_holder(conflict, kind, pair) for kind in self.kinds}
        adv = tuple(len(conflict.advantages(i, j)) if attacks[k] else 0 for k, (i, j) in enumerate(((a, b), (b, a))))
        conflict.holders = {}
        found = self._adv[key] = ((adv[0], adv[1]), len(self.kinds))
        return found

    def _invocations(
        self,
        fp: list[int],
        cons: list[list[int]],
        bonus: list[int],
        sharp: list[int],
        ticks: list[int],
        balance: Any,
    ) -> int:
        """The invocation round (each in order as long as they like, around until nobody invokes): its steps."""
        used: dict[tuple[int, str], int] = {}
        steps = 0
        ptr, acted = 0, False
        while True:
            while ptr < 2:
                who = ptr
                keys = self._options(who, fp, cons, ticks, used)
                if not keys:
                    ptr += 1
                    continue
                steps += 1
                key = self._choose(who, keys, cons, balance)
                if key is None:
                    ptr += 1
                    continue
                acted = True
                if key == "weapon":
                    ticks[who] += 1
                    sharp[who] += 1
                    used[(who, key)] = used.get((who, key), 0) + 1
                    continue
                steps += self._apply(who, key, fp, cons, bonus, used, balance)
            if not acted:
                return steps
            ptr, acted = 0, False

    def _options(
        self, who: int, fp: list[int], cons: list[list[int]], ticks: list[int], used: dict[tuple[int, str], int]
    ) -> list[str]:
        """:func:`invoke.options` as keys: own:N, scene:N, cons:SLOT (the foe's), weapon, fate_point."""
        foe = cons[1 - who]
        has = fp[who] > 0
        sharp = self.boxes[who] > ticks[who]
        if not has and not sharp and not any(foe[s] == 1 or (s == 2 and foe[s]) for s in range(3)):
            return []
        keys: list[str] = []
        if has:
            keys.extend(f"own:{k}" for k in range(self.aspects[who]))
            keys.extend(f"scene:{k}" for k in range(self.scene))
        keys.extend(f"cons:{s}" for s in range(3) if foe[s] and (has or s == 2 or foe[s] == 1))
        keys = [k for k in keys if used.get((who, k), 0) < self.limit]
        if sharp and used.get((who, "weapon"), 0) < self.limit:
            keys.append("weapon")
        if self.fate_point and has and used.get((who, "fate_point"), 0) < self.limit:
            keys.append("fate_point")
        return keys

    def _free(self, who: int, key: str, cons: list[list[int]]) -> bool:
        if not key.startswith("cons:"):
            return False
        s = int(key[5:])
        return s == 2 or cons[1 - who][s] == 1

    def _choose(self, who: int, keys: list[str], cons: list[list[int]], balance: Any) -> str | None:
        """The heuristic: the first free +2 that helps, else the first paid +2, else +1 for a bare fate point."""
        base = balance(who)
        best: str | None = None
        best_rank = (9, 9)
        for key in keys:
            if key == "fate_point":
                gain, rank = balance(who, 1) - base, (2, 1)
            elif key == "weapon":
                gain, rank = balance(who, att=1) - base, (1, 0)
            else:
                gain, rank = balance(who, self.bonus) - base, (0 if self._free(who, key, cons) else 2, 0)
            if gain > 1e-9 and rank < best_rank:
                best, best_rank = key, rank
        return best

    def _apply(
        self,
        who: int,
        key: str,
        fp: list[int],
        cons: list[list[int]],
        bonus: list[int],
        used: dict[tuple[int, str], int],
        balance: Any,
    ) -> int:
        """Pay and apply one invocation (the owner of an invoked consequence may ignore it): extra steps taken."""
        foe = 1 - who
        if key.startswith("cons:"):
            s = int(key[5:])
            if self._free(who, key, cons):
                if s < 2:
                    cons[foe][s] = 2
            else:
                fp[who] -= 1
        else:
            fp[who] -= 1
        used[(who, key)] = used.get((who, key), 0) + 1
        gain = 1 if key == "fate_point" else self.bonus
        if key.startswith("cons:") and fp[foe] > 0:
            before = balance(foe)
            after = balance(foe, gain, who)
            if after < before:
                fp[foe] -= 1
            else:
                bonus[who] += gain
            return 1
        bonus[who] += gain
        return 0
