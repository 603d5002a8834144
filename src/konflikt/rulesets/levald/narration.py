"""What a Le våld fight says: roll and choice texts, status table, seat views, outcomes (in the language in use:
every message goes through the ``levald`` catalog, every term through :mod:`.words`)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from konflikt.core.actions import Action
from konflikt.core.i18n import percent
from konflikt.core.options import Options
from konflikt.core.state import GM, State
from konflikt.dice import effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.fighters import Fighter
from konflikt.rulesets.levald.i18n import _, pgettext

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import Hit

MOVE_WORDS = W.MOVES
"""The secret movement choices in words, by action kind."""


def skill_words(skill: str) -> str:
    """A skill's name as a sentence gives it (``Stångvapen (pole weapons)`` in the bilingual register)."""
    return W.skill(skill, glossed=True)


FATE_TEXT = W.FATES
"""A fighter's fate in words, looked up in the language in use when read."""


def wound_marks(wounds: list[int] | tuple[int, ...]) -> str:
    """The ticked wound boxes, ``Lätt×1 Allvarlig×2`` (empty when none is ticked)."""
    return " ".join(f"{W.wound(name)}×{n}" for name, n in zip(R.WOUNDS, wounds, strict=True) if n)


def fate_words(fate: str, wounds: list[int] | tuple[int, ...], daze: int) -> str:
    """A participant's fate with its ticked wound boxes and Omtöckning (the kernel writes the same words)."""
    marks = wound_marks(wounds)
    return FATE_TEXT[fate] + (f", {marks}" if marks else "") + f", {W.daze(daze)}"


BYPASS_REASONS = {
    "exceptional": lambda: _("exceptional success ignores Gard"),
    "unprepared": lambda: _("not prepared"),
    "ranged": lambda: _("ranged attack, no shield"),
    "free_attack": lambda: _("the free attack ignores Gard (free_attack_ignores_gard)"),
}
"""Why Gard does not count against a hit (``LevaldState.bypass_reason`` holds the key)."""


@cache
def _level_counts(target: int, exceptional: str) -> tuple[int, int]:
    """How many of the hundred d100 readings succeed against ``target``, and how many exceptionally."""
    levels = [R.level(roll, target, exceptional) for roll in range(1, 101)]
    return sum(1 for v in levels if v >= R.SUCCESS), sum(1 for v in levels if v > R.SUCCESS)


class NarrationMixin(State):
    """Texts and tables of :class:`~konflikt.rulesets.levald.state.LevaldState` (kept apart from the rules)."""

    options: Options
    title: str
    fighters: tuple[Fighter, ...]
    index: dict[str, int]
    sides: tuple[str, ...]
    side_names: dict[str, str]
    pairs: tuple[tuple[int, int], ...]
    scale: tuple[str, ...]
    dist: list[int]
    holder: list[int]
    gard: list[int]
    daze: list[int]
    wounds: list[list[int]]
    fate: list[str]
    cornered: list[bool]
    prepared: list[bool]
    active: int
    centre: int
    subfight: tuple[int, ...]
    rounds: int
    phase: str
    att: int
    dfn: int
    rolls: tuple[int, ...]
    counter: bool
    hit: Hit | None
    bypass_reason: str
    gm_conditions: bool
    pair_of: dict[tuple[int, int], int]
    goal_reached: tuple[str, str]

    def subfight_fighters(self) -> tuple[int, ...]:
        raise NotImplementedError

    def _attack_target(self, i: int) -> int:
        raise NotImplementedError

    def _defence_target(self, i: int) -> int:
        raise NotImplementedError

    def _stridsvana_target(self, i: int) -> int:
        raise NotImplementedError

    def _defence_rolls_needed(self) -> int:
        raise NotImplementedError

    def _kept_defence(self) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    def cannot_back(self, i: int) -> bool:
        raise NotImplementedError

    def immobile(self, i: int) -> bool:
        raise NotImplementedError

    # ---- small words -----------------------------------------------------------------------------------------------
    def _move_word(self, kind: str) -> str:
        return MOVE_WORDS[kind]

    def _pair_name(self, k: int | None) -> str:
        if k is None:
            return _("nobody")
        return self.fighters[self.pairs[self.active][k]].name

    def _dist_name(self, pair: int | None = None) -> str:
        return W.distance(self.scale[self.dist[self.active if pair is None else pair]], glossed=True)

    def _ground_word(self, step: int) -> str:
        if self.immobile(self.dfn):
            if step < 0:
                return pgettext("gain ground", "follows in (−1 step)")
            return pgettext("gain ground", "stands")
        if step > 0:
            return pgettext("gain ground", "does not follow (+1 step)")
        return pgettext("gain ground", "follows")

    def _roll_event(self, i: int, roll: int, target: int, what: str) -> tuple[int, int]:
        """Emit one percentile roll with its target, level and effect; return its quality."""
        roll_quality = R.quality(roll, target, self.options.exceptional, self.options.effect_breaks_ties)
        success_level = R.level(roll, target, self.options.exceptional)
        penalty = R.daze_penalty(self.daze[i])
        fields = {
            "name": self.fighters[i].name,
            "roll_name": what,
            "roll": "00" if roll == 100 else f"{roll:02d}",
            "target": target,
            "level": W.level(success_level),
            "effect": effect(roll),
            "explained": self._effect_explained(roll),
        }
        if penalty:
            text = _(
                "{name}: {roll_name} {roll} against {target} incl. {penalty} daze → {level}, effect "
                "{effect}{explained}",
                penalty=W.whole_percent(penalty),
                **fields,
            )
        else:
            text = _("{name}: {roll_name} {roll} against {target} → {level}, effect {effect}{explained}", **fields)
        self.emit(
            "roll",
            text,
            who=self.fighters[i].id,
            roll=roll,
            target=target,
            level=success_level,
            effect=effect(roll),
        )
        return roll_quality

    def _effect_explained(self, roll: int) -> str:
        """The first roll of a conflict says what its effekt is: the sum of the percentile roll's two dice ("summan
        av tärningarna i procentslaget"); later rolls show the number alone."""
        if self.quiet or any("effect" in e.data for e in self._events):
            return ""
        tens, units = (0, 0) if roll == 100 else divmod(roll, 10)
        return " " + _("({tens} + {units}: the roll's two dice added)", tens=tens, units=units)

    def _setup_text(self) -> str:
        parts = []
        for f in self.fighters:
            w = f.weapon
            parts.append(
                _(
                    "{name} ({side}): {weapon} [{skill} {skill_value}, attack {attack}, defence {defence}, "
                    "{guarded}/{open}, length {length}], combat experience {stridsvana}, Gard {gard}, thresholds "
                    "{thresholds}",
                    name=f.name,
                    side=self.side_names[f.side],
                    weapon=f.arms(),
                    skill=skill_words(f.skill_name),
                    skill_value=percent(f.skill, 0),
                    attack=f.attack_base,
                    defence=f.defence_base,
                    guarded=w.damage_guarded,
                    open=w.damage_open,
                    length=W.distance(w.length, glossed=True),
                    stridsvana=f.stridsvana,
                    gard=f.gard_max,
                    thresholds="/".join(map(str, f.limits)),
                )
            )
        return f"{self.title} — " + "; ".join(parts)

    def _end_text(self, standing: dict[str, list[int]]) -> str:
        winners = [s for s, members in standing.items() if members]
        if winners:
            return _("The fight is over: {side} holds the field", side=self.side_names[winners[0]])
        return _("The fight is over: nobody holds the field")

    def _summary(self, winners: tuple[str, ...]) -> str:
        fates = ", ".join(
            _("{name} {fate}", name=f.name, fate=FATE_TEXT[self.fate[i]]) for i, f in enumerate(self.fighters)
        )
        side, goal = self.goal_reached
        if side:
            return _(
                "{side} reaches its goal, as the GM declares: {goal} (in round {round}): {fates}",
                side=self.side_names[side],
                goal=goal,
                round=self.rounds + 1,
                fates=fates,
            )
        if winners:
            return _(
                "{side} wins, the fight over after round {round}: {fates}",
                side=self.side_names[winners[0]],
                round=self.rounds,
                fates=fates,
            )
        return _("No winner, the fight over after round {round}: {fates}", round=self.rounds, fates=fates)

    def _fate_text(self, i: int) -> str:
        return fate_words(self.fate[i], self.wounds[i], self.daze[i])

    # ---- events --------------------------------------------------------------------------------------------------
    def _contest_text(self, quality_a: tuple[int, int], quality_b: tuple[int, int]) -> str:
        """Why an opposed Stridsvana roll went as it did, e.g. "both succeed; Hedda's effect 11 beats 5"."""
        a, b = self.pairs[self.active]
        name_a, name_b = self.fighters[a].name, self.fighters[b].name
        level_a, level_b = quality_a[0], quality_b[0]
        if level_a == level_b == R.FAILURE:
            return _("both fail: nobody wins")
        if level_a != level_b:
            high, low = (name_a, name_b) if level_a > level_b else (name_b, name_a)
            high_level, low_level = max(level_a, level_b), min(level_a, level_b)
            if high_level == R.EXCEPTIONAL and low_level == R.SUCCESS:
                return _("{winner}'s exceptional success beats {loser}'s success", winner=high, loser=low)
            if high_level == R.EXCEPTIONAL:
                return _("{winner}'s exceptional success beats {loser}'s failure", winner=high, loser=low)
            return _("{winner}'s success beats {loser}'s failure", winner=high, loser=low)
        exceptional = level_a != R.SUCCESS
        if quality_a[1] == quality_b[1]:
            if exceptional:
                return _("both succeed exceptionally with equal quality: nobody wins")
            return _("both succeed with equal quality: nobody wins")
        high, high_effect, low_effect = (
            (name_a, quality_a[1], quality_b[1])
            if quality_a[1] > quality_b[1]
            else (name_b, quality_b[1], quality_a[1])
        )
        fields = {"winner": high, "high": high_effect, "low": low_effect}
        if exceptional:
            return _("both succeed exceptionally; {winner}'s effect {high} beats {low}", **fields)
        return _("both succeed; {winner}'s effect {high} beats {low}", **fields)

    def _leave_text(self, leaver: int, reaching: list[int]) -> None:
        name = self.fighters[leaver].name
        if not reaching:
            self.emit("leave", _("{name} leaves the fight freely: no enemy's weapon reaches", name=name))
            return
        enemies = ", ".join(f"{self.fighters[e].name} ({W.distance(self.fighters[e].weapon.length)})" for e in reaching)
        self.emit(
            "leave",
            _(
                "{name} leaves the fight within reach of {enemies}: each gets a free attack that cannot be defended",
                name=name,
                enemies=enemies,
            ),
        )

    def _regain_text(self, i: int, before: int) -> None:
        fields = {"name": self.fighters[i].name, "before": before, "after": self.gard[i]}
        self.emit(
            "gard",
            _("{name} regains 1 Gard: {before} → {after} (at its maximum)", **fields)
            if self.gard[i] == before
            else _("{name} regains 1 Gard: {before} → {after}", **fields),
            who=self.fighters[i].id,
            gard=self.gard[i],
        )

    def _damage_text(
        self, hit: Hit, dice: int, before_gard: int, on_gard: bool, wound: int, compared: int, gained: int
    ) -> None:
        target = self.fighters[hit.dst]
        weapon = self.fighters[hit.src].weapon
        dice_name = weapon.damage_guarded if hit.guarded_dice else weapon.damage_open
        total = hit.effect + dice
        parts = [
            _(
                "{name} takes {total} damage: effect {effect} + {dice_name} {dice}",
                name=target.name,
                total=total,
                effect=hit.effect,
                dice_name=dice_name,
                dice=dice,
            )
        ]
        if on_gard:
            parts.append(_("on Gard {before} → {after}", before=before_gard, after=self.gard[hit.dst]))
        elif hit.gard_bypassed and before_gard > 0:
            reason = BYPASS_REASONS[self.bypass_reason]() if self.bypass_reason in BYPASS_REASONS else ""
            parts.append(_("Gard {before} does not count ({reason})", before=before_gard, reason=reason))
        if wound == R.NO_WOUND:
            parts.append(_("nothing falls through: no wound"))
        else:
            name = R.WOUNDS[wound]
            if on_gard and compared == 0:
                parts.append(_("Gard runs out: the rest, 0, is the least one gets"))
            parts.append(
                _(
                    "{compared} compared with the wound thresholds {thresholds} → {wound}: box ticked",
                    compared=compared,
                    thresholds="/".join(map(str, target.limits)),
                    wound=W.wound(name, glossed=True),
                )
            )
            if wound <= R.ALLVARLIG:
                daze = self.daze[hit.dst]
                parts.append(
                    _(
                        "+{gained} daze → {daze}, {penalty} on all rolls",
                        gained=gained,
                        daze=daze,
                        penalty=W.whole_percent(R.daze_penalty(daze)),
                    )
                )
            else:
                parts.append(FATE_TEXT[self.fate[hit.dst]])
        self.emit(
            "damage",
            "; ".join(parts),
            who=target.id,
            damage=total,
            gard=self.gard[hit.dst],
            wound=wound,
            daze=self.daze[hit.dst],
        )

    def _subfight_text(self, centre: int, pairs: tuple[int, ...]) -> None:
        enemies = [b if a == centre else a for a, b in (self.pairs[p] for p in pairs)]
        self.emit(
            "subfight",
            _(
                "Sub-fight switches: {name} against {enemies}",
                name=self.fighters[centre].name,
                enemies=", ".join(self.fighters[e].name for e in enemies),
            ),
        )

    def _round_text(self) -> None:
        centre, *enemies = self.subfight_fighters()
        fields = {"round": self.rounds + 1, "centre": self.fighters[centre].name}
        if len(enemies) == 1:
            fields |= {"enemy": self.fighters[enemies[0]].name, "distance": self._dist_name(self.subfight[0])}
            if self.gm_conditions:
                text = _("Round {round}: {centre} against {enemy} at {distance}; the GM may set conditions", **fields)
            else:
                text = _("Round {round}: {centre} against {enemy} at {distance}; declare movement in secret", **fields)
        else:
            fields["enemies"] = ", ".join(
                _("{name} (at {distance})", name=self.fighters[e].name, distance=self._dist_name(p))
                for e, p in zip(enemies, self.subfight, strict=True)
            )
            if self.gm_conditions:
                text = _("Round {round}: {centre} against {enemies}; the GM may set conditions", **fields)
            else:
                text = _("Round {round}: {centre} against {enemies}; declare movement in secret", **fields)
        self.emit("round", text, round=self.rounds + 1)

    # ---- tables and views ------------------------------------------------------------------------------------------
    def status(self) -> dict[str, dict[str, str]]:
        pairs = []
        for p, (a, b) in enumerate(self.pairs):
            holder = self.holder[p]
            who = self.fighters[holder].name if holder >= 0 else "-"
            mark = "*" if p in self.subfight and len(self.pairs) > 1 else ""
            names = f"{mark}{self.fighters[a].id}–{self.fighters[b].id} " if len(self.pairs) > 1 else ""
            pairs.append(
                names + _("{distance}, initiative {holder}", distance=W.distance(self.scale[self.dist[p]]), holder=who)
            )
        table = {
            pgettext("status", "round"): str(self.rounds + (0 if self.phase == "over" else 1)),
            pgettext("status", "distance"): "; ".join(pairs),
        }
        rows = {"table": table}
        for i, f in enumerate(self.fighters):
            rows[f.id] = {
                pgettext("status", "Gard"): f"{self.gard[i]}/{f.gard_max}",
                pgettext("status", "daze"): f"{self.daze[i]} ({W.whole_percent(R.daze_penalty(self.daze[i]))})",
                pgettext("status", "wounds"): " ".join(
                    f"{n}×{W.wound(name)}" for name, n in zip(R.WOUNDS, self.wounds[i], strict=True) if n
                )
                or "-",
                pgettext("status", "state"): FATE_TEXT[self.fate[i]],
                pgettext("status", "weapon"): _(
                    "{weapon}, length {length}", weapon=f.arms(), length=W.distance(f.weapon.length)
                ),
            }
        return rows

    def _view(self, seat: str) -> dict[str, Any]:
        fighters = []
        for i, f in enumerate(self.fighters):
            weapon = f.weapon.model_dump()
            if seat != GM:
                weapon.pop("bra", None)  # the designer's rating "will not be published openly"
            fighters.append(
                {
                    "id": f.id,
                    "name": f.name,
                    "side": f.side,
                    "weapon": weapon,
                    "attack": f.attack_base,
                    "defence": f.defence_base,
                    "stridsvana": f.stridsvana,
                    "thresholds": list(f.limits),
                    "gard": self.gard[i],
                    "gard_max": f.gard_max,
                    "daze": self.daze[i],
                    "penalty": R.daze_penalty(self.daze[i]),
                    "wounds": dict(zip(R.WOUNDS, self.wounds[i], strict=True)),
                    "shield": f.shield.name if f.shield is not None else None,
                    "fate": self.fate[i],
                    "cornered": self.cornered[i],
                    "prepared": self.prepared[i],
                }
            )
        pairs = [
            {
                "pair": [self.fighters[a].id, self.fighters[b].id],
                "distance": self.scale[self.dist[p]],
                "initiative": self.fighters[self.holder[p]].id if self.holder[p] >= 0 else None,
            }
            for p, (a, b) in enumerate(self.pairs)
        ]
        return {
            "round": self.rounds + 1,
            "phase": self.phase,
            "active_pair": self.active,
            "subfight": [self.fighters[i].id for i in self.subfight_fighters()],
            "pairs": pairs,
            "fighters": fighters,
        }

    # ---- choices in words ------------------------------------------------------------------------------------------
    def describe_action(self, seat: str, action: Action) -> str:
        kind = action.kind
        if kind in MOVE_WORDS:
            if kind == "leave":
                return pgettext(
                    "choice",
                    "Leave the fight: moves like a retreat, then leaves (free only beyond the enemy's weapon length)",
                )
            return MOVE_WORDS[kind]
        if kind in ("cornered", "unprepared"):
            who = str(action.get("who"))
            i = self.index.get(who, -1)
            if kind == "cornered":
                if i >= 0 and self.cornered[i]:
                    return _("{who}: no longer cornered: gain ground differs", who=who)
                return _("{who}: cornered: gain ground differs", who=who)
            if i >= 0 and not self.prepared[i]:
                return _("{who}: again prepared: Gard counts only when prepared", who=who)
            return _("{who}: not prepared: Gard counts only when prepared", who=who)
        texts = {
            "fight": lambda: pgettext("choice", "GM: conditions set, on to the movement"),
            "attack": lambda: pgettext("choice", "Attack: one attack roll against the defender's roll"),
            "regain": lambda: pgettext("choice", "Do not attack: you and the defender each regain 1 Gard"),
            "defend": lambda: pgettext("choice", "Defend: one defence roll against the attack"),
            "counter": lambda: pgettext(
                "choice", "Counter-attack: no defence roll; the attack lands first, then your attack roll"
            ),
        }
        if kind in texts:
            return texts[kind]()
        if kind == "ground":
            step = int(action.get("step", 0))
            return _("Gain ground: {choice}", choice=self._ground_word(step))
        return str(action)

    def action_words(self, seat: str, action: Action) -> tuple[str, ...]:
        """The words of ``action``'s choice in every language konflikt speaks, the language in use first: what a
        player may type at the table (``avancera``, ``advance``, ``avancere``, ``nacieraj``)."""
        from konflikt.core.i18n import LANGUAGES, current, speaking

        first = current()
        texts = [self.describe_action(seat, action)]
        for language in (lang for lang in LANGUAGES if lang != first):
            with speaking(language):
                texts.append(self.describe_action(seat, action))
        return tuple(texts)

    def why_illegal(self, seat: str, action: Action) -> str:
        if action.kind == "counter" and self.phase == "defender" and self.fighters[self.dfn].id == seat:
            f = self.fighters[self.dfn]
            return _(
                "A counter-attack needs the distance ({distance}) to be no longer than {name}'s weapon length "
                "({length})",
                distance=W.distance(self.scale[self.dist[self.active]]),
                name=f.name,
                length=W.distance(f.weapon.length),
            )
        if action.kind == "leave" and not self.options.allow_leave:
            return _("leaving is switched off (option allow_leave)")
        i = self.index.get(seat, -1)
        if action.kind in ("retreat", "leave") and self.phase == "move" and i >= 0 and self.cannot_back(i):
            return _(
                "{name} has no Gard left and cannot back any more (option gard_out_cannot_back)",
                name=self.fighters[i].name,
            )
        return super().why_illegal(seat, action)

    def _target_words(self, i: int, skill: str, skill_value: int, modifier: int, modifier_name: str) -> str:
        """A target value and where it comes from: "55 (Stångvapen 60, Anfallsmod +10, Omtöckning −10)"."""
        penalty = R.daze_penalty(self.daze[i])
        parts = [f"{W.skill(skill)} {skill_value}"]
        if modifier:
            parts.append(f"{modifier_name} {modifier:+d}")
        if penalty:
            parts.append(W.daze(f"{penalty:+d}".replace("-", "−")))
        return f"{skill_value + modifier + penalty} ({', '.join(parts)})"

    def _exceptional_words(self, target: int) -> str:
        rule = self.options.exceptional
        if rule == "fifth":
            if target >= 5:
                return "; " + _("≤ {limit} exceptional", limit=max(target // 5, 0))
            return "; " + _("no exceptional success possible")
        if rule == "doubles":
            return "; " + _("doubles (11, 22 … 00) that succeed are exceptional")
        return ""

    def _d100_words(self, i: int, what: str) -> str:
        """One d100 roll in words: whose, what for, against what target, and what each result means."""
        f = self.fighters[i]
        if what == "stridsvana":
            target_words = self._target_words(i, "Stridsvana", f.stridsvana, 0, "")
            target = self._stridsvana_target(i)
            label = pgettext("roll to make", "combat experience roll")
        elif what == "defence":
            modifier = pgettext("modifier", "Defence modifier")
            target_words = self._target_words(i, f.skill_name, f.skill, f.defence_mod, modifier)
            target = self._defence_target(i)
            label = pgettext("roll to make", "defence roll")
        else:
            modifier = pgettext("modifier", "Attack modifier")
            target_words = self._target_words(i, f.skill_name, f.skill, f.attack_mod, modifier)
            target = self._attack_target(i)
            label = {
                "attack": lambda: pgettext("roll to make", "attack roll"),
                "counter": lambda: pgettext("roll to make", "counter-attack roll"),
                "free": lambda: pgettext("roll to make", "free attack roll, no defence"),
            }[what]()
        return _(
            "{name}'s {roll_name}: d100 against {target}{exceptional}",
            name=f.name,
            roll_name=label,
            target=target_words,
            exceptional=self._exceptional_words(target),
        )

    def _opposed_words(self, i: int) -> str:
        """One roll of an opposed Stridsvana contest, for the movement or for the initiative."""
        words = self._d100_words(i, "stridsvana")
        if self.phase == "move_roll":
            return _("{roll} (opposed, for the movement)", roll=words)
        return _("{roll} (opposed, for the initiative)", roll=words)

    def roll_purpose(self) -> str:
        """The pending roll in words, with its target value and what each result means (the table's prompt)."""
        phase = self.phase
        a, b = self.pairs[self.active]
        if phase in ("move_roll", "init_roll"):
            return self._opposed_words((a, b)[len(self.rolls)])
        if phase == "attack_roll":
            return self._d100_words(self.att, "attack")
        if phase == "defence_roll":
            return self._d100_words(self.dfn, "defence")
        if phase == "counter_roll":
            return self._d100_words(self.dfn, "counter")
        if phase == "free_roll":
            return self._d100_words(self.att, "free")
        if phase == "damage" and self.hit is not None:
            striker, target = self.fighters[self.hit.src], self.fighters[self.hit.dst]
            column = (
                pgettext("damage column", "Guarded damage")
                if self.hit.guarded_dice
                else pgettext("damage column", "Open damage")
            )
            return _(
                "{striker}'s damage roll on {target}: {column}, + effect {effect}",
                striker=striker.name,
                target=target.name,
                column=column,
                effect=self.hit.effect,
            )
        return _("roll")

    def round_number(self) -> int | None:
        """The runda (round) being played, as the status table shows it."""
        return self.rounds + 1

    def roll_stakes(self) -> list[tuple[str, Fraction]]:
        """The pending d100 roll against its target: lyckat (success) and exceptionellt (exceptional); a damage roll
        gets the default at-least chances."""
        target = self._pending_target()
        if target is None:
            return super().roll_stakes()
        return self._stakes_against(target)

    def joint_roll_stakes(self) -> tuple[list[tuple[str, Fraction]], ...]:
        """Each roll of :meth:`joint_roll_purposes` against its own target, in the same order: both Stridsvana rolls
        of an opposed contest, an attack and its defence roll(s)."""
        phase = self.phase
        if phase in ("move_roll", "init_roll") and not self.rolls:
            return tuple(self._stakes_against(self._stridsvana_target(i)) for i in self.pairs[self.active])
        purposes = self.joint_roll_purposes()
        if phase == "attack_roll" and len(purposes) > 1:
            defence = self._stakes_against(self._defence_target(self.dfn))
            return (self._stakes_against(self._attack_target(self.att)), *([defence] * (len(purposes) - 1)))
        return (self.roll_stakes(),)

    def _stakes_against(self, target: int) -> list[tuple[str, Fraction]]:
        successes, exceptional = _level_counts(target, self.options.exceptional)
        success = Fraction(successes, 100)
        rows = [(_("{success}: d100 ≤ {target}", success=W.level(R.SUCCESS), target=target), success)]
        if self.options.exceptional != "off":
            rows.append((W.level(R.EXCEPTIONAL), Fraction(exceptional, 100)))
        rows.append((W.level(R.FAILURE), 1 - success))
        return rows

    def _pending_target(self) -> int | None:
        """The target value of the pending d100 roll (as :meth:`roll_purpose` words it); ``None`` for damage."""
        phase = self.phase
        a, b = self.pairs[self.active]
        if phase in ("move_roll", "init_roll"):
            return self._stridsvana_target((a, b)[len(self.rolls)])
        if phase in ("attack_roll", "free_roll"):
            return self._attack_target(self.att)
        if phase == "defence_roll":
            return self._defence_target(self.dfn)
        if phase == "counter_roll":
            return self._attack_target(self.dfn)
        return None

    def joint_roll_purposes(self) -> tuple[str, ...]:
        """The rolls the table may roll at once from here, in the order they are applied.

        The text lets both sides roll together where neither roll depends on the other: an opposed Stridsvana roll
        ("båda parterna slår ett motsatt slag"), and an attack against its defence roll(s). A counter-attack is
        rolled after the attack's damage (with the Omtöckning just received), and the damage dice depend on the
        attack roll, so those are asked alone.
        """
        phase = self.phase
        if phase in ("move_roll", "init_roll") and not self.rolls:
            return tuple(self._opposed_words(i) for i in self.pairs[self.active])
        if phase == "attack_roll" and not self.counter and not self._kept_defence():
            defence = self._d100_words(self.dfn, "defence")
            return (self._d100_words(self.att, "attack"), *([defence] * self._defence_rolls_needed()))
        return (self.roll_purpose(),)


def fate_parts(fate: str, name: str = "") -> list[tuple[str, int]]:
    """The consequences in a fate's words (:func:`konflikt.core.outcome.fate_parts`), each wound box as a sentence
    names it (``Lätt (light)`` in the bilingual register): the rows ``sim`` and the odds tables show."""
    from konflikt.core.outcome import fate_parts as split

    glossed = {W.wound(name): W.wound(name, glossed=True) for name in R.WOUNDS}
    return [(glossed.get(part, part), n) for part, n in split(fate, name)]
