"""A compact seat's cards in play are never hidden behind an ellipsis."""

from __future__ import annotations

from textual.content import Content

from client.widgets.seat import _compact_in_play


def test_cards_in_play_fit_by_shortening_never_by_hiding() -> None:
    where, short = Content("dist 3 ✗"), Content("3✗")
    line, shown = _compact_in_play([("Volcanic", "(1)")], where, short, 26)
    assert (line.plain, shown) == ("  Volcanic(1)", where)  # fits: as it was
    line, shown = _compact_in_play([("Barrel", ""), ("Mustang", "")], where, short, 26)
    assert (line.plain, shown) == ("Barrel · Mustang", short)  # the distance gives way
    names = [("Volcanic", "(1)"), ("Barrel", ""), ("Mustang", ""), ("Dynamite", ""),
             ("Jail", "")]
    line, shown = _compact_in_play(names, where, short, 26)
    assert "…" not in line.plain and line.cell_length + 1 + shown.cell_length <= 26
    assert [part.strip()[0] for part in line.plain.split("·")] == ["V", "B", "M", "D", "J"]
