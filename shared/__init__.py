"""The game itself: cards, characters, rules, per-seat views, wire messages and bots.

Pure Python with no I/O: both `server` and `client` import it; it imports neither.
"""
