"""Names show as what they are: normalized, visible, one alphabet for a person; two people of
the same name in a room are told apart by their key id."""

from __future__ import annotations

import unicodedata

import pytest
from hostkit import WireClient
from hypothesis import given
from hypothesis import strategies as st

from server.host import Host
from shared import names
from shared import protocol as p


@pytest.mark.parametrize(("typed", "shown"), [
    ("alice", "alice"), ("  al   ice ", "al ice"), ("ｆｕｌｌ", "full"), ("tab\tx", "tab x"),
    ("Иван", "Иван"), ("山田たろう", "山田たろう"), ("José", "José"), ("x[/]", "x[/]"),
    ("R2-D2 🤠", "R2-D2 🤠"), ("x\u00a0y", "x y"), ("x\u2028y", "x y"),
])
def test_names_are_normalized(typed: str, shown: str) -> None:
    assert names.normalize(typed) == shown


@pytest.mark.parametrize(("typed", "why"), [
    ("", "1-24"), ("   ", "1-24"), ("a" * 25, "1-24"),
    ("\u0430lice", "one alphabet"),  # a Cyrillic а before Latin letters
    ("x\u115f", "U+115F"), ("zero\u200bwidth", "U+200B"), ("a\u202eb", "U+202E"),
    ("x\x1b[2J", "U+001B"), ("\u3164", "U+3164"), ("x\u2060y", "U+2060"),
])
def test_names_that_do_not_show_as_they_are_are_refused(typed: str, why: str) -> None:
    with pytest.raises(names.BadName, match=why.replace("+", r"\+")):
        names.normalize(typed)


def test_a_room_name_may_mix_alphabets() -> None:
    assert names.normalize("Saloon Бар", person=False) == "Saloon Бар"
    with pytest.raises(names.BadName):
        names.normalize("Saloon Бар")


@given(st.text(max_size=40))
def test_an_accepted_name_is_stable_short_and_visible(text: str) -> None:
    try:
        shown = names.normalize(text)
    except names.BadName:
        return
    assert names.normalize(shown) == shown
    assert 1 <= len(shown) <= names.NAME_MAX and shown == shown.strip()
    assert not any(unicodedata.category(c) in names.REFUSED_CATEGORIES for c in shown)
    assert not set(shown) & names.INVISIBLE and len(names.scripts(shown)) <= 1


async def test_the_host_keeps_names_as_shown_and_tells_namesakes_apart(host: Host) -> None:
    ann, ann2, eve = WireClient(host), WireClient(host), WireClient(host)
    room = ann.reply(p.CreateRoom(name="  Saloon ", options=p.RoomOptions(seats=4))).room
    assert room.name == "Saloon"
    assert ann.reply(p.Join(room=room.id, name=" Ann ")).seat == 0
    taken = ann2.reply(p.Join(room=room.id, name="ANN"))
    assert isinstance(taken, p.Error) and taken.code == "name_taken"
    refused = eve.reply(p.Join(room=room.id, name="\u0410nn"))  # a Cyrillic А
    assert isinstance(refused, p.Error) and refused.code == "invalid"
    assert ann2.reply(p.Join(room=room.id, name="Ann 2")).seat == 1
    seats = host.rooms[room.id].info().seats
    assert seats[0].name == "Ann" and seats[0].key == ann.cid[:p.KEY_ID]
    assert seats[1].key == ann2.cid[:p.KEY_ID] != seats[0].key
    assert seats[2].key == ""  # an empty seat
