"""Results of many conflicts, as arrays: what both the reference runner and the vectorised kernels produce.

A chunk of conflicts yields a :class:`Batch`; batches merge into a :class:`Tally`, which gives the statistics a
designer reads: outcome frequencies with Wilson intervals, conflict length, resources used.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (good near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Coded:
    """Per-conflict labels as integer codes into a short list of labels (what a numpy kernel produces)."""

    codes: np.ndarray
    labels: list[Hashable]

    @classmethod
    def of(cls, values: list[Hashable]) -> Coded:
        labels: dict[Hashable, int] = {}
        codes = np.fromiter((labels.setdefault(v, len(labels)) for v in values), dtype=np.int64, count=len(values))
        return cls(codes, list(labels))

    def counts(self) -> Counter[Hashable]:
        counts = np.bincount(self.codes, minlength=len(self.labels))
        return Counter({label: int(c) for label, c in zip(self.labels, counts.tolist(), strict=True) if c})


@dataclass
class Batch:
    """One chunk of conflicts: who won, how it ended, each participant's fate, length and resources.

    Attributes:
        winners: tuples of winning side ids (``()`` for nobody).
        endings: the ending words of the ruleset.
        fates: participant id → fate words.
        length: engine steps (or rounds) per conflict.
        resources: name → a number per conflict (tokens left, boxes marked, consequences...).
        rounds: the length in the ruleset's own unit (``Ruleset.length_unit``), when it is known.
    """

    winners: Coded
    endings: Coded
    fates: dict[str, Coded]
    length: np.ndarray
    resources: dict[str, np.ndarray] = field(default_factory=dict)
    rounds: np.ndarray | None = None

    @property
    def n(self) -> int:
        return len(self.length)


@dataclass
class Tally:
    """Merged counts over every batch so far (small, whatever the number of conflicts)."""

    n: int = 0
    winners: Counter[Hashable] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    fates: dict[str, Counter[str]] = field(default_factory=dict)
    length: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    """The length in the ruleset's own unit, over the conflicts that report it (all of them, or none)."""
    resource_sums: dict[str, float] = field(default_factory=dict)
    resource_squares: dict[str, float] = field(default_factory=dict)

    def add(self, batch: Batch) -> None:
        self.n += batch.n
        self.winners.update(batch.winners.counts())
        self.endings.update({str(k): v for k, v in batch.endings.counts().items()})
        for pid, fates in batch.fates.items():
            self.fates.setdefault(pid, Counter()).update({str(k): v for k, v in fates.counts().items()})
        _count_into(self.length, batch.length)
        if batch.rounds is not None:
            _count_into(self.rounds, batch.rounds)
        for name, arr in batch.resources.items():  # squared as floats: a kernel's int16 row would overflow
            self.resource_sums[name] = self.resource_sums.get(name, 0.0) + float(np.sum(arr))
            self.resource_squares[name] = self.resource_squares.get(name, 0.0) + float(
                np.sum(np.square(arr, dtype=np.float64))
            )

    def add_counts(self, counts: Mapping[str, Any]) -> None:
        """Merge a tally sent back from a worker as plain data."""
        other = Tally.from_json(counts)
        self.n += other.n
        self.winners.update(other.winners)
        self.endings.update(other.endings)
        for pid, c in other.fates.items():
            self.fates.setdefault(pid, Counter()).update(c)
        self.length.update(other.length)
        self.rounds.update(other.rounds)
        for name, v in other.resource_sums.items():
            self.resource_sums[name] = self.resource_sums.get(name, 0.0) + v
            self.resource_squares[name] = self.resource_squares.get(name, 0.0) + other.resource_squares[name]

    def has_rounds(self) -> bool:
        """Whether every conflict reported its length in the ruleset's own unit."""
        return self.n > 0 and sum(self.rounds.values()) == self.n

    def length_stats(self, rounds: bool = False) -> dict[str, float]:
        """Mean, 10th/50th/90th percentile and longest: in engine steps, or (``rounds``) in the ruleset's unit."""
        if not self.n:
            return {}
        values = sorted((self.rounds if rounds else self.length).items())
        total = sum(v * c for v, c in values)

        def percentile(q: float) -> float:
            target = q * self.n
            seen = 0
            for v, c in values:
                seen += c
                if seen >= target:
                    return float(v)
            return float(values[-1][0])

        return {
            "mean": total / self.n,
            "p10": percentile(0.10),
            "p50": percentile(0.50),
            "p90": percentile(0.90),
            "max": float(values[-1][0]),
        }

    def resource_means(self) -> dict[str, tuple[float, float]]:
        """name → (mean, standard error)."""
        out = {}
        for name, total in self.resource_sums.items():
            mean = total / self.n
            var = max(0.0, self.resource_squares[name] / self.n - mean * mean)
            out[name] = (mean, math.sqrt(var / self.n) if self.n else 0.0)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "winners": [[list(k) if isinstance(k, tuple) else k, v] for k, v in self.winners.items()],
            "endings": dict(self.endings),
            "fates": {pid: dict(c) for pid, c in self.fates.items()},
            "length": {str(k): v for k, v in self.length.items()},
            "rounds": {str(k): v for k, v in self.rounds.items()},
            "resource_sums": dict(self.resource_sums),
            "resource_squares": dict(self.resource_squares),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        tally = cls(n=int(data["n"]))
        for k, v in data["winners"]:
            tally.winners[tuple(k) if isinstance(k, list) else k] += v
        tally.endings.update(data["endings"])
        tally.fates = {pid: Counter(c) for pid, c in data["fates"].items()}
        tally.length.update({int(k): v for k, v in data["length"].items()})
        tally.rounds.update({int(k): v for k, v in data.get("rounds", {}).items()})
        tally.resource_sums = dict(data["resource_sums"])
        tally.resource_squares = dict(data["resource_squares"])
        return tally


def _count_into(counter: Counter[int], values: np.ndarray) -> None:
    uniques, counts = np.unique(values, return_counts=True)
    for v, c in zip(uniques.tolist(), counts.tolist(), strict=True):
        counter[int(v)] += int(c)
