"""Group commit: the steps one input causes, saved in one transaction (a store function the web table needs).

A player's choice is often followed by policy decisions and server rolls; committing each in its own transaction
costs one fsync apiece, and a table of phones waits for all of them. This writes the same rows as
:meth:`konflikt.store.db.Store.append`, all of them in one of the store's own transactions, before any page hears
of them. It belongs in the store (``Store.append_many``); it lives here until it moves there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from konflikt.core.actions import Step
from konflikt.store.db import Store


def append_steps(store: Store, conflict_id: int, first: int, steps: Sequence[Step], sources: Sequence[str]) -> None:
    """Commit ``steps`` (indices ``first``, ``first + 1``, …) with their sources, all or none."""
    if len(steps) != len(sources):
        raise ValueError("one source per step")
    if len(steps) == 1:
        store.append(conflict_id, first, steps[0], sources[0])
        return
    if not steps:
        return
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    with store.transaction() as tx:
        for offset, (step, source) in enumerate(zip(steps, sources, strict=True)):
            tx.execute(
                "INSERT INTO steps (conflict_id, idx, step, source) VALUES (?,?,?,?)",
                (conflict_id, first + offset, json.dumps(step.to_json()), source),
            )
        tx.execute("UPDATE conflicts SET updated = ? WHERE id = ?", (now, conflict_id))
