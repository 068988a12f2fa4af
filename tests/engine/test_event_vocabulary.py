"""Typed events: every event of simulated games carries only its kind's fields, every code is
in its closed set, and every code of every field reads in English and in every language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_type_hints

import msgspec
import pytest

from client.i18n import CATALOGS
from client.log_writer import describe_event
from shared import protocol as p
from shared.bots import make_bot
from shared.cards import CARDS
from shared.characters import CHARACTERS
from shared.describe import describe
from shared.engine import apply, start_game
from shared.event_kinds import (
    CHARACTER_CODES,
    EVENT_KINDS,
    SPECS,
    VOCABULARIES,
    action_code,
    codes,
    role_code,
    side_code,
)
from shared.events import time_up
from shared.model import Event
from shared.setup import Setup
from shared.views import view

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ("seat", "target", "card", "cards", "count", "private_to", "value")
LOG_LANGUAGES = [lang for lang, catalog in CATALOGS.items() if catalog.log is not None]
_DEFAULTS = Event("game_stopped")


def fields_set(event: Event) -> set[str]:
    """The fields of `event` besides its kind that differ from their defaults."""
    return {name for name in Event.__struct_fields__[1:]
            if getattr(event, name) != getattr(_DEFAULTS, name)}


def problems(event: Event) -> list[str]:
    """What is wrong with `event` by shared.event_kinds (nothing: [])."""
    spec = SPECS.get(event.kind)
    if spec is None:
        return [f"unknown kind {event.kind!r}"]
    found = []
    given = fields_set(event)
    extra = given - spec.plain - set(spec.codes)
    if extra:
        found.append(f"{event.kind} carries {sorted(extra)}")
    for name in spec.required - given:
        found.append(f"{event.kind} lacks {name}")
    for name, allowed in spec.codes.items():
        value = getattr(event, name)
        if value is not None and value not in allowed:
            found.append(f"{event.kind}.{name} = {value!r} is not one of {sorted(allowed)}")
    return found


def test_the_vocabularies_are_declared_once() -> None:
    """Event's code fields are typed by the vocabularies, and every kind has a spec."""
    hints = get_type_hints(Event)
    assert codes(hints["kind"]) == EVENT_KINDS == set(SPECS)
    code_fields = [name for name in Event.__struct_fields__ if name not in ("kind", *PLAIN)]
    assert set(code_fields) == set(VOCABULARIES)
    for name in code_fields:
        assert codes(hints[name]) == VOCABULARIES[name], name
    for kind, spec in SPECS.items():
        assert spec.plain <= set(PLAIN), kind
        assert spec.required <= set(spec.codes), kind
        for name, allowed in spec.codes.items():
            assert allowed and allowed <= VOCABULARIES[name], (kind, name)
    used = {(name, code) for spec in SPECS.values() for name, allowed in spec.codes.items()
            for code in allowed}
    assert used == {(name, code) for name, all_codes in VOCABULARIES.items()
                    for code in all_codes}  # no code that no kind can carry
    # A new identity's `character` may be any character; the other fields name only these
    # few, in place of a word (a draw's source, a flip's purpose).
    assert VOCABULARIES["character"] == set(CHARACTERS) <= CHARACTER_CODES
    characters = {code for name, all_codes in VOCABULARIES.items() if name != "character"
                  for code in all_codes if code in CHARACTERS}
    assert characters == {"bart_cassidy", "black_jack", "chuck_wengam", "jose_delgado",
                          "madam_yto", "suzy_lafayette", "colorado_bill"}
    card_keys = {c.key for c in CARDS}
    for code in VOCABULARIES["purpose"] - CHARACTER_CODES:
        assert code in card_keys, code  # a flip is for a card in play, or a character


def test_the_emitted_kinds_are_the_declared_ones() -> None:
    """Every kind the engine's source emits is declared (a new kind needs its spec)."""
    emitted = {kind for path in (ROOT / "shared").rglob("*.py")
               for kind in re.findall(r'(?:emit\(|Event\(kind=)\s*"(\w+)"',
                                      path.read_text("utf-8"))}
    assert emitted == EVENT_KINDS


def test_the_converters_refuse_what_is_not_a_code() -> None:
    assert (role_code("outlaw"), side_code("3p_deputy"), action_code("end_turn")) == \
        ("outlaw", "3p_deputy", "end_turn")
    for convert in (role_code, side_code, action_code):
        with pytest.raises(ValueError):
            convert("Outlaw")


def test_the_wire_refuses_a_code_outside_its_set() -> None:
    good = p.RoomDelta(room="r", seq=1, n=1, events=[Event("play", seat=0, card=1, how="duel")])
    assert p.decode_public(p.encode(good)) == good
    bad = msgspec.msgpack.encode({**msgspec.to_builtins(good), "events": [
        {"kind": "play", "seat": 0, "card": 1, "how": "in the Duel"}]})
    with pytest.raises(p.ProtocolError):
        p.decode_public(bad)


def simulated_events(games: int):  # noqa: ANN201
    """Every event of `games` bot games of 3 to 7 players, with a `time_up` for the default of
    every decision (the driver's own event)."""
    kinds = ["random", "random", "easy", "normal"]
    for game in range(games):
        players = 3 + game % 5
        state, events = start_game(Setup(players=players, seed=1000 + game, pool="all"))
        bots = [make_bot(kinds[(game + seat) % len(kinds)], game * 10 + seat)
                for seat in range(players)]
        yield from events
        while state.winner is None and state.pending is not None:
            decision = state.pending
            yield time_up(decision.seat, decision.default)
            events = apply(state, decision.seat, bots[decision.seat].choose(
                view(state, decision.seat)), decision.id)
            for bot in bots:
                observe = getattr(bot, "observe", None)
                if observe is not None:
                    observe(events)
            yield from events


def test_the_check_finds_what_is_wrong() -> None:
    assert problems(Event("play", seat=0, card=1, how="duel")) == []
    assert problems(Event("play", seat=0, card=1, how="in the Duel"))  # type: ignore[arg-type]
    assert problems(Event("play", seat=0, card=1, zone="hand"))  # not a play's field
    assert problems(Event("eliminated", seat=0))  # its role is missing
    assert problems(Event("discard", seat=0, card=1, reason="skipped"))  # a turn_end's reason
    assert problems(Event("surrender", seat=0))  # type: ignore[arg-type]


def test_every_event_of_simulated_games_is_in_its_vocabulary() -> None:
    seen: dict[str, set[str]] = {name: set() for name in VOCABULARIES}
    kinds = set()
    for event in simulated_events(240):
        assert not problems(event), (event, problems(event))
        kinds.add(event.kind)
        for name in VOCABULARIES:
            value = getattr(event, name)
            if value is not None:
                seen[name].add(value)
    # The games reach most of the vocabulary (a check on the check, not a requirement of it).
    assert {"play", "draw", "flip", "eliminated", "game_over", "time_up", "steal"} <= kinds
    assert seen["how"] == VOCABULARIES["how"]
    assert seen["zone"] == VOCABULARIES["zone"]
    assert {"barrel", "jail", "dynamite"} <= seen["purpose"]
    assert len(seen["side"]) >= 4


# --- every code reads --------------------------------------------------------------------------

def samples(kind: str):  # noqa: ANN201
    """(field, code, event) for every code of every code field of `kind`, and for none
    (field and code None): an event with every plain field of its kind set."""
    spec = SPECS[kind]
    bang = next(c.id for c in CARDS if c.key == "bang")
    plain = {"seat": 0, "target": 1, "card": bang, "cards": (bang,), "count": 1,
             "private_to": (0,), "value": 2}
    base = {name: value for name, value in plain.items() if name in spec.plain}
    first = {name: sorted(allowed)[0] for name, allowed in spec.codes.items()}
    yield None, None, Event(kind, **base, **first)
    for name, allowed in spec.codes.items():
        for code in sorted(allowed):
            yield name, code, Event(kind, **base, **{**first, name: code})
        yield name, None, Event(kind, **base, **{**first, name: None})


NAMES = ["Rosa", "Carlo", "Gina", "Tex"]
#: The one code whose line adds nothing: the turn ends the usual way, after the discard phase.
SILENT = {("turn_end", "reason", "discard")}


class _Player:
    def __init__(self, name: str) -> None:
        self.name = name


class _Table:
    players = [_Player(n) for n in NAMES]


def lines(event: Event) -> dict[str, str]:
    out = {"en": describe(event, NAMES, 0)}
    for lang in LOG_LANGUAGES:
        catalog = CATALOGS[lang]
        assert catalog.log is not None
        out[lang] = describe_event(catalog, catalog.log, event, _Table, 0)
    return out


@pytest.mark.parametrize("kind", sorted(EVENT_KINDS))
def test_every_code_of_every_kind_reads_in_every_language(kind: str) -> None:
    """Each (kind, field, code) gives a line in English and in every catalog: not the kind's
    fallback, no template left, no raw code outside English, no English in the others; and
    the code's word is there (the line differs from the one without the field), except for
    a time_up's default outside the few the log names (a general phrase)."""
    english_words = {"no card left"}
    for name, code, event in samples(kind):
        written = lines(event)
        for lang, line in written.items():
            assert line and not line.startswith(f"{kind}:") and "{" not in line, (lang, line)
            if lang != "en" and code is not None and code not in CHARACTER_CODES:
                assert re.search(rf"\b{re.escape(code)}\b", line) is None, (lang, code, line)
                assert line != written["en"], (lang, line)
                assert not any(word in line for word in english_words), (lang, line)
        if code is None or name == "default":
            continue
        if (kind, name, code) in SILENT:
            continue
        without = lines(msgspec.structs.replace(event, **{name: None}))
        for lang, line in written.items():
            assert line != without[lang], (lang, kind, name, code, line)


def test_a_flip_with_no_card_left_says_so_in_every_language() -> None:
    for purpose in sorted(VOCABULARIES["purpose"]):
        written = lines(Event("flip", seat=0, purpose=purpose))
        assert written["en"].endswith(": no card left"), written["en"]
        shown = lines(Event("flip", seat=0, card=1, purpose=purpose))
        for lang in written:
            assert written[lang] != shown[lang], lang


def test_the_docs_list_every_kind_and_every_code() -> None:
    protocol = (ROOT / "docs" / "PROTOCOL.md").read_text("utf-8")
    for kind in EVENT_KINDS:
        assert f"`{kind}`" in protocol, kind
    for name, all_codes in VOCABULARIES.items():
        assert f"`{name}`" in protocol, name
        for code in all_codes:
            assert f"`{code}`" in protocol, (name, code)
