"""The ``cli`` catalog's functions (see ``konflikt.core.i18n``): messages in English, printed in the
language in use."""

from __future__ import annotations

import re

from rich.text import Text

from konflikt.core.i18n import BABEL_LOCALES, BILINGUAL, N_, Catalog, current

CATALOG = Catalog("cli", "konflikt.cli")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
pgettext = CATALOG.pgettext

POLICIES = {
    "human": N_("human"),
    "heuristic": N_("heuristic"),
    "optimal": N_("optimal"),
    "random": N_("random"),
    "rollout": N_("rollout"),
    "mcts": N_("mcts"),
}
"""How a seat's policy is shown (its id stays what is typed and saved: ``--policy snurre=heuristic``)."""


def policy_label(policy: str) -> str:
    """A policy as the language names it: ``heuristik`` for ``heuristic``; ``mcts:500`` keeps its argument; a
    policy this list does not know is shown by its id."""
    base, colon, argument = policy.partition(":")
    if base not in POLICIES:
        return policy
    return _(POLICIES[base]) + colon + argument


def whole(n: int) -> str:
    """A count with the language's thousands separator: ``200,000`` in English, ``200 000`` in Swedish, Danish
    ``200.000``, Polish ``200 000``."""
    language = current()
    if language in ("en", BILINGUAL):
        return f"{n:,}"
    from babel.numbers import format_decimal

    return str(format_decimal(n, format="#,##0", locale=BABEL_LOCALES[language]))


def policy_named(word: str) -> str:
    """The policy id a typed word names: the id itself, or its name in any language (``heuristik``, ``heurystyka``);
    ``mcts:500`` keeps its argument. A word that is neither is returned as typed (the caller refuses it)."""
    from konflikt.core.i18n import LANGUAGES, MissingTranslation, speaking

    base, colon, argument = word.strip().partition(":")
    folded = base.casefold()
    for policy in POLICIES:
        for language in LANGUAGES:
            try:
                with speaking(language):
                    label = policy_label(policy)
            except MissingTranslation:
                continue
            if label.casefold() == folded:
                return policy + colon + argument
    return word


_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def styled(template: str, base_style: str = "", **fields: str | tuple[str, str]) -> Text:
    """A translated ``template`` (``_("side {side}: {names}")`` without fields) as rich Text, each field filled in;
    a field given as ``(text, style)`` keeps its own style (a side's name in bold) wherever the language puts it."""
    text = Text(style=base_style)
    at = 0
    for match in _FIELD.finditer(template):
        text.append(template[at : match.start()].replace("{{", "{").replace("}}", "}"))
        value = fields[match.group(1)]
        if isinstance(value, tuple):
            text.append(value[0], style=value[1])
        else:
            text.append(str(value))
        at = match.end()
    text.append(template[at:].replace("{{", "{").replace("}}", "}"))
    return text


__all__ = ["CATALOG", "N_", "POLICIES", "_", "ngettext", "pgettext", "policy_label", "policy_named", "styled", "whole"]
