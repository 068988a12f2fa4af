"""The English log's wording where it was wrong: who won, and a Duel lost by its challenger."""

from __future__ import annotations

import pytest

from shared.describe import describe
from shared.model import Event

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize(("side", "line"), [
    ("sheriff", "Game over: the Sheriff and the Deputies win"),
    ("outlaws", "Game over: the Outlaws win"),
    ("renegade", "Game over: the Renegade wins"),
    ("3p_deputy", "Game over: the Deputy wins"),
])
def test_the_winners_are_named_with_the_right_verb(side: str, line: str) -> None:
    assert describe(Event("game_over", side=side), NAMES) == line


def test_a_challenger_who_loses_his_own_duel() -> None:
    hit = Event("hit", seat=0, target=0, count=1, value=3)
    assert describe(hit, NAMES) == "Ann loses 1 life (own Duel): 3 left"
    assert describe(Event("hit", seat=1, target=0, count=1, value=2), NAMES) == \
        "Bob loses 1 life (by Ann): 2 left"
