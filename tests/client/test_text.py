"""Text: every language complete, every event and every offered action readable, settings."""

from __future__ import annotations

import random

import pytest

from client.cli import build_parser
from client.commands.common import remember_broker, settings_for
from client.i18n import CATALOGS, I18n
from client.log_writer import describe_event
from client.render import describe_action, describe_decision
from client.settings import DEFAULT_BROKER, Settings, load_settings, save_settings
from shared.bots.random_bot import RandomBot
from shared.cards import CARD_NAMES
from shared.characters import CHARACTERS
from shared.describe import describe
from shared.engine import apply, start_game
from shared.events import redact
from shared.model import Event
from shared.setup import Setup
from shared.views import view


def describe_it(event: Event, table, viewer: int | None) -> str:  # noqa: ANN001
    italian = CATALOGS["it"]
    assert italian.log is not None
    return describe_event(italian, italian.log, event, table, viewer)


def test_every_language_has_every_text() -> None:
    english = CATALOGS["en"]
    for catalog in CATALOGS.values():
        assert catalog.ui.keys() == english.ui.keys()
        assert catalog.card_text.keys() == catalog.card_names.keys() == set(CARD_NAMES)
        assert catalog.abilities.keys() == set(CHARACTERS)
        assert catalog.role_names.keys() == english.role_names.keys()
    with pytest.raises(ValueError):
        I18n("fr")


def random_games(games: int = 6):  # noqa: ANN201
    """(event, state, viewer) and (view) samples from random-bot games of 3 to 7 players."""
    for game in range(games):
        players = 3 + game % 5
        state, events = start_game(Setup(players=players, seed=game, pool="all"))
        bots = [RandomBot(game * 10 + seat) for seat in range(players)]
        while True:
            for viewer in (None, *range(players)):
                for event in events:
                    yield "event", redact(event, viewer), state, viewer
            if state.winner is not None or state.pending is None:
                break
            seat = state.pending.seat
            yield "view", view(state, seat), state, seat
            events = apply(state, seat, bots[seat].choose(view(state, seat)))


def test_every_event_and_action_reads_in_both_languages() -> None:
    it, en = I18n("it"), I18n("en")
    kinds = set()
    for what, item, state, viewer in random_games():
        if what == "event":
            kinds.add(item.kind)
            line = describe_it(item, state, viewer)
            assert not line.startswith(f"{item.kind}:"), line
            assert describe(item, state, viewer)
        else:
            for i18n in (it, en):
                assert describe_decision(item, i18n)
                for action in item.options:
                    text = describe_action(action, item, i18n)
                    assert text and text != action.kind, (action, text)
    assert {"hit", "play", "draw", "turn_start", "game_over"} <= kinds


def test_hidden_cards_stay_hidden_in_italian() -> None:
    state, _ = start_game(Setup(players=4, seed=3))

    secret = Event("draw", seat=1, cards=(5, 30), count=2, private_to=(1,))
    labels = ["BANG! 3♦", "Mancato! 7♠"]
    seen_by_other = describe_it(redact(secret, 2), state, 2)
    assert seen_by_other.endswith("pesca 2 carte")
    assert not any(label in seen_by_other for label in labels)
    assert describe_it(secret, state, 1).endswith("pesca " + ", ".join(labels))


def test_settings_round_trip_and_flags_override(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    assert load_settings() == Settings()
    save_settings(Settings(name="Rosa", lang="it"))
    assert load_settings().name == "Rosa"
    assert (tmp_path / "settings.json").stat().st_mode & 0o077 == 0
    args = build_parser().parse_args(["join", "--name", "Carlo", "--broker", "mqtt://h:1"])
    settings = settings_for(args)
    assert (settings.name, settings.broker, settings.lang) == ("Carlo", "mqtt://h:1", "it")
    saved = load_settings()  # the last name is kept; the language needs --remember; the
    assert (saved.name, saved.broker, saved.lang) == ("Carlo", DEFAULT_BROKER, "it")  # see below
    remember_broker("mqtt://h:1")  # the lobby calls this once the broker has been reached
    assert load_settings().broker == "mqtt://h:1" and load_settings().name == "Carlo"
    settings_for(build_parser().parse_args(["watch", "--lang", "en"]))
    assert load_settings().lang == "it"
    settings_for(build_parser().parse_args(["watch", "--lang", "en", "--remember"]))
    assert load_settings().lang == "en" and load_settings().name == "Carlo"
    monkeypatch.setenv("BANG_DOOR", "1")  # an SSH door writes nothing
    settings_for(build_parser().parse_args(["join", "--name", "Gina", "--remember"]))
    assert load_settings().name == "Carlo"
    monkeypatch.delenv("BANG_DOOR")
    (tmp_path / "settings.json").write_text("{not json")
    assert load_settings() == Settings()


@pytest.mark.parametrize("command", ["play", "join", "watch"])
def test_commands_have_help_with_examples(command: str, capsys) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and f"bang {command}" in out


def test_random_is_not_used_for_display() -> None:
    """Rendering is a pure function of the view: the same view gives the same text."""
    state, _ = start_game(Setup(players=5, seed=9))
    table = view(state, 0)
    random.seed(1)
    first = [describe_action(a, table, I18n("en")) for a in table.options]
    random.seed(2)
    assert first == [describe_action(a, table, I18n("en")) for a in table.options]
