"""No slips: which choices ask first, which traps get a warning, which decision answers itself,
and why a seat is left out of a card's targets.

The client holds no rules: every answer here is read from the view's `options` (what the
engine offers), and the reasons only explain a seat the options already leave out.
"""

from __future__ import annotations

from client.i18n import I18n
from shared.cards import CARDS, KEY
from shared.characters import CHARACTERS, NO_ABILITY
from shared.model import Action
from shared.roles import SHERIFF
from shared.views import TableView

#: Seconds a lone "Take the hit" waits, with a visible countdown, before it answers itself.
AUTO_DELAY = 1.5
#: Cards aimed at one player, which Apache Kid shrugs off when they are Diamonds.
_AIMED = frozenset({"bang", "panic", "cat_balou", "duel", "jail"})
#: Cards that take a card from someone: a seat with none is why they leave it out.
_TAKING = frozenset({"panic", "cat_balou"})


def _names(i18n: I18n, cards: set[int]) -> str:
    return ", ".join(sorted({i18n.card_name(KEY[card]) for card in cards}))


def confirmation(action: Action, view: TableView, i18n: I18n) -> str | None:
    """The question to ask before `action`, or None to send it at once: ending the turn while
    a card could still be played, taking a hit or falling while a card could still answer."""
    others = [a for a in view.options if a != action]
    if action.kind == "end_turn":
        cards = {a.card for a in others if a.kind == "play" and a.card is not None}
        return i18n.t("confirm_end_turn", cards=_names(i18n, cards)) if cards else None
    if action.kind in ("take_hit", "die"):
        cards = {a.card for a in others if a.kind in ("missed", "beer", "discard_bang")
                 and a.card is not None}
        savers = [_names(i18n, cards)] if cards else []
        if any(a.kind == "barrel" for a in others):
            savers.append(i18n.card_name("barrel"))
        if savers:
            key = "confirm_take_hit" if action.kind == "take_hit" else "confirm_die"
            return i18n.t(key, cards=", ".join(savers))
    return None


def auto_answer(view: TableView) -> Action | None:
    """The one decision that loses nothing by answering itself: a hit with nothing to answer."""
    options = view.options
    if len(options) == 1 and options[0].kind == "take_hit":
        return options[0]
    return None


def warnings(view: TableView, selected: int | None, i18n: I18n) -> list[str]:
    """Traps in the decision of the moment: a shot that one Missed! will not stop, a Beer at
    full life."""
    pending, found = view.pending, []
    if pending is not None and pending.kind == "respond_shot" and pending.needed > 1:
        have = sum(1 for a in view.options if a.kind in ("missed", "barrel"))
        if have < pending.needed:
            card = i18n.card_name(KEY[pending.card]) if pending.card is not None else "BANG!"
            found.append(i18n.t("warn_needs_more", card=card, n=pending.needed, have=have,
                                missed=i18n.card_name("missed")))
    me = view.players[view.viewer] if view.viewer is not None else None
    if selected is not None and KEY[selected] == "beer" and me is not None \
            and me.life >= me.max_life \
            and any(a.kind == "play" and a.card == selected for a in view.options):
        found.append(i18n.t("warn_beer_full", card=i18n.card_name("beer")))
    return found


def left_out(view: TableView, card: int, seat: int, i18n: I18n) -> str | None:
    """Why `card` cannot be aimed at `seat`, when the options leave that seat out and there is
    a reason a player can see on the table; None when there is none to tell."""
    player, key = view.players[seat], KEY[card]
    if not player.alive or seat == view.viewer or key not in _AIMED:
        return None
    if CHARACTERS.get(player.character, NO_ABILITY).immune_to == CARDS[card].suit:
        return i18n.t("why_immune")
    if key == "bang" and not player.in_reach and player.distance is not None:
        return _out_of_reach(i18n, player.distance, view.reach)
    if key in _TAKING and player.hand_count == 0 and not player.in_play:
        return i18n.t("why_no_cards")
    if key == "panic" and player.distance is not None and player.distance > 1:
        return _out_of_reach(i18n, player.distance, 1)
    if key == "jail":
        if player.role == SHERIFF:
            return i18n.t("why_sheriff")
        if any(KEY[c] == "jail" for c in player.in_play):
            return i18n.t("why_jailed")
    return None


def _out_of_reach(i18n: I18n, distance: int, reach: int) -> str:
    """"dist 2 > reach 1", from the seat's own marks."""
    return f"{i18n.t('distance', d=distance)} > {i18n.t('reach', n=reach)}"


def not_now(view: TableView, card: int, i18n: I18n) -> str:
    """Why a card of our hand cannot be played in our decision of the moment."""
    if KEY[card] == "bang" and view.bangs_played >= 1 and view.pending is not None \
            and view.pending.kind == "play":
        return i18n.t("one_bang", card=i18n.card_name("bang"))
    return i18n.t("not_now")
