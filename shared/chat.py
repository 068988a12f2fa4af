"""Table talk: what may be said, on which channel, and the quick phrases.

Two channels per room (seed 002: the eliminated may watch but must not give hints):
- `table`: the players still in the game talk; everyone in the room reads it (players,
  the eliminated, spectators).
- `spectators`: spectators and eliminated players talk; the living do not read it.
Where a message goes follows from who says it, never from what the sender asks for.

A quick phrase travels as its code (`PHRASES`), so each reader sees it in their own language.
Free text is cleaned to one visible line of at most TEXT_MAX characters.
"""

from __future__ import annotations

import random
import re
import unicodedata
from typing import Literal

from shared.model import Event

Channel = Literal["table", "spectators"]
TABLE: Channel = "table"
SPECTATORS: Channel = "spectators"

#: Characters of free text in one message.
TEXT_MAX = 200
#: A talker's bucket: this many messages at once, then one every RATE_SECONDS.
BURST = 5
RATE_SECONDS = 2.0

#: Quick phrases by code, in the order of their keys (F2, F3, ...). Their words are in each
#: language's catalog (`client/lang`); the wire carries only the code.
PHRASES = ("deputy", "not_me", "nice_shot", "ouch", "hurry", "good_game")

_SPACES = re.compile(r"\s+")
#: Control, format (bidi, zero-width), surrogate, private-use and unassigned characters.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


class BadMessage(ValueError):
    """Why a message cannot be said, for the person who typed it."""


def clean_text(text: str) -> str:
    """`text` as it will be shown: NFC, one line (any run of white space is one space),
    without hidden characters; BadMessage when nothing is left or it is too long."""
    shown = "".join(c for c in unicodedata.normalize("NFC", text)
                    if c.isspace() or unicodedata.category(c) not in _DROPPED)
    shown = _SPACES.sub(" ", shown).strip()
    if not shown:
        raise BadMessage("say something: the message is empty")
    if len(shown) > TEXT_MAX:
        raise BadMessage(f"a message is at most {TEXT_MAX} characters")
    return shown


def check_phrase(phrase: str) -> str:
    if phrase not in PHRASES:
        raise BadMessage(f"unknown phrase {phrase[:20]!r}; phrases: {', '.join(PHRASES)}")
    return phrase


def check_line(text: str, phrase: str) -> tuple[str, str]:
    """(text, phrase) as they will be shown: exactly one of them, the text cleaned, the phrase
    known; BadMessage otherwise."""
    if bool(text) == bool(phrase):
        raise BadMessage("say either a text or a phrase")
    return (clean_text(text), "") if text else ("", check_phrase(phrase))


def channel_of(seated: bool, alive: bool) -> Channel:
    """The channel someone talks on: living players at the table, everyone else with the
    spectators. Before the game starts every seated player is alive."""
    return TABLE if seated and alive else SPECTATORS


def reads(channel: Channel, seated: bool, alive: bool) -> bool:
    """Whether someone reads `channel`: the table channel everyone in the room, the
    spectators' channel all but the living players."""
    return channel == TABLE or not (seated and alive)


#: What a bot may say after an event, if the table allows bot talk: "ouch" when it is hit,
#: "not me!" when a shot at it missed, "good game" at the end.
_BOT_LINES = {"hit": "ouch", "missed": "not_me", "game_over": "good_game"}
#: A bot says its line this often, so that the table is not drowned.
BOT_CHANCE = 0.3


def bot_phrase(events: list[Event], seat: int, rng: random.Random) -> str | None:
    """The quick phrase a bot at `seat` says after `events`, or None (most of the time)."""
    for event in events:
        phrase = _BOT_LINES.get(event.kind)
        if phrase is not None and event.seat in (seat, None):
            return phrase if rng.random() < BOT_CHANCE else None
    return None
