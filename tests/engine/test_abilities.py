"""The characters' registry: every character's ability is written once, as its data
(shared/characters.py) and, when it acts at a moment of the game, its `Ability`
(shared/engine/abilities.py); a new character plugs in from outside the engine."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from table import Table

from shared.characters import CHARACTERS, NO_ABILITY, Character
from shared.engine.abilities import ABILITIES, ACTION_OWNERS, FRAME_OWNERS, Ability
from shared.engine.core import EngineCore

#: The fields of a character that are not what its ability changes.
PRINTED = {"key", "name", "life", "base", "ability"}


def changes(character: Character) -> dict[str, object]:
    """What the character's data changes from a character without an ability."""
    return {f.name: getattr(character, f.name) for f in dataclasses.fields(Character)
            if f.name not in PRINTED
            and getattr(character, f.name) != getattr(NO_ABILITY, f.name)}


def test_every_character_has_its_ability_written_somewhere() -> None:
    for key, character in CHARACTERS.items():
        assert key in ABILITIES or changes(character), key
    assert set(ABILITIES) <= set(CHARACTERS)
    assert all(ability.key == key for key, ability in ABILITIES.items())


def test_each_action_and_frame_of_an_ability_has_one_owner() -> None:
    actions = [kind for ability in ABILITIES.values() for kind in ability.actions]
    frames = [frame for ability in ABILITIES.values() for frame in ability.frames]
    assert len(actions) == len(set(actions)) == len(ACTION_OWNERS)
    assert len(frames) == len(set(frames)) == len(FRAME_OWNERS)


class Hoarder(Ability):
    """A character written in this file: each hit draws him two cards."""

    key = "hoarder"

    def hit(self, engine: EngineCore, seat: int, amount: int, card_player: int | None) -> None:
        engine.draw_to_hand(seat, 2 * amount)


@pytest.fixture(scope="module")  # until the tables of the test are replayed (conftest)
def hoarder() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(CHARACTERS, "hoarder", Character(
            "hoarder", "The Hoarder", 4, False, "Draws 3 in phase 1, and 2 cards for each hit.",
            draws=3, cover=1))
        patch.setitem(ABILITIES, "hoarder", Hoarder())
        yield


@pytest.mark.usefixtures("hoarder")
def test_a_character_plugs_in_without_touching_the_engine() -> None:
    t = Table([None, "hoarder", None, None], hands={0: ["BANG! A♠", "Panic! J♥"], 1: ["Beer"]},
              in_play={0: ["Schofield"]}, deck=[f"Missed! {rank}♠" for rank in range(2, 7)])
    assert not t.can(0, "play", card="Panic! J♥", target=1)  # his cover: distance 2
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.life(1) == 3 and len(t.hand(1)) == 3  # the Beer and two cards
    t.act(0, "end_turn")
    assert len(t.hand(1)) == 6  # three more in his phase 1
