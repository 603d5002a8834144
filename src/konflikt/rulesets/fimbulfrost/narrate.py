"""The words of a Fimbulfrost conflict: narrated events, the status table, action descriptions and the outcome.

Kept apart from the rules in ``state.py`` so that each file has one job; every text names the rule step and each
number. Each message is plain English in the code and printed in the language in use (``i18n.py``): Danish in the
text's own words, Swedish, Polish, English, or the bilingual register (Danish terms with English beside them).
"""

from __future__ import annotations

from collections.abc import Sequence

from konflikt.core.actions import Action
from konflikt.core.i18n import BILINGUAL, current, localized
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import GOAL_REACHED, State
from konflikt.dice import PoolRoll
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import N_, _, entry_name, ngettext, pgettext, quoted
from konflikt.rulesets.fimbulfrost.models import Catalogue, Character, Entry
from konflikt.rulesets.fimbulfrost.rules import AREAS, excluded, hero_list

FATES = (N_("standing"), N_("out"), N_("dead"))
"""A hero's fate by its number (standing, out, dead), translated where it is shown (:func:`fate_name`)."""
AREA_WORDS = {"stil": N_("style"), "stunt": N_("stunt"), "snak": N_("talk")}
"""Round 2's three areas (Stil, Stunt og Snak) by their ids, which are typed (``describe stil=yes``)."""


def fate_name(fate: int) -> str:
    """A hero's fate in the language in use (``står (standing)`` in the bilingual register)."""
    return _(FATES[fate])


def area_name(area: str) -> str:
    """One of round 2's areas in the language in use (``stil (style)`` in the bilingual register)."""
    return _(AREA_WORDS[area])


def area_short(area: str) -> str:
    """One of round 2's areas where the bilingual register shows its id alone (the solver's choices)."""
    return area if current() == BILINGUAL else area_name(area)


def fate_text(fate: int, entries: Sequence[Entry], back: bool = False, won: bool | None = None) -> str:
    """A participant's fate with the consequences it holds, as the outcome and the kernel's labels write it: a hero's
    (``won`` None) standing, out or dead, or the opponent's, defeated (``won``) or standing."""
    head = fate_name(fate) if won is None else pgettext("fate", "defeated") if won else fate_name(0)
    if back:
        head = _("{fate}, bought back", fate=head)
    words = [entry_name(e) for e in entries]
    return head + (": " + "; ".join(words) if words else "")


def dice_text(dice: int, roll: PoolRoll, fell: tuple[int, ...] | None) -> str:
    """A roll die by die: the faces as they fell (``6 3 1 5``) when the step knows them, typed at the table or rolled
    face by face. The chance outcome is (successes, 1s) — what the rules need, so exact analysis branches few ways —
    so a roll known only by its outcome (exact analysis, an older record) is shown by class: successes (4–6), 1s, and
    the other dice (2–3)."""
    if fell is not None and len(fell) == dice:
        return " ".join(str(face) for face in fell) or _("no dice")
    others = dice - roll.successes - roll.ones
    return " ".join(["[4–6]"] * roll.successes + ["[1]"] * roll.ones + ["[2–3]"] * others) or _("no dice")


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
            text = _(
                "{name} presents himself: Reputation {reputation} − 1 = {dice}d6",
                name=self.names[i],
                reputation=om,
                dice=dice,
            )
        else:
            text = _(
                "{name} is presented by {friend}: Reputation {reputation} + 0 = {dice}d6",
                name=self.names[i],
                friend=self.names[j],
                reputation=om,
                dice=dice,
            )
        self.emit("present", text, hero=self.hero_ids[i], by=self.hero_ids[j], dice=dice)

    def say_roll(self, i: int, dice: int, roll: PoolRoll) -> None:
        pool = {
            P.R1_ROLL: pgettext("roll", "Reputation"),
            P.R2_ROLL: pgettext("roll", "Style, Stunt and Talk"),
            P.R3_ROLL: pgettext("roll", "Resources"),
        }[self.phase]
        fell = self.rolled_faces()
        fields = {"name": self.names[i], "pool": pool, "dice": dice, "faces": dice_text(dice, roll, fell)}
        if self.phase == P.R1_ROLL:
            text = ngettext(
                "{name} rolls {pool}, {dice}d6: {faces} → {n} success (4–6)",
                "{name} rolls {pool}, {dice}d6: {faces} → {n} successes (4–6)",
                roll.successes,
                **fields,
            )
        elif roll.ones:
            text = ngettext(
                "{name} rolls {pool}, {dice}d6: {faces} → {n} success (4–6), {ones}×1 (possible mishaps)",
                "{name} rolls {pool}, {dice}d6: {faces} → {n} successes (4–6), {ones}×1 (possible mishaps)",
                roll.successes,
                ones=roll.ones,
                **fields,
            )
        else:
            text = ngettext(
                "{name} rolls {pool}, {dice}d6: {faces} → {n} success (4–6), no 1s",
                "{name} rolls {pool}, {dice}d6: {faces} → {n} successes (4–6), no 1s",
                roll.successes,
                **fields,
            )
        self.emit(
            "roll",
            text,
            hero=self.hero_ids[i],
            successes=roll.successes,
            ones=roll.ones,
            faces=list(fell or ()),
        )

    def say_no_dice(self, i: int) -> None:
        self.emit(
            "roll",
            _("{name} has no dice to roll (0d6)", name=self.names[i]),
            hero=self.hero_ids[i],
            successes=0,
            ones=0,
        )

    def say_split(self, i: int, to_opp: int, gifts: list[tuple[int, int]]) -> None:
        parts = [
            _(
                "{points} off {opponent}'s Status → {status}",
                points=to_opp,
                opponent=self.opp_name,
                status=self.opp_status,
            )
        ]
        parts += [
            _(
                "{points} morale bonus to {friend} (morale {morale})",
                points=m,
                friend=self.names[j],
                morale=self.morale[j],
            )
            for j, m in gifts
        ]
        self.emit(
            "split",
            _("{name} splits the successes: {parts}", name=self.names[i], parts="; ".join(parts)),
            hero=self.hero_ids[i],
            opponent=to_opp,
            opponent_status=self.opp_status,
        )

    def say_opp_roll(self, roll: PoolRoll) -> None:
        pool = pgettext("roll", "Reputation") if self.phase == P.R1_ANSWER else pgettext("roll", "Fight")
        size = self.opp.omdomme if self.phase == P.R1_ANSWER else self.opp.kamp
        fell = self.rolled_faces()
        self.emit(
            "roll",
            ngettext(
                "{name} rolls its {pool}, {dice}d6: {faces} → {n} success against the heroes",
                "{name} rolls its {pool}, {dice}d6: {faces} → {n} successes against the heroes",
                roll.successes,
                name=self.opp_name,
                pool=pool,
                dice=size,
                faces=dice_text(size, roll, fell),
            ),
            hero=self.opp_id,
            successes=roll.successes,
            ones=roll.ones,
            faces=list(fell or ()),
        )

    def say_answer_coming(self, round_no: int) -> None:
        if round_no == 1:
            text = _(
                "Step 4B: {opponent} still has Status {status} ≥ 1 and presents itself (full Reputation {dice}d6) to "
                "frighten the heroes",
                opponent=self.opp_name,
                status=self.opp_status,
                dice=self.opp.omdomme,
            )
        else:
            text = _(
                "Step 3B: {opponent} still has Status {status} ≥ 1 and strikes back (Fight {dice}d6)",
                opponent=self.opp_name,
                status=self.opp_status,
                dice=self.opp.kamp,
            )
        self.emit("answer", text, opponent_status=self.opp_status)

    def say_no_answer(self) -> None:
        self.emit(
            "answer",
            _("{opponent} has no dice for this (0d6): no answer", opponent=self.opp_name),
            opponent_status=self.opp_status,
        )

    def say_damage(self, i: int, d: int, before: int, mor: int) -> None:
        now = self.hstatus[i]
        fields = {"opponent": self.opp_name, "damage": d, "name": self.names[i], "before": before, "now": now}
        soak = {"morale": mor, "absorbed": min(mor, d)}
        if now <= 0 and mor:
            text = ngettext(
                "{opponent} takes {damage} off {name}, morale {morale} absorbs {absorbed} first: Status {before} → "
                "{now} → out of the fight, {n} point under 0",
                "{opponent} takes {damage} off {name}, morale {morale} absorbs {absorbed} first: Status {before} → "
                "{now} → out of the fight, {n} points under 0",
                -now,
                **fields,
                **soak,
            )
        elif now <= 0:
            text = ngettext(
                "{opponent} takes {damage} off {name}: Status {before} → {now} → out of the fight, {n} point under 0",
                "{opponent} takes {damage} off {name}: Status {before} → {now} → out of the fight, {n} points under 0",
                -now,
                **fields,
            )
        elif mor:
            text = _(
                "{opponent} takes {damage} off {name}, morale {morale} absorbs {absorbed} first: Status {before} → "
                "{now}",
                **fields,
                **soak,
            )
        else:
            text = _("{opponent} takes {damage} off {name}: Status {before} → {now}", **fields)
        self.emit("damage", text, hero=self.hero_ids[i], damage=d, status=now)

    def say_total(self, round_no: int, total: int, before: int) -> None:
        self.emit(
            "total",
            ngettext(
                "Round {round}: the heroes' {n} success comes off {opponent}'s Status: {before} → {status}",
                "Round {round}: the heroes' {n} successes come off {opponent}'s Status: {before} → {status}",
                total,
                round=round_no,
                opponent=self.opp_name,
                before=before,
                status=self.opp_status,
            ),
            successes=total,
            opponent_status=self.opp_status,
        )

    def say_describe(self, i: int, mask: int) -> None:
        shown = [area_name(a) for k, a in enumerate(AREAS) if mask >> k & 1]
        dice = len(shown)
        self.emit(
            "describe",
            _(
                "{name} describes {areas} → {dice}d6",
                name=self.names[i],
                areas=", ".join(shown) or pgettext("described", "nothing"),
                dice=dice,
            ),
            hero=self.hero_ids[i],
            dice=dice,
        )

    def say_round(self, round_no: int) -> None:
        standing = sum(f == 0 for f in self.fate)
        if round_no == 2:
            text = ngettext(
                "{opponent} and {n} hero still stand: round 2, Style, Stunt and Talk",
                "{opponent} and {n} heroes still stand: round 2, Style, Stunt and Talk",
                standing,
                opponent=self.opp_name,
            )
        else:
            text = ngettext(
                "{opponent} and {n} hero still stand: round 3, Resources",
                "{opponent} and {n} heroes still stand: round 3, Resources",
                standing,
                opponent=self.opp_name,
            )
        self.emit("round", text, round=round_no)

    def say_finish(self, result: int, round_no: int, ones: list[int]) -> None:
        if result == 1:
            below = -self.opp_status
            parts = [
                _(
                    "Step {step}: {opponent} is at Status {status} ≤ 0: defeated in round {round}",
                    step="4A" if round_no == 1 else "3A",
                    opponent=self.opp_name,
                    status=self.opp_status,
                    round=round_no,
                )
            ]
            if below > 0:
                parts.append(
                    ngettext(
                        "{n} point under 0: the heroes may buy consequences for it",
                        "{n} points under 0: the heroes may buy consequences for it",
                        below,
                    )
                )
            mishaps = [f"{self.names[i]} {k}" for i, k in enumerate(ones) if k]
            if mishaps:
                parts.append(
                    _(
                        "for each 1 rolled the hero buys a consequence for himself (mishaps): {mishaps}",
                        mishaps=", ".join(mishaps),
                    )
                )
            text = "; ".join(parts)
        elif round_no == 3:
            text = _(
                "Step 3B: {opponent} still has Status {status}: the heroes have lost and buy negative consequences "
                "for its remaining Status",
                opponent=self.opp_name,
                status=self.opp_status,
            )
        else:
            text = _(
                "Every hero is out of the fight in round {round}: {opponent} wins",
                round=round_no,
                opponent=self.opp_name,
            )
        self.emit("end", text, result=result, round=round_no, opponent_status=self.opp_status)

    def say_outcome(self) -> None:
        """Trin 4D / 3D: "Når konsekvenser er fordelt, beskriver man udfaldet af … runden": the table's beat to tell
        what happened, with where everyone stands; at the end of the fight, once its last consequence is bought.
        Narration only: no seat is asked (a step would cost every simulated conflict), the front ends pause on it."""
        round_no = self.round
        self.described = round_no
        if round_no in (1, 2):
            step = _("Step {step}", step="4D" if round_no == 1 else "3D")
        else:
            step = _("The fight ends here")
        heroes = []
        for i, name in enumerate(self.names):
            if self.fate[i] == 0:
                heroes.append(_("{name} standing, Status pool {pool}", name=name, pool=self.status_pool_text(i)))
            elif self.fate[i] == 1:
                heroes.append(_("{name} out", name=name))
            else:
                heroes.append(_("{name} dead", name=name))
        if self.phase == P.END and self.result == 1:
            opp = _("{opponent} defeated", opponent=self.opp_name)
        else:
            opp = _("{opponent} Status {status}", opponent=self.opp_name, status=self.opp_status)
        self.emit(
            "describe_outcome",
            _(
                "{step}: the consequences are bought, describe how round {round} went: {heroes}; {opponent}",
                step=step,
                round=round_no,
                heroes="; ".join(heroes),
                opponent=opp,
            ),
            round=round_no,
            opponent_status=self.opp_status,
        )

    def status_pool_text(self, i: int) -> str:
        """Hero ``i``'s Status pool: his Status with the morale bonus a friend added to it ("føjer dem som
        morale-bonus til en vens Status-pulje"), the two shown apart while there is morale."""
        if not self.morale[i]:
            return str(self.hstatus[i])
        return _(
            "{pool} ({status} + {morale} morale bonus)",
            pool=self.hstatus[i] + self.morale[i],
            status=self.hstatus[i],
            morale=self.morale[i],
        )

    def say_buy_back(self, i: int, count: int) -> None:
        self.emit(
            "buy_back",
            ngettext(
                "{name} buys back in: {n} consequence, back at Status 1",
                "{name} buys back in: {n} consequences, back at Status 1",
                count,
                name=self.names[i],
            ),
            hero=self.hero_ids[i],
            consequences=count,
        )

    def say_loss_shares(self, payers: list[int], counts: list[int]) -> None:
        shares = ", ".join(f"{self.names[i]} {c}" for i, c in zip(payers, counts, strict=True)) or _("nobody")
        self.emit(
            "loss",
            _(
                "Step 3B: the heroes buy consequences for {opponent}'s remaining Status {status}: {shares}",
                opponent=self.opp_name,
                status=self.opp_status,
                shares=shares,
            ),
            opponent_status=self.opp_status,
        )

    def say_consequence(self, i: int, entry: Entry, left: int, for_mishap: bool = False) -> None:
        if for_mishap:
            text = _(
                "{name} takes the consequence {entry} for a 1 rolled (a mishap)",
                name=self.names[i],
                entry=quoted(entry),
            )
        else:
            text = _("{name} takes the consequence {entry}", name=self.names[i], entry=quoted(entry))
        if entry.death_mark:
            text += " — " + _("death-marked: dies a week or so later")
        if left:
            text += " (" + ngettext("{n} more to buy", "{n} more to buy", left) + ")"
        self.emit(
            "consequence",
            text,
            hero=self.hero_ids[i],
            entry=entry.id,
            severity=entry.severity,
        )

    def say_opp_consequence(self, i: int, entry: Entry, left: int) -> None:
        text = _(
            "{name} buys the consequence {entry} for {opponent}",
            name=self.names[i],
            entry=quoted(entry),
            opponent=self.opp_name,
        )
        if left:
            text += " (" + ngettext("{n} more may be bought", "{n} more may be bought", left) + ")"
        self.emit(
            "consequence",
            text,
            hero=self.opp_id,
            entry=entry.id,
            severity=entry.severity,
        )

    def say_exhausted(self) -> None:
        kind, i, count, _unused = self.asks[0]
        who = self.opp_name if kind == "opp" else self.names[i]
        self.emit(
            "exhausted",
            ngettext(
                "nothing left on the list for {name}: {n} consequence cannot be bought",
                "nothing left on the list for {name}: {n} consequences cannot be bought",
                count,
                name=who,
            ),
            hero=self.opp_id if kind == "opp" else self.hero_ids[i],
            count=count,
        )

    # ---- the table --------------------------------------------------------------------------------------------
    def status(self) -> dict[str, dict[str, str]]:
        consequences = pgettext("status", "consequences")
        reputation = pgettext("status", "Reputation")
        table = {
            "table": {
                pgettext("status", "round"): str(self.round),
                pgettext("status", "phase"): _(P.NAMES[self.phase]),
            },
            self.opp_id: {
                pgettext("status", "Status"): str(self.opp_status),
                reputation: str(self.opp.omdomme),
                pgettext("status", "Fight"): str(self.opp.kamp),
                consequences: self.entries_text(self.opp_taken),
            },
        }
        for i, hid in enumerate(self.hero_ids):
            row = {
                # morale is part of the pool, as the text adds it
                pgettext("status", "Status pool"): self.status_pool_text(i),
                reputation: self.omdomme_text(i),  # what the presentation dice count from
                pgettext("status", "fate"): fate_name(self.fate[i]),
                pgettext("status", "dice"): str(self.dice[i]),
                pgettext("status", "Armour"): str(self.pools[i][0]),
                pgettext("status", "Gear"): str(self.pools[i][1]),
            }
            if self.chars[i].vaaben:
                row[pgettext("status", "Weapon pool")] = str(self.pools[i][2])
            row[consequences] = self.entries_text(self.taken[i])
            if self.borrowed[i]:
                row[pgettext("status", "borrowed time")] = str(self.borrowed[i])
            table[hid] = row
        return table

    def entries_text(self, entry_ids: Sequence[str]) -> str:
        """The list entries taken, in the language in use (``Skramme (a scratch), …`` in the bilingual register),
        not their ids."""
        words = []
        for entry_id in entry_ids:
            try:
                e = self.catalogue.entry(entry_id)
            except KeyError:
                words.append(entry_id)
            else:
                words.append(entry_name(e))
        return ", ".join(words) or "-"

    def omdomme_text(self, i: int) -> str:
        """Hero ``i``'s Omdømme as this fight counts it, with the sheet's value beside it when the last fight's
        consequences lower it for this fight only."""
        char = self.chars[i]
        if not char.omdomme_til_naeste_kamp:
            return str(char.omdomme)
        return _(
            "{now} ({sheet} − {lowered} for this fight only)",
            now=char.omdomme_this_fight,
            sheet=char.omdomme,
            lowered=-char.omdomme_til_naeste_kamp,
        )

    def list_words(self, list_name: str) -> str:
        """A consequence list by its name (``runde2``, ``modstander``): the name itself in the bilingual register, as
        before; its words in the language in use otherwise (a list the catalogue lacks keeps its name)."""
        found = self.catalogue.lists.get(list_name)
        return list_name if found is None or current() == BILINGUAL else entry_name(found)

    def hero_name(self, hero_id: object) -> str:
        """A hero's name for a seat id in an action (the choices name people as the narration does)."""
        return self.names[self.hero_ids.index(hero_id)] if hero_id in self.hero_ids else str(hero_id)

    def describe_action(self, seat: str, action: Action) -> str:
        kind = action.kind
        if kind == "present":
            if action["by"] == seat:
                return _("present yourself: Reputation − 1 dice")
            return _("presented by {friend}: Reputation + 0 dice", friend=self.hero_name(action["by"]))
        if kind == "split":
            gifts = [
                _("{points} morale to {friend}", points=m, friend=self.hero_name(k.removeprefix("morale_")))
                for k, m in action.args
                if k.startswith("morale_")
            ]
            return _("split: {points} off the opponent's Status", points=action["opponent"]) + "".join(
                f", {g}" for g in gifts
            )
        if kind == "hit":
            hits = [_("{points} to {name}", points=v, name=self.hero_name(k)) for k, v in action.args]
            return _("split the hits: {hits}", hits=", ".join(hits) or _("none"))
        if kind == "describe":
            chosen = [area_name(a) for a in AREAS if action[a]]
            return _(
                "describe {areas}: {dice}d6",
                areas=", ".join(chosen) or pgettext("areas", "nothing"),
                dice=len(chosen),
            )
        if kind == "armour":
            return _("Armour pool: take {dice}d6 (gone from the pool after the conflict)", dice=action["dice"])
        if kind == "gear":
            return _("Gear pool: take {dice}d6 (gone from the pool after the conflict)", dice=action["dice"])
        if kind == "weapon":
            return _("Weapon pool: take {dice}d6 (gone from the pool after the conflict)", dice=action["dice"])
        if kind == "wilder":
            return _("Even wilder: {friend} re-tells your round-2 deeds → +1d6", friend=self.hero_name(action["by"]))
        if kind == "maneuver":
            return _("maneuver {maneuver}: its dice, once", maneuver=action["id"])
        if kind == "borrowed_time":
            return _("live on borrowed time: extra dice, the GM may set a death scene later")
        if kind == "answer":
            return _("answer a question: extra dice")
        if kind == "done":
            return _("done: take no more options this round")
        if kind == "buy_back":
            return _("buy back in: one extra consequence, back at Status 1")
        if kind == "stay_out":
            return _("stay out of the fight")
        if kind == "spare":
            return _("buy no more consequences for the opponent")
        if kind == "consequence":
            e = self.catalogue.entry(str(action["entry"]))
            if e.death:
                return _("consequence {entry}, severity {severity} — death", entry=quoted(e), severity=e.severity)
            return _("consequence {entry}, severity {severity}", entry=quoted(e), severity=e.severity)
        return str(action)

    def why_illegal(self, seat: str, action: Action) -> str:
        if action.kind == "consequence" and self.asks:
            try:
                entry = self.catalogue.entry(str(action.get("entry")))
            except KeyError:
                return _("no consequence {entry} on any list", entry=repr(action.get("entry")))
            kind, i, _unused, round_no = self.asks[0]
            taken = self.opp_taken if kind == "opp" else [*self.taken[i], *self.carried[i]]
            if entry.id in taken:
                return _("{entry} is already taken: each entry may be chosen once", entry=quoted(entry))
            special = self.opp.konsekvensliste
            list_name = self.opp.nederlagsliste if kind == "opp" else hero_list(self.catalogue, special, round_no)
            listed = self.catalogue.lists[list_name].entries
            on_list = any(e.id == entry.id and round_no in e.runder for e in listed)
            if on_list and excluded(entry, taken, listed):
                held = [e for e in listed if e.id in taken and (e.id in entry.excludes or entry.id in e.excludes)]
                who = self.opp_name if kind == "opp" else self.names[i]
                return _(
                    "{entry} cannot befall {name} beside {held}: opposing fates exclude each other",
                    entry=quoted(entry),
                    name=who,
                    held=quoted(held[0]),
                )
            if on_list and kind != "opp" and entry.death and round_no == 1 and not self.options.round1_death:
                return _("death is not offered in round 1 under the option round1_death = false")
            if on_list and kind != "opp" and not entry.death and self.options.consequence_must_cost:
                return _(
                    "{entry} would cost {name} nothing (what it takes is already gone): a consequence must cost "
                    "something under konflikt's own option consequence_must_cost",
                    entry=quoted(entry),
                    name=self.names[i],
                )
            return _(
                "{entry} is not on the list in use now ({list}, round {round})",
                entry=quoted(entry),
                list=self.list_words(list_name),
                round=round_no,
            )
        if action.kind == "present" and self.phase == P.PRESENT and action.get("by") in self.hero_ids:
            return _(
                "{name} has already presented a hero (each hero presents one: option presenters)",
                name=self.hero_name(action["by"]),
            )
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
            fates[hid] = fate_text(self.fate[i], entries, back=self.back[i])
        opp_entries = [self.catalogue.entry(e) for e in self.canonical(self.opp_taken)]
        fates[self.opp_id] = fate_text(0, opp_entries, won=won)
        if self.goal is not None:
            side, goal = self.goal
            ending, winners = GOAL_REACHED, (side,)
            name = next(name for sid, name, _unused in self.sides if sid == side)
            summary = _(
                "{side} reaches its goal in round {round}, as the GM declares: {goal}",
                side=name,
                round=self.round,
                goal=localized(goal),
            )
        elif won:
            ending, winners = "opponent_defeated", (self.hero_side,)
            summary = _("{opponent} is defeated in round {round}", opponent=self.opp_name, round=self.round)
        elif self.round == 3:
            ending, winners = "heroes_lost", (self.opp_side,)
            summary = _(
                "the heroes lose round 3: {opponent} keeps Status {status}",
                opponent=self.opp_name,
                status=self.opp_status,
            )
        else:
            ending, winners = "heroes_out", (self.opp_side,)
            summary = _("every hero is out of the fight in round {round}", round=self.round)
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
