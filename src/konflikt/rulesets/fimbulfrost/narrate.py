"""The words of a Fimbulfrost conflict: narrated events, the status table, action descriptions and the outcome.

Kept apart from the rules in ``state.py`` so that each file has one job; every text names the rule step and each
number, in Danish with English beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from konflikt.core.actions import Action
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import GOAL_REACHED, State
from konflikt.dice import PoolRoll
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.models import Catalogue, Character, Entry
from konflikt.rulesets.fimbulfrost.rules import AREA_EN, AREAS, excluded, hero_list

FATES = ("står (standing)", "ude (out)", "død (dead)")


def dice_text(dice: int, roll: PoolRoll, fell: tuple[int, ...] | None) -> str:
    """A roll die by die: the faces as they fell (``6 3 1 5``) when the step knows them, typed at the table or rolled
    face by face. The chance outcome is (successes, 1s) — what the rules need, so exact analysis branches few ways —
    so a roll known only by its outcome (exact analysis, an older record) is shown by class: successes (4–6), 1s, and
    the other dice (2–3)."""
    if fell is not None and len(fell) == dice:
        return " ".join(str(face) for face in fell) or "no dice"
    others = dice - roll.successes - roll.ones
    return " ".join(["[4–6]"] * roll.successes + ["[1]"] * roll.ones + ["[2–3]"] * others) or "no dice"


class Narration(State):
    """Mixin of :class:`FimbulfrostState`: everything it says."""

    hero_ids: tuple[str, ...]
    names: tuple[str, ...]
    chars: tuple[Character, ...]
    opp: Character
    opp_id: str
    opp_name: str
    hero_side: str
    opp_side: str
    catalogue: Catalogue
    n: int
    phase: int
    round: int
    cursor: int
    opp_status: int
    result: int
    hits: int
    asks: list[tuple[str, int, int, int]]
    hstatus: list[int]
    morale: list[int]
    fate: list[int]
    back: list[bool]
    presenter: list[int]
    rolls: list[PoolRoll | None]
    areas: list[int]
    dice: list[int]
    used: list[int]
    pools: list[list[int]]
    taken: list[list[str]]
    borrowed: list[int]
    opp_taken: list[str]
    carried: tuple[frozenset[str], ...]
    described: int
    goal: tuple[str, str] | None
    sides: tuple[tuple[str, str, str | None], ...]

    # ---- events -----------------------------------------------------------------------------------------------
    def say(self, i: int, kind: str, text: str, dice: int) -> None:
        self.emit(kind, text, hero=self.hero_ids[i] if i >= 0 else self.opp_id, dice=dice)

    def say_present(self, i: int, j: int, dice: int) -> None:
        om = self.omdomme_text(i)
        if i == j:
            how = f"presents himself (præsenterer sig selv): Omdømme {om} − 1 = {dice}d6"
        else:
            how = f"is presented by {self.names[j]} (præsenteres af en ven): Omdømme {om} + 0 = {dice}d6"
        self.emit("present", f"{self.names[i]} {how}", hero=self.hero_ids[i], by=self.hero_ids[j], dice=dice)

    def say_roll(self, i: int, dice: int, roll: PoolRoll) -> None:
        what = {P.R1_ROLL: "Omdømme", P.R2_ROLL: "Stil, Stunt og Snak", P.R3_ROLL: "Ressourcer"}[self.phase]
        ones = ""
        if self.phase != P.R1_ROLL:
            ones = f", {roll.ones}×1 (potentielle ulykker, possible mishaps)" if roll.ones else ", no 1s"
        fell = self.rolled_faces()
        self.emit(
            "roll",
            f"{self.names[i]} rolls {what}, {dice}d6: {dice_text(dice, roll, fell)} → {roll.successes} succes(er) "
            f"(4–6, successes){ones}",
            hero=self.hero_ids[i],
            successes=roll.successes,
            ones=roll.ones,
            faces=list(fell or ()),
        )

    def say_no_dice(self, i: int) -> None:
        self.emit("roll", f"{self.names[i]} has no dice to roll (0d6)", hero=self.hero_ids[i], successes=0, ones=0)

    def say_split(self, i: int, to_opp: int, gifts: list[tuple[int, int]]) -> None:
        parts = [f"{to_opp} off {self.opp_name}'s Status → {self.opp_status}"]
        parts += [f"{m} morale-bonus to {self.names[j]} (morale {self.morale[j]})" for j, m in gifts]
        self.emit(
            "split",
            f"{self.names[i]} fordeler (splits) the successes: " + "; ".join(parts),
            hero=self.hero_ids[i],
            opponent=to_opp,
            opponent_status=self.opp_status,
        )

    def say_opp_roll(self, roll: PoolRoll) -> None:
        pool = "Omdømme" if self.phase == P.R1_ANSWER else "Kamp"
        size = self.opp.omdomme if self.phase == P.R1_ANSWER else self.opp.kamp
        fell = self.rolled_faces()
        self.emit(
            "roll",
            f"{self.opp_name} rolls its {pool}, {size}d6: {dice_text(size, roll, fell)} → {roll.successes} succes(er) "
            "against the heroes",
            hero=self.opp_id,
            successes=roll.successes,
            ones=roll.ones,
            faces=list(fell or ()),
        )

    def say_answer_coming(self, round_no: int) -> None:
        if round_no == 1:
            text = (
                f"Trin 4B: {self.opp_name} still has Status {self.opp_status} ≥ 1 and presents itself "
                f"(full Omdømme {self.opp.omdomme}d6) to frighten the heroes"
            )
        else:
            text = (
                f"Trin 3B: {self.opp_name} still has Status {self.opp_status} ≥ 1 and strikes back "
                f"(Kamp {self.opp.kamp}d6)"
            )
        self.emit("answer", text, opponent_status=self.opp_status)

    def say_no_answer(self) -> None:
        self.emit("answer", f"{self.opp_name} has no dice for this (0d6): no answer", opponent_status=self.opp_status)

    def say_damage(self, i: int, d: int, before: int, mor: int) -> None:
        now = self.hstatus[i]
        soak = f", morale {mor} absorbs {min(mor, d)} first" if mor else ""
        out = ""
        if now <= 0:
            out = f" → ude af kampen (out of the fight), {-now} point(s) under 0"
        self.emit(
            "damage",
            f"{self.opp_name} takes {d} off {self.names[i]}{soak}: Status {before} → {now}{out}",
            hero=self.hero_ids[i],
            damage=d,
            status=now,
        )

    def say_total(self, round_no: int, total: int, before: int) -> None:
        self.emit(
            "total",
            f"Runde (round) {round_no}: the heroes' {total} succes(er) come off {self.opp_name}'s Status: {before} → "
            f"{self.opp_status}",
            successes=total,
            opponent_status=self.opp_status,
        )

    def say_describe(self, i: int, mask: int) -> None:
        shown = [f"{a} ({AREA_EN[a]})" for k, a in enumerate(AREAS) if mask >> k & 1]
        dice = len(shown)
        self.emit(
            "describe",
            f"{self.names[i]} describes {', '.join(shown) or 'nothing'} → {dice}d6",
            hero=self.hero_ids[i],
            dice=dice,
        )

    def say_round(self, round_no: int) -> None:
        words = {2: "Stil, Stunt og Snak (style, stunt and talk)", 3: "Ressourcer (resources)"}[round_no]
        standing = sum(f == 0 for f in self.fate)
        self.emit(
            "round",
            f"{self.opp_name} and {standing} hero(es) still stand: runde (round) {round_no}, {words}",
            round=round_no,
        )

    def say_finish(self, result: int, round_no: int, ones: list[int]) -> None:
        if result == 1:
            below = -self.opp_status
            step = "4A" if round_no == 1 else "3A"
            text = (
                f"Trin {step}: {self.opp_name} is at Status {self.opp_status} ≤ 0: overvundet (defeated) in runde "
                f"(round) {round_no}"
            )
            if below > 0:
                text += f"; {below} point(s) under 0: the heroes may buy consequences for it"
            mishaps = [f"{self.names[i]} {k}" for i, k in enumerate(ones) if k]
            if mishaps:
                text += "; for each 1 rolled the hero buys a consequence for himself (ulykker, mishaps): " + ", ".join(
                    mishaps
                )
        elif round_no == 3:
            text = (
                f"Trin 3B: {self.opp_name} still has Status {self.opp_status}: the heroes have lost (tabt kampen) "
                "and buy negative consequences for its remaining Status"
            )
        else:
            text = f"Every hero is out of the fight in runde (round) {round_no}: {self.opp_name} wins"
        self.emit("end", text, result=result, round=round_no, opponent_status=self.opp_status)

    def say_outcome(self) -> None:
        """Trin 4D / 3D: "Når konsekvenser er fordelt, beskriver man udfaldet af … runden": the table's beat to tell
        what happened, with where everyone stands; at the end of the fight, once its last consequence is bought.
        Narration only: no seat is asked (a step would cost every simulated conflict), the front ends pause on it."""
        round_no = self.round
        self.described = round_no
        step = {1: "Trin 4D", 2: "Trin 3D"}.get(round_no, "Kampen ender her (the fight ends here)")
        heroes = []
        for i, name in enumerate(self.names):
            if self.fate[i] == 0:
                heroes.append(f"{name} {FATES[0]}, Status-pulje (status pool) {self.status_pool_text(i)}")
            else:
                heroes.append(f"{name} {FATES[self.fate[i]]}")
        if self.phase == P.END and self.result == 1:
            opp = f"{self.opp_name} overvundet (defeated)"
        else:
            opp = f"{self.opp_name} Status {self.opp_status}"
        self.emit(
            "describe_outcome",
            f"{step}: konsekvenserne er fordelt, beskriv udfaldet af runde (round) {round_no} (the consequences are "
            f"bought: describe how the round went): {'; '.join(heroes)}; {opp}",
            round=round_no,
            opponent_status=self.opp_status,
        )

    def status_pool_text(self, i: int) -> str:
        """Hero ``i``'s Status pool: his Status with the morale bonus a friend added to it ("føjer dem som
        morale-bonus til en vens Status-pulje"), the two shown apart while there is morale."""
        if not self.morale[i]:
            return str(self.hstatus[i])
        return f"{self.hstatus[i] + self.morale[i]} ({self.hstatus[i]} + {self.morale[i]} morale-bonus)"

    def say_buy_back(self, i: int, count: int) -> None:
        self.emit(
            "buy_back",
            f"{self.names[i]} køber sig ind i kampen igen (buys back in): {count} consequence(s), back at Status 1",
            hero=self.hero_ids[i],
            consequences=count,
        )

    def say_loss_shares(self, payers: list[int], counts: list[int]) -> None:
        shares = ", ".join(f"{self.names[i]} {c}" for i, c in zip(payers, counts, strict=True)) or "nobody"
        self.emit(
            "loss",
            f"Trin 3B: the heroes buy consequences for {self.opp_name}'s remaining Status {self.opp_status}: {shares}",
            opponent_status=self.opp_status,
        )

    def say_consequence(self, i: int, entry: Entry, left: int, for_mishap: bool = False) -> None:
        more = f" ({left} more to buy)" if left else ""
        mark = " — dødsmærket (death-marked): dies a week or so later" if entry.death_mark else ""
        why = " for a 1 rolled (ulykke, mishap)" if for_mishap else ""
        self.emit(
            "consequence",
            f"{self.names[i]} takes konsekvens '{entry.da}' ({entry.en}){why}{mark}{more}",
            hero=self.hero_ids[i],
            entry=entry.id,
            severity=entry.severity,
        )

    def say_opp_consequence(self, i: int, entry: Entry, left: int) -> None:
        more = f" ({left} more may be bought)" if left else ""
        self.emit(
            "consequence",
            f"{self.names[i]} buys konsekvens '{entry.da}' ({entry.en}) for {self.opp_name}{more}",
            hero=self.opp_id,
            entry=entry.id,
            severity=entry.severity,
        )

    def say_exhausted(self) -> None:
        kind, i, count, _ = self.asks[0]
        who = self.opp_name if kind == "opp" else self.names[i]
        self.emit(
            "exhausted",
            f"nothing left on the list for {who}: {count} consequence(s) cannot be bought",
            hero=self.opp_id if kind == "opp" else self.hero_ids[i],
            count=count,
        )

    # ---- the table --------------------------------------------------------------------------------------------
    def status(self) -> dict[str, dict[str, str]]:
        table = {
            "table": {"runde (round)": str(self.round), "fase (phase)": P.NAMES[self.phase]},
            self.opp_id: {
                "Status": str(self.opp_status),
                "Omdømme (reputation)": str(self.opp.omdomme),
                "Kamp (fight)": str(self.opp.kamp),
                "konsekvenser (consequences)": self.entries_text(self.opp_taken),
            },
        }
        for i, hid in enumerate(self.hero_ids):
            row = {
                "Status-pulje (status pool)": self.status_pool_text(
                    i
                ),  # morale is part of the pool, as the text adds it
                "Omdømme (reputation)": self.omdomme_text(i),  # what the presentation dice count from
                "fate": FATES[self.fate[i]],
                "dice": str(self.dice[i]),
                "Rustning (armour)": str(self.pools[i][0]),
                "Grej (gear)": str(self.pools[i][1]),
            }
            if self.chars[i].vaaben:
                row["Våben (weapon pool)"] = str(self.pools[i][2])
            row["konsekvenser (consequences)"] = self.entries_text(self.taken[i])
            if self.borrowed[i]:
                row["lånt tid (borrowed time)"] = str(self.borrowed[i])
            table[hid] = row
        return table

    def entries_text(self, entry_ids: Sequence[str]) -> str:
        """The list entries taken, in the system's words with English (``Skramme (a scratch), …``), not their ids."""
        words = []
        for entry_id in entry_ids:
            try:
                e = self.catalogue.entry(entry_id)
            except KeyError:
                words.append(entry_id)
            else:
                words.append(f"{e.da} ({e.en})")
        return ", ".join(words) or "-"

    def omdomme_text(self, i: int) -> str:
        """Hero ``i``'s Omdømme as this fight counts it, with the sheet's value beside it when the last fight's
        consequences lower it for this fight only."""
        char = self.chars[i]
        if not char.omdomme_til_naeste_kamp:
            return str(char.omdomme)
        lowered = -char.omdomme_til_naeste_kamp
        return f"{char.omdomme_this_fight} ({char.omdomme} − {lowered} til næste kamp: this fight only)"

    def hero_name(self, hero_id: object) -> str:
        """A hero's name for a seat id in an action (the choices name people as the narration does)."""
        return self.names[self.hero_ids.index(hero_id)] if hero_id in self.hero_ids else str(hero_id)

    def describe_action(self, seat: str, action: Action) -> str:
        kind = action.kind
        if kind == "present":
            if action["by"] == seat:
                return "præsenter dig selv (present yourself): Omdømme − 1 dice"
            return f"præsenteres af {self.hero_name(action['by'])} (presented by a friend): Omdømme + 0 dice"
        if kind == "split":
            gifts = [
                f"{m} morale to {self.hero_name(k.removeprefix('morale_'))}"
                for k, m in action.args
                if k.startswith("morale_")
            ]
            return f"fordel: {action['opponent']} off the opponent's Status" + "".join(f", {g}" for g in gifts)
        if kind == "hit":
            hits = [f"{v} to {self.hero_name(k)}" for k, v in action.args]
            return "fordel skade (split the hits): " + (", ".join(hits) or "none")
        if kind == "describe":
            chosen = [f"{a} ({AREA_EN[a]})" for a in AREAS if action[a]]
            return f"beskriv {', '.join(chosen) or 'intet (nothing)'}: {len(chosen)}d6"
        if kind in ("armour", "gear", "weapon"):
            word = {"armour": "Rustningspulje (armour pool)", "gear": "Grejpulje (gear pool)"}.get(
                kind, "Våbenpulje (weapon pool)"
            )
            return f"{word}: take {action['dice']}d6 (gone from the pool after the conflict)"
        if kind == "wilder":
            return (
                f"Det skal være endnu vildere (even wilder): {self.hero_name(action['by'])} re-tells your round-2 "
                "deeds → +1d6"
            )
        if kind == "maneuver":
            return f"manøvre {action['id']} (maneuver): its dice, once"
        if kind == "borrowed_time":
            return "lev på lånt tid (live on borrowed time): extra dice, the GM may set a death scene later"
        if kind == "answer":
            return "svar på et spørgsmål (answer a question): extra dice"
        if kind == "done":
            return "færdig (done): take no more options this round"
        if kind == "buy_back":
            return "køb dig ind igen (buy back in): one extra consequence, back at Status 1"
        if kind == "stay_out":
            return "bliv ude (stay out of the fight)"
        if kind == "spare":
            return "køb ikke flere (buy no more consequences for the opponent)"
        if kind == "consequence":
            e = self.catalogue.entry(str(action["entry"]))
            return f"konsekvens '{e.da}' ({e.en}), severity {e.severity}" + (" — death" if e.death else "")
        return str(action)

    def why_illegal(self, seat: str, action: Action) -> str:
        if action.kind == "consequence" and self.asks:
            try:
                entry = self.catalogue.entry(str(action.get("entry")))
            except KeyError:
                return f"no consequence {action.get('entry')!r} on any list"
            kind, i, _, round_no = self.asks[0]
            taken = self.opp_taken if kind == "opp" else [*self.taken[i], *self.carried[i]]
            if entry.id in taken:
                return f"'{entry.da}' ({entry.en}) is already taken: each entry may be chosen once"
            special = self.opp.konsekvensliste
            list_name = self.opp.nederlagsliste if kind == "opp" else hero_list(self.catalogue, special, round_no)
            listed = self.catalogue.lists[list_name].entries
            on_list = any(e.id == entry.id and round_no in e.runder for e in listed)
            if on_list and excluded(entry, taken, listed):
                held = [e for e in listed if e.id in taken and (e.id in entry.excludes or entry.id in e.excludes)]
                who = self.opp_name if kind == "opp" else self.names[i]
                return (
                    f"'{entry.da}' ({entry.en}) cannot befall {who} beside '{held[0].da}' ({held[0].en}): opposing "
                    "fates exclude each other"
                )
            if on_list and kind != "opp" and entry.death and round_no == 1 and not self.options.round1_death:
                return "død (death) is not offered in runde (round) 1 under the option round1_death = false"
            if on_list and kind != "opp" and not entry.death and self.options.consequence_must_cost:
                return (
                    f"'{entry.da}' ({entry.en}) would cost {self.names[i]} nothing (what it takes is already gone): "
                    "a consequence must cost something under konflikt's own option consequence_must_cost"
                )
            return f"'{entry.da}' ({entry.en}) is not on the list in use now ({list_name}, runde (round) {round_no})"
        if action.kind == "present" and self.phase == P.PRESENT and action.get("by") in self.hero_ids:
            by = self.hero_name(action["by"])
            return f"{by} has already presented a hero (each hero presents one: option presenters)"
        return super().why_illegal(seat, action)

    # ---- the end ----------------------------------------------------------------------------------------------
    def canonical(self, ids: list[str]) -> list[str]:
        """Consequences in a fixed order (sorted ids), whatever order they were bought in: the outcome depends on
        the set only, as ``key()`` does."""
        return sorted(ids)

    def build_outcome(self) -> ConflictOutcome:
        won = self.result == 1
        fates: dict[str, str] = {}
        marked = 0
        for i, hid in enumerate(self.hero_ids):
            entries = [self.catalogue.entry(e) for e in self.canonical(self.taken[i])]
            marked += any(e.death_mark for e in entries)
            words = [f"{e.da} ({e.en})" for e in entries]
            fate = FATES[self.fate[i]] + (", købt ind igen (bought back)" if self.back[i] else "")
            fates[hid] = fate + (": " + "; ".join(words) if words else "")
        opp_words = [
            f"{self.catalogue.entry(e).da} ({self.catalogue.entry(e).en})" for e in self.canonical(self.opp_taken)
        ]
        fates[self.opp_id] = ("overvundet (defeated)" if won else "står (standing)") + (
            ": " + "; ".join(opp_words) if opp_words else ""
        )
        if self.goal is not None:
            side, goal = self.goal
            ending, winners = GOAL_REACHED, (side,)
            name = next(name for sid, name, _ in self.sides if sid == side)
            summary = f"{name} reaches its goal in runde (round) {self.round}, as the GM declares: {goal}"
        elif won:
            ending, winners = "opponent_defeated", (self.hero_side,)
            summary = f"{self.opp_name} is overvundet (defeated) in runde (round) {self.round}"
        elif self.round == 3:
            ending, winners = "heroes_lost", (self.opp_side,)
            summary = f"the heroes lose runde (round) 3: {self.opp_name} keeps Status {self.opp_status}"
        else:
            ending, winners = "heroes_out", (self.opp_side,)
            summary = f"every hero is out of the fight in runde (round) {self.round}"
        return ConflictOutcome(
            ending=ending,
            winners=winners,
            summary=summary,
            participants=fates,
            data={
                "round": self.round,
                "opponent_status": self.opp_status,
                "consequences": sum(len(t) for t in self.taken),
                "opponent_consequences": len(self.opp_taken),
                "dead": sum(f == 2 for f in self.fate),
                "out": sum(f != 0 for f in self.fate),
                "death_marked": marked,
                "dice_spent": sum(
                    getattr(c, name) - self.pools[i][k]
                    for i, c in enumerate(self.chars)
                    for k, name in enumerate(("rustning", "grej", "vaaben"))
                ),
            },
        )
