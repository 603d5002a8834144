"""Each presja test starts with presja's module-level memos empty.

``state._DECL_MEMO`` (the declarations open to a fighter) and the heuristic's ``_DECLARE_MEMO``/``_INVOKE_MEMO``
outlive a conflict by design: within a process they only save work. A test that finds its answers already memoised
by an earlier test never runs the code that computes them, so a mutation of that code (``scripts/mutation.sh``, which
runs its mutants in processes forked after a pass over the tests) went unseen: clearing them makes every test
compute what it checks.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from konflikt.rulesets.presja import policies, state


@pytest.fixture(autouse=True)
def _fresh_memos() -> Iterator[None]:
    for memo in (state._DECL_MEMO, policies._DECLARE_MEMO, policies._INVOKE_MEMO):
        memo.clear()
    yield
