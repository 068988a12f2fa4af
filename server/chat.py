"""The host's side of table talk: who hears a room, who may say what, and how often.

Nothing here is stored: chat is said and gone (a restarted host forgets who watched; clients
watch again when they see the host's new link). Each line is sealed to each reader, so an
outsider on the broker learns that someone talked, never what was said (`shared.chat` has the
channels and the text rules).
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Callable

from msgspec import Struct

from server.ratelimit import RateLimiter
from server.rooms import Room, RoomError
from shared import chat
from shared.model import Event
from shared.protocol import KEY_ID

#: Spectators of one room who hear its chat; past this, the one quiet longest stops hearing.
WATCHERS_MAX = 64


class Speaker(Struct, frozen=True):
    channel: chat.Channel
    name: str
    key: str
    seat: int | None


class TableTalk:
    """Watchers per room, each talker's budget, and bot talk (off unless asked for)."""

    def __init__(self, bot_talk: bool = False, clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None) -> None:
        self.bot_talk = bot_talk
        self.rng = rng or random.Random()
        self.limiter = RateLimiter(rate=1 / chat.RATE_SECONDS, burst=chat.BURST, clock=clock)
        self._watchers: dict[str, OrderedDict[str, str]] = {}  # room -> cid -> name

    def watch(self, room: str, cid: str, name: str) -> None:
        watchers = self._watchers.setdefault(room, OrderedDict())
        watchers[cid] = name
        watchers.move_to_end(cid)
        if len(watchers) > WATCHERS_MAX:
            watchers.popitem(last=False)

    def forget_room(self, room: str) -> None:
        self._watchers.pop(room, None)

    def speaker(self, room: Room, cid: str) -> Speaker:
        """Who `cid` is in `room` and on which channel they talk; RoomError if they are
        neither seated nor watching, or talk too fast."""
        seat = room.seat_of(cid)
        watchers: dict[str, str] = self._watchers.get(room.id, {})
        if seat is None and cid not in watchers:
            raise RoomError("not_in_room", "sit or watch in this room to talk there")
        if not self.limiter.allow(cid):
            raise RoomError("chat_limited", f"slow down: {chat.BURST} messages at once, then "
                            f"one every {chat.RATE_SECONDS:g} seconds")
        if seat is None:
            return Speaker(chat.SPECTATORS, watchers[cid], cid[:KEY_ID], None)
        name = room.record.seats[seat].name
        return Speaker(chat.channel_of(True, _alive(room, seat)), name, cid[:KEY_ID], seat)

    def readers(self, room: Room, channel: chat.Channel) -> list[str]:
        """The client ids that read `channel` in `room`: seated people first, then watchers."""
        seated = [cid for seat, cid in room.human_seats()
                  if chat.reads(channel, True, _alive(room, seat))]
        watching = [cid for cid in self._watchers.get(room.id, {}) if cid not in seated]
        return seated + watching

    def bot_lines(self, room: Room, events: list[Event]) -> list[tuple[int, str]]:
        """(seat, phrase) for the bots of `room` that speak up after `events`."""
        if not self.bot_talk or room.state is None:
            return []
        lines = []
        for seat, state in enumerate(room.record.seats):
            if state.kind == "bot" and _alive(room, seat):
                phrase = chat.bot_phrase(events, seat, self.rng)
                if phrase is not None:
                    lines.append((seat, phrase))
        return lines


def _alive(room: Room, seat: int) -> bool:
    """Alive for chat: before and after a game everyone is; during one, the living."""
    if room.status != "playing" or room.state is None:
        return True
    return room.state.players[seat].alive
