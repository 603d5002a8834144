"""Simulation: the reference runner over the State API."""
