"""The real app (`App.run_test` + `Pilot`) against a real host over the embedded broker."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_helpers import Player, answer, free_port, lobby_app, table_of, until
from textual.widgets import DataTable, Static

from client.app import BangApp
from client.net import Remote
from client.screens.game_over import GameOverScreen
from client.screens.lobby import LobbyIntent, LobbyScreen
from client.widgets.choices import ChoicePanel
from client.widgets.hand import HandView
from client.widgets.log import GameLog
from client.widgets.seat import SeatPanel
from client.widgets.status import StatusBar
from server.store import Store
from shared.cards import CARDS
from shared.engine.refs import resolve
from shared.model import Action
from shared.setup import Scenario, SeatRig

# Rigged 4-seat tables: the test's Player sits at seat 0, the app's user ("Ann") at seat 1.
CHARACTERS = ["willy_the_kid", "vulture_sam", "pixie_pete", "rose_doolan"]
LAW_FIRST = ["sheriff", "outlaw", "renegade", "outlaw"]


def card(ref: str) -> int:
    return resolve(ref, range(len(CARDS)))


def log_text(app) -> str:  # noqa: ANN001
    return table_of(app).query_one(GameLog).text()


async def seat_ann_with(player: Player, pilot, app, seats: int = 4,  # noqa: ANN001
                        name: str = "Bob") -> str:
    """Player (called `name`) creates a room; Ann takes a seat through the lobby and gets
    ready; Player starts it with bots in the free seats. Returns the room id once Ann's table
    is on screen."""
    room = await player.remote.create_room("Saloon", seats=seats, turn_timeout=30)
    assert await player.remote.join(room.id, name) == 0
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await until(pilot, lambda: lobby.query_one("#rooms", DataTable).row_count == 1,
                what="the room in the lobby")
    await pilot.press("enter")
    await until(pilot, lambda: lobby.my_room == room.id, what="Ann's seat")
    await pilot.press("r")
    await until(pilot, lambda: any(s.ready for r in player.remote.lobby.values() if r.id == room.id
                                   for s in r.seats), what="Ann ready")
    await player.remote.start(room.id, bots=True)
    await until(pilot, lambda: table_of(app) is not None and table_of(app).view is not None,
                what="the table")
    return room.id


async def test_a_name_that_looks_like_markup_is_shown_as_it_is(host, config_dir: Path,
                                                               tmp_path: Path) -> None:
    """A stranger named `x[/]` (Textual markup that does not parse) in the lobby and at the
    table: shown as typed, and nobody's client breaks."""
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        await seat_ann_with(bob, pilot, app, seats=3, name="x[/]")
        assert table_of(app).view.players[0].name == "x[/]"
        assert app.is_running


async def test_join_through_the_lobby(host, config_dir: Path, tmp_path: Path) -> None:
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        await seat_ann_with(bob, pilot, app, seats=3)
        table = table_of(app)
        assert table.view.viewer == 1
        assert len(table.query(SeatPanel)) == 3
        assert table.query_one(StatusBar).status == "connected"
        hand = table.query_one(HandView)
        assert hand.cards == table.view.hand
        rendered = str(hand.render())
        for index, card_id in enumerate(hand.cards):
            assert f"{index + 1} {CARDS[card_id].label}" in rendered


async def test_a_bang_answered_with_missed(host, config_dir, tmp_path, rig) -> None:  # noqa: ANN001
    rig(CHARACTERS, LAW_FIRST, Scenario(
        seats=[SeatRig(hand=["BANG! A♠"]), SeatRig(hand=["Missed! 2♠", "Panic! J♥"])],
        turn=0, start="play",
    ))
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        await bob.my_turn(room)
        await bob.act(room, Action("play", card=card("BANG! A♠"), target=1))
        chosen = await answer(pilot, app, "missed")
        assert chosen.card == card("Missed! 2♠")
        table = table_of(app)
        await until(pilot, lambda: "avoids the shot" in log_text(app), what="the miss")
        ann = table.view.players[1]
        assert ann.life == ann.max_life
        assert card("Missed! 2♠") not in table.view.hand
        assert "Bob plays BANG! A♠ on Ann" in log_text(app)


async def test_a_beer_on_a_fatal_hit(host, config_dir, tmp_path, rig) -> None:  # noqa: ANN001
    rig(CHARACTERS, LAW_FIRST, Scenario(
        seats=[SeatRig(hand=["BANG! A♠"]), SeatRig(hand=["Beer 6♥"], life=1)],
        turn=0, start="play",
    ))
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        await bob.my_turn(room)
        await bob.act(room, Action("play", card=card("BANG! A♠"), target=1))
        await answer(pilot, app, "take_hit")
        beer = await answer(pilot, app, "beer")
        assert beer.card == card("Beer 6♥")
        table = table_of(app)
        await until(pilot, lambda: card("Beer 6♥") not in table.view.hand, what="the Beer")
        ann = table.view.players[1]
        assert ann.alive and ann.life == 1
        assert table.view.discard_top == card("Beer 6♥")


async def test_a_general_store_round(host, config_dir, tmp_path, rig) -> None:  # noqa: ANN001
    store = ["Mustang 8♥", "Schofield K♠", "Beer 7♥", "Missed! 3♠"]
    rig(CHARACTERS, LAW_FIRST, Scenario(
        seats=[SeatRig(hand=["General Store Q♠"]), SeatRig(hand=["Panic! J♥"])],
        deck=store, turn=0, start="play",
    ))
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        await bob.my_turn(room)
        await bob.act(room, Action("play", card=card("General Store Q♠")))
        view = await bob.my_turn(room)
        assert sorted(view.pending.shown) == sorted(card(c) for c in store)
        await bob.act(room, Action("pick", pick=card("Mustang 8♥")))
        table = table_of(app)
        await until(pilot, lambda: table.my_options, what="Ann's pick")
        shown = set(table.view.pending.shown)
        assert shown == {card(c) for c in store[1:]}
        assert {a.pick for a in table.panel.actions} == shown
        await answer(pilot, app, "pick", lambda a: a.pick == card("Schofield K♠"))
        await until(pilot, lambda: card("Schofield K♠") in table.view.hand, what="the pick")
        await until(pilot, lambda: log_text(app).count("from the General Store") == 4,
                    what="everyone's pick")


async def test_spectate(host, config_dir, tmp_path) -> None:  # noqa: ANN001
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob.remote.create_room("Saloon", seats=4, turn_timeout=0)
        await bob.remote.join(room.id, "Bob")
        await bob.remote.start(room.id, bots=True)
        await bob.my_turn(room.id)
        app = lobby_app(host.url, config_dir, "Eve", LobbyIntent(watch=room.id),
                        spectator=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: table_of(app) is not None and table_of(app).view,
                        what="the watched table")
            table = table_of(app)
            assert table.view.viewer is None and table.view.hand == ()
            assert not table.query(HandView) and not table.query(ChoicePanel)
            assert "spectating" in str(table.query_one(StatusBar).render())
            assert len(table.query(SeatPanel)) == 4
            roles = [p.role for p in table.view.players if p.role is not None]
            assert roles == ["sheriff"]
            for _ in range(3):  # Bob plays on; the spectator sees each move
                view = await bob.wait_view(room.id, lambda v: v.winner or (
                    v.pending.seat == 0 and v.pending.id != bob.answered))
                if view.winner:  # the bots finished the game (Bob's last move was fatal)
                    await until(pilot, lambda: table.view.winner, what="the end")
                    break
                await bob.act(room.id, view.default)
                await until(pilot, lambda: table.view.pending is None
                            or table.view.pending.id > bob.answered, what="Bob's move")
            assert log_text(app)


async def test_game_over_and_rematch(host, config_dir, tmp_path, rig, monkeypatch) -> None:  # noqa: ANN001
    rig(CHARACTERS, ["outlaw", "sheriff", "renegade", "outlaw"], Scenario(
        seats=[SeatRig(hand=["BANG! A♠"]), SeatRig(hand=[], life=1)],
        turn=0, start="play",
    ))
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        await bob.my_turn(room)
        await bob.act(room, Action("play", card=card("BANG! A♠"), target=1))
        await answer(pilot, app, "take_hit")
        await answer(pilot, app, "die")  # no Beer to save the Sheriff
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), what="game over")
        over = app.screen
        assert over.view.winner == "outlaws"
        assert "the Outlaws" in str(over.query_one("#winner").render())
        rows = over.query_one(DataTable)
        roles = {rows.get_row_at(i)[3] for i in range(rows.row_count)}
        assert roles == {"Outlaw", "Sheriff", "Renegade"}
        monkeypatch.undo()  # the rematch is dealt normally
        await pilot.press("r")
        table = table_of(app)
        await until(pilot, lambda: table.session.room != room and table.view.winner is None,
                    what="the rematch")
        assert table.view.players[table.view.viewer].name == "Ann"


async def test_a_dropped_connection_reconnects_and_says_so(host, config_dir, tmp_path) -> None:  # noqa: ANN001, E501
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        table = table_of(app)
        await until(pilot, lambda: table.view.pending.seat in (0, 1), what="a human's turn")
        before = table.view
        # Every status shown, so a drop that heals between two polls is still seen.
        shown: list[str] = []
        table.watch(table.status_bar, "status", lambda status: shown.append(status), init=False)
        host.restart()  # the broker and the host go away and come back (same data, same port)
        await until(pilot, lambda: "reconnecting" in shown, what="the drop to show")
        await until(pilot, lambda: table.status_bar.status == "connected", timeout=30,
                    what="the reconnection")
        await until(pilot, lambda: table.view is not before, what="a fresh view")
        assert table.view.hand == before.hand and table.view.pending == before.pending
        if before.pending.seat == 0:  # the game goes on where it was
            view = await bob.my_turn(room)
            await bob.act(room, view.default)
        else:
            await table.send(before.default)
        await until(pilot, lambda: table.view.pending is None
                    or table.view.pending.id > before.pending.id, what="the next move")


async def test_bang_play_starts_its_own_broker_and_host(tmp_path) -> None:  # noqa: ANN001
    """`bang play`'s path: embedded broker + host in this process, a room with bots, you."""
    from client.app import BangApp
    from client.embedded import EmbeddedServer, HostedSession
    from shared import protocol as p

    server = EmbeddedServer(tmp_path / "play.sqlite3", port=free_port(), bot_delay=0.05)
    session = HostedSession(server, tmp_path / "play", "Ann",
                            p.RoomOptions(seats=5, turn_timeout=0, bot="normal"), "Ann's table")
    app = BangApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        assert table.status_bar.status == "connected"
        assert table.view.viewer == 0 and len(table.view.players) == 5
        assert [p.name for p in table.view.players][0] == "Ann"
        assert "game for 5 players" in log_text(app)
        room = session.room
        assert room in server.host.rooms  # type: ignore[union-attr]
    # Quitting ends the solo table: it is not restored as "playing" by the next start.
    store = Store(tmp_path / "play.sqlite3")
    assert [r.id for r in store.load_rooms(keep_finished=50)] == []
    store.close()


async def test_an_unreachable_broker_says_so_and_is_not_remembered(config_dir: Path) -> None:
    """Nothing listens on the port: the lobby says it cannot reach the broker (not "connection
    lost"), and `on_connected` (which makes it the default broker) is never called."""
    url = f"mqtt://127.0.0.1:{free_port()}"  # nobody listens there
    reached: list[bool] = []
    remote = Remote(url, config_dir=config_dir)
    app = BangApp(first_screen=lambda app: LobbyScreen(
        remote, "Ann", app.i18n, on_connected=lambda: reached.append(True)), remote=remote)
    async with app.run_test(size=(100, 30)) as pilot:
        status = pilot.app.screen.query_one("#lobby-status", Static)
        await until(pilot, lambda: "cannot reach the broker" in str(status.render()),
                    what="the unreachable broker to be reported")
        assert "connection lost" not in str(status.render())
    assert reached == []


async def test_a_reached_broker_is_reported_once(host, config_dir: Path) -> None:
    reached: list[bool] = []
    remote = Remote(host.url, config_dir=config_dir)
    app = BangApp(first_screen=lambda app: LobbyScreen(
        remote, "Ann", app.i18n, on_connected=lambda: reached.append(True)), remote=remote)
    async with app.run_test(size=(100, 30)) as pilot:
        status = pilot.app.screen.query_one("#lobby-status", Static)
        await until(pilot, lambda: str(status.render()) == "connected", what="the connection")
    assert reached == [True]


@pytest.mark.parametrize("wanted", ["Nowhere Saloon", "abc123", "../#"])
@pytest.mark.parametrize("spectator", [False, True])
async def test_a_room_that_is_not_there_gets_one_clear_message(host, config_dir: Path,
                                                              wanted: str,
                                                              spectator: bool) -> None:
    """`bang join/watch --room X`: an unknown name, an unknown id and a malformed id all get
    the same message."""
    intent = LobbyIntent(watch=wanted) if spectator else LobbyIntent(join=wanted)
    app = lobby_app(host.url, config_dir, "Ann", intent, spectator=spectator)

    def toasts() -> list[str]:
        return [str(toast.render()) for toast in app.screen.query("Toast")]

    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, toasts, what="a toast")
        assert toasts() == [f"No room here is called or numbered {wanted!r}."]
