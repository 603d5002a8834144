"""Policies shared by every ruleset. ``random`` lives in :mod:`konflikt.core.ruleset`; heuristics live with
their ruleset, since they speak its rules."""
