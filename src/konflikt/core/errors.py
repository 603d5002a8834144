"""The error classes, re-exported from :mod:`konflikt.errors` (which sits below ``core`` and ``dice``)."""

from konflikt.errors import *  # noqa: F403
from konflikt.errors import __all__ as __all__
