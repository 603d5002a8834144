"""konflikt.analysis."""
