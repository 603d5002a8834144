"""What a Le våld fight says: roll and choice texts, status table, seat views, outcomes (Swedish with English)."""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action
from konflikt.core.options import Options
from konflikt.core.state import GM, State
from konflikt.dice import effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.fighters import Fighter

MOVE_WORDS = {
    "advance": "Avancera (advance)",
    "hold": "Bibehålla (hold)",
    "retreat": "Retirera (retreat)",
    "leave": "Lämna (leave the fight)",
}
FATE_TEXT = {
    "fighting": "står (standing)",
    "knocked_out": "utslagen (knocked out)",
    "dead": "död (dead)",
    "left": "har lämnat striden (left the fight)",
}


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
    rounds: int
    phase: str
    att: int
    dfn: int
    rolls: tuple[int, ...]

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
        if self.cornered[self.dfn]:
            return "follows in (följer med anfallet, −1 step)" if step < 0 else "stands (står kvar)"
        return "does not follow (följer inte efter, +1 step)" if step > 0 else "follows (följer efter)"

    def _roll_event(self, i: int, roll: int, target: int, what: str) -> tuple[int, int]:
        """Emit one percentile roll with its target, level and effect; return its quality."""
        q = R.quality(roll, target, self.options.exceptional, self.options.effect_breaks_ties)
        lvl = R.level(roll, target, self.options.exceptional)
        penalty = R.daze_penalty(self.daze[i])
        extra = f" incl. {penalty}% Omtöckning" if penalty else ""
        self.emit(
            "roll",
            f"{self.fighters[i].name}: {what} {'00' if roll == 100 else f'{roll:02d}'} mot (vs) {target}{extra} → "
            f"{R.LEVEL_TEXT[lvl]}, effekt (effect) {effect(roll)}",
            who=self.fighters[i].id,
            roll=roll,
            target=target,
            level=lvl,
            effect=effect(roll),
        )
        return q

    def _setup_text(self) -> str:
        parts = []
        for f in self.fighters:
            w = f.weapon
            parts.append(
                f"{f.name} ({self.side_names[f.side]}): {w.label()} [{w.skill} {f.skill}%, anfall {f.attack_base}, "
                f"försvar {f.defence_base}, {w.damage_guarded}/{w.damage_open}, längd {w.length}], Stridsvana "
                f"{f.stridsvana}, Gard {f.gard_max}, trösklar (thresholds) {'/'.join(map(str, f.limits))}"
            )
        return f"{self.title} — " + "; ".join(parts)

    def _end_text(self, standing: dict[str, list[int]]) -> str:
        winners = [s for s, members in standing.items() if members]
        if winners:
            return f"Striden är över (the fight is over): {self.side_names[winners[0]]} holds the field"
        return "Striden är över (the fight is over): nobody holds the field"

    def _summary(self, winners: tuple[str, ...]) -> str:
        fates = ", ".join(f"{f.name} {FATE_TEXT[self.fate[i]]}" for i, f in enumerate(self.fighters))
        if winners:
            return f"{self.side_names[winners[0]]} wins after {self.rounds} rounds: {fates}"
        return f"No winner after {self.rounds} rounds: {fates}"

    def _fate_text(self, i: int) -> str:
        w = self.wounds[i]
        marks = [f"{name}×{n}" for name, n in zip(R.WOUNDS[:3], w, strict=False) if n]
        return FATE_TEXT[self.fate[i]] + (f", {' '.join(marks)}" if marks else "") + f", Omtöckning {self.daze[i]}"

    # ---- tables and views ------------------------------------------------------------------------------------------
    def status(self) -> dict[str, dict[str, str]]:
        pairs = []
        for p, (a, b) in enumerate(self.pairs):
            holder = self.holder[p]
            who = self.fighters[holder].name if holder >= 0 else "-"
            mark = "*" if p == self.active and len(self.pairs) > 1 else ""
            names = f"{mark}{self.fighters[a].id}–{self.fighters[b].id} " if len(self.pairs) > 1 else ""
            pairs.append(f"{names}{self.scale[self.dist[p]]}, initiativ {who}")
        table = {
            "runda (round)": str(self.rounds + (0 if self.phase == "over" else 1)),
            "avstånd (distance)": "; ".join(pairs),
        }
        rows = {"table": table}
        for i, f in enumerate(self.fighters):
            rows[f.id] = {
                "Gard": f"{self.gard[i]}/{f.gard_max}",
                "Omtöckning (daze)": f"{self.daze[i]} ({R.daze_penalty(self.daze[i])}%)",
                "sår (wounds)": " ".join(
                    f"{n}×{name}" for name, n in zip(R.WOUNDS[:3], self.wounds[i], strict=False) if n
                )
                or "-",
                "läge (state)": FATE_TEXT[self.fate[i]],
                "vapen (weapon)": f"{f.weapon.name}, längd (length) {f.weapon.length}",
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
                    "wounds": dict(zip(R.WOUNDS[:3], self.wounds[i], strict=False)),
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
        return super().why_illegal(seat, action)

    def roll_purpose(self) -> str:
        phase = self.phase
        a, b = self.pairs[self.active]
        if phase in ("move_roll", "init_roll"):
            who = self.fighters[(a, b)[len(self.rolls)]].name
            why = "movement" if phase == "move_roll" else "initiative"
            return f"{who}'s Stridsvana roll (combat experience) for the {why}"
        if phase == "attack_roll":
            return f"{self.fighters[self.att].name}'s anfallsslag (attack roll)"
        if phase == "defence_roll":
            return f"{self.fighters[self.dfn].name}'s försvarsslag (defence roll)"
        if phase == "counter_roll":
            return f"{self.fighters[self.dfn].name}'s motanfall (counter-attack roll)"
        if phase == "free_roll":
            return f"{self.fighters[self.att].name}'s gratisanfall (free attack) on the leaver"
        if phase == "damage":
            return "skadeslag (damage roll)"
        return "roll"
