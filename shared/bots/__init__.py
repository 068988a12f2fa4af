"""Bots: each decides from its own seat's view only (`choose(view) -> Action`).

Bots that infer roles also take the public events, redacted for their seat, through an
optional `observe(events)`; whoever runs a game calls it after every applied action.

A bot may also have `choose_among(options) -> Action | None`: the answer `choose` would give
when the options alone decide it, or None to be asked `choose(view)`. The driver asks it
first and builds the view only for a None (the random bot always answers; the scoring bots
answer a decision with one option). The view is the costliest part of a random game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final, Protocol

from shared.bots.policy import EasyBot, NormalBot
from shared.bots.random_bot import RandomBot
from shared.events import redact
from shared.model import Action, Event
from shared.views import TableView


class Bot(Protocol):
    """What every bot does (`observe(events)` is optional: see `tell`)."""

    def choose(self, view: TableView) -> Action: ...


#: Bot kinds by name, as rooms and `bang simulate --bots` refer to them.
BOT_KINDS: Final[dict[str, Callable[[int], Bot]]] = {
    "random": RandomBot, "easy": EasyBot, "normal": NormalBot}


def make_bot(kind: str, seed: int) -> Bot:
    try:
        return BOT_KINDS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}: choose from {', '.join(BOT_KINDS)}") \
            from None


#: A bot's `observe`, with the seat it sits at.
Listener = tuple[int, Callable[[tuple[Event, ...]], object]]


def listeners(bots: Mapping[int, object]) -> list[Listener]:
    """The bots that have `observe`, with their seats (bots without it are never told)."""
    return [(seat, observe) for seat, bot in bots.items()
            if (observe := getattr(bot, "observe", None)) is not None]


def tell(bots: Mapping[int, object], events: Iterable[Event]) -> None:
    """Show every bot that has `observe` the events, redacted for its own seat.

    Call it with the events of `start_game` and then after every applied action, in order,
    each event exactly once; bots without `observe` are skipped."""
    tell_listeners(listeners(bots), events)


def tell_listeners(listening: list[Listener], events: Iterable[Event]) -> None:
    """`tell`, to listeners found once by `listeners` (a game driver keeps them)."""
    if not listening:
        return
    told = tuple(events)
    for event in told:
        if event.private_to:
            break
    else:  # nothing private (the usual case): every seat sees the same events, one tuple
        for _, observe in listening:
            observe(told)
        return
    for seat, observe in listening:
        # An event private to nobody is everyone's as it is (what redact would give back).
        observe(tuple([event if not event.private_to else redact(event, seat)
                       for event in told]))
