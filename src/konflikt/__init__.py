"""konflikt: four tabletop role-playing conflict systems, made executable.

The package is layered (dependencies point downwards only):
front ends (``cli``) → ``sim`` / ``analysis`` / ``store`` → ``rulesets`` → ``core`` / ``dice``.
"""

__version__ = "0.1.0"
