"""The worked examples of docs/REPLAY.md replay, through the API and through `bang replay`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from client.cli import main
from shared.cards import CARDS
from shared.model import GameState
from shared.record import RecordError, load_record, replay
from shared.serialize import encode_state

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = DOCS / "examples"


def hand(state: GameState, seat: int) -> list[str]:
    return [CARDS[c].label for c in state.players[seat].hand]


#: What each example must end with (the stories told in docs/REPLAY.md).
OUTCOMES: dict[str, Callable[[GameState], bool]] = {
    "barrel.json": lambda s: s.players[1].life == 4 and s.discard[-1] == 68,
    "two_beers.json": lambda s: s.players[1].life == 1 and s.players[1].alive
    and hand(s, 1) == ["Beer 8♥"] and s.turn == 2,
    "duel.json": lambda s: s.players[0].life == 4 and s.players[3].life == 4
    and hand(s, 0) == ["Beer 6♥"],
    "general_store.json": lambda s: s.players[2].in_play == [63] and hand(s, 0) == ["BANG! Q♥"]
    and hand(s, 1) == ["Missed! 2♠"] and s.deck[-1] == 49,
    "henry_block.json": lambda s: hand(s, 0) == ["Scope A♠"] and s.players[0].life == 4,
    "three_players.json": lambda s: s.winner == "3p_outlaw" and s.winners == [1],
    "random_game.json": lambda s: s.winner == "outlaws",
    "high_noon.json": lambda s: getattr(s, "event_active", None) == "the_daltons"
    and s.players[0].in_play == [63] and s.players[1].in_play == []
    and s.players[3].in_play == [73] and s.players[3].life == 3 and s.turn == 1,
}


def test_every_example_is_documented_and_checked() -> None:
    files = {p.name for p in EXAMPLES.glob("*.json")}
    assert files == set(OUTCOMES)
    text = (DOCS / "REPLAY.md").read_text()
    for name in files | {"barrel.msgpack"}:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_example_replays_to_its_story(name: str) -> None:
    state = replay(load_record((EXAMPLES / name).read_bytes()))
    assert OUTCOMES[name](state)


@pytest.mark.parametrize("name", [*sorted(OUTCOMES), "barrel.msgpack"])
def test_bang_replay_runs_the_example(name: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", str(EXAMPLES / name)]) == 0
    log = capsys.readouterr().out
    assert log.startswith("A game for")
    assert main(["replay", "--json", str(EXAMPLES / name)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert len(final["players"]) >= 3


def test_messagepack_example_is_the_json_one() -> None:
    from_json = replay(load_record((EXAMPLES / "barrel.json").read_bytes()))
    from_msgpack = replay(load_record((EXAMPLES / "barrel.msgpack").read_bytes()))
    assert encode_state(from_json) == encode_state(from_msgpack)


def test_a_bad_move_stops_the_replay_with_its_index(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    record = json.loads((EXAMPLES / "barrel.json").read_text())
    record["actions"][0]["target"] = 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record, ensure_ascii=False))
    assert main(["replay", str(bad)]) == 1
    error = capsys.readouterr().err
    assert "action 0 (play by seat 0)" in error and "reach is 1" in error


@pytest.mark.parametrize("change, words", [
    ({"setup": {"players": 8}}, "3 to 7 players"),
    ({"setup": {"players": 4, "pool": "dodge"}}, "unknown character pool"),
    ({"setup": {"players": 4, "roles": ["sheriff", "outlaw", "outlaw", "outlaw"]}},
     "roles for 4 players"),
    ({"setup": {"players": 4, "characters": ["lucky_duke"] * 4}}, "only once"),
    ({"setup": {"players": 4, "characters": ["a", "b", "c", "d"]}}, "unknown character"),
    ({"setup": {"players": 4}, "scenario": {"seats": [{"life": 9}]}}, "outside"),
    ({"setup": {"players": 4}, "scenario": {"deck": ["Barrel", "Barrel", "Barrel"]}},
     "no card 'Barrel' is available"),
    ({"setup": {"players": 4}, "scenario": {"deck": ["Bazooka"]}}, "unknown card"),
    ({"setup": {"players": 4}, "scenario": {"start": "draw"}}, "'start' or 'play'"),
    ({"setup": {"players": 4}, "version": 3}, "version 3"),
    ({"setup": {"players": 4}, "version": 0}, "version 0"),
    ({"setup": {"players": 4}, "colour": "red"}, "not a valid game record"),
])
def test_bad_records_are_refused_with_a_reason(change: dict, words: str) -> None:
    data = json.dumps(change).encode()
    with pytest.raises(RecordError) as error:
        replay(load_record(data))
    assert words in str(error.value)


def test_the_json_snippets_in_the_document_replay() -> None:
    snippets = re.findall(r"```json\n(.*?)```", (DOCS / "REPLAY.md").read_text(), re.S)
    assert snippets
    for snippet in snippets:
        assert replay(load_record(snippet.encode())).pending is not None
