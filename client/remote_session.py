"""A seat (or a spectator's chair) at a room on a host, over `client.net.Remote`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

from client.net import Remote, RemoteError, Status, TableUpdate
from client.net.stopping import stop_task
from client.session import (
    ChatLine,
    Notice,
    Refused,
    SeatHandedOver,
    Session,
    StatusChanged,
    ViewUpdate,
)
from shared import protocol as p
from shared.describe import describe
from shared.events import NOT_IN_HISTORY
from shared.model import Action, Event
from shared.views import TableView

#: A history page refused as asked too fast is asked again after a second, so many times at most.
HISTORY_TRIES = 5
HISTORY_RETRY_DELAY = 1.0


class LogFeed:
    """Which of a room's events the log holds, so that the game so far (the host's `history`)
    comes before the live lines, and every event once.

    `count`: how many of the game's events (numbered as `history` numbers them: the rules
    engine's and the host's `time_up`, from the deal) the log holds; None when that is unknown
    (a history that could not be had), and then the log goes on with live lines only. `seq`:
    the room change the log is up to. While a history is on its way, live events wait for it
    (`on_history`)."""

    def __init__(self) -> None:
        self.count: int | None = 0
        self.seq = -1
        self.fetching = False
        self._held: list[TableUpdate] = []

    def on_update(self, update: TableUpdate) -> tuple[tuple[Event, ...], bool]:
        """The events to log for `update` now, and whether to ask for the history from
        event `count` on."""
        if self.fetching:
            self._held.append(update)
            return (), False
        if update.seq <= self.seq:
            return (), False
        if update.view is None:  # before the game: no event to miss
            self.seq, self.count = update.seq, 0
            return (), False
        starts = bool(update.events) and update.events[0].kind == "game_start"
        if starts or (update.seq == self.seq + 1 and not update.snapshot):
            if starts:
                self.count = 0
            return self._take(update), False
        # Changes the log has not seen: a snapshot, or a game already under way.
        self.seq = update.seq
        if self.count is None:
            return (), False
        self.fetching = True
        return (), True

    def on_history(self, page: p.HistoryPage | None) -> tuple[tuple[Event, ...], bool]:
        """The events to log now that the history asked for came (None: it could not be had),
        then the live ones held meanwhile that it does not hold; and whether to ask again
        (a held snapshot skipped changes past the history)."""
        self.fetching = False
        out: tuple[Event, ...] = ()
        if page is None or page.start != self.count:
            self.count = None
        else:
            self.count = page.start + len(page.events)
            self.seq = max(self.seq, page.seq)
            out = tuple(page.events)
        held, self._held = self._held, []
        for index, update in enumerate(held):
            events, again = self.on_update(update)
            out += events
            if again:
                self._held = held[index + 1:]
                return out, True
        return out, False

    def _take(self, update: TableUpdate) -> tuple[Event, ...]:
        self.seq = update.seq
        if self.count is not None:
            self.count += sum(e.kind not in NOT_IN_HISTORY for e in update.events)
        return update.events


class RemoteSession(Session):
    """Reads the room's updates from `remote` and sends actions to the host.

    The host sends no deadline, so the countdown starts when a new decision of ours arrives
    (off by the network delay, a few milliseconds on a LAN). The log starts with the game so
    far (`LogFeed`), after every snapshot that skipped changes: a watch or a seat taken
    mid-game, a reconnection, a host restart."""

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
        self._feed = LogFeed()
        self._shown: ViewUpdate | None = None  # the last view shown, for the history's lines
        self._tasks: set[asyncio.Task[None]] = set()  # histories and actions on their way

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
                self.emit(Refused(update.message, update.code))

    def _on_update(self, update: TableUpdate) -> None:
        self._tell_handovers(self._info, update.info)
        self._info = update.info
        events, fetch = self._feed.on_update(update)
        view = update.view
        if view is None:
            return
        keys = tuple(s.key for s in update.info.seats)
        self._show(ViewUpdate(view, (), self._deadline_for(view), (), keys), events)
        if fetch:
            self._spawn(self._history(self._feed))

    def _show(self, update: ViewUpdate, events: tuple[Event, ...]) -> None:
        """Emit `update` with the log lines of `events`."""
        self._shown = update
        log = tuple(describe(e, update.view, self.seat) for e in events)
        self.emit(ViewUpdate(update.view, log, update.deadline, events, update.keys))

    async def _history(self, feed: LogFeed) -> None:
        """The game so far, for the log; a page the host refused leaves the log as it is.
        Asked too fast (the host's budget for pages), it is asked again a second later."""
        room, start = self.room, feed.count or 0
        page: p.HistoryPage | None = None
        for _ in range(HISTORY_TRIES):
            try:
                page = await self.remote.history(room, start)
            except RemoteError as refusal:
                if refusal.code == "history_limited":
                    await asyncio.sleep(HISTORY_RETRY_DELAY)
                    continue
            except TimeoutError:
                pass
            break
        if feed is not self._feed:  # a rematch: another room, another log
            return
        events, again = feed.on_history(page)
        if events and self._shown is not None:
            self._show(self._shown, events)
        if again:
            self._spawn(self._history(feed))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
        """Sent in the background: with the link down the action waits for it (the player is
        told), and a link lost on the way sends it again when it is back."""
        if not self.remote.connected:
            self.emit(Notice("move_queued"))
        self._spawn(self._act(self.room, action, decision_id))

    async def _act(self, room: str, action: Action, decision_id: int) -> None:
        try:
            await self.remote.act(room, decision_id, action, patient=True)
        except RemoteError as refusal:
            if refusal.code in ("unreachable", "disconnected"):
                self.emit(Notice("move_not_sent"))
            elif refusal.code != "applied":  # applied: it went through, its answer was lost
                self.emit(Refused(refusal.message, refusal.code))

    async def say(self, text: str = "", phrase: str = "") -> None:
        try:
            await self.remote.say(self.room, text, phrase)
        except (RemoteError, TimeoutError) as problem:
            failed = RemoteError.of(problem)
            self.emit(Refused(failed.message, failed.code))

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
            self._feed = LogFeed()
            self.seat = await self.remote.join(room.id, my_name, self.seat)
            self._decision = None
            await self.remote.start(room.id, bots=True)
        except (RemoteError, TimeoutError) as problem:
            failed = RemoteError.of(problem)
            self.emit(Refused(failed.message, failed.code))

    async def close(self) -> None:
        await stop_task(self._reader)
        for task in list(self._tasks):
            await stop_task(task)
        if self._own_remote and self._remote is not None:
            await self._remote.close()


def chat_line(said: p.Chat) -> ChatLine:
    """A chat line from the host as the screens take it."""
    return ChatLine(said.channel, said.name, said.seat, said.key, said.text, said.phrase,
                    mine=said.ref is not None)
