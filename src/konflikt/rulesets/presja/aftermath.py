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
from konflikt.rulesets.presja.i18n import _, ngettext
from konflikt.rulesets.presja.models import consequence_text
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import SLOTS, slot_name, track_text


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
                ngettext(
                    "track {track}: marked boxes stay until {n} minute of rest (campaign rest --minutes {n})",
                    "track {track}: marked boxes stay until {n} minutes of rest (campaign rest --minutes {n})",
                    boxes_rest,
                    track=track_text(fighter.track, state.marked[i], fighter.body),
                )
            )
        for slot in range(3):
            if not state.cons[i][slot]:
                continue
            fields = {"slot": slot_name(SLOTS[slot]), "consequence": consequence_text(state.cons_names[i][slot])}
            if slot == 0:
                parts.append(
                    ngettext(
                        "{slot} consequence '{consequence}' stays until {n} minute of rest",
                        "{slot} consequence '{consequence}' stays until {n} minutes of rest",
                        mild_rest,
                        **fields,
                    )
                )
            else:
                parts.append(_("{slot} consequence '{consequence}' remains until healed: the GM's call", **fields))
        parts.append(_("fate points {fate_points}", fate_points=state.fate_points[i]))
        lines.append(f"{fighter.name}: " + "; ".join(parts))
    documents = {pid: ch.model_dump(mode="json", exclude_defaults=True) for pid, ch in characters.items()}
    return Aftermath(characters=documents, lines=tuple(lines))
