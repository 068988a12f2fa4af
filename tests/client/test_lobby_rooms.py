"""The lobby's rooms: `bang play --lan`'s invite line with the room, default room names that fit,
the create-room form, and where the cursor starts."""

from __future__ import annotations

import pytest
from client_helpers import Player, free_port, lobby_app, table_of, until
from textual.widgets import Checkbox, DataTable, Input, Label, Select, Static

from client.cli import build_parser
from client.commands.common import settings_for
from client.commands.play import lan_lobby
from client.i18n import I18n
from client.screens.create_room import CreateRoomScreen
from shared.names import NAME_MAX


async def test_the_invite_line_names_the_room(tmp_path,  # noqa: ANN001
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    args = build_parser().parse_args(["play", "--lan", "--port", str(free_port()), "--lang",
                                      "it", "--name", "Rosa"])
    app = lan_lobby(args, settings_for(args))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen

        def invite() -> str:
            shown = app.screen.query("#lobby-invite")
            return str(shown.first(Static).render()) if shown and shown.first().display else ""

        await until(pilot, lambda: "--room" in invite(), what="the invite line", timeout=20)
        room = app.remote.seats and next(iter(app.remote.seats))  # type: ignore[union-attr]
        line = invite()
        assert line.startswith("Gli amici nella tua rete entrano con: bang join --broker "
                               "mqtt://")
        assert "--fingerprint SHA256:" in line and f"--room {room}" in line
        await until(pilot, lambda: any(r.name == "Il tavolo di Rosa"
                                       for r in screen.rooms),  # type: ignore[attr-defined]
                    what="the room, named in Italian")
        assert not any("bang join" in str(n.message) for n in app._notifications)  # no toast


@pytest.mark.parametrize("lang", ["en", "it", "es", "hu"])
def test_a_default_table_name_always_fits(lang: str) -> None:
    i18n = I18n(lang)
    assert "Zed" in i18n.table_name("Zed")
    long = i18n.table_name("Bartholomew Longname Jr")  # 23 characters, as long as names go
    assert len(long) <= NAME_MAX and "Bartholomew" in long


async def test_a_room_for_friends_waits_for_them(host, config_dir) -> None:  # noqa: ANN001
    """The create-room form: every field labelled in the player's language, the bot kinds
    too; starting at once with bots is a choice, not the default."""
    app = lobby_app(host.url, config_dir, "Rosa", lang="es")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby._ever_connected, what="the host")  # type: ignore[attr-defined]
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateRoomScreen), what="the form")
        form = app.screen
        labels = [str(label.render()) for label in form.query(Label)]
        assert labels == ["Crear mesa", "Nombre", "Jugadores", "Personajes",
                          "Segundos por turno", "Bots", "High Noon"]
        assert form.query_one("#room-name", Input).value == "La mesa de Rosa"
        assert not form.query_one("#bots", Checkbox).value
        kinds = form.query_one("#bot-kind", Select)
        assert [str(prompt) for prompt, _ in kinds._options if _ is not Select.BLANK] == \
            ["fáciles", "normales", "al azar"]
        high_noon = form.query_one("#high-noon", Select)  # off unless chosen
        assert high_noon.value == "" and [str(prompt) for prompt, _ in high_noon._options] == \
            ["no", "12 cartas evento", "+ cartas extra"]
        await pilot.press("enter")  # in the name field: create
        await until(pilot, lambda: lobby.my_room is not None,  # type: ignore[attr-defined]
                    what="Rosa seated in her room")
        rooms = await lobby.remote.list_rooms()  # type: ignore[attr-defined]
        (room,) = [r for r in rooms if r.id == lobby.my_room]  # type: ignore[attr-defined]
        assert room.status == "waiting" and room.name == "La mesa de Rosa"
        assert room.options.expansions == [] and room.options.high_noon is None


async def test_a_high_noon_room_says_so_in_the_list(host, config_dir) -> None:  # noqa: ANN001
    """The form's High Noon choice reaches the room's options, and the list names it."""
    app = lobby_app(host.url, config_dir, "Rosa")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby._ever_connected, what="the host")  # type: ignore[attr-defined]
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateRoomScreen), what="the form")
        app.screen.query_one("#high-noon", Select).value = "bonus"
        await pilot.pause()
        app.screen.submit()  # type: ignore[attr-defined]
        await until(pilot, lambda: lobby.my_room is not None,  # type: ignore[attr-defined]
                    what="Rosa seated in her room")
        rooms = await lobby.remote.list_rooms()  # type: ignore[attr-defined]
        (room,) = [r for r in rooms if r.id == lobby.my_room]  # type: ignore[attr-defined]
        assert room.options.expansions == ["high_noon"] and room.options.high_noon.bonus
        table = lobby.query_one("#rooms", DataTable)
        await until(pilot, lambda: table.row_count == 1, what="the room listed")
        await until(pilot, lambda: "High Noon" in str(table.get_row_at(0)[-1]),
                    what="High Noon in the list")


async def test_the_cursor_starts_on_a_room_open_to_players(host, config_dir,  # noqa: ANN001
                                                          tmp_path) -> None:  # noqa: ANN001
    async with Player(host.url, tmp_path / "bob") as bob:
        solo = await bob.remote.create_room("Old solo", seats=3)
        await bob.remote.join(solo.id, "Bob")
        await bob.remote.start(solo.id, bots=True)
        saloon = await bob.remote.create_room("Saloon", seats=4)
        app = lobby_app(host.url, config_dir, "Ann")
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = app.screen
            table = lobby.query_one("#rooms", DataTable)
            await until(pilot, lambda: table.row_count == 2, what="both rooms")
            assert lobby.rooms[table.cursor_row].id == saloon.id  # type: ignore[attr-defined]
            later = await bob.remote.create_room("Later", seats=4)
            await until(pilot, lambda: table.row_count == 3, what="the new room")
            assert lobby.rooms[table.cursor_row].id == saloon.id, "the cursor stays put"  # type: ignore[attr-defined]
            await pilot.press("down")
            assert lobby.rooms[table.cursor_row].id == later.id  # type: ignore[attr-defined]


async def test_the_creator_goes_back_to_the_lobby_and_returns(host, config_dir) -> None:  # noqa: ANN001
    """`b Lobby` at a table the player created and started from the lobby: the lobby again,
    the seat kept; choosing the room brings the same seat back."""
    app = lobby_app(host.url, config_dir, "Rosa")
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby._ever_connected, what="the host")  # type: ignore[attr-defined]
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateRoomScreen), what="the form")
        await pilot.press("enter")
        await until(pilot, lambda: lobby.my_room is not None, what="seated")  # type: ignore[attr-defined]
        room = lobby.my_room  # type: ignore[attr-defined]
        await pilot.press("s")
        await until(pilot, lambda: table_of(app) is not None and table_of(app).view is not None,
                    what="the table")
        seat = table_of(app).view.viewer  # type: ignore[union-attr]
        await pilot.press("b")
        await until(pilot, lambda: app.screen is lobby, what="the lobby again")
        await pilot.pause(1.0)  # the game goes on (bots, timeouts): the lobby stays
        assert app.screen is lobby
        table = lobby.query_one("#rooms", DataTable)
        await until(pilot, lambda: table.row_count >= 1
                    and lobby.rooms[table.cursor_row].id == room,  # type: ignore[attr-defined]
                    what="the cursor on our room")
        await pilot.press("enter")
        await until(pilot, lambda: table_of(app) is not None and table_of(app).view is not None,
                    what="the table again")
        assert table_of(app).view.viewer == seat  # type: ignore[union-attr]


async def test_a_refusal_reads_in_the_players_language(host, config_dir,  # noqa: ANN001
                                                      tmp_path) -> None:  # noqa: ANN001
    """The host's refusals are English; the lobby says them in the player's language."""
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob.remote.create_room("Saloon", seats=4)
        await bob.remote.join(room.id, "Rosa")
        app = lobby_app(host.url, config_dir, "rosa", lang="it")  # a namesake, any case
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            lobby = app.screen
            table = lobby.query_one("#rooms", DataTable)
            await until(pilot, lambda: table.row_count == 1, what="the room")
            await pilot.press("enter")
            await until(pilot, lambda: any("Questo nome è già preso in questa stanza"
                                           in str(n.message) for n in app._notifications),
                        what="the refusal in Italian")
            assert lobby.my_room is None  # type: ignore[attr-defined]
