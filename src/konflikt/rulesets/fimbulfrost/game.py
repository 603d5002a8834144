"""A Fimbulfrost conflict as a game for optimal play: every decision of the heroes and the opponent but the lists.

Fimbulfrost's decisions fall between its rolls (a hero splits his round-1 successes after seeing every hero's roll;
the opponent splits its hits after its answer), so one step of this game is one *decision*, not one runde (round):
the compact state is the conflict at a decision, and :meth:`FimbulfrostGame.resolve` applies the choice and plays on
to the next decision or the end, over the dice. The seats' order (:attr:`~FimbulfrostGame.turns`) is the heroes
then the opponent; at each step one of them decides and the others pass (:data:`PASS`), so the solver's choice tree
is one real level deep.

No rule is copied here. Each decision is read from and applied to a real :class:`FimbulfrostState` set to the
compact state (its legal actions, the heuristic's choice, ``apply_action``, ``_advance``); the consequences bought
on the way (a hero out, a defeated opponent) are the heuristic's, asked of the same State. The heroes' round-2 and
round-3 rolls, summed over every hero, come from the exact-odds model (:mod:`.model`: ``_rolls``, ``_victory``,
``_lost3``), which the model tests hold to the State.

Optimised (:attr:`FimbulfrostGame.scope`): presenting, the round-1 split (Status or morale), the opponent's split of
its hits, round 2's areas and weapon dice, every round-3 option. Left to the heuristic: which consequence to buy,
buying back in (when allowed), sparing a defeated opponent — the lists' choices, which decide fates, not the winner.

The outcome is zero-sum: the heroes defeat the opponent or lose (out, or round 3 lost); nobody else wins and there
is no draw, so each side maximising its own win chance is the same as the other minimising it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import product
from math import lcm
from typing import cast

from konflikt.core.actions import Action
from konflikt.core.ruleset import Policy, RoundGame
from konflikt.core.state import State
from konflikt.dice import PoolRoll
from konflikt.errors import KonfliktError
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import N_, _, ngettext, pgettext
from konflikt.rulesets.fimbulfrost.model import FimbulfrostModel, _successes, exact_model
from konflikt.rulesets.fimbulfrost.narrate import area_short
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy
from konflikt.rulesets.fimbulfrost.rules import AREAS, presentation_dice
from konflikt.rulesets.fimbulfrost.state import STANDING, FimbulfrostState

PASS = Action.of("pass")
"""The one 'choice' of a seat whose turn it is not at a step."""
END = "end"
DECISIONS = frozenset({P.PRESENT, P.R1_SPLIT, P.HIT, P.R2_DESCRIBE, P.R2_WEAPON, P.R3_TURN})
Made = tuple[Hashable, ...]
Compact = tuple[Hashable, ...]
"""``("end", label)``, or (phase, round, cursor, opponent's Status, fate, pools, consequences, Status, morale,
presenters, round-1 successes, hits, described, dice, used, done): each field kept only in the phases it matters
in (the rest are blank), so that situations that play the same are one state. Whether a hero described anything in
round 2 is kept from round 2 on: round 3's 'even wilder' asks for it."""

KIND_WORDS = {
    "present": N_("presented by"),
    "split": N_("split"),
    "hit": N_("the opponent's split"),
    "describe": N_("describes"),
    "weapon": N_("weapon dice"),
    "armour": N_("armour dice"),
    "gear": N_("gear dice"),
    "wilder": N_("even wilder"),
    "maneuver": N_("maneuver"),
    "borrowed_time": N_("borrowed time"),
    "answer": N_("an answer"),
    "done": N_("done"),
}
"""Each kind of decision in words (English, for the catalogs: translated where shown)."""


def encode(s: FimbulfrostState) -> Compact:
    """The compact state of ``s`` at a decision (see :data:`Compact`)."""
    phase, n = s.phase, s.n
    blank = (0,) * n
    r2 = phase in (P.R2_DESCRIBE, P.R2_WEAPON, P.R3_TURN)
    return (
        phase,
        s.round,
        s.cursor,
        s.opp_status,
        tuple(s.fate),
        tuple(tuple(p) for p in s.pools),
        tuple(tuple(sorted(t)) for t in s.taken),
        blank if phase == P.R3_TURN else tuple(s.hstatus),
        blank if phase == P.R3_TURN else tuple(s.morale),
        tuple(s.presenter) if phase == P.PRESENT else blank,
        tuple(-1 if r is None else r.successes for r in s.rolls) if phase == P.R1_SPLIT else blank,
        s.hits if phase == P.HIT else 0,
        tuple(a > 0 for a in s.areas) if s.round > 1 else blank,
        tuple(s.dice) if r2 else blank,
        tuple(s.used) if phase == P.R3_TURN else blank,
        tuple(s.done) if phase == P.R3_TURN else blank,
    )


class FimbulfrostGame:
    """A Fimbulfrost conflict's decisions as a game (see the module)."""

    unit = "decisions"
    round_name = None
    """Steps are decisions, not rounds: the solver names a state by its own words (:meth:`describe_state`)."""
    scope = (
        "optimised: præsentation (who presents whom), the round-1 fordeling (successes on the opponent's Status or "
        "as morale), the opponent's split of its hits, round 2's Stil/Stunt/Snak and våbenpulje (weapon dice), "
        "every round-3 Ressourcer option; played by the heuristic on both sides: which konsekvens (consequence) to "
        "buy, buying back in, sparing a defeated opponent"
    )

    def __init__(self, model: FimbulfrostModel) -> None:
        self.model = model
        conflict = model.conflict
        self.n = conflict.n
        self.turns: tuple[str, ...] = (*conflict.hero_ids, conflict.opp_id)
        self.heuristic = HeuristicPolicy()
        most = max((len(c.manovrer) for c in conflict.chars), default=0)
        self.cap = 4 * self.n + 2 + self.n * (most + 8) + 2
        """More decisions than any conflict can ask: presenting, splitting, two answers, describing and weapon
        dice, and each round-3 option once (the solver's rounds are these steps)."""
        self._info: dict[Compact, tuple[str, tuple[Action, ...], Action]] = {}
        self._settled: dict[Compact, dict[Compact, Fraction]] = {}
        self._seen: dict[int, tuple[object, object, bool]] = {}

    def _same_conflict(self, state: FimbulfrostState) -> bool:
        """Whether ``state`` is this game's conflict: the same heroes, opponent, lists and rule options (another
        State object of the same scenario is the same game; the model's own identity check asks for the very same
        objects)."""
        mine = self.model.conflict
        if state.carried != mine.carried or repr(state.options) != repr(mine.options):
            return False
        seen = self._seen.get(id(state.chars))
        if seen is None or seen[0] is not state.chars or seen[1] is not state.catalogue:
            same = (
                state.hero_ids == mine.hero_ids
                and state.opp_id == mine.opp_id
                and state.chars == mine.chars
                and state.opp == mine.opp
                and state.catalogue == mine.catalogue
            )
            if len(self._seen) >= 64:
                self._seen.clear()
            seen = self._seen[id(state.chars)] = (state.chars, state.catalogue, same)  # held: ids stay unique
        return seen[2]

    # ---- the State set to a compact state --------------------------------------------------------------------------
    def _scratch(self, c: Compact) -> FimbulfrostState:
        """A real State at compact state ``c`` (a fork of the model's conflict with every rule field set)."""
        s = cast(FimbulfrostState, self.model.conflict.fork())
        n = self.n
        (
            phase,
            rnd,
            cursor,
            os,
            fate,
            pools,
            taken,
            hstatus,
            morale,
            presenter,
            rolls,
            hits,
            areas,
            dice,
            used,
            done,
        ) = c
        s.quiet = True
        s.phase, s.round, s.cursor, s.opp_status = cast(int, phase), cast(int, rnd), cast(int, cursor), cast(int, os)
        s.fate = list(cast(tuple[int, ...], fate))
        s.pools = [list(p) for p in cast(tuple[tuple[int, ...], ...], pools)]
        s.taken = [list(t) for t in cast(tuple[tuple[str, ...], ...], taken)]
        if phase == P.R3_TURN:
            s.hstatus, s.morale = [1 if f == STANDING else 0 for f in s.fate], [0] * n
        else:
            s.hstatus, s.morale = list(cast(tuple[int, ...], hstatus)), list(cast(tuple[int, ...], morale))
        s.presenter = list(cast(tuple[int, ...], presenter)) if phase == P.PRESENT else [-1] * n
        s.rolls = (
            [None if r < 0 else PoolRoll(r, 0) for r in cast(tuple[int, ...], rolls)]
            if phase == P.R1_SPLIT
            else [None] * n
        )
        s.hits = cast(int, hits)
        s.areas = [7 if a else 0 for a in cast(tuple[bool, ...], areas)]
        s.dice = list(cast(tuple[int, ...], dice))
        s.used = list(cast(tuple[int, ...], used))
        s.done = list(cast(tuple[bool, ...], done))
        s.asks, s.result, s.back, s.borrowed, s.opp_taken = [], 0, [False] * n, [0] * n, []
        return s

    def _decision(self, c: Compact) -> tuple[str, tuple[Action, ...], Action]:
        """Who decides at ``c``, the legal choices, and the heuristic's."""
        found = self._info.get(c)
        if found is None:
            s = self._scratch(c)
            seat = s.current_player()
            found = self._info[c] = (seat, tuple(s.legal_actions(seat)), self.heuristic._choose(s))
        return found

    # ---- the protocol -----------------------------------------------------------------------------------------------
    def start(self, state: State) -> tuple[Hashable, int, Made] | None:
        if not isinstance(state, FimbulfrostState) or state.is_terminal() or state.asks:
            return None
        if state.phase not in DECISIONS or not self._same_conflict(state):
            return None
        seat = state.current_player()
        return encode(state), self.cap, (PASS,) * self.turns.index(seat)

    def choices(self, compact: Hashable, made: Made) -> Sequence[Hashable]:
        seat, legal, _chosen = self._decision(cast(Compact, compact))
        return legal if self.turns[len(made)] == seat else (PASS,)

    def policy_choice(self, compact: Hashable, made: Made) -> Hashable:
        seat, _legal, chosen = self._decision(cast(Compact, compact))
        return chosen if self.turns[len(made)] == seat else PASS

    def resolve(self, compact: Hashable, made: Made) -> tuple[int, Sequence[tuple[Hashable, int]]]:
        c = cast(Compact, compact)
        seat, _legal, _chosen = self._decision(c)
        choice = cast(Action, made[self.turns.index(seat)])
        s = self._scratch(c)
        s.apply_action(choice, checked=False)
        ways = self._settle(s)
        den = lcm(*(p.denominator for p in ways.values()))
        return den, [(t, p.numerator * (den // p.denominator)) for t, p in ways.items()]

    def end(self, compact: Hashable) -> Hashable | None:
        c = cast(Compact, compact)
        return c[1] if c[0] == END else None

    def deadlock(self, compact: Hashable) -> Hashable:
        return ("deadlock", (), ())  # never met: the cap is above any conflict's number of decisions

    def action(self, state: State, seat: str, choice: Hashable) -> Action:
        if choice in state.legal_actions(seat):
            return cast(Action, choice)
        raise KonfliktError(_("no legal decision of {seat} matches {choice}", seat=seat, choice=choice))

    # ---- playing on to the next decision ---------------------------------------------------------------------------
    def _settle(self, s: FimbulfrostState) -> dict[Compact, Fraction]:
        """Where ``s`` goes until the next decision or the end: compact states with their probabilities. The
        consequences asked on the way are the heuristic's; a roll branches."""
        while s.asks:
            s.apply_action(self.heuristic._choose(s), checked=False)
        if s.phase == P.END:
            outcome = s.outcome()
            label = (outcome.ending, outcome.winners, tuple(sorted(outcome.participants.items())))
            return {(END, label): Fraction(1)}
        c = encode(s)
        if s.phase in DECISIONS:
            return {c: Fraction(1)}
        key = (*c, tuple(s.presenter), tuple(s.dice))
        found = self._settled.get(key)
        if found is None:
            found = self._settled[key] = self._roll(s)
        return found

    def _roll(self, s: FimbulfrostState) -> dict[Compact, Fraction]:
        out: dict[Compact, Fraction] = {}

        def add(ways: Mapping[Compact, Fraction], p: Fraction) -> None:
            for t, q in ways.items():
                out[t] = out.get(t, Fraction(0)) + p * q

        n, phase = s.n, s.phase
        if phase == P.R1_ROLL:  # every hero's Omdømme roll; the splits come after all of them
            dice = [presentation_dice(s.chars[i].omdomme_this_fight, s.presenter[i] == i) for i in range(n)]
            spreads = [_successes(d).items() if d else [(0, 1)] for d in dice]
            whole = 6 ** sum(dice)
            for combo in product(*spreads):
                t = cast(FimbulfrostState, s.fork())
                t.rolls = [PoolRoll(k, 0) for k, _w in combo]
                t.phase, t.cursor = P.R1_SPLIT, 0
                t._advance()
                weight = 1
                for _k, w in combo:
                    weight *= w
                add(self._settle(t), Fraction(weight, whole))
            return out
        if phase in (P.R1_ANSWER, P.R2_KAMP):  # the opponent's answer: only its successes count
            dice_n = s.opp.omdomme if phase == P.R1_ANSWER else s.opp.kamp
            for hits, w in _successes(dice_n).items():
                t = cast(FimbulfrostState, s.fork())
                t.apply_action(PoolRoll(hits, 0), checked=False)
                add(self._settle(t), Fraction(w, 6**dice_n))
            return out
        if phase in (P.R2_ROLL, P.R3_ROLL):  # the heroes' rolls, summed (the model's)
            round_no = 2 if phase == P.R2_ROLL else 3
            m = self.model
            rolled = {i: s.dice[i] for i in s.standing() if s.dice[i]}
            fate = tuple(s.fate)
            pools = tuple(tuple(p) for p in s.pools)
            taken = tuple(tuple(sorted(t)) for t in s.taken)
            os = s.opp_status
            whole = 6 ** sum(rolled.values())
            for total, ones, w in m._rolls(rolled, os, pools, taken, round_no):
                p = Fraction(w, whole)
                if total >= os:
                    add({(END, m.end(m._victory(round_no, os - total, fate, pools, taken, ones))): Fraction(1)}, p)
                elif round_no == 3:
                    add({(END, m.end(m._lost3(os - total, fate, pools, taken))): Fraction(1)}, p)
                else:  # not defeated: the State takes the total off and asks for the opponent's Kamp roll
                    t = cast(FimbulfrostState, s.fork())
                    first = next(iter(rolled), 0)
                    t.rolls = [PoolRoll(total, 0) if i == first else None for i in range(n)]
                    t._end_hero_roll(2)
                    add(self._settle(t), p)
            return out
        raise KonfliktError(  # pragma: no cover
            _("the fimbulfrost game has no rule for phase {phase}", phase=repr(_(P.NAMES[phase])))
        )

    # ---- words ----------------------------------------------------------------------------------------------------
    def describe(self, choice: Hashable) -> str:
        a = cast(Action, choice)
        if a == PASS:
            return "—"
        words = _(KIND_WORDS[a.kind]) if a.kind in KIND_WORDS else a.kind
        if a.kind == "describe":
            areas = [area_short(name) for name in AREAS if a[name]]
            return f"{words} {', '.join(areas) or pgettext('described', 'nothing')} ({len(areas)}d6)"
        args = " ".join(f"{k}={v}" for k, v in a.args)
        return f"{words} {args}".strip()

    def describe_state(self, compact: Hashable) -> str:
        c = cast(Compact, compact)
        if c[0] == END:
            return _("over: {end}", end=c[1])
        conflict = self.model.conflict
        phase, _r, _c, os, fate, _p, _t, hstatus = c[:8]
        who = self._decision(c)[0]
        heroes = ", ".join(
            _("{name} Status {status}", name=name, status=h) if f == STANDING else _("{name} out", name=name)
            for name, f, h in zip(
                conflict.names, cast(tuple[int, ...], fate), cast(tuple[int, ...], hstatus), strict=True
            )
        )
        extra = " " + ngettext("{n} hit", "{n} hits", cast(int, c[11])) if phase == P.HIT else ""
        if phase == P.R1_SPLIT:
            extra = " " + _(
                "with successes {successes}",
                successes=", ".join(
                    f"{name} {k}" for name, k in zip(conflict.names, cast(tuple[int, ...], c[10]), strict=True)
                ),
            )
        return _(
            "{phase}, {who} decides{extra}: {opponent} Status {status}; {rest}",
            phase=_(P.NAMES[cast(int, phase)]),
            who=who,
            extra=extra,
            opponent=conflict.opp_name,
            status=os,
            rest=heroes if phase != P.R3_TURN else _("dice gathered {dice}", dice=c[13]),
        )


def round_game(state: State, policies: Mapping[str, Policy]) -> RoundGame | str | None:
    """The :class:`FimbulfrostGame` of the conflict at ``state``, or why not (the exact-odds model's limits: the
    rule options it mirrors). The seats' policies do not matter: their decisions are the choices."""
    if not isinstance(state, FimbulfrostState):
        return "not a fimbulfrost conflict"
    heuristic = HeuristicPolicy()
    checked = exact_model(state, dict.fromkeys(state.seats(), heuristic))
    if isinstance(checked, str):
        return checked
    if state.asks or state.phase not in DECISIONS or state.is_terminal():
        return None
    return FimbulfrostGame(checked if checked is not None else FimbulfrostModel(state))
