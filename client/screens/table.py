"""The table: seats, your hand, the choices of the moment, the game log.

Reads `SessionEvent`s in a worker, renders each view, and sends only actions taken from the
view's `options`. Every decision is shown once, in the choices list, and chosen by one rule
(stated under the list): digits pick a card of your hand, ↑/↓ move in the choices, Enter (or a
click) does the highlighted one. Steps that cannot be taken back ask first (`client.slips`);
game over opens the `GameOverScreen`.
"""

from __future__ import annotations

import math
import textwrap
import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from client import heap
from client.i18n import I18n
from client.localize import localize_bindings
from client.net import RemoteError
from client.plaintext import clean, plain
from client.render import describe_action, describe_decision, player_name
from client.screens.confirm import ConfirmScreen
from client.screens.game_over import GameOverScreen
from client.screens.lobby import LobbyScreen
from client.session import (
    ChatLine,
    Notice,
    Refused,
    SeatHandedOver,
    Session,
    StatusChanged,
    ViewUpdate,
)
from client.slips import AUTO_DELAY, auto_answer, confirmation, left_out, not_now, warnings
from client.widgets.center import TableCenter
from client.widgets.chat import TALK_BINDINGS, ChatPane
from client.widgets.choices import ChoicePanel
from client.widgets.events import EventBar, event_texts, has_events
from client.widgets.footer import KeyFooter
from client.widgets.hand import HandView
from client.widgets.log import GameLog
from client.widgets.seat import SeatPanel
from client.widgets.status import StatusBar
from shared.cards import CARDS
from shared.chat import PHRASES
from shared.model import Action
from shared.views import TableView

WIDE_MIN = (120, 36)
CHOICE_ROWS = 5  # rows of the choices list at 80x24; a taller screen gives it two thirds more
LOG_MIN = 4  # compact: rows the log keeps (its border included) before the choices get theirs
BOX_MIN_WIDTH = 28  # columns of a wide seat box; narrower, the table stays compact


def board_width(width: int) -> int:
    """Wide: the columns of the seats and the table, 3fr beside the log's 1fr (app.tcss)."""
    return width * 3 // 4


def ring_columns(others: int) -> int:
    """Columns of the wide table's grid: the seats other than yours go one on each side of the
    centre and the rest across the top, centred over it exactly."""
    top = max(0, others - 2)
    columns = max(3, top)
    return columns + (columns - top) % 2


def box_height(screen_height: int) -> int:
    """Rows of a wide seat box: its border, four lines, and the ability on up to four lines
    as the screen grows taller than `WIDE_MIN`."""
    return 6 + max(0, min(3, (screen_height - WIDE_MIN[1]) // 3))


def uses_card(action: Action, card: int) -> bool:
    return action.card == card or card in action.cards


class TableScreen(Screen[None]):
    BINDINGS = [
        *[
            Binding(str(n % 10), f"pick_card({n - 1})", show=False)
            for n in range(1, 11)
        ],
        Binding("left", "move_card(-1)", "◀ card", show=False),
        Binding("right", "move_card(1)", "card ▶", show=False),
        Binding("escape", "back", "Back"),
        Binding("e", "end_turn", "End turn"),
        Binding("e", "not_mine", show=False),  # when `e` cannot end a turn: says why
        Binding("l", "toggle_log", "Log"),
        # From anywhere, the chat line included: the log is what a player reads back.
        Binding("pageup", "log_back(5)", show=False, priority=True),
        Binding("pagedown", "log_back(-5)", show=False, priority=True),
        Binding("o", "results", "Results"),
        Binding("b", "lobby", "Lobby"),
        Binding("v", "read_events", show=False),  # High Noon's event cards
        *TALK_BINDINGS,
    ]

    def __init__(self, session: Session, i18n: I18n) -> None:
        super().__init__()
        self.session = session
        self.i18n = i18n
        localize_bindings(self, i18n)
        self.view: TableView | None = None
        self.keys: tuple[str, ...] = ()  # each seat's key id (ViewUpdate.keys)
        self.deadline: float | None = None
        self.selected: int | None = None
        self._auto: tuple[int, float] | None = None  # (decision, when it answers itself)
        self._auto_seen: int | None = None  # the last decision considered for that
        self._auto_timer: Timer | None = None
        self._over_shown = False
        self._focused_for: tuple[int, int | None] | None = None
        self._footer_keys: tuple[bool, bool] | None = None
        # Kept, not queried: updates may arrive before the screen has finished mounting.
        self.status_bar = StatusBar(i18n, session.room, session.spectator)
        self.seats = Grid(id="seats")
        self.seat_panels: list[SeatPanel] = []  # kept: a DOM query on every update is slow
        self.info = Static(id="info")
        self.events = EventBar(i18n)
        self.banner = Static(i18n.t("eliminated_banner"), id="banner")
        self.banner.display = False
        self.hand = HandView(i18n, id="hand")
        self.panel = ChoicePanel(i18n, id="panel")
        self.game_log = GameLog(id="log")
        self.chat = ChatPane(i18n, id="chat")
        self.chat.display = False  # until someone else is here to talk to (`_chat_shown`)
        self._chat_hidden_by_hand = False  # `x` hid it: nothing shows it again but `x`, `m`
        self.center = TableCenter(i18n)
        self.footer = KeyFooter()
        self._ring_rows: list[bool] = []  # wide: the rows of seat boxes, True for your own

    # --- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield self.status_bar
        with Vertical(id="body"):
            with Vertical(id="board"):
                yield self.banner
                yield self.seats
                yield self.events
                yield self.info
                if not self.session.spectator:
                    yield self.hand
                    yield self.panel
            with Vertical(id="side"):
                yield self.game_log
                yield self.chat
        yield self.footer

    def on_mount(self) -> None:
        self.call_after_refresh(self._listen)
        self.screen_layout_refresh_signal.subscribe(self, self._fit_panel)
        self._auto_timer = self.set_interval(0.1, self._auto_tick, pause=True)

    def on_resize(self, event: Resize) -> None:
        self._apply_size()

    def _apply_size(self, remount: bool = False) -> None:
        """Lay the table out for the screen's size: wide (seat boxes around the table, the log
        beside it) when the boxes are wide enough, else compact. `remount`: the seats are new."""
        width, height = self.app.size
        wide = width >= WIDE_MIN[0] and height >= WIDE_MIN[1] and \
            board_width(width) // ring_columns(self._others()) >= BOX_MIN_WIDTH
        changed = wide != self.has_class("-wide")
        self.set_class(wide, "-wide")
        if not self.session.spectator:
            hand = self.hand
            if hand.detailed != wide:
                hand.detailed = wide
                hand.refresh(layout=True)
            if wide:  # the rest of the board's column, under the hand
                self.panel.styles.clear_rule("height")
        if (changed or remount) and self.view is not None:
            self._mount_seats(self.view)
        elif not wide:
            count = len(self.seats.children) or 1
            self.seats.styles.grid_size_columns = min(2 if width < 70 else 3, count)
            self.seats.styles.clear_rule("grid_rows")  # back to the stylesheet's
        else:
            self._size_rows()

    def _fit_panel(self, _screen: Screen[object] | None = None) -> None:
        """Compact: after a layout pass, the height of the decision's rows: CHOICE_ROWS for
        the list (two thirds of any rows past 24 more) and its question and rule, less what
        the log needs to keep LOG_MIN. It stays the same from one decision to the next, so a
        decision coming or going repaints those rows and lays nothing out."""
        if self.session.spectator or self.has_class("-wide"):
            return
        board, panel = self.query_one("#board"), self.panel
        height = self.app.size.height
        side = LOG_MIN + (self.chat.outer_size.height if self.chat.display else 0)
        free = self.query_one("#body").size.height - (board.outer_size.height -
                                                      panel.outer_size.height)
        wanted = 2 + CHOICE_ROWS + max(0, height - 24) * 2 // 3
        rows = max(3, min(wanted, free - side))
        if panel.outer_size.height != rows:
            panel.styles.height = rows

    def _others(self) -> int:
        """How many seats are not yours (before the first view: as many as can be)."""
        view = self.view
        if view is None:
            return 7
        return len(view.players) - (view.viewer is not None)

    def _size_rows(self) -> None:
        """Wide: the heights of the rows of seat boxes (the top row, the middle one with the
        table's centre, your own box, whose long line needs fewer rows)."""
        rows = self._ring_rows
        if not rows:
            return
        width, screen_height = self.app.size
        height = box_height(screen_height)
        mine = height
        view = self.view
        if view is not None and view.viewer is not None:  # less its border, padding, indent
            ability = self.i18n.ability(view.players[view.viewer].character)
            lines = len(textwrap.wrap(ability, board_width(width) - 7))
            mine = min(height, 5 + lines)
        self.seats.styles.grid_rows = " ".join(str(mine if me else height) for me in rows)

    # --- session -------------------------------------------------------------------------

    @work(exclusive=True, group="session")
    async def _listen(self) -> None:
        """Network I/O lives in this worker; the UI reacts to what it reads."""
        events = self.session.events()
        try:
            await self.session.start()
        except (OSError, TimeoutError, RemoteError) as problem:
            self.status_bar.status = "disconnected"
            text = self.i18n.t("no_start", reason=self.i18n.problem(problem))
            self._set_info(text)
            self.notify(clean(text), severity="error", timeout=30, markup=False)
            return
        async for event in events:
            if isinstance(event, ViewUpdate):
                self.show_update(event)
            elif isinstance(event, Refused):
                self.refused(self.i18n.refusal(event.code, event.reason))
            elif isinstance(event, Notice):
                self._set_info(self.i18n.t(event.key))
                self.notify(self.i18n.t(event.key), severity="warning", markup=False)
            elif isinstance(event, StatusChanged):
                self.status_bar.status = event.status
                if event.detail:
                    self.notify(clean(event.detail), markup=False)
            elif isinstance(event, ChatLine):
                self.chat.add(event)
                if not event.mine:
                    self._show_chat()
            elif isinstance(event, SeatHandedOver):
                self.notify(self.i18n.t("handed_over", name=clean(event.name)), markup=False)

    def _set_info(self, text: str) -> None:
        """The one-line info bar; a fixed height, so no layout pass."""
        self.info.update(plain(text), layout=False)  # may quote the host or a player

    def refused(self, reason: str) -> None:
        text = self.i18n.t("refused", reason=reason)
        self._set_info(text)
        self.notify(clean(text), severity="error", markup=False)

    def show_update(self, update: ViewUpdate) -> None:
        view = update.view
        first = self.view is None or len(self.view.players) != len(view.players)
        if self.view is None or self.view.pending != view.pending:
            self.selected = None
        self.view, self.deadline, self.keys = view, update.deadline, update.keys
        if first:
            self._apply_size(remount=True)
            if not self.session.spectator and not self.chat.input.has_focus:
                self.panel.focus()  # from the start: the first decision changes no focus
        status = self.status_bar
        status.room, status.view = self.session.room, view
        self.events.show(view)
        for panel in self.seat_panels:
            panel.show(view, self._key(panel.seat))
        for player in view.players:
            self.chat.know(player.name, self._key(player.seat))
        self.banner.display = view.viewer is not None and view.winner is None and \
            not view.players[view.viewer].alive
        if self.session.spectator or sum(bool(key) for key in self.keys) > 1:
            self._show_chat()  # someone to talk to, or to listen to
        lines = self.i18n.log_lines(update.log, update.events, view, view.viewer)
        self.game_log.add(lines)
        self.center.show(view, lines[-1] if lines else self.center.last)
        top = self.app.screen
        if isinstance(top, ConfirmScreen) and top.decision is not None and (
                view.pending is None or top.decision != view.pending.id):
            top.dismiss(False)  # asked about a move whose moment has passed (a timeout)
        if not self.session.spectator:
            self._arm_auto()
            self._refresh_choices()
        else:
            self._show_waiting()
        if view.winner is not None and not self._over_shown:
            self._over_shown = True
            self._game_over()
        if view.winner is None:
            self._over_shown = False
        keys = (view.winner is not None, any(a.kind == "end_turn" for a in self.my_options))
        if keys != self._footer_keys:  # the footer is rebuilt on refresh: only when it changes
            self._footer_keys = keys
            self.footer.bindings_changed(self)  # now: a signal is a message later, a frame late
            self.refresh_bindings()
        self.call_after_refresh(heap.collect_due)  # once this update is on the screen

    def _mount_seats(self, view: TableView) -> None:
        """Seats in play order from the one after you. Compact: a grid, you last. Wide: around
        the table: the next player on your left, then across the top, the last one on your
        right, you at the bottom and the deck and discard pile in the middle."""
        seats = self.seats
        seats.remove_children()
        count = len(view.players)
        first = 0 if view.viewer is None else (view.viewer + 1) % count
        order = [(first + k) % count for k in range(count)]
        panels = self.seat_panels = [SeatPanel(seat, self.i18n) for seat in order]
        if not self.has_class("-wide"):
            seats.mount_all(panels)
            self._apply_size()
        else:
            seats.mount_all(self._ring(panels, seated=view.viewer is not None))
        for panel in panels:
            panel.show(view, self._key(panel.seat))
        if self.selected is not None:  # new panels: light and explain them again
            self.call_after_refresh(self._light_targets, self._using_selected())

    def _key(self, seat: int) -> str:
        """`seat`'s key id; "" for a bot, and offline where there is no host."""
        return self.keys[seat] if seat < len(self.keys) else ""

    def _ring(self, panels: list[SeatPanel], seated: bool) -> list[Widget]:
        """Grid cells in row order: the top row, then left seat, centre, right seat, then you."""
        me = panels[-1] if seated else None
        others = panels[:-1] if seated else panels
        left, right = others[0], others[-1] if len(others) > 1 else None
        top = others[1:-1]
        columns = ring_columns(len(others))
        cells: list[Widget] = []
        if top:  # centred over the table
            pad = columns - len(top)
            cells += [Static(classes="filler") for _ in range(pad // 2)]
            cells += top
            cells += [Static(classes="filler") for _ in range(pad - pad // 2)]
        old, center = self.center, TableCenter(self.i18n)  # removed widgets are not re-mounted
        self.center = center
        center.show(self.view, old.last)
        center.styles.column_span = columns - 2
        cells += [left, center, right or Static(classes="filler")]
        if me is not None:
            me.styles.column_span = columns
            cells.append(me)
        self.seats.styles.grid_size_columns = columns
        self._ring_rows = [False] * (1 + bool(top)) + [True] * (me is not None)
        self._size_rows()
        return cells

    # --- your choices --------------------------------------------------------------------

    @property
    def my_options(self) -> tuple[Action, ...]:
        view = self.view
        if view is None or view.pending is None or view.pending.seat != view.viewer:
            return ()
        return view.options

    def _using_selected(self) -> list[Action]:
        """The choices that use the picked card (none when no card is picked)."""
        card = self.selected
        return [] if card is None else [a for a in self.my_options if uses_card(a, card)]

    def _choices(self) -> list[Action]:
        """The listed choices: those using the picked card; else (no card picked, or one that
        no choice uses: it is only being read) the ones using no card on your turn, and every
        choice of any other decision."""
        using = self._using_selected()
        if using:
            return using
        assert self.view is not None and self.view.pending is not None
        if self.view.pending.kind == "play":
            return [a for a in self.my_options if a.card is None and not a.cards]
        return list(self.my_options)

    def _refresh_choices(self) -> None:
        view = self.view
        assert view is not None
        options = self.my_options
        playable = frozenset(
            card for action in options for card in (action.card, *action.cards)
            if card is not None
        )
        self.hand.show(view.hand, playable, self.selected)
        panel = self.panel
        if not options:
            self._show_waiting()
            panel.show("", [], None)
            panel.show_cards(())
            panel.show_note("")
            self._light_targets([])
            return
        assert view.pending is not None  # there are options: the decision is pending
        choices, using = self._choices(), self._using_selected()
        if self.selected is None:
            self._show_waiting()
        # On your turn with no card picked the list holds End turn: never pre-select it, so
        # an Enter meant for the previous decision cannot end the turn.
        panel.show(
            describe_decision(view, self.i18n),
            [(a, describe_action(a, view, self.i18n)) for a in choices],
            self.deadline,
            highlight=not (view.pending.kind == "play" and not using),
        )
        panel.show_cards(view.pending.shown or view.private)
        panel.show_note(self._note())
        self._light_targets(using)
        # Take the focus for a new decision or a new card, not on every update: someone may
        # be reading a seat's ability (Tab) while the others play.
        key = (view.pending.id, self.selected)
        if key != self._focused_for:
            self._focused_for = key
            # Never take the keys from someone typing. Textual's `focus` repaints the whole
            # widget even when it has the focus already.
            if not self.chat.input.has_focus and not panel.has_focus:
                panel.focus()

    def _note(self) -> str:
        """The panel's warning line: an answer about to be given by itself, or traps."""
        view = self.view
        assert view is not None
        if self._auto is not None:
            left = max(0.0, self._auto[1] - time.monotonic())
            return self.i18n.t("auto_take_hit", n=f"{math.ceil(left * 10) / 10:.1f}")
        return " · ".join(warnings(view, self.selected, self.i18n))

    def _arm_auto(self) -> None:
        """A new decision that loses nothing by answering itself starts its countdown."""
        view = self.view
        assert view is not None
        pending = view.pending
        if pending is None or pending.id == self._auto_seen:
            return
        self._auto_seen = pending.id
        self._auto = None
        if self.my_options and auto_answer(view) is not None and self._auto_timer is not None:
            self._auto = (pending.id, time.monotonic() + AUTO_DELAY)
            self._auto_timer.resume()

    async def _auto_tick(self) -> None:
        view = self.view
        if self._auto is None or view is None or view.pending is None \
                or view.pending.id != self._auto[0]:
            self._stop_auto()
            return
        if time.monotonic() < self._auto[1]:
            self.panel.show_note(self._note())
            return
        action = auto_answer(view)
        self._stop_auto()
        if action is not None:
            await self.send(action, view.pending.id)

    def _stop_auto(self) -> bool:
        """Cancel an answer about to be given by itself; True if there was one."""
        had, self._auto = self._auto is not None, None
        if self._auto_timer is not None:
            self._auto_timer.pause()
        if had and self.view is not None and self.my_options:
            self.panel.show_note(self._note())
        return had

    def _show_waiting(self) -> None:
        view = self.view
        if view is None or view.pending is None or view.winner is not None \
                or view.pending.seat == view.viewer:  # ours: the rule is under the choices
            self._set_info("")
            return
        self._set_info(self._out() + self.i18n.t(
            "waiting_for",
            name=player_name(view, view.pending.seat),
            what=describe_decision(view, self.i18n, waiting=True),
        ))

    def _out(self) -> str:
        """"You are out · " for an eliminated player, as a prefix for the info line."""
        view = self.view
        out = view is not None and view.viewer is not None and not view.players[view.viewer].alive
        return self.i18n.t("you_are_out") + " · " if out else ""

    def _light_targets(self, choices: list[Action]) -> None:
        """Light the seats the picked card can aim at; say on the others why not."""
        targets = {a.target for a in choices if a.target is not None}
        view, card = self.view, self.selected
        for panel in self.seat_panels:
            panel.mark({"-target": panel.seat in targets, "-aimed": False})
            why = None
            if view is not None and card is not None and panel.seat not in targets:
                why = left_out(view, card, panel.seat, self.i18n)
            panel.explain(why)

    @on(ChoicePanel.Highlighted)
    def _aim(self, event: ChoicePanel.Highlighted) -> None:
        target = event.action.target if event.action else None
        for panel in self.seat_panels:
            panel.mark({"-aimed": panel.seat == target})

    @on(ChoicePanel.Chosen)
    async def _chosen(self, event: ChoicePanel.Chosen) -> None:
        await self.choose(event.action)

    @property
    def game_on(self) -> bool:
        """A game under way where we hold a seat: leaving it would lose something."""
        return not self.session.spectator and self.view is not None and \
            self.view.winner is None

    async def choose(self, action: Action) -> None:
        """The player chose `action` (Enter or a click in the choices, `e`). A step that
        cannot be taken back asks first (`client.slips.confirmation`)."""
        view = self.view
        if view is None or view.pending is None:
            return
        decision = view.pending.id
        self._stop_auto()
        question = confirmation(action, view, self.i18n)
        if question is not None:
            async def answered(yes: bool | None) -> None:
                if yes:
                    await self.send(action, decision)

            self.app.push_screen(ConfirmScreen(question, self.i18n, decision), answered)
            return
        await self.send(action, decision)

    async def send(self, action: Action, decision: int | None = None) -> None:
        """Send one action from `options` for the pending decision (`decision`, when given:
        only if that decision is still the one pending)."""
        view = self.view
        if view is None or view.pending is None or action not in self.my_options:
            return
        if decision is not None and view.pending.id != decision:
            return  # the moment passed (a timeout) while we were asked
        self.selected = None
        await self.session.act(action, view.pending.id)

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        self.action_pick_card(event.index)

    @on(SeatPanel.Chosen)
    def _seat_clicked(self, event: SeatPanel.Chosen) -> None:
        if self.session.spectator or not self.my_options:
            return
        panel = self.panel
        for index, action in enumerate(panel.actions):
            if action.target == event.seat:
                panel.highlighted = index
                panel.focus()
                return

    @on(SeatPanel.Focused)
    @on(EventBar.Focused)
    def _seat_focused(self, event: SeatPanel.Focused | EventBar.Focused) -> None:
        self._set_info(event.text)

    @on(EventBar.Read)
    def action_read_events(self) -> None:
        """`v`: the texts of High Noon's event card in play and of the next one."""
        view = self.view
        if view is not None and has_events(view):
            self.notify("\n\n".join(event_texts(view, self.i18n)), timeout=20, markup=False)

    def action_pick_card(self, index: int) -> None:
        if self.view is None or self.session.spectator or not 0 <= index < len(self.view.hand):
            return
        card = self.view.hand[index]
        self.selected = None if self.selected == card else card
        text = f"{self.i18n.card_name(CARDS[card].key)}: {self.i18n.card_text(CARDS[card].key)}"
        self._set_info(f"{self._not_now(card)}{text}")
        if self.my_options:
            self._refresh_choices()
        else:
            self.hand.show(self.view.hand, frozenset(), self.selected)

    def _not_now(self, card: int) -> str:
        """Why picking `card` does nothing now, as a prefix for the info line ("" if it does
        something): not our decision, or no choice of this one uses it."""
        view = self.view
        if view is None or view.pending is None or view.winner is not None:
            return ""
        if not self.my_options:
            return self._not_yours() + " · "
        if not any(uses_card(a, card) for a in self.my_options):
            return not_now(view, card, self.i18n) + " · "
        return ""

    def _not_yours(self) -> str:
        """Whose decision it is, for a key pressed while it is not ours."""
        view = self.view
        assert view is not None and view.pending is not None
        return self._out() + self.i18n.t("not_your_turn",
                                         name=player_name(view, view.pending.seat))

    def action_move_card(self, step: int) -> None:
        if self.view is None or not self.view.hand:
            return
        hand = self.view.hand
        index = hand.index(self.selected) + step if self.selected in hand else 0
        self.action_pick_card(index % len(hand))

    def action_back(self) -> None:
        """Esc: stop an answer about to be given by itself, else put the card down."""
        if self._stop_auto():
            return
        if self.selected is not None:
            self.selected = None
            self._set_info("")
            if self.my_options:
                self._refresh_choices()

    async def action_end_turn(self) -> None:
        for action in self.my_options:
            if action.kind == "end_turn":
                await self.choose(action)

    def action_not_mine(self) -> None:
        """`e` when no turn of ours can end now: say why instead of nothing."""
        view = self.view
        if view is None or view.pending is None or view.winner is not None \
                or self.session.spectator:
            return
        self._set_info(self._not_yours() if not self.my_options else self.i18n.t("not_now"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer keys only when they can do something."""
        if action == "results":
            return self.view is not None and self.view.winner is not None
        if action == "end_turn":  # dimmed when it cannot (the footer keeps its keys and
            if any(a.kind == "end_turn" for a in self.my_options):  # redraws in one frame);
                return True  # gone for someone out of the game or watching
            view = self.view
            seated = view is not None and view.viewer is not None and \
                view.players[view.viewer].alive and view.winner is None
            return None if seated else False
        if action == "not_mine":
            return not any(a.kind == "end_turn" for a in self.my_options)
        if action == "lobby":
            return self._from_lobby()
        return True

    def _from_lobby(self) -> bool:
        stack = self.app.screen_stack
        return self in stack and stack.index(self) > 0 and \
            isinstance(stack[stack.index(self) - 1], LobbyScreen)

    async def action_lobby(self) -> None:
        """Back to the lobby. A seat is kept: choosing the room again returns to it."""
        if self._from_lobby():
            await self.session.close()
            self.dismiss()

    def action_results(self) -> None:
        """The game-over summary again (with its rematch), after looking at the final table."""
        if self.view is not None and self.view.winner is not None:
            self._game_over()

    def action_log_back(self, rows: int) -> None:
        self.game_log.scroll_back(rows)

    def action_toggle_log(self) -> None:
        self.game_log.toggle_class("-hidden")

    # --- table talk ----------------------------------------------------------------------

    def _show_chat(self) -> None:
        if not self._chat_hidden_by_hand:
            self.chat.display = True

    def action_talk(self) -> None:
        self._chat_hidden_by_hand = False
        self.chat.focus_input()

    def action_toggle_chat(self) -> None:
        shown = not self.chat.display
        self._chat_hidden_by_hand = not shown
        self.chat.display = shown
        if not shown and self.chat.input.has_focus:
            self.set_focus(None)

    async def action_phrase(self, index: int) -> None:
        await self.session.say(phrase=PHRASES[index])

    @on(ChatPane.Left)
    def _back_from_chat(self) -> None:
        """Esc in the chat: the keys go to the decision waiting, if there is one."""
        if self.my_options:
            self.panel.focus()

    @on(ChatPane.Said)
    async def _said(self, event: ChatPane.Said) -> None:
        await self.session.say(text=event.text)

    # --- game over ---------------------------------------------------------------------

    def _game_over(self) -> None:
        assert self.view is not None
        self.app.push_screen(GameOverScreen(self.view, self.i18n), callback=self._after_game)

    async def _after_game(self, rematch: bool | None) -> None:
        if rematch:
            self.game_log.clear()
            await self.session.rematch()
