"""Tor Presji Fizycznej (the physical pressure track) and Konsekwencje (consequences), as pure functions.

A track is a tuple of boxes, each a range ``(lo, hi)``: a "2-3" box takes 2 or 3 points of presja. Pressure may be
split across boxes; consequences absorb more; what cannot be absorbed takes the character out. The functions here
are pure and cached so the state machine, the heuristic, the compiled kernel's tables and the tests share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product

from konflikt.errors import KonfliktError, OptionError
from konflikt.rulesets.presja.i18n import _, pgettext

Box = tuple[int, int]
SLOTS = ("mild", "moderate", "severe")


def slot_name(slot: str) -> str:
    """A consequence's severity in words (``łagodna (mild)``), in the language in use."""
    return {
        "mild": pgettext("consequence", "mild"),
        "moderate": pgettext("consequence", "moderate"),
        "severe": pgettext("consequence", "severe"),
    }[slot]


def slot_short(slot: str) -> str:
    """A consequence's severity as the status cell writes it (``mild``), in the language in use."""
    return {
        "mild": pgettext("slot", "mild"),
        "moderate": pgettext("slot", "moderate"),
        "severe": pgettext("slot", "severe"),
    }[slot]


def box_label(box: Box) -> str:
    """``"1"``, ``"2-3"``, ``"4-5"``: the text's own labels."""
    lo, hi = box
    return str(lo) if lo == hi else f"{lo}-{hi}"


@cache
def parse_track(text: str) -> tuple[Box, ...]:
    """Read a track like ``"1,1,2-3,2-3,4-5"``.

    Raises:
        OptionError: a box that is not ``N`` or ``LO-HI`` with 1 ≤ LO ≤ HI.
    """
    boxes: list[Box] = []
    for part in text.split(","):
        raw = part.strip()
        lo_text, _sep, hi_text = raw.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if hi_text else lo
        except ValueError:
            raise OptionError(_("base_track: box {box} is not a number or a range like 2-3", box=repr(raw))) from None
        if not 1 <= lo <= hi:
            raise OptionError(_("base_track: box {box} must be a range LO-HI with 1 ≤ LO ≤ HI", box=repr(raw)))
        boxes.append((lo, hi))
    return tuple(boxes)


@cache
def parse_values(text: str) -> tuple[int, int, int]:
    """Read the consequence values ``"2,4,6"`` (mild, moderate, severe).

    Raises:
        OptionError: not three positive whole numbers.
    """
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise OptionError(
            _("consequence_values: {values} is not three whole numbers like 2,4,6", values=repr(text))
        ) from None
    if len(values) != 3 or min(values) < 1:
        raise OptionError(
            _("consequence_values: {values} must be three positive numbers (mild, moderate, severe)", values=repr(text))
        )
    return values[0], values[1], values[2]


MOST_BOXES = 20
"""The longest base track and the largest box or consequence value an option may set (konflikt's own bound:
the text's track has five boxes and values up to 6; more would only make conflicts that never end)."""


def check_track(text: str) -> None:
    """The ``base_track`` option: readable, at most :data:`MOST_BOXES` boxes, each at most :data:`MOST_BOXES`."""
    boxes = parse_track(text)
    if len(boxes) > MOST_BOXES or any(hi > MOST_BOXES for _, hi in boxes):
        raise OptionError(
            _("base_track: {track} must have at most {most} boxes of at most {most}", track=repr(text), most=MOST_BOXES)
        )


def check_values(text: str) -> None:
    """The ``consequence_values`` option: three values from 1 to :data:`MOST_BOXES`."""
    if max(parse_values(text)) > MOST_BOXES:
        raise OptionError(
            _("consequence_values: {values} must be three numbers from 1 to {most}", values=repr(text), most=MOST_BOXES)
        )


def body_boxes(cialo: int, above_3: str = "none") -> tuple[Box, ...]:
    """The boxes Ciało (Body) adds: one "1" box per point up to 2; at 3 also one "2-3" box.

    ``above_3 = "extra_2_3"`` adds a further "2-3" box for each point above 3 (the text is silent there).
    """
    ones = min(max(cialo, 0), 2)
    twos = 1 if cialo >= 3 else 0
    if above_3 == "extra_2_3" and cialo > 3:
        twos += cialo - 3
    return ((1, 1),) * ones + ((2, 3),) * twos


def build_track(base: tuple[Box, ...], cialo: int, above_3: str = "none") -> tuple[Box, ...]:
    """The whole track of a character: the base boxes plus Ciało's, in row order (1, 2-3, 4-5)."""
    return tuple(sorted(base + body_boxes(cialo, above_3)))


@dataclass(frozen=True, slots=True)
class Absorb:
    """One legal way to take a hit: boxes marked (index, amount) and consequence slots taken (0..2).

    ``cons_absorbed`` is what the consequences take: the rest of the pressure after the boxes.
    """

    boxes: tuple[tuple[int, int], ...]
    cons: tuple[int, ...]
    cons_absorbed: int

    def box_total(self) -> int:
        return sum(a for _, a in self.boxes)

    def boxes_text(self, track: tuple[Box, ...]) -> str:
        """``2-3:3+1:1`` — each marked box's label and the points it takes."""
        return "+".join(f"{box_label(track[i])}:{a}" for i, a in self.boxes)

    def cons_text(self) -> str:
        return "+".join(SLOTS[s] for s in self.cons)


def free_boxes(track: tuple[Box, ...], marked: int) -> tuple[int, ...]:
    """Indices of the boxes not yet marked (``marked`` is a bit mask)."""
    return tuple(i for i in range(len(track)) if not marked >> i & 1)


def absorb_options(
    track: tuple[Box, ...],
    marked: int,
    cons_free: tuple[bool, bool, bool],
    values: tuple[int, int, int],
    pressure: int,
    box_less: bool = False,
    cons_less: bool = True,
) -> tuple[Absorb, ...]:
    """Every legal way to absorb ``pressure`` (empty: the character is taken out).

    Rules: each box is used once and takes an amount within its range (or 1..hi with ``box_less``); boxes of the
    same range are interchangeable, so the first free ones are used. Consequences take what the boxes leave; with
    ``cons_less`` the last may take less than its value, else they must fit exactly. Nothing may be wasted: no
    box or consequence may be dropped with the rest still covered.
    """
    return _absorb_options(track, marked, cons_free, values, pressure, box_less, cons_less)


@cache
def _absorb_options(
    track: tuple[Box, ...],
    marked: int,
    cons_free: tuple[bool, bool, bool],
    values: tuple[int, int, int],
    pressure: int,
    box_less: bool,
    cons_less: bool,
) -> tuple[Absorb, ...]:
    if pressure <= 0:
        return ()
    by_type: dict[Box, list[int]] = {}
    for i in free_boxes(track, marked):
        by_type.setdefault(track[i], []).append(i)
    per_type: list[list[tuple[tuple[int, int], ...]]] = []
    for box, indices in by_type.items():
        lo, hi = box
        amounts = range(hi, (1 if box_less else lo) - 1, -1)
        choices: list[tuple[tuple[int, int], ...]] = []
        for m in range(len(indices) + 1):
            for combo in combinations_with_replacement(amounts, m):
                choices.append(tuple(zip(indices[:m], combo, strict=True)))
        per_type.append(choices)
    slots = [s for s in range(3) if cons_free[s]]
    subsets = [c for r in range(len(slots) + 1) for c in combinations(slots, r)]
    found: list[Absorb] = []
    for parts in product(*per_type):
        boxes = tuple(sorted(b for part in parts for b in part))
        total = sum(a for _, a in boxes)
        if total > pressure:
            continue
        rest = pressure - total
        for cons in subsets:
            cap = sum(values[s] for s in cons)
            if not cons:
                if rest == 0:
                    found.append(Absorb(boxes, (), 0))
                continue
            if rest == 0 or cap < rest or (cap != rest and not cons_less):
                continue
            if any(cap - values[s] >= rest for s in cons):
                continue  # a consequence taken for nothing
            if any(cap >= rest + a for _, a in boxes):
                continue  # a box marked for nothing
            found.append(Absorb(boxes, cons, rest))
    found.sort(key=lambda o: (len(o.cons), o.cons, [track[i] for i, _ in o.boxes], [-a for _, a in o.boxes]))
    return tuple(found)


@cache
def absorbable(
    track: tuple[Box, ...],
    marked: int,
    cons_free: tuple[bool, bool, bool],
    values: tuple[int, int, int],
    box_less: bool = False,
    cons_less: bool = True,
) -> frozenset[int]:
    """The pressures that can still be absorbed (the heuristic's sense of how close being taken out is).

    Exactly the pressures for which :func:`absorb_options` lists a way, found without listing the ways (on a
    crowded track they run to hundreds of thousands, and a heuristic's decision once took a second): a pressure is
    absorbed by boxes alone (each box ``lo..hi``), or by a set of free consequences ``C`` taking ``rest`` of it
    with ``cap(C) - min value in C < rest <= cap(C)`` (``rest == cap(C)`` unless ``cons_less``), and boxes taking
    the remainder with every box's amount above ``cap(C) - rest`` (else that box was marked for nothing).
    ``tests/rulesets/presja/test_track.py`` checks it against :func:`absorb_options` on many tracks.
    """
    free = [track[i] for i in free_boxes(track, marked)]
    found: set[int] = {t for t in _box_totals(tuple(free), 1, box_less) if t > 0}
    slots = [s for s in range(3) if cons_free[s]]
    for size in range(1, len(slots) + 1):
        for cons in combinations(slots, size):
            cap = sum(values[s] for s in cons)
            least = cap - min(values[s] for s in cons) + 1
            for rest in range(max(1, least), cap + 1):
                if rest != cap and not cons_less:
                    continue
                found.update(t + rest for t in _box_totals(tuple(free), cap - rest + 1, box_less))
    return frozenset(found)


@cache
def _box_totals(free: tuple[Box, ...], least: int, box_less: bool) -> frozenset[int]:
    """Every total some of the boxes ``free`` can take together (none: 0), each box an amount of at least ``least``
    within its range (``1..hi`` with ``box_less``)."""
    totals = {0}
    for lo, hi in free:
        low = max(1 if box_less else lo, least)
        if low <= hi:
            totals |= {t + a for t in totals for a in range(low, hi + 1)}
    return frozenset(totals)


def mark(marked: int, option: Absorb) -> int:
    """The bit mask after marking the option's boxes."""
    for i, _amount in option.boxes:
        marked |= 1 << i
    return marked


def body_indices(base: tuple[Box, ...], cialo: int, above_3: str = "none") -> frozenset[int]:
    """Where Ciało's boxes sit in :func:`build_track`'s row order: after the base boxes of the same range."""
    track = build_track(base, cialo, above_3)
    extra = body_boxes(cialo, above_3)
    found: set[int] = set()
    for box in set(extra):
        where = [i for i, b in enumerate(track) if b == box]
        found.update(where[len(where) - extra.count(box) :])
    return frozenset(found)


@cache
def track_text(track: tuple[Box, ...], marked: int, body: frozenset[int] = frozenset()) -> str:
    """``[1][x1](1)[2-3][2-3][4-5]``: each box, marked ones with an x; Ciało's in round brackets, as the text draws
    them ("zwiększa o jedno pole rząd presji o wartości 1 (nawiasy okrągłe)")."""
    out = []
    for i, b in enumerate(track):
        inside = f"{'x' if marked >> i & 1 else ''}{box_label(b)}"
        out.append(f"({inside})" if i in body else f"[{inside}]")
    return "".join(out)


def marked_labels(track: tuple[Box, ...], marked: int) -> list[str]:
    """The marked boxes by their labels, in the track's order (``["1", "2-3"]``): what a character carries out of
    a fight until rest clears them (boxes of one range are interchangeable, so the label says all)."""
    return [box_label(b) for i, b in enumerate(track) if marked >> i & 1]


def marked_mask(track: tuple[Box, ...], labels: list[str]) -> int:
    """The bit mask of a track with these boxes marked (the first free box of each label, as a hit marks them).

    Raises:
        KonfliktError: a label names no box of the track, or more boxes of a range than the track has.
    """
    marked = 0
    for label in labels:
        free = [i for i, b in enumerate(track) if box_label(b) == label and not marked >> i & 1]
        if not free:
            have = sum(1 for b in track if box_label(b) == label)
            raise KonfliktError(
                _(
                    "marked_boxes: {count} box(es) '{label}' marked, but the track {track} has {have}",
                    count=labels.count(label),
                    label=label,
                    track=track_text(track, 0),
                    have=have,
                )
            )
        marked |= 1 << free[0]
    return marked
