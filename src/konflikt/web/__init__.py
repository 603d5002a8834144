"""The browser table behind ``konflikt serve``: a GM console and one page per seat, over the same saves as ``play``.

Layer 6, beside ``cli``: it drives the engine (``State``, policies, dice) and the SQLite store, and never copies a
rule. Each seat's page is built from ``State.view(seat)`` and the events that seat may see, so secrets stay on the
server.
"""
