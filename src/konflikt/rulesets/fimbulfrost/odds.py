"""Exact questions for ``konflikt odds fimbulfrost ...``.

``pool --dice N --status S``: N d6 against an opponent with S Status left — the chance to defeat it (at least S
successes, 4–6), the distribution of successes, the joint distribution of successes and 1s, and the 1s (ulykker,
mishaps, each costing a consequence when the roll defeats the opponent) counted three ways, each labelled: per roll
(win or not), per roll counting only winning rolls, and given a victory.
"""

from __future__ import annotations

from fractions import Fraction

from konflikt.core.odds import OddsAnswer, OddsParam, OddsQuestion
from konflikt.errors import KonfliktError
from konflikt.rulesets.fimbulfrost.i18n import _
from konflikt.rulesets.fimbulfrost.rules import p_defeat, success_distribution, success_pool

MAX_DICE = 60


def pool_answer(dice: int, status: int) -> OddsAnswer:
    """The exact answer to ``pool``; see the module docstring."""
    if not 0 <= dice <= MAX_DICE:
        raise KonfliktError(_("--dice takes 0 to {most} dice, not {dice}", most=MAX_DICE, dice=dice))
    if status < 1:
        raise KonfliktError(
            _("--status takes the opponent's remaining Status (1 or more), not {status}", status=status)
        )
    joint = success_pool(dice).distribution()
    successes = success_distribution(dice)
    win = p_defeat(dice, status)
    mishaps_on_win = sum((p * r.ones for r, p in joint.items() if r.successes >= status), Fraction(0))
    mishaps_given_win = mishaps_on_win / win if win else Fraction(0)
    clean = sum((p for r, p in joint.items() if r.successes >= status and r.ones == 0), Fraction(0))
    return OddsAnswer(
        title=_("{dice}d6 against an opponent at Status {status}", dice=dice, status=status),
        label=_("successes (4–6)"),
        outcomes=[(str(k), p) for k, p in enumerate(successes) if p],
        distributions={
            _("successes, ones"): [(f"{r.successes},{r.ones}", p) for r, p in sorted(joint.items())],
            _(
                "consequences on a win (the roll defeats with k 1s: k mishap consequences; sums to P(defeated))"
            ): _mishaps(joint, status),
        },
        probabilities={
            _("opponent defeated"): win,
            _("defeated with no 1s"): clean,
            _("expected 1s per roll, win or not"): sum((p * r.ones for r, p in joint.items()), Fraction(0)),
            _("expected mishap consequences per roll (1s counted in winning rolls only)"): (mishaps_on_win),
            _("expected mishap consequences given that the roll defeats"): (mishaps_given_win),
        },
        notes=[
            _("a die is a success on 4-6; the opponent falls at Status 0 or lower"),
            _("each 1 on a hero's die costs that hero one consequence when the roll defeats the opponent"),
        ],
    )


def _mishaps(joint: dict, status: int) -> list[tuple[str, Fraction]]:  # type: ignore[type-arg]
    out: dict[int, Fraction] = {}
    for r, p in joint.items():
        if r.successes >= status:
            out[r.ones] = out.get(r.ones, Fraction(0)) + p
    return [(str(k), p) for k, p in sorted(out.items())]


POOL = OddsQuestion(
    name="pool",
    doc="N d6 against an opponent with S Status left: chance to defeat it, successes, and successes × 1s",
    params=(
        OddsParam("dice", int, None, "how many d6 the heroes roll", required=True),
        OddsParam("status", int, None, "the opponent's remaining Status", required=True),
    ),
    compute=pool_answer,
)

QUESTIONS = {"pool": POOL}
