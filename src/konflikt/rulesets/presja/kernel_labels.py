"""The kernel's labels, written by the State's own outcome code so they are the reference's strings exactly.

A kernel conflict ends as small integers (each participant's fate, which consequence slots are taken and in which
exchange, whether it was a deadlock); each distinct combination is put into a copy of the opening state once and
:func:`texts.outcome` writes its ending, winners and fate words.
"""

from __future__ import annotations

from collections.abc import Hashable

from konflikt.core.i18n import current
from konflikt.rulesets.presja import texts
from konflikt.rulesets.presja.models import consequence_names
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import SLOTS

NAME_COUNTS = tuple(len(consequence_names()[slot]) for slot in SLOTS)
"""How many sample names each severity has: a slot taken in exchange e gets name (e − 1) mod this."""
SLOT_CODES = tuple(n + 2 for n in NAME_COUNTS)
"""Per slot: 0 empty, 1..n a sample name, n + 1 the name the character brought into the conflict."""
SLOT_MULT = (1, SLOT_CODES[0], SLOT_CODES[0] * SLOT_CODES[1], SLOT_CODES[0] * SLOT_CODES[1] * SLOT_CODES[2])
"""Place values of the three slot codes in a participant's name code (the last: how many name codes there are)."""


def slot_code(slot: int, taken_in: int, taken: bool) -> int:
    """The code of one consequence slot: empty, the name of the exchange it was taken in, or carried in."""
    if not taken:
        return 0
    if taken_in <= 0:
        return NAME_COUNTS[slot] + 1
    return 1 + (taken_in - 1) % NAME_COUNTS[slot]


def fate_code(fate: int, slots: tuple[int, int, int]) -> int:
    """One integer per (fate, the three slot codes)."""
    return fate + 3 * sum(c * m for c, m in zip(slots, SLOT_MULT, strict=False))


class Labeller:
    """Turns the kernel's codes into the reference's labels (each distinct code is written once and kept)."""

    def __init__(self, opening: PresjaState, who: tuple[int, int]) -> None:
        self.opening = opening
        self.who = who
        self._fates: dict[tuple[str, int, int], str] = {}
        """Fate words per (language, participant, code): a fate is said in the language in use."""
        self._endings: dict[int, tuple[str, Hashable]] = {}

    def _blank(self) -> PresjaState:
        conflict: PresjaState = self.opening.fork()  # type: ignore[assignment]
        return conflict

    def fate(self, i: int, code: int) -> str:
        """The fate words of participant ``i`` (kernel order: 0 first) for a :func:`fate_code`."""
        key = (current(), i, code)
        found = self._fates.get(key)
        if found is not None:
            return found
        conflict = self._blank()
        j = self.who[i]
        fate, rest = code % 3, code // 3
        conflict.fate[j] = fate
        names = consequence_names()
        carried = conflict.cons_names[j]
        for s, slot in enumerate(SLOTS):
            c = rest % SLOT_CODES[s]
            rest //= SLOT_CODES[s]
            conflict.cons[j][s] = 0 if c == 0 else 1
            if 0 < c <= NAME_COUNTS[s]:
                conflict.cons_names[j][s] = names[slot][c - 1]
            elif c:
                conflict.cons_names[j][s] = carried[s]
        found = self._fates[key] = texts.outcome(conflict).participants[conflict.fighters[j].id]
        return found

    def ending(self, code: int) -> tuple[str, Hashable]:
        """(ending, winners) for ``deadlock * 9 + fate₀ * 3 + fate₁``."""
        found = self._endings.get(code)
        if found is not None:
            return found
        conflict = self._blank()
        conflict.fate[self.who[0]], conflict.fate[self.who[1]] = code // 3 % 3, code % 3
        conflict.ending = "deadlock" if code >= 9 else ("won" if 0 in (code // 3 % 3, code % 3) else "all_out")
        outcome = texts.outcome(conflict)
        found = self._endings[code] = (outcome.ending, outcome.winners)
        return found
