"""`bang play --offline --lang es|hu`: the real app, started from the command line's own
arguments, shows the table, the log, the footer and the rules in that language."""

from __future__ import annotations

import pytest
from client_helpers import table_of, until
from test_hostile_text import screen_text

from client.app import BangApp
from client.cli import build_parser
from client.commands.common import settings_for
from client.commands.play import offline_session
from client.widgets.log import GameLog

#: Seed 5 deals Rosa a Deputy at a five-player table; the first log lines are the game's start.
SHOWN = {
    "es": ["partida local", "Ayudante", "en mano", "Tu mano:", "Crónica", "Ayuda"],
    "hu": ["helyi játék", "Helyettes", "kézben", "A kezed:", "Napló", "Súgó"],
}
LOG_START = {
    "es": ["Empieza una partida de 5 jugadores", "— Turno 1: Bot 3 —"],
    "hu": ["Új játék kezdődik 5 játékossal", "— 1. kör: Bot 3 —"],
}
RULES = {"es": "BANG! en pocas palabras", "hu": "A BANG! röviden"}


@pytest.mark.parametrize("lang", ["es", "hu"])
async def test_the_table_speaks_the_language_given_with_lang(
        lang: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    args = build_parser().parse_args(["play", "--offline", "--lang", lang, "--seed", "5",
                                      "--bot-delay", "60", "--name", "Rosa"])
    settings = settings_for(args)
    app = BangApp(offline_session(args, settings.name), lang=settings.lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (t := table_of(app)) is not None and t.view is not None,
                    what="the table")
        await until(pilot, lambda: all(text in screen_text(app) for text in SHOWN[lang]),
                    what=f"the table in {lang}")  # the footer comes a moment after the table
        shown = screen_text(app)
        assert "Your hand" not in shown and "in hand" not in shown
        log = app.screen.query_one(GameLog).text().split("\n")
        assert log[:2] == LOG_START[lang]
        await pilot.press("f1")
        await until(pilot, lambda: RULES[lang] in screen_text(app), what="the rules")
