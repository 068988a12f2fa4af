"""Table talk in the real app (`Pilot`) against a real host over the embedded broker."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from client_helpers import Player, lobby_app, table_of, until
from test_local import local_app
from test_networked import seat_ann_with
from textual.widgets import DataTable

from client.screens.lobby import LobbyIntent, LobbyScreen
from client.widgets.chat import ChatPane
from shared import protocol as p
from shared.setup import Scenario


async def type_text(pilot, text: str) -> None:  # noqa: ANN001
    await pilot.press(*("space" if char == " " else char for char in text))


async def heard(player: Player, check: Callable[[p.Chat], bool], timeout: float = 10) -> p.Chat:
    """The next chat line `player`'s client receives that satisfies `check`."""
    async def read() -> p.Chat:
        async for update in player.remote.updates():
            if isinstance(update, p.Chat) and check(update):
                return update
        raise AssertionError("the update stream ended")

    return await asyncio.wait_for(read(), timeout)


def pane_of(app) -> ChatPane:  # noqa: ANN001
    return table_of(app).query_one(ChatPane)


async def test_players_talk_at_the_table_in_words_and_quick_phrases(
        host, config_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        pane = pane_of(app)
        assert pane.display, "two people at the table: the chat shows by itself"
        await bob.remote.say(room, text="Howdy [b]partner[/] \x1b[2J")
        await until(pilot, lambda: "Bob: Howdy [b]partner[/] [2J" in pane.text(),
                    what="Bob's line, shown as typed")
        await pilot.press("m")
        await until(pilot, lambda: pane.input.has_focus, what="the chat's input focused")
        await type_text(pilot, "hi Bob")
        await pilot.press("enter")
        line = await heard(bob, lambda c: c.text == "hi Bob")
        assert (line.name, line.seat, line.channel) == ("Ann", 1, "table")
        await until(pilot, lambda: "Ann: hi Bob" in pane.text(), what="Ann's own line")
        await pilot.press("escape")
        await until(pilot, lambda: not pane.input.has_focus, what="back to the table")
        await pilot.press("f2")  # the first quick phrase, from the table
        assert (await heard(bob, lambda c: bool(c.phrase))).phrase == "deputy"
        await until(pilot, lambda: "Ann: I'm the Deputy!" in pane.text(), what="the phrase")


async def test_a_phrase_reads_in_the_readers_language(host, config_dir: Path,
                                                      tmp_path: Path) -> None:
    app = lobby_app(host.url, config_dir, "Ann", lang="it")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        await bob.remote.say(room, phrase="nice_shot")
        await until(pilot, lambda: "Bob: Bel colpo!" in pane_of(app).text(),
                    what="the phrase in Italian")


async def test_mute_hides_a_speaker_and_x_hides_the_chat(host, config_dir: Path,
                                                         tmp_path: Path) -> None:
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        pane = pane_of(app)
        await pilot.press("m")
        await until(pilot, lambda: pane.input.has_focus, what="the chat's input")
        await type_text(pilot, "/mute bob")
        await pilot.press("enter")
        await bob.remote.say(room, text="you cannot hear me")
        await bob.remote.say(room, text="marker")  # Ann's own line after it, to wait on
        await pilot.press(*"ok", "enter")
        await until(pilot, lambda: "Ann: ok" in pane.text(), what="Ann's line")
        assert "you cannot hear me" not in pane.text() and "marker" not in pane.text()
        await type_text(pilot, "/unmute Bob")
        await pilot.press("enter", "escape")
        await bob.remote.say(room, text="back again")
        await until(pilot, lambda: "Bob: back again" in pane.text(), what="Bob heard again")
        await pilot.press("x")
        assert not pane.display
        await bob.remote.say(room, text="while hidden")
        await pilot.pause(0.3)
        assert not pane.display, "hidden by hand: a new line does not bring it back"
        await pilot.press("m")
        await until(pilot, lambda: pane.display and pane.input.has_focus, what="chat back")
        await until(pilot, lambda: "while hidden" in pane.text(), what="the line kept")


async def test_talk_in_the_lobby_of_a_waiting_room(host, config_dir: Path,
                                                   tmp_path: Path) -> None:
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, app.run_test(size=(100, 30)) as pilot:
        room = await bob.remote.create_room("Saloon", seats=4)
        await bob.remote.join(room.id, "Bob")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.query_one("#rooms", DataTable).row_count == 1,
                    what="the room")
        assert not lobby.chat.display, "no room of ours yet: nothing to talk in"
        await pilot.press("enter")
        await until(pilot, lambda: lobby.my_room == room.id, what="Ann's seat")
        assert lobby.chat.display
        await bob.remote.say(room.id, text="ready when you are")
        await until(pilot, lambda: "Bob: ready when you are" in lobby.chat.text(),
                    what="Bob's line in the lobby")
        await pilot.press("m")
        await until(pilot, lambda: lobby.chat.input.has_focus, what="the chat's input")
        await type_text(pilot, "almost")
        await pilot.press("enter")
        assert (await heard(bob, lambda c: c.text == "almost")).name == "Ann"


async def test_a_spectator_talks_with_the_spectators_only(host, config_dir: Path,
                                                          tmp_path: Path) -> None:
    async with Player(host.url, tmp_path / "bob") as bob, \
            Player(host.url, tmp_path / "carl") as carl:
        room = await bob.remote.create_room("Saloon", seats=4, turn_timeout=0)
        await bob.remote.join(room.id, "Bob")
        await bob.remote.start(room.id, bots=True)
        await carl.remote.watch(room.id, "Carl")
        app = lobby_app(host.url, config_dir, "Eve", LobbyIntent(watch=room.id),
                        spectator=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: table_of(app) is not None and table_of(app).view,
                        what="the watched table")
            pane = pane_of(app)
            assert pane.display
            await pilot.press("m")
            await until(pilot, lambda: pane.input.has_focus, what="the chat's input")
            await type_text(pilot, "the Sheriff looks nervous")
            await pilot.press("enter")
            line = await heard(carl, lambda c: c.text.startswith("the Sheriff"))
            assert (line.channel, line.name, line.seat) == ("spectators", "Eve", None)
            await until(pilot, lambda: "[spectators] Eve: the Sheriff" in pane.text(),
                        what="Eve's line, marked as the spectators'")
            await bob.remote.say(room.id, text="table talk")
            await until(pilot, lambda: "Bob: table talk" in pane.text(),
                        what="the table's talk, heard by spectators")
            assert [c.text for c in await chats_within(bob, 1.0)] == ["table talk"], \
                "Bob plays: he hears his own line, never the spectators'"


async def chats_within(player: Player, seconds: float) -> list[p.Chat]:
    """Every chat line `player` receives in the next `seconds`."""
    lines: list[p.Chat] = []

    async def read() -> None:
        async for update in player.remote.updates():
            if isinstance(update, p.Chat):
                lines.append(update)

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(read(), seconds)
    return lines


async def test_a_decision_arriving_while_typing_leaves_the_keys_in_the_chat() -> None:
    """Rosa types while the bots play; her turn comes: the line she types keeps the keys,
    and Esc hands them to the decision."""
    app = local_app(Scenario(turn=1, start="play"), bot_delay=0.2)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        assert table.view.pending.seat != 0
        await pilot.press("m")
        pane = pane_of(app)
        await until(pilot, lambda: pane.input.has_focus, what="the chat's input")
        await type_text(pilot, "hold on")
        await until(pilot, lambda: table.view.pending.seat == 0, timeout=30, what="Rosa's turn")
        await pilot.pause(0.2)
        assert pane.input.has_focus and pane.input.value == "hold on"
        await pilot.press("escape")
        await until(pilot, lambda: table.panel.has_focus, what="the choices")
