"""The bots that play to win: every legal option gets a score, the best one is played.

A bot sees only its seat's `TableView` (in `choose`) and, if it reads roles from behaviour
(the normal bot), the public events as redacted for its seat (in `observe`, optional for
hosts: without it the bot plays on known roles only). The easy bot plays on known roles
only, so it has no `observe`: nobody spends time telling it what it would not read."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from shared.bots.beliefs import Beliefs
from shared.bots.evaluate import Situation, keep_value, situation
from shared.bots.plays import score_play, sid_value
from shared.cards import CARDS, KEY
from shared.model import Action, Event
from shared.views import TableView

DIE_SCORE: Final = -100.0
#: Sid Ketchum's ability where healing can wait (picking a card, giving one): the decisions
#: in `_WEIGHS_SID` weigh it; elsewhere it waits for one of those.
SID_LATER: Final = -1.0
#: Standard normal draws, made once: a bot's noise for option i of a decision is the entry at
#: a place mixed from (seed, decision id, i). Seeding a `random.Random` per decision cost a
#: sixth of an easy bot's time.
_NOISE_BITS: Final = 12  # 4,096 draws: a few milliseconds at import
_NOISE_MASK: Final = (1 << _NOISE_BITS) - 1


def _standard_normals(count: int, seed: int) -> tuple[float, ...]:
    draw = random.Random(seed)
    return tuple(draw.gauss(0.0, 1.0) for _ in range(count))


_NOISE: Final = _standard_normals(1 << _NOISE_BITS, seed=1857)
_SEED_MIX: Final = 1_000_003  # spreads neighbouring seeds (seats of one game) apart
_DECISION_STRIDE: Final = 0x9E37  # odd: consecutive decision ids land far apart in the table
_OPTION_STRIDE: Final = 0x3C6F  # odd, and no small multiple of it is near a decision's step


@dataclass(frozen=True)
class Skill:
    infer: bool  # reads roles from behaviour
    careful: bool  # weighs hit chances and kills, keeps its defence
    noise: float  # random jitter on every score: mistakes, and variety between games


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of your own may extend it
class ScoringBot:
    """Scores every option of the pending decision and plays the best."""

    skill: ClassVar[Skill]

    def __init__(self, seed: int = 0) -> None:
        self._beliefs = Beliefs()
        self._noise_base = (seed * _SEED_MIX) & _NOISE_MASK

    def choose_among(self, options: tuple[Action, ...]) -> Action | None:
        """A decision with one option is answered as `choose` answers it, without the view
        (see `shared.bots`); any other needs the view (None)."""
        return options[0] if len(options) == 1 else None

    def choose(self, view: TableView) -> Action:
        if not view.options or view.pending is None:
            raise ValueError("the bot has nothing to decide")
        if len(view.options) == 1:
            return view.options[0]
        sit = situation(view, self._beliefs, self.skill.infer)
        kind = view.pending.kind
        scorer = _SCORERS.get(kind, _score_default)
        scores = [SID_LATER if option.kind == "sid" and kind not in _WEIGHS_SID
                  else scorer(sit, option, self.skill.careful) for option in view.options]
        return self._best(view, scores)

    def _best(self, view: TableView, scores: list[float]) -> Action:
        """The best option after the noise. The noise is a function of (seed, decision id,
        option), so a host that rebuilds a bot after a restart (same seed, same events) gets
        the same choices without replaying the bot's earlier decisions."""
        assert view.pending is not None  # checked by choose()
        at = self._noise_base + view.pending.id * _DECISION_STRIDE
        spread = self.skill.noise
        noisy = [s + spread * _NOISE[(at + i * _OPTION_STRIDE) & _NOISE_MASK]
                 for i, s in enumerate(scores)]
        return view.options[noisy.index(max(noisy))]


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of your own may extend it
class NormalBot(ScoringBot):
    """Reads roles from behaviour, weighs every play; noise only breaks ties."""

    skill = Skill(infer=True, careful=True, noise=0.05)

    def observe(self, events: Iterable[Event]) -> None:
        """Public events, already redacted for this bot's seat, in the order they happened."""
        self._beliefs.observe(events)


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of your own may extend it
class EasyBot(ScoringBot):
    """Knows only the roles on the table, plays what looks useful, and often errs."""

    skill = Skill(infer=False, careful=False, noise=1.5)


# --- scores per decision kind -----------------------------------------------------------


def _score_default(sit: Situation, action: Action, careful: bool) -> float:
    return 0.0


def _discard(sit: Situation, action: Action, careful: bool) -> float:
    if action.kind == "sid":
        if not careful:
            return -10.0
        excess = len(sit.view.hand) - sit.me.life
        if excess >= 2:  # two cards go anyway: spend them on a life point
            return 5.0 - 0.5 * sum(keep_value(sit, c) for c in action.cards)
        return 2.0 - 0.8 * sum(keep_value(sit, c) for c in action.cards)
    assert action.card is not None  # every discard option names its card
    return -keep_value(sit, action.card)


def _respond_shot(sit: Situation, action: Action, careful: bool) -> float:
    kind = action.kind
    if kind == "barrel":
        return 10.0
    if kind == "missed":
        assert action.card is not None and sit.view.pending is not None
        missed_left = sum(1 for o in sit.view.options if o.kind == "missed")
        if missed_left < sit.view.pending.needed:
            return -1.0  # cannot cancel it: keep the cards
        if not careful:
            return 8.0 if sit.low else 3.0  # may forget to dodge, but not at death's door
        return 5.0 - 0.3 * keep_value(sit, action.card)
    if kind == "sid":
        return -1.0  # if the hit is fatal, Sid heals in the dying decision instead
    return 0.0


def _dying(sit: Situation, action: Action, careful: bool) -> float:
    if action.kind == "beer":
        return 10.0
    if action.kind == "sid":
        return 8.0 - 0.1 * sum(keep_value(sit, c) for c in action.cards)
    return DIE_SCORE


def _discard_bang(sit: Situation, action: Action, careful: bool) -> float:
    """Indians! and Duel: give up a BANG! card or a life point."""
    if action.kind == "sid":
        return -1.0
    if action.kind == "take_hit":
        return 0.0
    if not careful:
        return 2.0
    assert action.card is not None  # discard_bang names its card
    life_value = {1: 10.0, 2: 6.0, 3: 3.0}.get(sit.me.life, 2.0)
    return life_value - 0.5 * keep_value(sit, action.card)


def _store_pick(sit: Situation, action: Action, careful: bool) -> float:
    assert action.pick is not None  # every pick option names its card
    return keep_value(sit, action.pick)


def _lucky_pick(sit: Situation, action: Action, careful: bool) -> float:
    """Hearts save from Jail and Barrel and never blow the Dynamite; any other card but a
    2-9 of Spades at least keeps the Dynamite quiet."""
    assert action.pick is not None  # every pick option names its card
    card = CARDS[action.pick]
    if card.suit == "hearts":
        return 2.0
    return 0.0 if card.suit == "spades" and 2 <= card.rank_value <= 9 else 1.0


def _put_back(sit: Situation, action: Action, careful: bool) -> float:
    assert action.pick is not None  # every put_back option names its card
    return -keep_value(sit, action.pick)


def _draw_source(sit: Situation, action: Action, careful: bool) -> float:
    if action.kind == "draw_deck":
        return 0.5
    if action.kind == "draw_discard":
        assert sit.view.pending is not None  # the bot is deciding
        top = sit.view.pending.card
        return keep_value(sit, top) - 2.5 if top is not None else -1.0
    assert action.target is not None  # draw_player names its target
    if not careful:
        return sit.enmity.get(action.target, 0.0)
    target = sit.seat(action.target)
    henry = 1.5 if target.character == "henry_block" else 0.0
    return 0.8 + sit.enmity.get(action.target, 0.0) - henry


def _before_card(sit: Situation, action: Action, careful: bool) -> float:
    """A Panic! or Cat Balou is about to take one of Sid Ketchum's cards: heal with two of
    them first when that is worth it."""
    if action.kind == "pass":
        return 0.0
    return sid_value(sit, action.cards) if careful else -1.0


def _youl_give(sit: Situation, action: Action, careful: bool) -> float:
    assert action.card is not None  # every give option names its card
    value = keep_value(sit, action.card)
    if careful and KEY[action.card] in ("missed", "beer") and sit.low:
        value += 3.0
    return -value


# --- High Noon's decisions ----------------------------------------------------------------


def _daltons_discard(sit: Situation, action: Action, careful: bool) -> float:
    """The Daltons: give up the card in front of you that is worth least to you (a Jail or
    a Dynamite first)."""
    assert action.pick is not None  # every option names a card in play
    if KEY[action.pick] in ("jail", "dynamite"):
        return 5.0
    return -keep_value(sit, action.pick)


def _kit_keep(sit: Situation, action: Action, careful: bool) -> float:
    assert action.pick is not None  # every keep option names its card
    return keep_value(sit, action.pick)


def _name_suit(sit: Situation, action: Action, careful: bool) -> float:
    """Handcuffs: the suit of the cards in hand worth most."""
    suit = action.kind.removeprefix("name_")
    return sum(keep_value(sit, c) for c in sit.view.hand if CARDS[c].suit == suit)


def _new_identity(sit: Situation, action: Action, careful: bool) -> float:
    """New Identity sets life to 2: worth it only below that."""
    if action.kind == "pass":
        return 0.0
    return 2.0 - sit.me.life - 0.5


_WEIGHS_SID: Final = frozenset({"play", "discard", "respond_shot", "dying",
                                "respond_indians", "respond_duel", "before_card"})

_SCORERS: Final = {
    "play": score_play,
    "discard": _discard,
    "respond_shot": _respond_shot,
    "dying": _dying,
    "respond_indians": _discard_bang,
    "respond_duel": _discard_bang,
    "store_pick": _store_pick,
    "lucky_pick": _lucky_pick,
    "kit_put_back": _put_back,
    "draw_source": _draw_source,
    "youl_give": _youl_give,
    "before_card": _before_card,
    "daltons_discard": _daltons_discard,
    "kit_keep": _kit_keep,
    "name_suit": _name_suit,
    "new_identity": _new_identity,
}
