"""Balancing reports that the source texts ask for: many conflicts summed up as ratings, tables and plots."""
