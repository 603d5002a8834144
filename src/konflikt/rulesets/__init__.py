"""One sub-package per system; each registers its :class:`konflikt.core.ruleset.Ruleset` when imported.

The registry finds them by listing this package, so adding a system touches no shared file.
"""
