"""One game driver: who decides next, a bot's answer or someone else's, the engine, and who
is told what happened.

`bang simulate`, the host, offline play and the UI benchmark all run their games through it,
so that every bot is told every event (`observe`), an illegal bot choice is replaced by the
decision's default in one place, and an engine failure stops the game the same way everywhere:
`GameFailed`, and the driver refuses to go on (it never retries the same failing move).

    driver = GameDriver(state, bots={1: make_bot("normal", 7), 2: ...})
    driver.tell(start_events)
    while driver.bot_to_move():
        driver.play_bot()
    driver.answer(0, action, decision_id)      # a person's answer; IllegalAction changes nothing
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from shared.bots import Bot, Listener, listeners, tell_listeners
from shared.engine import IllegalAction, apply
from shared.events import time_up
from shared.model import Action, Decision, Event, GameState
from shared.views import view


class GameFailed(Exception):
    """The engine failed on `seat`'s `action` (None: on an earlier one). The state may be
    half-changed: whoever owns it throws it away (the host reloads the last stored state),
    and the game does not go on."""

    def __init__(self, reason: str, seat: int | None = None,
                 action: Action | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.action = action


#: Called after each applied answer with the seat, its action and the events told (a
#: `time_up` first when the clock chose the action).
Observer = Callable[[int, Action, list[Event]], None]
#: Called with a seat and what went wrong when its bot's answer was replaced by the default.
BotRefused = Callable[[int, str], None]


class GameDriver:
    """Drives one game: `bots` (by seat) decide for their seats; other seats are answered
    through `answer`. `make_bot`, when given, creates a missing seat's bot on first use
    (the host briefs a fresh bot on the game so far there)."""

    def __init__(self, state: GameState, bots: dict[int, Bot] | None = None,
                 make_bot: Callable[[int], Bot] | None = None,
                 on_bot_refused: BotRefused | None = None) -> None:
        self.state = state
        self._bots: dict[int, Bot] = {}
        self._listening: list[Listener] = []
        self._among: dict[int, Callable[[tuple[Action, ...]], Action | None] | None] = {}
        self.bots = bots or {}
        self.observers: list[Observer] = []
        self.failure: str | None = None
        self._make_bot = make_bot
        self._on_bot_refused = on_bot_refused

    @property
    def bots(self) -> Mapping[int, Bot]:
        """The bot of each seat, read-only: replace them all by assigning, or let `bot`
        make a missing one. (Each bot is looked up once when it is seated: whether it
        observes, and whether the options alone may decide its answer.)"""
        return MappingProxyType(self._bots)

    @bots.setter
    def bots(self, bots: Mapping[int, Bot]) -> None:
        self._bots, self._among, self._listening = {}, {}, []
        for seat, bot in bots.items():
            self._seat(seat, bot)

    @property
    def pending(self) -> Decision | None:
        """The decision to make now; None once the game is over or has failed."""
        if self.failure is not None or self.state.winner is not None:
            return None
        return self.state.pending

    def tell(self, events: Iterable[Event]) -> None:
        """Tell the bots events that did not come through `answer` (those of the deal)."""
        tell_listeners(self._listening, events)

    def bot(self, seat: int) -> Bot:
        found = self._bots.get(seat)
        if found is None:
            if self._make_bot is None:
                raise KeyError(f"no bot plays seat {seat}")
            found = self._seat(seat, self._make_bot(seat))
        return found

    def _seat(self, seat: int, bot: Bot) -> Bot:
        self._bots[seat] = bot
        self._listening = listeners(self._bots)
        self._among[seat] = getattr(bot, "choose_among", None)  # the options may do: no view
        return bot

    def bot_to_move(self) -> bool:
        """Whether the pending decision belongs to a seat this driver has a bot for."""
        decision = self.pending
        return decision is not None and decision.seat in self._bots

    def answer(self, seat: int, action: Action, decision_id: int | None = None,
               timed_out: bool = False) -> list[Event]:
        """Apply `seat`'s answer, tell the bots and the observers, and return what they were
        told. IllegalAction: nothing changed. Any other engine error: GameFailed, for good.
        `timed_out`: `action` is the default given because the seat's time ran out."""
        if self.failure is not None:
            raise GameFailed(self.failure)
        try:
            events = apply(self.state, seat, action, decision_id)
        except IllegalAction:
            raise
        except Exception as exc:
            self.failure = f"the rules engine failed ({type(exc).__name__}: {exc})"
            raise GameFailed(self.failure, seat, action) from exc
        tell_listeners(self._listening, events)
        told = [time_up(seat, action), *events] if timed_out else events
        for observer in self.observers:
            observer(seat, action, told)
        return told

    def bot_choice(self) -> tuple[Decision, Action]:
        """The pending decision and its seat's bot's answer. A choice the decision does not
        offer, or a bot that fails, gives the decision's default instead (reported), so a
        faulty bot never stalls a table."""
        decision = self.pending
        if decision is None:
            raise GameFailed(self.failure or "nothing to decide: the game is over")
        try:
            bot = self.bot(decision.seat)
            among = self._among[decision.seat]
            answer = among(decision.options) if among is not None else None
            action = answer if answer is not None else \
                bot.choose(view(self.state, decision.seat))
        except Exception as exc:  # a bot's bug must not stop the table
            self._report(decision.seat, f"the bot failed ({type(exc).__name__}: {exc})")
            return decision, decision.default
        if action not in decision.options:
            self._report(decision.seat, f"the bot chose {action}, which is not on offer")
            return decision, decision.default
        return decision, action

    def play_bot(self) -> list[Event]:
        """The pending seat's bot answers (see `bot_choice`)."""
        decision, action = self.bot_choice()
        return self.answer(decision.seat, action, decision.id)

    def _report(self, seat: int, problem: str) -> None:
        if self._on_bot_refused is not None:
            self._on_bot_refused(seat, problem)

    def run_bots(self) -> None:
        """Let the bots answer until a seat without a bot must decide or the game ends."""
        while self.bot_to_move():
            self.play_bot()
