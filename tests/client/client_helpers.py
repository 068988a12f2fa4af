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
from client.screens.lobby import LobbyIntent, LobbyScreen
from client.screens.prompt import PromptScreen
from client.screens.table import TableScreen
from client.widgets.choices import ChoicePanel
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


def prompt_actions(app) -> list[Action]:  # noqa: ANN001
    """The choices of the pop-up prompt on screen (none until it is composed)."""
    if not isinstance(app.screen, PromptScreen):
        return []
    panels = app.screen.query(ChoicePanel)
    return panels.first().actions if panels else []


async def answer(pilot, app, kind: str) -> Action:  # noqa: ANN001
    """Wait for a pop-up prompt offering `kind` and choose it with its number key."""
    await until(pilot, lambda: any(a.kind == kind for a in prompt_actions(app)),
                what=f"a prompt offering {kind}")
    actions = prompt_actions(app)
    index = next(i for i, a in enumerate(actions) if a.kind == kind)
    await pilot.press(str(index + 1))
    return actions[index]


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
