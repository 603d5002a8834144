"""The presja knife fight (the text's worked example), exact over all 30 exchanges, against the reference runner.

The exact solve goes through presja's compact model (seconds); the 3,000 reference conflicts make it ``slow``. The
State-API solver on the whole knife fight (about 40 s) is timed by ``konflikt bench`` instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from math import sqrt

import pytest

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.runner import Generators, Runner, seat_policies


@pytest.mark.slow
def test_knife_fight_exact_odds_agree_with_simulation_within_4_standard_errors() -> None:
    sc = load_scenario("presja/knife_fight")
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    state = new_state(sc)
    assert state.clock() == (1, 30)
    odds = conflict_odds(state, policies)
    assert sum(odds.distribution.values()) == 1
    winners, endings = odds.winners(), odds.endings()
    assert set(winners) == {("strona_massimo",), ("strona_belzee",), ()}
    assert winners[("strona_massimo",)] > winners[("strona_belzee",)] > winners[()] > 0  # Sztylety +3 beats +2
    assert endings["deadlock"] == winners[()]  # nobody wins only when the 30th exchange ends undecided
    n = 3000
    gen = Generators.from_seed(8)
    won: Counter[Hashable] = Counter()
    ended: Counter[Hashable] = Counter()
    for _ in range(n):
        s = state.clone()
        Runner(policies, gen).play(s)
        won[s.outcome().winners] += 1
        ended[s.outcome().ending] += 1
    for exact, counts in ((winners, won), (endings, ended)):
        assert set(counts) <= set(exact)
        for label, p in exact.items():
            se = sqrt(float(p * (1 - p)) / n)
            assert abs(counts[label] / n - float(p)) <= 4 * se + 1 / n, (label, counts[label], float(p))
    assert isinstance(winners[()], Fraction)
