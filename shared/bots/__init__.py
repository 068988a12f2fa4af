"""Bots: each decides from its own seat's view only."""
