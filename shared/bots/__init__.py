"""Bots: each decides from its own seat's view only (`choose(view) -> Action`)."""

from __future__ import annotations

from shared.bots.random_bot import RandomBot

#: Bot kinds by name, as rooms and `bang simulate --bots` refer to them.
BOT_KINDS = {"random": RandomBot}


def make_bot(kind: str, seed: int):
    try:
        return BOT_KINDS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") \
            from None
