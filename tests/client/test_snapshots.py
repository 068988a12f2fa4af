"""SVG snapshots (pytest-textual-snapshot) of the lobby, the table at 80x24 and 160x50, a
decision out of turn (asked on the table itself) and the help screen. Update with
`pytest tests/client --snapshot-update` after looking at the report."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from client_helpers import ThreadedServer, lobby_app, table_of
from textual.pilot import Pilot
from textual.widgets import DataTable

import server.host
from client.app import BangApp
from client.net import Remote
from client.session import LocalSession, LocalTable
from shared.crypto import ClientKey
from shared.setup import Scenario, SeatRig, Setup

NAMES = ["Rosa", "Carlo", "Gina", "Tex", "Lupo", "Nina", "Bill"]
CHARACTERS = ["kit_carlson", "paul_regret", "jourdonnais", "el_gringo", "suzy_lafayette",
              "willy_the_kid", "black_jack"]
ROLES = ["deputy", "sheriff", "outlaw", "renegade", "outlaw", "deputy", "outlaw"]


def rigged_app(start: str = "play", lang: str = "en") -> BangApp:
    """Seven seats, Rosa (seat 0, Kit Carlson) to decide; bots never get to move."""
    scenario = Scenario(
        seats=[
            SeatRig(hand=["BANG! Q♥", "Missed! 2♠", "Beer 6♥", "Panic! 8♦", "Cat Balou K♥"],
                    in_play=["Schofield K♠"], life=3),
            SeatRig(in_play=["Barrel Q♠", "Mustang 8♥"]),
            SeatRig(in_play=["Volcanic 10♠"], life=2),
            SeatRig(in_play=["Jail 4♥"]),
        ],
        deck=["Wells Fargo 3♥", "Duel J♠", "Scope A♠"],
        turn=0,
        start=start,
    )
    setup = Setup(players=7, seed=11, names=NAMES, characters=CHARACTERS, roles=ROLES)
    table = LocalTable(setup=setup, seat=0, bot_delay=60, scenario=scenario)
    return BangApp(LocalSession(table), lang=lang)


async def table_drawn(pilot: Pilot) -> None:
    for _ in range(200):
        table = table_of(pilot.app)
        if table is not None and table.view is not None:
            break
        await pilot.pause(0.02)
    await pilot.pause(0.2)


async def prompt_drawn(pilot: Pilot) -> None:
    for _ in range(200):
        table = table_of(pilot.app)
        if table is not None and table.view is not None and table.view.pending is not None \
                and table.view.pending.kind == "kit_put_back":
            break
        await pilot.pause(0.02)
    await pilot.pause(0.2)


def test_table_80x24(snap_compare) -> None:  # noqa: ANN001
    assert snap_compare(rigged_app(), terminal_size=(80, 24), run_before=table_drawn)


def test_table_160x50(snap_compare) -> None:  # noqa: ANN001
    assert snap_compare(rigged_app(), terminal_size=(160, 50), run_before=table_drawn)


@pytest.mark.parametrize("lang", ["it", "es", "hu"])
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_table_in_each_language(snap_compare, lang: str, size: tuple[int, int]) -> None:  # noqa: ANN001
    assert snap_compare(rigged_app(lang=lang), terminal_size=size, run_before=table_drawn)


def test_table_in_italian(snap_compare) -> None:  # noqa: ANN001
    app = rigged_app(lang="it")
    assert snap_compare(app, terminal_size=(100, 30), press=["1"], run_before=table_drawn)


def test_prompt(snap_compare) -> None:  # noqa: ANN001
    """Kit Carlson's turn starts: put one of the top three cards back."""
    assert snap_compare(rigged_app(start="start"), terminal_size=(80, 24),
                        run_before=prompt_drawn)


def test_help(snap_compare) -> None:  # noqa: ANN001
    async def open_help(pilot: Pilot) -> None:
        await table_drawn(pilot)
        await pilot.press("f1")
        await pilot.pause(0.2)

    assert snap_compare(rigged_app(), terminal_size=(80, 24), run_before=open_help)


@pytest.fixture
def fixed_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """A host on a fixed port whose room ids are predictable, so the lobby draws the same."""
    ids = iter(f"room{n:04d}" for n in range(100))
    monkeypatch.setattr(server.host, "new_room_id", lambda: next(ids))
    host = ThreadedServer(tmp_path / "host.sqlite3", 28931)
    host.start()
    yield host
    host.stop()


def test_lobby(snap_compare, fixed_host, tmp_path: Path) -> None:  # noqa: ANN001
    async def create_rooms() -> Remote:
        # A fixed key: the lobby shows Bob's key id beside his name.
        remote = Remote(fixed_host.url, config_dir=tmp_path / "bob",
                        key=ClientKey.from_bytes(bytes(range(32))))
        await remote.__aenter__()
        await remote.wait_connected()
        room = await remote.create_room("Saloon", seats=5, turn_timeout=60)
        await remote.join(room.id, "Bob")
        await remote.create_room("Dodge City", seats=7, pool="base", turn_timeout=0)
        return remote

    bob = fixed_host.run(create_rooms())
    app = lobby_app(fixed_host.url, tmp_path / "ann", "Ann")

    async def rooms_listed(pilot: Pilot) -> None:
        for _ in range(300):
            tables = pilot.app.screen.query(DataTable)
            if tables and tables.first().row_count == 2:
                break
            await asyncio.sleep(0.02)
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=rooms_listed)
    finally:
        fixed_host.run(bob.close())
