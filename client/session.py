"""What the app talks to: a seat (or a spectator's chair) at one game.

The screens never touch the engine or the network. They read `SessionEvent`s from
`Session.events()` and answer with `Session.act()`. `LocalSession` runs the engine in this
process with bots in the other seats (offline play and tests); the remote session in
`client.remote` does the same over MQTT.
"""

from __future__ import annotations

import asyncio
import random
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import msgspec

from shared import chat
from shared.bots import Bot, make_bot
from shared.describe import describe
from shared.driver import GameDriver, GameFailed
from shared.engine import IllegalAction, start_game
from shared.events import game_stopped, redact
from shared.model import Action, Event, GameState
from shared.setup import Scenario, Setup
from shared.views import TableView, view


@dataclass(frozen=True, slots=True)
class ViewUpdate:
    """A new table view; `log` holds readable English lines for what happened since the last
    one, `events` the same as data (redacted for this seat), for other languages. `keys`: each
    seat's key id from the host (`SeatInfo.key`), to tell players of the same name apart."""

    view: TableView
    log: tuple[str, ...] = ()
    deadline: float | None = None  # wall-clock time (time.time()) when the default applies
    events: tuple[Event, ...] = ()
    keys: tuple[str, ...] = ()  # by seat; "" for a bot; none offline


@dataclass(frozen=True, slots=True)
class Refused:
    """The host refused something: `reason` is for a person (English), `code` its error code
    (docs/PROTOCOL.md), from which the screens say it in the player's language ("": none,
    the reason is shown as it is)."""

    reason: str
    code: str = ""


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell the player, by its key in the UI's text catalogs (client.lang)."""

    key: str


@dataclass(frozen=True, slots=True)
class StatusChanged:
    status: str  # "connected" | "connecting" | "reconnecting" | "offline"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ChatLine:
    """Something said at the table: free `text`, or a quick `phrase` code (shared.chat) that
    each reader sees in their own language. `key` tells namesakes apart ("" for a bot);
    `mine`: our own line, as the host passed it on."""

    channel: str  # "table" | "spectators"
    name: str
    seat: int | None = None
    key: str = ""
    text: str = ""
    phrase: str = ""
    mine: bool = False


@dataclass(frozen=True, slots=True)
class SeatHandedOver:
    """A person left the game: from now on a bot plays `seat` (still called `name`)."""

    seat: int
    name: str


SessionEvent = ViewUpdate | Refused | StatusChanged | ChatLine | SeatHandedOver | Notice


class Session(ABC):
    """One seat at one game, or a spectator (`seat is None`)."""

    seat: int | None
    room: str
    #: The game goes on without this app (someone else's host), and the seat waits for us.
    outlives_app = False

    def __init__(self) -> None:
        self._queue: asyncio.Queue[SessionEvent] = asyncio.Queue()

    @property
    def spectator(self) -> bool:
        return self.seat is None

    def emit(self, event: SessionEvent) -> None:
        self._queue.put_nowait(event)

    async def events(self) -> AsyncIterator[SessionEvent]:
        while True:
            yield await self._queue.get()

    @abstractmethod
    async def start(self) -> None:
        """Connect or deal; the first `ViewUpdate` follows."""

    @abstractmethod
    async def act(self, action: Action, decision_id: int) -> None:
        """Send an action for the decision `decision_id`; a refusal arrives as `Refused`."""

    @abstractmethod
    async def rematch(self) -> None:
        """Ask for a new game at the same table."""

    @abstractmethod
    async def say(self, text: str = "", phrase: str = "") -> None:
        """Talk at the table: free text or a quick phrase code; the line comes back as a
        `ChatLine`, or a `Refused` says why not."""

    @abstractmethod
    async def close(self) -> None: ...


@dataclass
class LocalTable:
    """How a local game is dealt and run."""

    setup: Setup = field(default_factory=Setup)
    seat: int | None = 0  # the human's seat; None: watch bots play
    bot_delay: float = 0.6  # seconds a bot "thinks", so a person can follow the table
    timeout: float | None = None  # seconds for the human's decisions; None: no limit
    bot: str = "normal"  # a kind from shared.bots.BOT_KINDS
    scenario: Scenario | None = None  # a rigged table for the first game (tests)
    bot_talk: bool = False  # bots say a quick phrase now and then (shared.chat)


class LocalSession(Session):
    """The engine in this process; bots decide for every other seat."""

    def __init__(self, table: LocalTable, room: str = "local") -> None:
        super().__init__()
        self.table = table
        self.seat = table.seat
        self.room = room
        self.state: GameState | None = None
        self._answer: asyncio.Queue[tuple[Action, int]] = asyncio.Queue()
        self._driver: asyncio.Task[None] | None = None
        self._game = 0
        self._stopped = False  # the engine failed: nothing more is played
        self._last_view: TableView | None = None
        self.game: GameDriver | None = None  # the current game's driver, once dealt
        self._talk_rng = random.Random(table.setup.seed)

    def _deal(self) -> tuple[GameState, list[Event]]:
        setup = self.table.setup
        if not setup.names:
            setup = msgspec.structs.replace(
                setup, names=[f"Player {i + 1}" for i in range(setup.players)]
            )
        if self._game == 0:
            return start_game(setup, self.table.scenario)
        setup = msgspec.structs.replace(setup, seed=setup.seed + self._game)
        return start_game(setup)

    async def start(self) -> None:
        self.emit(StatusChanged("offline"))
        self.state, events = self._deal()
        bots: dict[int, Bot] = {
            seat: make_bot(self.table.bot, self.table.setup.seed * 31 + seat + self._game)
            for seat in range(len(self.state.players))
            if seat != self.seat
        }
        driver = self.game = GameDriver(self.state, bots)
        driver.tell(events)
        driver.observers.append(lambda _seat, _action, told: self._publish(told))
        self._publish(events)
        self._driver = asyncio.create_task(self._drive(driver))

    async def act(self, action: Action, decision_id: int) -> None:
        if self._stopped:
            self.emit(Refused("the game has stopped: start a new one", "game_stopped"))
            return
        await self._answer.put((action, decision_id))

    async def rematch(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
        self._game += 1
        self._stopped = False
        await self.start()

    async def close(self) -> None:
        if self._driver is not None:
            self._driver.cancel()

    async def say(self, text: str = "", phrase: str = "") -> None:
        """Nobody else is here: the line is only echoed (the bots do not read)."""
        try:
            text, phrase = chat.check_line(text, phrase)
        except chat.BadMessage as problem:
            self.emit(Refused(str(problem), "invalid"))
            return
        name = self.state.players[self.seat].name if self.state and self.seat is not None else ""
        self.emit(ChatLine(chat.TABLE, name, self.seat, text=text, phrase=phrase, mine=True))

    def _bots_talk(self, events: list[Event]) -> None:
        if not self.table.bot_talk or self.state is None:
            return
        for player in self.state.players:
            if player.seat != self.seat and player.alive:
                phrase = chat.bot_phrase(events, player.seat, self._talk_rng)
                if phrase is not None:
                    self.emit(ChatLine(chat.TABLE, player.name, player.seat, phrase=phrase))

    def _publish(self, events: list[Event]) -> None:
        assert self.state is not None
        seen = [redact(e, self.seat) for e in events]
        table = view(self.state, self.seat)
        pending = self.state.pending
        deadline = None
        if (
            pending is not None
            and pending.seat == self.seat
            and self.table.timeout is not None
            and self.state.winner is None
        ):
            deadline = time.time() + self.table.timeout
        self._show(table, seen, deadline)
        self._bots_talk(events)

    def _show(self, table: TableView, seen: list[Event], deadline: float | None = None) -> None:
        self._last_view = table
        lines = tuple(describe(e, table, self.seat) for e in seen)
        self.emit(ViewUpdate(table, tuple(line for line in lines if line), deadline,
                             tuple(seen)))

    async def _drive(self, driver: GameDriver) -> None:
        """Ask whoever must decide, apply (the driver publishes); until somebody wins, or the
        engine fails: then the table is told, from the last good view, and the game stops."""
        try:
            while (pending := driver.pending) is not None:
                if driver.bot_to_move():
                    await asyncio.sleep(self.table.bot_delay)
                    driver.play_bot()
                    continue
                action, decision_id, timed_out = await self._human(pending.default, pending.id)
                try:
                    driver.answer(pending.seat, action, decision_id, timed_out)
                except IllegalAction as refusal:
                    self.emit(Refused(str(refusal), "illegal"))
        except GameFailed:
            self._stopped = True
            if self._last_view is not None:
                self._show(self._last_view, [game_stopped()])

    async def _human(self, default: Action, decision_id: int) -> tuple[Action, int, bool]:
        """The human's answer and decision, and whether the time ran out (the default)."""
        if self.table.timeout is None:
            return *(await self._answer.get()), False
        try:
            return *(await asyncio.wait_for(self._answer.get(), self.table.timeout)), False
        except TimeoutError:
            return default, decision_id, True
