"""A presja duel as a game for optimal play: each exchange both declare (the choice), the rest is the kernel's.

The compact state is the kernel's :data:`~.kernel_exchange.Duel` without the exchange number (the solver carries
the exchanges left). The choices are the declarations the State offers — attack or defend (or move) with a tactic,
or concede — read from the real :meth:`PresjaState._declarations_now` on the kernel's scratch state, so no rule is
copied here. Once both have declared, :meth:`ExchangeRules.exchange_declared` plays the exchange over the 17
differences of the two 4dF rolls: invocations, fate points, the GM's advantages and absorbing are the heuristic's,
exactly as in the exact-odds model (:mod:`.model`). So the game value is optimal *declarations* against optimal
declarations, everything else played by the heuristic on both sides (:attr:`PresjaGame.scope`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import cast

from konflikt.core.actions import Action
from konflikt.core.i18n import localized
from konflikt.core.ruleset import Policy, RoundGame
from konflikt.core.state import GM, State
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.i18n import _, pgettext
from konflikt.rulesets.presja.kernel_exchange import Decl, Duel, duel_of
from konflikt.rulesets.presja.model import DELTA_COUNTS, DELTA_TOTAL, PresjaModel, at_exchange_start
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import slot_short

Made = tuple[Hashable, ...]


def decl_of(conflict: PresjaState, action: Action) -> Decl:
    """A declaration action as the kernel writes it (the target is the other duellist)."""
    to = conflict.zone_ids.index(str(action["to"])) if action.kind == "move" else -1
    return Decl(action.kind, str(action.get("tactic") or "none"), to)


TACTIC_WORDS = {
    "none": "bez taktyki (no tactic)",
    "defensive": "taktyka obronna (defensive: +1 Obrona, −1 Atak)",
    "offensive": "taktyka zaczepna (offensive: +1 Atak, −1 Obrona)",
}
KIND_WORDS = {"attack": "atak (attack)", "defend": "obrona (defend)", "move": "ruch (move)"}
"""The declarations' and tactics' words as the reports group them (one register, whatever the language)."""


def kind_word(kind: str) -> str:
    """A declaration's kind in the language in use (``atak (attack)``)."""
    words = {
        "attack": pgettext("declaration", "attack"),
        "defend": pgettext("declaration", "defend"),
        "move": pgettext("declaration", "move"),
    }
    return words.get(kind, kind)


def tactic_word(tactic: str) -> str:
    """A tactic with what it does, in the language in use (``taktyka obronna (defensive: +1 Obrona, −1 Atak)``)."""
    words = {
        "none": pgettext("declaration", "no tactic"),
        "defensive": pgettext("declaration", "defensive: +1 defence, −1 attack"),
        "offensive": pgettext("declaration", "offensive: +1 attack, −1 defence"),
    }
    return words.get(tactic, tactic)


class PresjaGame:
    """The knife fight's declarations as a game (see the module)."""

    unit = "exchanges"
    round_name = "sekwencja walki (exchange)"
    scope = (
        "optimised: each exchange's declaration (atak/obrona/ruch (attack/defend/move) with a taktyka (tactic), or "
        "poddanie się (concede)); played by the heuristic on both sides: conceding after one's own roll (it fights "
        "on), invocations and Punkty Losu (fate points), absorbing presja (pressure), and the GM's calls"
    )

    def __init__(self, model: PresjaModel) -> None:
        self.model = model
        self.rules = model.rules
        self.turns: tuple[str, ...] = self.rules.ids
        self.cap = model.cap
        self._choices: dict[tuple[int, tuple[int, int], int, bool], tuple[Decl, ...]] = {}

    def start(self, state: State) -> tuple[Hashable, int, Made] | None:
        if not isinstance(state, PresjaState) or state.is_terminal() or any(state.fate):
            return None
        if (
            cast(tuple[Hashable, ...], PresjaModel._identity(state))[1:]
            != cast(tuple[Hashable, ...], self.model._static)[1:]
        ):
            return None  # another conflict (the same fixed numbers in another State object are the same game)
        a, b = self.rules.who
        duel = duel_of(state, a, b)
        left = self.cap - state.exchange + 1
        if at_exchange_start(state):
            return duel, left, ()
        if state.phase == "declare" and not state.compelled and state.compel_pending is None:
            # after the GM's "pass" on compels: the same exchange start as far as the declarations go
            first = state.decl[a]
            if state.ptr == 0 and first is None and state.decl[b] is None:
                return duel, left, ()
            if state.ptr == 1 and first is not None and state.decl[b] is None:
                return duel, left, (Decl(first.kind, first.tactic, first.zone),)
        return None

    def choices(self, compact: Hashable, made: Made) -> Sequence[Hashable]:
        duel = cast(Duel, compact)
        if len(made) == 2 or (made and cast(Decl, made[0]).kind == "concede"):
            return ()
        i = len(made)
        key = (i, (duel[13], duel[14]), duel[10], bool(made))
        found = self._choices.get(key)
        if found is None:
            conflict = self.rules._at(duel[10])
            a, b = self.rules.who
            conflict.zone[a], conflict.zone[b] = duel[13], duel[14]
            found = self._choices[key] = tuple(
                decl_of(conflict, action) for action in conflict._declarations_now(self.rules.who[i])
            )
        return found

    def policy_choice(self, compact: Hashable, made: Made) -> Hashable:
        duel = cast(Duel, compact)
        zones = (duel[13], duel[14])
        marked, cons = (duel[0], duel[1]), (duel[2], duel[3])
        if not made:
            return self.rules._declares(0, marked, cons, None, duel[10], zones)
        return self.rules._declares(1, marked, cons, cast(Decl, made[0]), duel[10], zones)

    def resolve(self, compact: Hashable, made: Made) -> tuple[int, Sequence[tuple[Hashable, int]]]:
        duel = cast(Duel, compact)
        first = cast(Decl, made[0])
        second = cast(Decl, made[1]) if len(made) > 1 else None
        if first.kind == "concede" or (second is not None and second.kind == "concede"):
            return 1, [(self.rules.exchange_declared(duel, 0, first, second)[0], 1)]
        merged: dict[Duel, int] = {}
        for delta, count in DELTA_COUNTS:
            after = self.rules.exchange_declared(duel, delta, first, second)[0]
            merged[after] = merged.get(after, 0) + count
        return DELTA_TOTAL, list(merged.items())

    def end(self, compact: Hashable) -> Hashable | None:
        duel = cast(Duel, compact)
        if not (duel[8] or duel[9]):
            return None
        return self.model.end((duel, 1))

    def deadlock(self, compact: Hashable) -> Hashable:
        return self.model.end((compact, self.cap + 1))

    def action(self, state: State, seat: str, choice: Hashable) -> Action:
        assert isinstance(state, PresjaState)
        for action in state.legal_actions(seat):
            if decl_of(state, action) == choice:
                return action
        raise KonfliktError(_("no legal declaration of {seat} matches {choice}", seat=seat, choice=repr(choice)))

    def describe_state(self, compact: Hashable) -> str:
        """Both duellists' tracks, consequences and fate points, in the system's words."""
        duel = cast(Duel, compact)
        parts = []
        for i, name in enumerate(self.rules.ids):
            track = self.rules.track[i]
            marked = cast(int, duel[i])
            boxes = "".join("[x]" if marked >> k & 1 else "[ ]" for k in range(len(track)))
            taken = cast(tuple[int, int, int], duel[2 + i])
            cons = [slot_short(slot) for slot, c in zip(("mild", "moderate", "severe"), taken, strict=True) if c]
            fields = {"name": name, "boxes": boxes, "fate_points": duel[4 + i]}
            if cons:
                parts.append(
                    _(
                        "{name} track {boxes}, consequences {consequences}, fate points {fate_points}",
                        consequences="+".join(cons),
                        **fields,
                    )
                )
            else:
                parts.append(_("{name} track {boxes}, fate points {fate_points}", **fields))
        return " · ".join(parts)

    def describe(self, choice: Hashable) -> str:
        decl = cast(Decl, choice)
        if decl.kind == "concede":
            return pgettext("declaration", "concede")
        where = ""
        if decl.kind == "move":
            zones = self.rules.opening.zone_names
            where = f" → {localized(zones[decl.zone])}"
        return f"{kind_word(decl.kind)}{where}, {tactic_word(decl.tactic)}"


def round_game(state: State, policies: Mapping[str, Policy]) -> RoundGame | str | None:
    """The :class:`PresjaGame` of the duel at ``state``: why not (a string); ``None`` between exchanges' starts.

    The game's compact rules are the exact-odds model's (one against one, the GM's heuristic), so it is made from
    that model; the seats' own policies do not matter (their declarations are the choices, the rest heuristic).
    """
    if not isinstance(state, PresjaState):
        return _("not a presja conflict")
    if len(state.fighters) != 2 or len({f.side for f in state.fighters}) != 2:
        return _(
            "optimal presja play is solved one against one; this conflict has {count} participants",
            count=len(state.fighters),
        )
    if not isinstance(policies.get(GM), HeuristicPolicy):
        return _("optimal presja play mirrors the GM's heuristic; the GM seat plays another policy")
    from konflikt.rulesets.presja.model import exact_model

    heuristic = HeuristicPolicy()
    model = exact_model(state, {**dict.fromkeys((f.id for f in state.fighters), heuristic), GM: heuristic})
    if model is None or isinstance(model, str):
        return model
    return PresjaGame(model)
