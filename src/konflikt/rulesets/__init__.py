"""One sub-package per system; each registers its :class:`konflikt.core.ruleset.Ruleset` when imported.

The registry finds them by their entry points (``pyproject.toml``'s ``konflikt.rulesets`` group), so a system may
also live in a package of its own.
"""
