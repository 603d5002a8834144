"""Each policy a seat may be played by, explained in one line, from the policy's own docstring.

The seats form of the GM's console offers every name of the ruleset's registry (:meth:`Ruleset.policy_names`) and
``human``; a name alone (``mcts``, ``rollout``) says little at a table. The line shown is the first sentence of the
docstring of what the registry makes: the ruleset's own factory (``heuristic``), :class:`RandomPolicy`, or, for
the policies that search or solve (entry points of :data:`POLICIES`), the docstring of the module that defines the
maker, read from its source without importing it (the searching modules are heavy, and ``web`` knows them only
through the registry).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re

from konflikt.core.i18n import BILINGUAL, current
from konflikt.core.ruleset import POLICIES, RandomPolicy, Ruleset, entry_points
from konflikt.web.i18n import N_, _, pgettext

HUMAN = N_("A person plays this seat from its own page (a join link, or its QR code, on the GM's console)")
"""``human`` is no policy of the registry: the table's own words for it."""
LINES = {
    "heuristic": N_("Readable rules of thumb for every decision of this system's fights"),
    "mcts": N_("Information-set Monte Carlo tree search: strong play where the state space is too large to solve"),
    "optimal": N_(
        "The optimal policy: both sides' equilibrium play from a solved table, for any seat of any scenario "
        "it can solve"
    ),
    "random": N_("Uniformly random among the legal actions: the baseline every ruleset has"),
    "rollout": N_(
        "One step of policy improvement: each legal choice at a decision scored by seeded playouts of the heuristic"
    ),
}
"""The lines of the registry's policies in the other languages (in English the docstring itself is shown)."""


def policy_words(name: str) -> str:
    """A policy's name as a page shows it (the form's values stay the identifiers): ``mcts:20000`` keeps its
    argument."""
    base, colon, argument = name.partition(":")
    words = {
        "human": pgettext("policy", "human"),
        "heuristic": pgettext("policy", "heuristic"),
        "random": pgettext("policy", "random"),
        "mcts": pgettext("policy", "mcts"),
        "rollout": pgettext("policy", "rollout"),
        "optimal": pgettext("policy", "optimal"),
    }.get(base, base)
    return f"{words}{colon}{argument}"


def first_sentence(doc: str | None) -> str:
    """A docstring's first sentence on one line, without reStructuredText's markup (``name`` → name)."""
    if not doc:
        return ""
    paragraph = " ".join(doc.strip().split("\n\n", 1)[0].split())
    paragraph = re.sub(r":\w+:`~?\.?([^`]+)`", r"\1", paragraph).replace("``", "")
    match = re.match(r"(.+?[.!?])(\s|$)", paragraph)
    return (match.group(1) if match else paragraph).removesuffix(".")


@functools.cache
def _module_doc(module: str) -> str:
    """A module's docstring read from its source file (not imported); ``""`` when it cannot be read."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return ""
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return ""
    try:
        with open(spec.origin, encoding="utf-8") as source:
            return ast.get_docstring(ast.parse(source.read())) or ""
    except (OSError, SyntaxError, ValueError):
        return ""


def explain(ruleset: Ruleset, name: str) -> str:
    """One line on what ``name`` (a policy of ``ruleset``, or ``human``) does at this table."""
    if name == "human":
        return _(HUMAN)
    base = name.partition(":")[0]
    if base in LINES and current() not in ("en", BILINGUAL):
        return _(LINES[base])
    if base in ruleset.policies:
        return first_sentence(ruleset.policies[base].__doc__) or base
    if base == "random":
        return first_sentence(RandomPolicy.__doc__)
    point = entry_points(POLICIES).get(base)
    if point is not None:
        return first_sentence(_module_doc(point.module)) or base
    return base


def explained(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Every name the seats form offers, ``human`` last, each with its line."""
    return [(name, explain(ruleset, name)) for name in [*ruleset.policy_names(), "human"]]
