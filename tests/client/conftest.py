"""A real host for the client tests: the embedded broker and the host of `bang play`, running
in a thread with its own event loop (so the synchronous snapshot tests can use it too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest
from client_helpers import ThreadedServer, free_port

import server.rooms
from shared import engine
from shared.setup import Scenario, Setup


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
        def rigged_start_game(setup: Setup):  # noqa: ANN202
            setup = msgspec.structs.replace(setup, characters=characters, roles=roles)
            return engine.start_game(setup, scenario)

        monkeypatch.setattr(server.rooms, "start_game", rigged_start_game)

    return rig_
