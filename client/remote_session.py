"""A seat (or a spectator's chair) at a room on a host, over `client.net.Remote`."""

from __future__ import annotations

import asyncio
import time

from client.net import Remote, RemoteError, Status, TableUpdate
from client.net.stopping import stop_task
from client.session import (
    ChatLine,
    Refused,
    SeatHandedOver,
    Session,
    StatusChanged,
    ViewUpdate,
)
from shared import protocol as p
from shared.describe import describe
from shared.model import Action
from shared.views import TableView


class RemoteSession(Session):
    """Reads the room's updates from `remote` and sends actions to the host.

    The host sends no deadline, so the countdown starts when a new decision of ours arrives
    (off by the network delay, a few milliseconds on a LAN)."""

    outlives_app = True

    def __init__(
        self,
        remote: Remote | None,
        room: str,
        seat: int | None,
        first: TableUpdate | None = None,
        own_remote: bool = False,
    ) -> None:
        super().__init__()
        self._remote = remote
        self.room = room
        self.seat = seat
        self._first = first
        self._own_remote = own_remote  # close the Remote with the session
        self._reader: asyncio.Task[None] | None = None
        self._decision: int | None = None
        self._deadline: float | None = None
        self._info: p.RoomInfo | None = None

    @property
    def remote(self) -> Remote:
        assert self._remote is not None, "not connected yet"
        return self._remote

    async def start(self) -> None:
        self.emit(StatusChanged("connected"))
        if self._first is not None:
            self._on_update(self._first)
            self._first = None
        elif self.seat is None:
            await self.remote.watch(self.room)
        else:
            await self.remote.snapshot(self.room)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for update in self.remote.updates():
            if isinstance(update, Status):
                status = "connected" if update.connected else "reconnecting"
                self.emit(StatusChanged(status, update.reason))
            elif isinstance(update, TableUpdate):
                if update.room == self.room:
                    self._on_update(update)
            elif isinstance(update, p.Chat):
                if update.room == self.room:
                    self.emit(chat_line(update))
            elif isinstance(update, p.Error | p.PublicError):
                self.emit(Refused(update.message))

    def _on_update(self, update: TableUpdate) -> None:
        self._tell_handovers(self._info, update.info)
        self._info = update.info
        view = update.view
        if view is None:
            return
        log = tuple(describe(e, view, self.seat) for e in update.events)
        keys = tuple(s.key for s in update.info.seats)
        self.emit(ViewUpdate(view, log, self._deadline_for(view), tuple(update.events), keys))

    def _tell_handovers(self, before: p.RoomInfo | None, after: p.RoomInfo) -> None:
        """Seats a person gave up during the game (they left, or the creator handed them
        over): the host puts a bot there with the same name; the table is told."""
        if before is None or after.status != "playing":
            return
        for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=False)):
            if old.kind == "human" and new.kind == "bot" and seat != self.seat:
                self.emit(SeatHandedOver(seat, new.name))

    def _deadline_for(self, view: TableView) -> float | None:
        pending = view.pending
        timeout = self._info.options.turn_timeout if self._info else 0
        if pending is None or pending.seat != self.seat or not timeout or view.winner:
            self._decision = None
            return None
        if pending.id != self._decision:
            self._decision, self._deadline = pending.id, time.time() + timeout
        return self._deadline

    async def act(self, action: Action, decision_id: int) -> None:
        try:
            await self.remote.act(self.room, decision_id, action)
        except RemoteError as refusal:
            self.emit(Refused(refusal.message))
        except TimeoutError:
            self.emit(Refused("the host did not answer in time"))

    async def say(self, text: str = "", phrase: str = "") -> None:
        try:
            await self.remote.say(self.room, text, phrase)
        except RemoteError as refusal:
            self.emit(Refused(refusal.message))
        except TimeoutError:
            self.emit(Refused("the host did not answer in time"))

    async def rematch(self) -> None:
        """A new room with the same options, this player in the same seat, bots elsewhere."""
        info = self._info
        if info is None or self.seat is None:
            return
        options, my_name = info.options, info.seats[self.seat].name
        try:
            room = await self.remote.create_room(
                info.name, seats=options.seats, pool=options.pool,
                turn_timeout=options.turn_timeout, bot=options.bot,
            )
            self.room = room.id
            self.seat = await self.remote.join(room.id, my_name, self.seat)
            self._decision = None
            await self.remote.start(room.id, bots=True)
        except (RemoteError, TimeoutError) as refusal:
            self.emit(Refused(str(refusal)))

    async def close(self) -> None:
        await stop_task(self._reader)
        if self._own_remote and self._remote is not None:
            await self._remote.close()


def chat_line(said: p.Chat) -> ChatLine:
    """A chat line from the host as the screens take it."""
    return ChatLine(said.channel, said.name, said.seat, said.key, said.text, said.phrase,
                    mine=said.ref is not None)
