"""konflikt.store."""
