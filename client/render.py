"""Turning view data into text: card labels with coloured suits, life bullets, and a readable
line for every action the engine offers. Presentation only: no rule is decided here."""

from __future__ import annotations

import re

from textual.content import Content

from client.i18n import I18n
from client.plaintext import clean
from shared.cards import CARDS, SUIT_SYMBOL, WEAPON_REACH
from shared.characters import CHARACTERS
from shared.model import Action
from shared.views import PlayerView, TableView

RED_SUITS = frozenset({"hearts", "diamonds"})
SUIT_STYLE = "$text-error bold"  # a theme colour: red on dark and light themes alike
COLT = "Colt .45"


def card_plain(card_id: int, i18n: I18n) -> str:
    card = CARDS[card_id]
    return f"{i18n.card_name(card.key)} {card.rank}{SUIT_SYMBOL[card.suit]}"


def card_content(card_id: int, i18n: I18n, style: str = "") -> Content:
    """'Missed! 8♥' with the rank and suit in red for Hearts and Diamonds."""
    card = CARDS[card_id]
    suit_style = SUIT_STYLE if card.suit in RED_SUITS else ""
    return Content.assemble(
        (i18n.card_name(card.key), style),
        " ",
        (f"{card.rank}{SUIT_SYMBOL[card.suit]}", suit_style),
    )


RED_CARD = re.compile(r"(10|[2-9JQKA])[♥♦]")


def red_suits(text: str) -> Content:
    """`text` with every Hearts and Diamonds rank-and-suit in red (log lines, choices). Such
    lines quote players' names, so the text is cleaned first."""
    text = clean(text)
    content = Content(text)
    for match in RED_CARD.finditer(text):
        content = content.stylize(SUIT_STYLE, match.start(), match.end())
    return content


def life_bullets(player: PlayerView) -> str:
    return "●" * max(player.life, 0) + "○" * max(player.max_life - player.life, 0)


def weapon(player: PlayerView, i18n: I18n) -> tuple[str, int]:
    """The weapon in play with its printed reach (the Colt .45 when there is none)."""
    for card_id in player.in_play:
        key = CARDS[card_id].key
        if key in WEAPON_REACH:
            return i18n.card_name(key), WEAPON_REACH[key]
    return COLT, 1


def blue_cards(player: PlayerView) -> list[int]:
    """Cards in play other than the weapon."""
    return [c for c in player.in_play if CARDS[c].key not in WEAPON_REACH]


def player_name(view: TableView, seat: int | None) -> str:
    """The name of `seat`, cleaned for display (see client.plaintext)."""
    if seat is None or not 0 <= seat < len(view.players):
        return "?"
    return clean(view.players[seat].name)


def other_character(view: TableView) -> str:
    """The name of the character the viewer may switch to (High Noon's New Identity)."""
    key = view.other_character
    return CHARACTERS[key].name if key in CHARACTERS else "?"


def describe_action(action: Action, view: TableView, i18n: I18n) -> str:
    """A line a person can read for one legal action."""
    values: dict[str, object] = {"kind": action.kind, "character": other_character(view)}
    if action.card is not None:
        values["card"] = card_plain(action.card, i18n)
    if action.target is not None:
        values["target"] = player_name(view, action.target)
    if action.pick is not None:
        values["pick"] = card_plain(action.pick, i18n)
    if action.cards:
        values["cards"] = " + ".join(card_plain(c, i18n) for c in action.cards)
    kind = action.kind
    if kind == "play":
        if action.target is None:
            return i18n.t("act_play", **values)
        if action.pick is not None:
            return i18n.t("act_play_pick", **values)
        if CARDS[action.card].key in ("panic", "cat_balou"):  # type: ignore[index]
            return i18n.t("act_play_random", **values)
        return i18n.t("act_play_target", **values)
    if kind == "pick" and view.pending is not None and view.pending.kind == "lucky_pick":
        kind = "lucky_pick"
    if kind == "pass" and view.pending is not None and view.pending.kind == "new_identity":
        kind = "keep_identity"
    try:
        return i18n.t(f"act_{kind}", **values)
    except KeyError:
        return i18n.t("act_other", **values)


def describe_decision(view: TableView, i18n: I18n, waiting: bool = False) -> str:
    """What the pending decision asks: to the deciding seat, or (`waiting`) what the others
    see them doing."""
    pending = view.pending
    if pending is None:
        return ""
    values = {
        "source": player_name(view, pending.source),
        "card": card_plain(pending.card, i18n) if pending.card is not None else "BANG!",
        "n": pending.needed or 1,
        "kind": pending.kind,
        "character": other_character(view),
    }
    prefix = "wait" if waiting else "ask"
    try:
        return i18n.t(f"{prefix}_{pending.kind}", **values)
    except KeyError:
        return i18n.t(f"{prefix}_other", **values)


def spread(left: Content, right: Content, width: int) -> Content:
    """One row of `width`: `left`, truncated with an ellipsis so that `right` fits against the
    right edge."""
    room = max(0, width - right.cell_length - 1)
    if left.cell_length > room:
        left = left.truncate(room, ellipsis=True)
    return left.pad_right(width - left.cell_length - right.cell_length) + right
