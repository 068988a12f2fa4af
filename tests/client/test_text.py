"""Text: every language complete, every event and every offered action readable, settings."""

from __future__ import annotations

import random
import re
import string
from importlib import resources
from pathlib import Path
from typing import get_args

import pytest
from rich.cells import cell_len

from client.cli import build_parser
from client.commands.common import remember_broker, settings_for
from client.i18n import CATALOGS, LANGUAGES, I18n
from client.lang.catalog import REFUSAL_CODES
from client.log_writer import describe_event
from client.render import describe_action, describe_decision
from client.settings import DEFAULT_BROKER, Settings, load_settings, save_settings
from shared.bots.random_bot import RandomBot
from shared.cards import CARD_NAMES, CARDS
from shared.characters import CHARACTERS
from shared.describe import describe
from shared.engine import apply, start_game
from shared.engine.legality import DECISION_TEXT
from shared.engine.refs import parse_ref
from shared.event_kinds import CHARACTER_CODES, VOCABULARIES, ActionKind, DiscardReason, codes
from shared.events import redact
from shared.high_noon.cards import EVENT_KEYS
from shared.model import Event
from shared.setup import Setup
from shared.views import view

ROOT = Path(__file__).resolve().parents[2]


def log_line(lang: str, event: Event, table, viewer: int | None) -> str:  # noqa: ANN001
    catalog = CATALOGS[lang]
    assert catalog.log is not None
    return describe_event(catalog, catalog.log, event, table, viewer)


def describe_it(event: Event, table, viewer: int | None) -> str:  # noqa: ANN001
    return log_line("it", event, table, viewer)


#: The languages written by client.log_writer (English is shared.describe).
LOG_LANGUAGES = [lang for lang, catalog in CATALOGS.items() if catalog.log is not None]

#: Every event kind the engine emits, read from its source: a new kind fails the tests below
#: until every language can write it.
_SHARED = Path(__file__).resolve().parents[2] / "shared"
EVENT_KINDS = {
    kind
    for path in _SHARED.rglob("*.py")
    for kind in re.findall(r'(?:emit\(|Event\(kind=)\s*"(\w+)"', path.read_text("utf-8"))
}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_language_has_every_text() -> None:
    assert {"en", "it", "es", "hu"} <= set(LANGUAGES)
    english = CATALOGS["en"]
    for lang, catalog in CATALOGS.items():
        assert catalog.ui.keys() == english.ui.keys(), lang
        assert catalog.card_text.keys() == catalog.card_names.keys() == set(CARD_NAMES), lang
        assert catalog.abilities.keys() == set(CHARACTERS), lang
        assert catalog.event_names.keys() == catalog.event_text.keys() == set(EVENT_KEYS), lang
        assert catalog.role_names.keys() == english.role_names.keys(), lang
        for key, text in catalog.ui.items():
            assert fields(text) == fields(english.ui[key]), (lang, key, text)
        assert resources.files("client.help").joinpath(f"rules_{lang}.md").is_file(), lang
    italian = CATALOGS["it"]
    for lang in LOG_LANGUAGES:
        catalog = CATALOGS[lang]
        assert catalog.footer.keys() == italian.footer.keys(), lang
        assert catalog.log is not None and italian.log is not None
        assert catalog.log.lines.keys() == EVENT_KINDS, lang
        words = {"how": VOCABULARIES["how"], "purposes": VOCABULARIES["purpose"],
                 "sources": VOCABULARIES["source"], "zones": VOCABULARIES["zone"],
                 "discard_reasons": codes(DiscardReason), "suits": VOCABULARIES["suit"]}
        for table, all_codes in words.items():  # a word for every code but a character's
            assert getattr(catalog.log, table).keys() == all_codes - CHARACTER_CODES, \
                (lang, table)
        assert {f"side_{side}" for side in VOCABULARIES["side"]} <= catalog.ui.keys(), lang
        assert VOCABULARIES["role"] <= catalog.role_names.keys(), lang
        assert catalog.log.default_chosen.keys() == italian.log.default_chosen.keys(), lang
    with pytest.raises(ValueError):
        I18n("fr")


def test_every_refusal_reads_in_every_language() -> None:
    """Each error code of docs/PROTOCOL.md (and of the client library) has its sentence in
    every language but English, which shows the host's own message."""
    documented = set(re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \| (?:clear|sealed)",
                                (ROOT / "docs" / "PROTOCOL.md").read_text(), re.MULTILINE))
    codes = {code for pair in documented for code in pair if code}
    assert codes and codes <= REFUSAL_CODES
    assert REFUSAL_CODES - codes == {"unreachable", "disconnected", "refused", "game_stopped"}
    assert not CATALOGS["en"].errors
    assert I18n("en").refusal("not_ready", "not ready yet: Bea") == "not ready yet: Bea"
    for lang in LANGUAGES:
        if lang != "en":
            assert CATALOGS[lang].errors.keys() == REFUSAL_CODES | {"other"}, lang
            assert "{code}" in CATALOGS[lang].errors["other"], lang
            assert "Bea" not in I18n(lang).refusal("not_ready", "not ready yet: Bea")


def _width_allowed(english: str, italian: str) -> int:
    """A little wider than the wider of English and Italian, never much (the layouts were
    made for those two and checked at 80x24)."""
    widest = max(cell_len(english), cell_len(italian))
    return widest + max(5, widest * 15 // 100)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang not in ("en", "it")])
def test_new_languages_fit_where_english_and_italian_fit(lang: str) -> None:
    en, it, catalog = CATALOGS["en"], CATALOGS["it"], CATALOGS[lang]
    too_wide = [
        (table, key, text)
        for table in ("ui", "card_names", "card_text", "abilities", "role_names", "footer",
                      "event_names", "event_text")
        for key, text in getattr(catalog, table).items()
        if cell_len(text) > _width_allowed(getattr(en, table).get(key, key),
                                           getattr(it, table)[key])
    ]
    assert not too_wide


def test_every_card_name_of_every_language_is_a_card_reference() -> None:
    for lang, catalog in CATALOGS.items():
        for key, name in catalog.card_names.items():
            assert parse_ref(name) == (key, None, None), (lang, name)
    assert parse_ref("prision 4h") == ("jail", "hearts", "4")  # accents may be left out


@pytest.mark.parametrize("lang", LOG_LANGUAGES)
def test_every_event_kind_has_a_line_in_every_language(lang: str) -> None:
    state, _ = start_game(Setup(players=4, seed=3, names=["Rosa", "Carlo", "Gina", "Tex"]))
    bang = next(c.id for c in CARDS if c.key == "bang")
    for kind in EVENT_KINDS:
        event = Event(kind, seat=0, target=1, card=bang, cards=(bang,), count=1, value=2,
                      purpose="barrel", role="outlaw", side="outlaws", zone="hand",
                      default="end_turn", reason="skipped")
        line = log_line(lang, event, state, 0)
        english = describe(event, state, 0)
        assert line != english and not line.startswith(f"{kind}:"), (kind, line)
        assert "{" not in line, (kind, line)
        for name in ("Rosa", "Carlo"):  # whoever English names, this language names too
            assert (name in line) == (name in english), (kind, name, line)


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


def test_every_event_and_action_reads_in_every_language() -> None:
    languages = [I18n(lang) for lang in LANGUAGES]
    kinds = set()
    for what, item, state, viewer in random_games():
        if what == "event":
            kinds.add(item.kind)
            for lang in LOG_LANGUAGES:
                line = log_line(lang, item, state, viewer)
                assert not line.startswith(f"{item.kind}:") and "{" not in line, line
            assert describe(item, state, viewer)
        else:
            for i18n in languages:
                assert describe_decision(item, i18n)
                for action in item.options:
                    text = describe_action(action, item, i18n)
                    assert text and text != action.kind, (action, text)
    assert {"hit", "play", "draw", "turn_start", "game_over"} <= kinds <= EVENT_KINDS


def test_hidden_cards_stay_hidden_in_italian() -> None:
    state, _ = start_game(Setup(players=4, seed=3))

    secret = Event("draw", seat=1, cards=(5, 30), count=2, private_to=(1,))
    labels = ["BANG! 3♦", "Mancato! 7♠"]
    seen_by_other = describe_it(redact(secret, 2), state, 2)
    assert seen_by_other.endswith("pesca 2 carte")
    assert not any(label in seen_by_other for label in labels)
    assert describe_it(secret, state, 1).endswith("pesca " + ", ".join(labels))


@pytest.mark.parametrize(("lang", "hidden", "shown"), [
    ("es", "roba 2 cartas", "roba ¡BANG! 3♦, ¡Rate! 7♠"),
    ("hu", "húz: 2 lap", "húz: BANG! 3♦, Ne talált! 7♠"),
])
def test_hidden_cards_stay_hidden_in_every_language(lang: str, hidden: str, shown: str) -> None:
    state, _ = start_game(Setup(players=4, seed=3))
    secret = Event("draw", seat=1, cards=(5, 30), count=2, private_to=(1,))
    assert log_line(lang, redact(secret, 2), state, 2).endswith(hidden)
    assert log_line(lang, secret, state, 1).endswith(shown)


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


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("it", "Rosa sopravvive con 1 punto vita", "Rosa sopravvive con 2 punti vita"),
    ("es", "Rosa sobrevive con 1 punto de vida", "Rosa sobrevive con 2 puntos de vida"),
])
def test_life_points_agree_with_their_number(lang: str, one: str, two: str) -> None:
    state, _ = start_game(Setup(players=4, seed=3, names=["Rosa", "Carlo", "Gina", "Tex"]))
    assert log_line(lang, Event("survives", seat=0, value=1), state, 0) == one
    assert log_line(lang, Event("survives", seat=0, value=2), state, 0) == two


def test_every_decision_and_action_kind_has_its_words() -> None:
    """Not only those random games happen to meet (`before_card` is rare)."""
    for lang, catalog in CATALOGS.items():
        for kind in DECISION_TEXT:
            assert f"ask_{kind}" in catalog.ui and f"wait_{kind}" in catalog.ui, (lang, kind)
        for kind in get_args(ActionKind):
            assert f"act_{kind}" in catalog.ui or kind == "play", (lang, kind)
