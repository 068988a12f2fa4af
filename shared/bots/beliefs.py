"""Role inference from public behaviour: who attacked or helped whom.

A seat that shoots the Sheriff leans outlaw; a seat that shoots someone who leans outlaw (or
who turned out to be an Outlaw) leans lawful. The evidence is kept as raw aggression totals
per (actor, target) pair and turned into role probabilities on demand, so that roles revealed
later (eliminations) re-weigh everything that was seen before.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from shared.cards import KEY
from shared.model import Event
from shared.roles import DEPUTY, OUTLAW, RENEGADE, ROLE_DEAL, SHERIFF
from shared.views import TableView

#: How much each role sides with the law: +1 the Sheriff's side, -1 the Outlaws.
LEAN: Final = {SHERIFF: 1.0, DEPUTY: 1.0, OUTLAW: -1.0, RENEGADE: 0.0}
#: How a role's likelihood responds to a lawful lean; Renegades often pose as Deputies.
#: (The roles that can be hidden: `_fit` has a column for each.)
RESPONSE: Final = {DEPUTY: 1.0, OUTLAW: -1.0, RENEGADE: 0.35}
#: Hostility of a targeted card: how strongly it says "I am against you".
HOSTILITY: Final = {"bang": 1.0, "duel": 1.0, "jail": 1.2, "cat_balou": 0.6, "panic": 0.4}
SHARPNESS: Final = 1.5  # how fast evidence turns into certainty
CAP: Final = 3.0  # no single seat's evidence grows beyond this
SELF_DAMPING: Final = 0.5  # attacks on me when my role is secret: the attacker did not know it
FIT_ROUNDS: Final = 8  # rounds of fitting the seats' probabilities to the roles still hidden


Probs = dict[str, float]


def hostility(event: Event) -> float:
    """How hostile a public event is from `event.seat` towards `event.target` (negative when
    it helps, such as taking a Jail off someone)."""
    kind = event.kind  # first: most events are neither plays nor equipment
    if kind != "play" and kind != "equip":
        return 0.0
    seat, target, card = event.seat, event.target, event.card
    if seat is None or target is None or seat == target or card is None:
        return 0.0
    if kind == "equip":
        return HOSTILITY["jail"] if KEY[card] == "jail" else 0.0
    how = event.how
    if how == "duel":
        return 0.0
    if how == "as_bang":
        return HOSTILITY["bang"]
    key = KEY[card]
    if key in ("panic", "cat_balou") and event.value is not None:
        picked = KEY[event.value]
        if picked == "jail":
            return -1.0
        if picked == "dynamite":
            return 0.0
    return HOSTILITY.get(key, 0.0)


class HostileAct:
    """One event's hostility (`hostility`): who, to whom, how much."""

    def __init__(self, actor: int, target: int, weight: float) -> None:
        self.actor = actor
        self.target = target
        self.weight = weight


def hostile_acts(events: Iterable[Event]) -> list[HostileAct]:
    """The events with a hostility, in order. Every bot at a table is told the same tuple
    of events in turn (`shared.bots.tell_listeners`), so the answer for the last tuple is
    kept: the others read it instead of weighing every event again. (A tuple of frozen
    events cannot change; any other iterable is weighed each time.)"""
    last = _LAST_TOLD[0]
    if last is not None and last[0] is events:
        return last[1]
    acts = []
    for event in events:
        weight = hostility(event)
        if weight:
            actor, target = event.seat, event.target
            assert actor is not None and target is not None  # else the weight is 0
            acts.append(HostileAct(actor, target, weight))
    if type(events) is tuple:
        _LAST_TOLD[0] = (events, acts)  # one reference swapped: safe between threads
    return acts


#: The last tuple of events `hostile_acts` weighed, and its answer (kept alive with it, so
#: that no other tuple can take its identity).
_LAST_TOLD: Final[list[tuple[tuple[Event, ...], list[HostileAct]] | None]] = [None]


class Beliefs:
    """What one seat believes about the others' roles."""

    def __init__(self) -> None:
        #: How hostile each seat has been to each other seat: `_aggression[actor][target]`.
        self._aggression: dict[int, dict[int, float]] = {}
        self._evidence = 0  # how many hostile acts `_aggression` holds: its version
        #: The last answer of `roles` and everything it was computed from.
        self._last: tuple[tuple[object, ...], dict[int, Probs]] | None = None

    def observe(self, events: Iterable[Event]) -> None:
        for act in hostile_acts(events):
            toward = self._aggression.get(act.actor)
            if toward is None:
                toward = self._aggression[act.actor] = {}
            toward[act.target] = toward.get(act.target, 0.0) + act.weight
            self._evidence += 1

    def roles(self, view: TableView, infer: bool = True) -> dict[int, Probs]:
        """Role probabilities for every seat (certainties for known roles, mine included).
        The answer is shared with later calls that would compute the same: do not change it."""
        # Everything the answer depends on: a bot often decides several times in a row
        # without new evidence or a role revealed, and the fitting is costly.
        key = (infer, view.viewer, view.role, view.three_player,
               tuple([p.role for p in view.players]),
               self._evidence if infer else None)  # unread without inference
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        probs = self._roles(view, infer)
        self._last = (key, probs)
        return probs

    def _roles(self, view: TableView, infer: bool) -> dict[int, Probs]:
        viewer = view.viewer
        assert viewer is not None  # a bot decides from a seat's view
        known: dict[int, str | None] = {}
        unknown: list[int] = []
        for p in view.players:  # one pass, each field read once: compiled, reads are costly
            seat, role = p.seat, p.role
            if role is not None:
                known[seat] = role
            elif seat != viewer:
                unknown.append(seat)
        known.setdefault(viewer, view.role)
        left: dict[str, int] = {}  # roles not known to be anyone's (a dict: a Counter is slow)
        for dealt in ROLE_DEAL[len(view.players)]:
            left[dealt] = left.get(dealt, 0) + 1
        for seen in known.values():
            if seen is not None:
                left[seen] = left.get(seen, 0) - 1
        hidden = _Hidden(float(max(left.get(DEPUTY, 0), 0)), float(max(left.get(OUTLAW, 0), 0)),
                         float(max(left.get(RENEGADE, 0), 0)))
        probs: dict[int, Probs] = {s: {r: 1.0} for s, r in known.items() if r is not None}
        lean = dict.fromkeys(unknown, 0.0)
        if infer and self._aggression:
            for _ in range(2):  # the second pass lets inferred leanings inform each other
                lean = self._leanings(view, known, hidden, lean)
        for fitted in _posterior(hidden, lean):
            probs[fitted.seat] = fitted.probs(hidden)
        return probs

    def _leanings(self, view: TableView, known: dict[int, str | None], hidden: _Hidden,
                  previous: dict[int, float]) -> dict[int, float]:
        assert view.role is not None and view.viewer is not None  # a seat's view
        secret = not view.three_player and view.role != SHERIFF
        # How lawful each seat looks: a known role's side, the expectation over the
        # posterior, and for me my own side.
        toward = {seat: LEAN[role] for seat, role in known.items() if role is not None}
        for seat in _posterior(hidden, previous):
            toward[seat.seat] = seat.lawful
        toward[view.viewer] = LEAN.get(view.role, 0.0) * (SELF_DAMPING if secret else 1.0)
        lean: dict[int, float] = {}
        for actor in previous:
            leaning = 0.0
            acts = self._aggression.get(actor)
            if acts is not None:
                for target, weight in acts.items():
                    leaning -= weight * toward[target]
            lean[actor] = max(-CAP, min(CAP, leaning))
        return lean


class _Hidden:
    """How many of each role that can be hidden nobody is known to hold. (Plain floats:
    compiled, they are doubles.)"""

    def __init__(self, deputies: float, outlaws: float, renegades: float) -> None:
        self.deputies = deputies
        self.outlaws = outlaws
        self.renegades = renegades

    def key(self) -> tuple[float, float, float]:
        return self.deputies, self.outlaws, self.renegades


def _posterior(hidden: _Hidden, lean: dict[int, float]) -> list[_Unknown]:
    """Role probabilities of the unknown seats: each seat's likelihoods from its leaning,
    fitted so that every seat holds one role and each role is held as often as it is hidden
    (if seat 2 is surely an Outlaw, the other seats share the remaining Outlaws). The
    answer may be shared: do not change it."""
    if not any(lean.values()):  # nothing seen yet (or no inference): the same few tables
        key = (hidden.key(), tuple(lean))
        fitted = _EVEN.get(key)
        if fitted is None:
            fitted = _EVEN[key] = _fit(hidden, lean)
        return fitted
    return _fit(hidden, lean)


#: `_posterior` of the leanings that are all zero, by (hidden roles, seats).
_EVEN: Final[dict[tuple[tuple[float, float, float], tuple[int, ...]], list[_Unknown]]] = {}


def _fit(hidden: _Hidden, lean: dict[int, float]) -> list[_Unknown]:
    # Sinkhorn scaling: probability[i][k] = row[i] * likelihood[i][k] * column[k], each round
    # scaling the columns to the hidden counts and then the rows to 1. Kept as factors, a
    # round costs half the arithmetic of rescaling the whole table (this runs up to three
    # times per decision of a normal bot). The three roles that can be hidden are columns of
    # their own (native floats, compiled); a role not hidden has count and likelihood 0, which
    # adds exact zeros to every sum, so the arithmetic is that of the hidden roles alone.
    deputies, outlaws, renegades = hidden.deputies, hidden.outlaws, hidden.renegades
    seats = [_Unknown(s, v, hidden) for s, v in lean.items()]
    deputy = outlaw = renegade = 1.0  # the column factors
    for _ in range(FIT_ROUNDS):
        deputy_mass = outlaw_mass = renegade_mass = 0.0
        for seat in seats:
            deputy_mass += seat.row * seat.deputy
            outlaw_mass += seat.row * seat.outlaw
            renegade_mass += seat.row * seat.renegade
        deputy = deputies / (deputy_mass or 1.0)
        outlaw = outlaws / (outlaw_mass or 1.0)
        renegade = renegades / (renegade_mass or 1.0)
        for seat in seats:
            mass = 0.0
            mass += seat.deputy * deputy
            mass += seat.outlaw * outlaw
            mass += seat.renegade * renegade
            seat.row = 1.0 / (mass or 1.0)
    for seat in seats:
        seat.fitted(deputy, outlaw, renegade)
    return seats


class _Unknown:
    """One unknown seat while fitting: its number, its likelihood of each role that can be
    hidden (0 for one that is not) and its row factor; once fitted, the probability of each
    role and how lawful that makes it look. (Float fields: compiled, they are plain doubles,
    where a list or a dict holds boxed floats.)"""

    def __init__(self, seat: int, lean: float, hidden: _Hidden) -> None:
        self.seat = seat
        self.deputy = math.exp(SHARPNESS * lean * RESPONSE[DEPUTY]) if hidden.deputies else 0.0
        self.outlaw = math.exp(SHARPNESS * lean * RESPONSE[OUTLAW]) if hidden.outlaws else 0.0
        self.renegade = (math.exp(SHARPNESS * lean * RESPONSE[RENEGADE]) if hidden.renegades
                         else 0.0)
        self.row = 1.0
        self.lawful = 0.0

    def fitted(self, deputy: float, outlaw: float, renegade: float) -> None:
        """Turn the likelihoods into probabilities with the fitted column factors."""
        row = self.row
        self.deputy = row * self.deputy * deputy
        self.outlaw = row * self.outlaw * outlaw
        self.renegade = row * self.renegade * renegade
        lawful = 0.0  # a role not hidden adds an exact zero
        lawful += self.deputy * LEAN[DEPUTY]
        lawful += self.outlaw * LEAN[OUTLAW]
        lawful += self.renegade * LEAN[RENEGADE]
        self.lawful = lawful

    def probs(self, hidden: _Hidden) -> Probs:
        """The fitted probabilities of the roles that are hidden."""
        probs: Probs = {}
        if hidden.deputies:
            probs[DEPUTY] = self.deputy
        if hidden.outlaws:
            probs[OUTLAW] = self.outlaw
        if hidden.renegades:
            probs[RENEGADE] = self.renegade
        return probs
