"""Bots: each decides from its own seat's view only (`choose(view) -> Action`).

Bots that infer roles also take the public events, redacted for their seat, through an
optional `observe(events)`; whoever runs a game calls it after every applied action."""

from __future__ import annotations

from shared.bots.policy import EasyBot, NormalBot
from shared.bots.random_bot import RandomBot

#: Bot kinds by name, as rooms and `bang simulate --bots` refer to them.
BOT_KINDS = {"random": RandomBot, "easy": EasyBot, "normal": NormalBot}


def make_bot(kind: str, seed: int):
    try:
        return BOT_KINDS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") \
            from None
