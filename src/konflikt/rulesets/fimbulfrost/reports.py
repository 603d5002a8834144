"""Fimbulfrost's balancing report, as data: the text's heroes against a ladder of opponents.

The text gives two opponents with numbers — the robber band (Omdømme 2, Kamp 3, Status 6) and the dragon (12, 12,
12) — and says its numbers are not balanced yet ("tallene er ikke balancerede endnu"). The report
(``konflikt report fimbulfrost-opponents``, run by :mod:`konflikt.reports.ladder`) plays the text's heroes, Budolf
and Rudolf, with the ``heuristic`` on every seat and the default rules, against every bundled opponent
(``content/characters`` with ``role = "opponent"``: the robbers, the wolves, the witch, the revenant, the dragon)
and a ladder of plain opponents with Omdømme = Kamp = Status = L, so the curve runs from below the robbers to
exactly the dragon's numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from konflikt.core.reports import Choices, Ladder, Report, Rung
from konflikt.core.scenario import Scenario, read_toml
from konflikt.core.state import GM
from konflikt.rulesets.fimbulfrost.i18n import N_, _, ngettext, pgettext
from konflikt.rulesets.fimbulfrost.kernel import make_kernel
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy

HEROES = ("budolf", "rudolf")
"""The text's example heroes (bundled characters)."""
LEVELS = tuple(range(2, 13))
"""The plain ladder: Omdømme = Kamp = Status = L."""
HERO_SIDE, OPP_SIDE, OPP_ID = "helte", "modstander", "modstanderen"
CHARACTERS = Path(__file__).parent / "content" / "characters"


def rung_document(name: str, character: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario: the text's heroes against one opponent, heuristic seats, default rules."""
    heroes = [{"id": h, "character": f"builtin:{h}", "policy": "heuristic"} for h in HEROES]
    return {
        "ruleset": "fimbulfrost",
        "title": f"{' og '.join(h.capitalize() for h in HEROES)} mod {name}",
        "sides": [
            {"id": HERO_SIDE, "name": "Heltene (the heroes)", "participants": heroes},
            {"id": OPP_SIDE, "name": name, "participants": [{"id": OPP_ID, "policy": "heuristic", **character}]},
        ],
    }


def _rung(name: str, omdomme: int, kamp: int, status: int, bundled: bool, character: Mapping[str, Any]) -> Rung:
    numbers = {"Omdømme": omdomme, "Kamp": kamp, "Status": status}
    return Rung(name, numbers, (omdomme + kamp + status) / 3, bundled, rung_document(name, character))


def ladder(levels: Sequence[int] = LEVELS, bundled: bool = True) -> list[Rung]:
    """The bundled opponents (weakest level first), then the plain ladder L = Omdømme = Kamp = Status."""
    rungs = []
    if bundled:
        for path in sorted(CHARACTERS.glob("*.toml")):
            data = read_toml(path)
            if data.get("role") == "opponent":
                rungs.append(
                    _rung(
                        data["name"],
                        data["omdomme"],
                        data["kamp"],
                        data["status"],
                        True,
                        {"character": f"builtin:{path.stem}"},
                    )
                )
    rungs.sort(key=lambda r: (r.level, r.name))
    for level in levels:
        fields = {"name": f"Modstander {level}", "role": "opponent", "omdomme": level, "kamp": level, "status": level}
        rungs.append(_rung(f"Modstander {level}", level, level, level, False, fields))
    return rungs


def consequence_counts(scenario: Scenario) -> Mapping[str, Mapping[Hashable, int]]:
    """Participant → fate label → consequences that fate holds, from the kernel's tables (no parsing of words)."""
    seats = {p.id: HeuristicPolicy() for p in scenario.participants()} | {GM: HeuristicPolicy()}
    kernel = make_kernel(scenario, scenario.ruleset.options.resolve(scenario.options), seats)
    if isinstance(kernel, str):
        raise RuntimeError(f"the fimbulfrost kernel refused {scenario.title}: {kernel}")
    return kernel.consequence_counts()


OPPONENTS = Report(
    name="opponents",
    title="Fimbulfrost: the heroes against each opponent, from the robber band to the dragon",
    summary=(
        "Budolf and Rudolf (the text's heroes, heuristic seats, default rules) against every bundled opponent and a "
        "ladder Omdømme = Kamp = Status = 2..12: the heroes' chance to win, how the conflict ends, the expected "
        'consequences and each hero\'s chance to die — the text: "tallene er ikke balancerede endnu".'
    ),
    content=Ladder(
        heroes=HEROES,
        hero_side=HERO_SIDE,
        opponent=OPP_ID,
        rungs=ladder,
        consequences=consequence_counts,
        dead="død (dead)",
        level_words="opponent level (mean of Omdømme, Kamp, Status)",
        scenario_words="Budolf and Rudolf (builtin) against one opponent",
        endings={"heroes_out": "out r1-2", "heroes_lost": "lost r3"},
        levels=LEVELS,
        level_range=(1, 30),
    ),
    n=200_000,
)

REPORTS = {OPPONENTS.name: OPPONENTS}
"""The balancing reports of Fimbulfrost (``Ruleset.reports``)."""


def choice_group(choice: Hashable) -> tuple[str, str] | None:
    """A decision of the fimbulfrost round game (an action) as (kind of decision, option), for the choices report,
    in the language in use."""
    from konflikt.core.actions import Action

    if not isinstance(choice, Action) or choice.kind == "pass":
        return None
    kind = choice.kind
    if kind == "present":
        return _("presenting"), _("by {hero}", hero=choice["by"])
    if kind == "split":
        morale = any(k.startswith("morale_") and v for k, v in choice.args)
        return _("round-1 split"), _("morale to a friend") if morale else _("all on the opponent's Status")
    if kind == "hit":
        hit = sum(1 for _k, v in choice.args if v)
        return pgettext("choices", "the opponent's split"), _("on one hero") if hit <= 1 else _("spread")
    if kind == "describe":
        areas = sum(1 for _k, v in choice.args if v)
        return _("round-2 areas"), ngettext("{n} area", "{n} areas", areas)
    words = {
        "armour": N_("armour dice"),
        "gear": N_("gear dice"),
        "weapon": N_("weapon dice"),
        "wilder": N_("even wilder"),
        "maneuver": N_("maneuver"),
        "borrowed_time": N_("borrowed time"),
        "answer": N_("an answer"),
        "done": N_("done: spend no more"),
    }
    dice = choice.get("dice")
    word = _(words[kind]) if kind in words else kind
    return _("Resources (spend)"), word + (f" {dice}" if dice is not None else "")


REPORTS["choices"] = Report(
    name="choices",
    title="is there a dominant choice? each decision under optimal play of both sides, and what the rest costs",
    summary=(
        "Solves the text's example (the robbers) with both sides optimal and counts, for each kind of decision "
        "(presenting, the round-1 split, the opponent's split, the round-2 areas, spending in round 3), how often "
        "each option is chosen and what the best other option would cost there."
    ),
    content=Choices(
        scenarios=("fimbulfrost/robbers",),
        group=choice_group,
        scenario_words="Budolf and Rudolf against the robber band, both sides optimal (the lists' choices heuristic)",
    ),
    n=1,
)
