"""Helpers for the client tests: the app at the lobby, waiting on the pilot, and a second
player driven through the same network library the app uses."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from client.app import BangApp
from client.embedded import EmbeddedServer
from client.net import Remote, TableUpdate
from client.screens.confirm import ConfirmScreen
from client.screens.lobby import LobbyIntent, LobbyScreen
from client.screens.table import TableScreen
from client.slips import auto_answer
from shared.model import Action
from shared.views import TableView


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThreadedServer:
    def __init__(self, data: Path, port: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.data, self.port = data, port
        self.server = EmbeddedServer(data, port=port, bot_delay=0.05)

    @property
    def url(self) -> str:
        return self.server.url

    def run(self, coro, timeout: float = 15):  # noqa: ANN001, ANN201
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        self.thread.start()
        self.run(self.server.start())

    def restart(self) -> None:
        """Stop broker and host, then start new ones on the same data and port."""
        self.run(self.server.stop())
        time.sleep(0.5)
        self.server = EmbeddedServer(self.data, port=self.port, bot_delay=0.05)
        self.run(self.server.start())

    def stop(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def lobby_app(url: str, config: Path, name: str, intent: LobbyIntent | None = None,
              spectator: bool = False, lang: str = "en") -> BangApp:
    remote = Remote(url, config_dir=config)
    return BangApp(
        lang=lang,
        first_screen=lambda app: LobbyScreen(remote, name, app.i18n, intent, spectator),
        remote=remote,
    )


async def until(pilot: Pilot, condition: Callable[[], object], timeout: float = 15,
                what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def table_of(app: BangApp) -> TableScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, TableScreen)), None)


async def highlight(pilot: Pilot, table: TableScreen, index: int) -> None:
    """Move to the `index`th choice with ↑/↓, as a player does."""
    options = table.panel
    for _ in range(2 * len(table.panel.actions) + 2):
        if options.highlighted == index:
            return
        down = options.highlighted is None or options.highlighted < index
        await pilot.press("down" if down else "up")
    raise AssertionError(f"could not reach choice {index}")


async def answer(pilot, app, kind: str, which=lambda action: True,  # noqa: ANN001
                 confirm: bool = False) -> Action:
    """Wait for a decision of ours offering `kind` (the first one `which` accepts) and take
    it by the one rule: its hand card's digit if it uses one, ↑/↓ to it, Enter; `y` when
    `confirm` (the step asks first). A lone
    "Take the hit" is not pressed: it answers itself, and the test waits for that."""
    def offered() -> list[Action]:
        table = table_of(app)
        if table is None or app.screen is not table:
            return []
        return [a for a in table.my_options if a.kind == kind and which(a)]

    await until(pilot, offered, what=f"a decision offering {kind}")
    table = table_of(app)
    assert table is not None and table.view is not None and table.view.pending is not None
    action, decision = offered()[0], table.view.pending.id
    if auto_answer(table.view) == action:
        await until(pilot, lambda: table.view.pending is None
                    or table.view.pending.id != decision, what="the answer by itself")
        return action
    if action not in table.panel.actions and action.card in table.view.hand:
        await pilot.press(str((table.view.hand.index(action.card) + 1) % 10))  # pick it
    await highlight(pilot, table, table.panel.actions.index(action))
    await pilot.press("enter")
    if confirm:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
    return action


class Player:
    def __init__(self, url: str, config: Path) -> None:
        self.remote = Remote(url, config_dir=config)
        self.view: TableView | None = None
        self.answered: int | None = None  # the last decision this player answered

    async def __aenter__(self) -> Player:
        await self.remote.__aenter__()
        await self.remote.wait_connected()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.remote.close()

    async def wait_view(self, room: str, check, timeout: float = 15) -> TableView:  # noqa: ANN001
        """Read updates until this seat's view of `room` satisfies `check`."""
        async def read() -> TableView:
            if self.view is not None and check(self.view):
                return self.view
            async for update in self.remote.updates():
                if isinstance(update, TableUpdate) and update.room == room and update.view:
                    self.view = update.view
                    if check(update.view):
                        return update.view
            raise AssertionError("the update stream ended")

        return await asyncio.wait_for(read(), timeout)

    async def my_turn(self, room: str) -> TableView:
        """The next decision of this seat that it has not answered yet."""
        return await self.wait_view(
            room, lambda v: v.pending is not None and v.pending.seat == v.viewer and v.options
            and v.pending.id != self.answered
        )

    async def act(self, room: str, action: Action) -> None:
        assert self.view is not None and self.view.pending is not None
        assert action in self.view.options, f"{action} is not offered: {self.view.options}"
        self.answered = self.view.pending.id
        await self.remote.act(room, self.view.pending.id, action)
