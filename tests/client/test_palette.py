"""The command palette speaks the player's language: our commands, our placeholder, none of
Textual's English ones."""

from __future__ import annotations

from client_helpers import table_of, until
from textual.command import CommandInput, CommandPalette

from client.app import BangApp
from client.session import LocalSession, LocalTable
from shared.setup import Setup


def italian_app() -> BangApp:
    table = LocalTable(setup=Setup(players=4, seed=5), seat=0, bot_delay=60.0)
    return BangApp(LocalSession(table), lang="it")


async def test_the_palette_is_in_italian() -> None:
    app = italian_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        titles = [c.title for c in app.get_system_commands(table_of(app))]
        assert titles == ["Aiuto", "Tema chiaro/scuro", "Fine del turno",
                          "Mostra/nascondi la cronaca", "Esci", "Schermata"]
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        assert app.screen.query_one(CommandInput).placeholder == "Cerca un comando…"


async def test_ctrl_c_says_how_to_quit_in_the_players_language() -> None:
    app = italian_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.press("ctrl+c")
        await until(pilot, lambda: any("Ctrl+Q" in str(n.message) for n in app._notifications),
                    what="the notice")
        assert [n.message for n in app._notifications] == ["Premi Ctrl+Q per uscire"]


async def test_no_screenshot_through_the_door(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("BANG_DOOR", "1")
    app = italian_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        titles = [c.title for c in app.get_system_commands(table_of(app))]
        assert "Schermata" not in titles and "Esci" in titles
