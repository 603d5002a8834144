"""Wywołania (invocations) after the roll: aspects, situation aspects, consequences, fate points, weapon aspects.

Costs: one's own aspect or a situation aspect costs a Punkt Losu (fate point); an opponent's mild or moderate
consequence is free the first time (in total), then costs a fate point; a severe one is always free; a weapon
aspect costs one of its tick boxes (optional rule). The owner of an invoked consequence may pay a fate point to
ignore the invocation. Each aspect at most ``invoke_limit`` times per participant per exchange.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.presja import texts
from konflikt.rulesets.presja.acts import act

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import PresjaState

SLOT_KEYS = ("mild", "moderate", "severe")


def cost(state: PresjaState, who: int, key: str) -> str:
    """What invoking ``key`` costs ``who`` now: ``"fp"``, ``"free"`` or ``"tick"``."""
    if key == "weapon":
        return "tick"
    if key.startswith(("own:", "scene:")) or key == "fate_point":
        return "fp"
    pid, _, slot = key.partition(":")
    s = SLOT_KEYS.index(slot)
    j = state.index[pid]
    return "free" if s == 2 or state.cons[j][s] == 1 else "fp"


def options(state: PresjaState, who: int) -> tuple[Action, ...]:
    """Every invocation ``who`` may make now (``pass`` not included); cached per applied step."""
    cached = state._inv_cache
    if cached is not None and cached[0] == state._ver and cached[1] == who:
        return cached[2]
    found = _options(state, who)
    state._inv_cache = (state._ver, who, found)
    return found


def _options(state: PresjaState, who: int) -> tuple[Action, ...]:
    rule_values = state.rule_values
    points = state.fate_points[who]
    fw = state.fighters[who]
    side = fw.side
    if (
        points == 0
        and not (rule_values["advantage_weapon_quality"] and fw.weapon_boxes > state.ticks[who])
        and not any(
            state.cons[j][s] == 1 or (s == 2 and state.cons[j][s])
            for j in range(len(state.fighters))
            if state.fighters[j].side != side and state.fate[j] == 0
            for s in range(3)
        )
    ):
        return ()  # nothing left to spend: the common case once fate points are gone
    limit = rule_values["invoke_limit"]
    used = state.invoked
    effects = ("bonus", "reroll") if rule_values["invoke_reroll"] else ("bonus",)
    keys: list[str] = []
    if points > 0:
        keys.extend(f"own:{k + 1}" for k in range(len(state.fighters[who].aspects)))
        keys.extend(f"scene:{k + 1}" for k in range(len(state.situation)))
    for j, fj in enumerate(state.fighters):
        if fj.side == side or state.fate[j] != 0:
            continue
        for s in range(3):
            c = state.cons[j][s]
            if c and (points > 0 or s == 2 or c == 1):
                keys.append(f"{fj.id}:{SLOT_KEYS[s]}")
    out = [act("invoke", aspect=key, effect=e) for key in keys if used.get((who, key), 0) < limit for e in effects]
    if (
        rule_values["advantage_weapon_quality"]
        and fw.weapon_boxes > state.ticks[who]
        and used.get((who, "weapon"), 0) < limit
    ):
        out.append(act("invoke", aspect="weapon", effect="tick"))
    if rule_values["fate_point_without_aspect"] and points > 0 and used.get((who, "fate_point"), 0) < limit:
        out.append(act("fate_point"))
    return tuple(out)


def consequence_of(state: PresjaState, key: str) -> tuple[int, int] | None:
    """(owner, slot) when ``key`` names an opponent's consequence."""
    pid, _, slot = key.partition(":")
    if slot in SLOT_KEYS:
        return state.index[pid], SLOT_KEYS.index(slot)
    return None


def apply(state: PresjaState, who: int, action: Action) -> None:
    """Pay for an invocation and apply it (or ask the consequence's owner whether to ignore it)."""
    key = "fate_point" if action.kind == "fate_point" else str(action["aspect"])
    effect = "plus1" if action.kind == "fate_point" else str(action["effect"])
    price = cost(state, who, key)
    target = consequence_of(state, key)
    if price == "fp":
        state.fate_points[who] -= 1
    elif price == "tick":
        state.ticks[who] += 1
    elif target is not None and target[1] < 2:
        state.cons[target[0]][target[1]] = 2  # the one free invocation is used
    state.invoked[(who, key)] = state.invoked.get((who, key), 0) + 1
    texts.emit_invoke(state, who, key, effect, price)
    if target is not None and state.fate_points[target[0]] > 0:
        state.pending = (who, target[0], target[1], effect)
        state.phase = "ignore"
        return
    _effect(state, who, effect, key)


def _effect(state: PresjaState, who: int, effect: str, key: str) -> None:
    if effect == "bonus":
        state.bonus[who] += state.rule_values["invoke_bonus"]
        state.bonus_keys[who].append(key)
    elif effect == "plus1":
        state.bonus[who] += 1
        state.bonus_keys[who].append(key)
    elif effect == "tick":
        state.margin_bonus[who] += 1
    else:
        state.reroll_who = who
        state.phase = "reroll"


def answer(state: PresjaState, ignore: bool) -> None:
    """The owner of an invoked consequence pays a fate point to ignore it, or lets it stand."""
    assert state.pending is not None
    who, owner, slot, effect = state.pending
    state.pending = None
    state.phase = "invoke"
    if ignore:
        state.fate_points[owner] -= 1
    texts.emit_ignore(state, owner, who, ignore)
    if not ignore:
        _effect(state, who, effect, f"{state.fighters[owner].id}:{SLOT_KEYS[slot]}")
