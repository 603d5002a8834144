"""konflikt.cli."""
