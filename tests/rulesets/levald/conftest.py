"""Import the core before anything else: importing ``konflikt.dice`` first hits a core import cycle (reported)."""

import konflikt.core  # noqa: F401
