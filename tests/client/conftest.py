"""A real host for the client tests: the embedded broker and the host of `bang play`, running
in a thread with its own event loop (so the synchronous snapshot tests can use it too)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

import server.rooms
from client.embedded import EmbeddedServer
from shared import engine
from shared.setup import Scenario, Setup


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


@pytest.fixture
def host(tmp_path: Path) -> Iterator[ThreadedServer]:
    server_ = ThreadedServer(tmp_path / "host.sqlite3", free_port())
    server_.start()
    yield server_
    server_.stop()


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config"
    monkeypatch.setenv("BANG_CONFIG_DIR", str(path))
    return path


@pytest.fixture
def rig(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Make the host deal a rigged table: fixed characters and roles by seat, a Scenario."""

    def rig_(characters: list[str], roles: list[str], scenario: Scenario) -> None:
        def rigged_new_game(setup: Setup):  # noqa: ANN202
            setup = msgspec.structs.replace(setup, characters=characters, roles=roles)
            return engine.new_game(setup, scenario)

        monkeypatch.setattr(server.rooms, "new_game", rigged_new_game)

    return rig_
