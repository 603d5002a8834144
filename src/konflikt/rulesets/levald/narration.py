"""What a Le våld fight says: roll and choice texts, status table, seat views, outcomes (Swedish with English)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from konflikt.core.actions import Action
from konflikt.core.options import Options
from konflikt.core.state import GM, State
from konflikt.dice import effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.fighters import Fighter

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import Hit

MOVE_WORDS = {
    "advance": "Avancera (advance)",
    "hold": "Bibehålla (hold)",
    "retreat": "Retirera (retreat)",
    "leave": "Lämna (leave the fight)",
}
LEVEL_WORD = ("failure", "success", "exceptional success")
SKILL_ENGLISH = {
    "Enhandsvapen": "one-handed weapons",
    "Enhandsvapen plus sköld": "one-handed weapon and shield",
    "Stångvapen": "pole weapons",
}
"""The weapon table's Färdighet (skill) column in English; a skill a scenario adds is shown as it is named."""


def skill_words(skill: str) -> str:
    """A skill's name with its English beside it where the weapon table gives it (``Stångvapen (pole weapons)``)."""
    english = SKILL_ENGLISH.get(skill)
    return f"{skill} ({english})" if english else skill


FATE_TEXT = {
    "fighting": "står (standing)",
    "knocked_out": "utslagen (knocked out)",
    "dead": "död (dead)",
    "left": "har lämnat striden (left the fight)",
}


def fate_words(fate: str, wounds: list[int] | tuple[int, ...], daze: int) -> str:
    """A participant's fate with its ticked wound boxes and Omtöckning (the kernel writes the same words)."""
    marks = [f"{name}×{n}" for name, n in zip(R.WOUNDS, wounds, strict=True) if n]
    return FATE_TEXT[fate] + (f", {' '.join(marks)}" if marks else "") + f", Omtöckning {daze}"


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
            return "nobody"
        return self.fighters[self.pairs[self.active][k]].name

    def _dist_name(self, pair: int | None = None) -> str:
        name = self.scale[self.dist[self.active if pair is None else pair]]
        return f"{name} ({R.DISTANCE_ENGLISH[name]})"

    def _ground_word(self, step: int) -> str:
        if self.immobile(self.dfn):
            return "follows in (följer med anfallet, −1 step)" if step < 0 else "stands (står kvar)"
        return "does not follow (följer inte efter, +1 step)" if step > 0 else "follows (följer efter)"

    def _roll_event(self, i: int, roll: int, target: int, what: str) -> tuple[int, int]:
        """Emit one percentile roll with its target, level and effect; return its quality."""
        roll_quality = R.quality(roll, target, self.options.exceptional, self.options.effect_breaks_ties)
        success_level = R.level(roll, target, self.options.exceptional)
        penalty = R.daze_penalty(self.daze[i])
        extra = f" incl. {penalty}% Omtöckning" if penalty else ""
        self.emit(
            "roll",
            f"{self.fighters[i].name}: {what} {'00' if roll == 100 else f'{roll:02d}'} mot (vs) {target}{extra} → "
            f"{R.LEVEL_TEXT[success_level]}, effekt (effect) {effect(roll)}{self._effect_explained(roll)}",
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
        return f" ({tens} + {units}: the roll's two dice added, summan av tärningarna i procentslaget)"

    def _setup_text(self) -> str:
        parts = []
        for f in self.fighters:
            w = f.weapon
            length = f"{w.length} ({R.DISTANCE_ENGLISH[w.length]})" if w.length in R.DISTANCE_ENGLISH else w.length
            parts.append(
                f"{f.name} ({self.side_names[f.side]}): {f.arms()} [{skill_words(f.skill_name)} {f.skill}%, "
                f"anfall (attack) {f.attack_base}, försvar (defence) {f.defence_base}, {w.damage_guarded}/"
                f"{w.damage_open}, längd (length) {length}], Stridsvana (combat experience) {f.stridsvana}, Gard "
                f"(guard) {f.gard_max}, trösklar (thresholds) {'/'.join(map(str, f.limits))}"
            )
        return f"{self.title} — " + "; ".join(parts)

    def _end_text(self, standing: dict[str, list[int]]) -> str:
        winners = [s for s, members in standing.items() if members]
        if winners:
            return f"Striden är över (the fight is over): {self.side_names[winners[0]]} holds the field"
        return "Striden är över (the fight is over): nobody holds the field"

    def _summary(self, winners: tuple[str, ...]) -> str:
        fates = ", ".join(f"{f.name} {FATE_TEXT[self.fate[i]]}" for i, f in enumerate(self.fighters))
        side, goal = self.goal_reached
        if side:
            return (
                f"{self.side_names[side]} reaches its goal, as the GM declares: {goal} (in round {self.rounds + 1}): "
                f"{fates}"
            )
        if winners:
            return f"{self.side_names[winners[0]]} wins after {self.rounds} rounds: {fates}"
        return f"No winner after {self.rounds} rounds: {fates}"

    def _fate_text(self, i: int) -> str:
        return fate_words(self.fate[i], self.wounds[i], self.daze[i])

    # ---- events --------------------------------------------------------------------------------------------------
    def _contest_text(self, quality_a: tuple[int, int], quality_b: tuple[int, int]) -> str:
        """Why an opposed Stridsvana roll went as it did, e.g. "both succeed; Hedda's effect 11 beats 5"."""
        a, b = self.pairs[self.active]
        name_a, name_b = self.fighters[a].name, self.fighters[b].name
        level_a, level_b = quality_a[0], quality_b[0]
        if level_a == level_b == R.FAILURE:
            return "both fail: nobody wins"
        if level_a != level_b:
            high, low = (name_a, name_b) if level_a > level_b else (name_b, name_a)
            high_level, low_level = max(level_a, level_b), min(level_a, level_b)
            return f"{high}'s {LEVEL_WORD[high_level]} beats {low}'s {LEVEL_WORD[low_level]}"
        both = "both succeed" if level_a == R.SUCCESS else "both succeed exceptionally"
        if quality_a[1] == quality_b[1]:
            return f"{both} with equal quality: nobody wins"
        high, high_effect, low_effect = (
            (name_a, quality_a[1], quality_b[1])
            if quality_a[1] > quality_b[1]
            else (name_b, quality_b[1], quality_a[1])
        )
        return f"{both}; {high}'s effect {high_effect} beats {low_effect}"

    def _leave_text(self, leaver: int, reaching: list[int]) -> None:
        name = self.fighters[leaver].name
        if not reaching:
            self.emit("leave", f"{name} lämnar striden (leaves the fight) freely: no enemy's weapon reaches")
            return
        enemies = ", ".join(f"{self.fighters[e].name} ({self.fighters[e].weapon.length})" for e in reaching)
        self.emit(
            "leave",
            f"{name} lämnar striden (leaves the fight) within reach of {enemies}: each gets a gratisanfall (free "
            "attack) that cannot be defended",
        )

    def _regain_text(self, i: int, before: int) -> None:
        self.emit(
            "gard",
            f"{self.fighters[i].name} återfår ett poäng Gard (regains 1 Gard): {before} → {self.gard[i]}"
            + (" (at its maximum)" if self.gard[i] == before else ""),
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
        parts = [f"{target.name} tar {total} skada (damage): effekt (effect) {hit.effect} + {dice_name} {dice}"]
        if on_gard:
            parts.append(f"on Gard {before_gard} → {self.gard[hit.dst]}")
        elif hit.gard_bypassed and before_gard > 0:
            parts.append(f"Gard {before_gard} does not count ({self.bypass_reason})")
        if wound == R.NO_WOUND:
            parts.append("nothing falls through: no wound")
        else:
            name = R.WOUNDS[wound]
            if on_gard and compared == 0:
                parts.append("Gard tar slut (Gard runs out): the rest, 0, is the least one gets")
            parts.append(
                f"{compared} compared with the skadetrösklar (thresholds) {'/'.join(map(str, target.limits))} → "
                f"{name} ({R.WOUND_ENGLISH[name]}): kryss i rutan (box ticked)"
            )
            if wound <= R.ALLVARLIG:
                daze = self.daze[hit.dst]
                parts.append(f"+{gained} Omtöckning (daze) → {daze}, {R.daze_penalty(daze)}% on all rolls")
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
            f"Byte av delstrid (sub-fight switches): {self.fighters[centre].name} mot (vs) "
            + ", ".join(self.fighters[e].name for e in enemies),
        )

    def _round_text(self) -> None:
        centre, *enemies = self.subfight_fighters()
        if len(enemies) == 1:
            against = f"{self.fighters[enemies[0]].name} at {self._dist_name(self.subfight[0])}"
        else:
            against = ", ".join(
                f"{self.fighters[e].name} (at {self._dist_name(p)})"
                for e, p in zip(enemies, self.subfight, strict=True)
            )
        after = (
            "; the GM may set conditions" if self.gm_conditions else "; deklarera rörelse (declare movement) in secret"
        )
        self.emit(
            "round",
            f"Runda (round) {self.rounds + 1}: {self.fighters[centre].name} mot (vs) {against}{after}",
            round=self.rounds + 1,
        )

    # ---- tables and views ------------------------------------------------------------------------------------------
    def status(self) -> dict[str, dict[str, str]]:
        pairs = []
        for p, (a, b) in enumerate(self.pairs):
            holder = self.holder[p]
            who = self.fighters[holder].name if holder >= 0 else "-"
            mark = "*" if p in self.subfight and len(self.pairs) > 1 else ""
            names = f"{mark}{self.fighters[a].id}–{self.fighters[b].id} " if len(self.pairs) > 1 else ""
            pairs.append(f"{names}{self.scale[self.dist[p]]}, initiativ {who}")
        table = {
            "runda (round)": str(self.rounds + (0 if self.phase == "over" else 1)),
            "avstånd (distance)": "; ".join(pairs),
        }
        rows = {"table": table}
        for i, f in enumerate(self.fighters):
            rows[f.id] = {
                "Gard (guard)": f"{self.gard[i]}/{f.gard_max}",
                "Omtöckning (daze)": f"{self.daze[i]} ({R.daze_penalty(self.daze[i])}%)",
                "sår (wounds)": " ".join(f"{n}×{name}" for name, n in zip(R.WOUNDS, self.wounds[i], strict=True) if n)
                or "-",
                "läge (state)": FATE_TEXT[self.fate[i]],
                "vapen (weapon)": f"{f.arms()}, längd (length) {f.weapon.length}",
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
            text = MOVE_WORDS[kind]
            if kind == "leave":
                text += ": moves like a retreat, then leaves (free only beyond the enemy's weapon length)"
            return text
        if kind in ("cornered", "unprepared"):
            who = str(action.get("who"))
            i = self.index.get(who, -1)
            if kind == "cornered":
                now = i >= 0 and self.cornered[i]
                return f"{who}: {'no longer ' if now else ''}inträngd i ett hörn (cornered): gain ground differs"
            now = i >= 0 and not self.prepared[i]
            return f"{who}: {'again ' if now else 'not '}beredd (prepared): Gard counts only when prepared"
        texts = {
            "fight": "Spelledaren (GM): conditions set, on to the movement",
            "attack": "Utföra ett anfall (attack): one attack roll against the defender's roll",
            "regain": "Låta bli att anfalla (do not attack): you and the defender each regain 1 Gard",
            "defend": "Försvara sig (defend): one defence roll against the attack",
            "counter": "Kontra (counter-attack): no defence roll; the attack lands first, then your attack roll",
        }
        if kind in texts:
            return texts[kind]
        if kind == "ground":
            step = int(action.get("step", 0))
            return "Vinna terräng (gain ground): " + self._ground_word(step)
        return str(action)

    def why_illegal(self, seat: str, action: Action) -> str:
        if action.kind == "counter" and self.phase == "defender" and self.fighters[self.dfn].id == seat:
            f = self.fighters[self.dfn]
            return (
                f"Kontra (counter) needs the distance ({self.scale[self.dist[self.active]]}) to be no longer than "
                f"{f.name}'s weapon length ({f.weapon.length})"
            )
        if action.kind == "leave" and not self.options.allow_leave:
            return "leaving is switched off (option allow_leave)"
        i = self.index.get(seat, -1)
        if action.kind in ("retreat", "leave") and self.phase == "move" and i >= 0 and self.cannot_back(i):
            return (
                f'{self.fighters[i].name} has no Gard left and "kan inte backa längre" (cannot back any more: '
                "option gard_out_cannot_back)"
            )
        return super().why_illegal(seat, action)

    def _target_words(self, i: int, skill: str, skill_value: int, modifier: int, modifier_name: str) -> str:
        """A target value and where it comes from: "55 (Stångvapen 60, Anfallsmod +10, Omtöckning −10)"."""
        penalty = R.daze_penalty(self.daze[i])
        parts = [f"{skill} {skill_value}"]
        if modifier:
            parts.append(f"{modifier_name} {modifier:+d}")
        if penalty:
            parts.append(f"Omtöckning {penalty:+d}".replace("-", "−"))
        return f"{skill_value + modifier + penalty} ({', '.join(parts)})"

    def _exceptional_words(self, target: int) -> str:
        rule = self.options.exceptional
        if rule == "fifth":
            return f"; ≤ {max(target // 5, 0)} exceptional" if target >= 5 else "; no exceptional success possible"
        if rule == "doubles":
            return "; doubles (11, 22 … 00) that succeed are exceptional"
        return ""

    def _d100_words(self, i: int, what: str) -> str:
        """One d100 roll in words: whose, what for, against what target, and what each result means."""
        f = self.fighters[i]
        if what == "stridsvana":
            target_words = self._target_words(i, "Stridsvana", f.stridsvana, 0, "")
            target = self._stridsvana_target(i)
            label = "Stridsvana (combat experience)"
        elif what == "defence":
            target_words = self._target_words(i, f.skill_name, f.skill, f.defence_mod, "Försvarsmod")
            target = self._defence_target(i)
            label = "försvarsslag (defence roll)"
        else:
            target_words = self._target_words(i, f.skill_name, f.skill, f.attack_mod, "Anfallsmod")
            target = self._attack_target(i)
            label = {
                "attack": "anfallsslag (attack roll)",
                "counter": "motanfall (counter-attack roll)",
                "free": "gratisanfall (free attack, no defence)",
            }[what]
        return f"{f.name}'s {label}: d100 against {target_words}{self._exceptional_words(target)}"

    def roll_purpose(self) -> str:
        """The pending roll in words, with its target value and what each result means (the table's prompt)."""
        phase = self.phase
        a, b = self.pairs[self.active]
        if phase in ("move_roll", "init_roll"):
            why = "movement" if phase == "move_roll" else "initiative"
            return f"{self._d100_words((a, b)[len(self.rolls)], 'stridsvana')} (opposed, for the {why})"
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
            column = "Skada skyddad (guarded)" if self.hit.guarded_dice else "Skada öppen (open)"
            return (
                f"{striker.name}'s skadeslag (damage roll) on {target.name}: {column}, + effekt (effect) "
                f"{self.hit.effect}"
            )
        return "roll"

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
        levels = [R.level(roll, target, self.options.exceptional) for roll in range(1, 101)]
        success = Fraction(sum(1 for v in levels if v >= R.SUCCESS), 100)
        rows = [(f"lyckat (success): d100 ≤ {target}", success)]
        if self.options.exceptional != "off":
            rows.append(("exceptionellt (exceptional success)", Fraction(sum(1 for v in levels if v > R.SUCCESS), 100)))
        rows.append(("misslyckat (failure)", 1 - success))
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
            a, b = self.pairs[self.active]
            why = "movement" if phase == "move_roll" else "initiative"
            return tuple(f"{self._d100_words(i, 'stridsvana')} (opposed, for the {why})" for i in (a, b))
        if phase == "attack_roll" and not self.counter and not self._kept_defence():
            defence = self._d100_words(self.dfn, "defence")
            return (self._d100_words(self.att, "attack"), *([defence] * self._defence_rolls_needed()))
        return (self.roll_purpose(),)


def fate_parts(fate: str, name: str = "") -> list[tuple[str, int]]:
    """The consequences in a fate's words (:func:`konflikt.core.outcome.fate_parts`), each wound box with its
    English beside it (``Lätt (light)``): the rows ``sim`` and the odds tables show."""
    from konflikt.core.outcome import fate_parts as split

    return [
        (f"{part} ({R.WOUND_ENGLISH[part]})" if part in R.WOUND_ENGLISH else part, n) for part, n in split(fate, name)
    ]
