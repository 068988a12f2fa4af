"""A real host for the client tests: the embedded broker and the host of `bang play`, running
in a thread with its own event loop (so the synchronous snapshot tests can use it too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest
from client_helpers import ThreadedServer, free_port

import server.rooms
import server.store
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
    """Make the host deal a rigged table: fixed characters and roles by seat, a Scenario.

    The host has no way to start a rigged room, so the test replaces its deal, and the game
    record it replays (to brief its bots, or after a restart) carries the same rig."""

    def rig_(characters: list[str], roles: list[str], scenario: Scenario) -> None:
        def rigged(setup: Setup) -> Setup:
            return msgspec.structs.replace(setup, characters=characters, roles=roles)

        def rigged_start_game(setup: Setup):  # noqa: ANN202
            return engine.start_game(rigged(setup), scenario)

        game_record = server.store.Store.game_record

        def rigged_record(store: server.store.Store, room_id: str):  # noqa: ANN202
            record = game_record(store, room_id)
            if record is None:
                return None
            return msgspec.structs.replace(record, setup=rigged(record.setup),
                                           scenario=scenario)

        monkeypatch.setattr(server.rooms, "start_game", rigged_start_game)
        monkeypatch.setattr(server.store.Store, "game_record", rigged_record)

    return rig_
