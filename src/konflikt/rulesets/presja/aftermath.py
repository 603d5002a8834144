"""What carries into the next conflict: each character as the fight leaves it, as character documents and lines.

"Po zakończeniu starcia, konfliktu - zakładając, że postacie mają kilka minut na odpoczynek, wszystkie zakreślone
pola, zostają wyczyszczone. Dodatkowo, łagodne konsekwencje również zostają wyczyszczone po 5-10 minut
odpoczynku. Pozostają tylko umiarkowane i poważne konsekwencje." Recovery needs that rest, and the end of a fight
is not yet rest: the documents keep the marked boxes and every consequence, and ``konflikt campaign rest
--minutes N`` clears them (:mod:`.campaign`). Fate points are kept as they stand (conceding included).
"""

from __future__ import annotations

from konflikt.core.outcome import Aftermath
from konflikt.core.state import State
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import SLOT_NAMES, SLOTS, track_text


def aftermath(state: State) -> Aftermath:
    """Each participant as it leaves the fight: what stays until rest, and until healing."""
    assert isinstance(state, PresjaState)
    characters = state.after_conflict()
    boxes_rest, mild_rest = state.rule_values["rest_clears_boxes"], state.rule_values["rest_clears_mild"]
    lines: list[str] = []
    for i, fighter in enumerate(state.fighters):
        parts = []
        if state.marked[i]:
            parts.append(
                f"tor (track) {track_text(fighter.track, state.marked[i], fighter.body)}: zakreślone pola (marked "
                f"boxes) stay until {boxes_rest} minutes of rest (kilka minut: campaign rest --minutes {boxes_rest})"
            )
        for slot in range(3):
            if not state.cons[i][slot]:
                continue
            name = f"{SLOT_NAMES[SLOTS[slot]]} '{state.cons_names[i][slot]}'"
            if slot == 0:
                parts.append(f"{name} stays until {mild_rest} minutes of rest (5-10 minut odpoczynku)")
            else:
                parts.append(f"{name} pozostaje (remains) until healed (leczenie): the GM's")
        parts.append(f"Punkty Losu (fate points) {state.fate_points[i]}")
        lines.append(f"{fighter.name}: " + "; ".join(parts))
    documents = {pid: ch.model_dump(mode="json", exclude_defaults=True) for pid, ch in characters.items()}
    return Aftermath(characters=documents, lines=tuple(lines))
