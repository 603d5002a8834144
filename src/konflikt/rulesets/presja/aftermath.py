"""What carries into the next conflict: the text's recovery after a fight, as character documents and lines.

"Po zakończeniu starcia, konfliktu - zakładając, że postacie mają kilka minut na odpoczynek, wszystkie zakreślone
pola, zostają wyczyszczone. Dodatkowo, łagodne konsekwencje również zostają wyczyszczone po 5-10 minut odpoczynku.
Pozostają tylko umiarkowane i poważne konsekwencje." Fate points are kept as they stand (conceding included).
"""

from __future__ import annotations

from konflikt.core.outcome import Aftermath
from konflikt.core.state import State
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import SLOT_NAMES, SLOTS, track_text


def aftermath(state: State) -> Aftermath:
    """Each participant after a few minutes of rest: boxes cleared, mild consequences gone, the rest kept."""
    assert isinstance(state, PresjaState)
    characters = state.after_conflict(rested=True)
    lines: list[str] = []
    for i, fighter in enumerate(state.fighters):
        parts = []
        if state.marked[i]:
            before = track_text(fighter.track, state.marked[i], fighter.body)
            after = track_text(fighter.track, 0, fighter.body)
            parts.append(f"zakreślone pola wyczyszczone (marked boxes cleared): {before} → {after}")
        for slot in range(3):
            if not state.cons[i][slot]:
                continue
            name = f"{SLOT_NAMES[SLOTS[slot]]} '{state.cons_names[i][slot]}'"
            parts.append(f"{name} {'wyczyszczona (cleared after rest)' if slot == 0 else 'pozostaje (remains)'}")
        parts.append(f"Punkty Losu (fate points) {state.fate_points[i]}")
        lines.append(f"{fighter.name}: " + "; ".join(parts))
    documents = {pid: ch.model_dump(mode="json", exclude_defaults=True) for pid, ch in characters.items()}
    return Aftermath(characters=documents, lines=tuple(lines))
