"""The app on the in-process engine (`bang play --offline`): keyboard play, refusals, timeouts,
game over, themes and NO_COLOR."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
from client_helpers import table_of, until
from textual.color import Color
from textual.widgets import DataTable

from client.app import BangApp
from client.screens.confirm import ConfirmScreen
from client.screens.game_over import GameOverScreen
from client.session import LocalSession, LocalTable, ViewUpdate
from client.widgets.choices import ChoicePanel
from client.widgets.seat import SeatPanel
from shared.cards import CARDS
from shared.engine.refs import resolve
from shared.model import Action, Event
from shared.setup import Scenario, SeatRig, Setup
from shared.views import TableView

NAMES = ["Rosa", "Carlo", "Gina", "Tex"]


def card(ref: str) -> int:
    return resolve(ref, range(len(CARDS)))


def local_app(scenario: Scenario | None = None, first: str = "vulture_sam",
              **table: object) -> BangApp:
    """Four seats; Rosa (seat 0, the Sheriff, playing `first`) against bots."""
    setup = Setup(players=4, seed=5, names=NAMES,
                  characters=[first, "bart_cassidy", "pixie_pete", "willy_the_kid"],
                  roles=["sheriff", "outlaw", "renegade", "outlaw"])
    options = {"seat": 0, "bot_delay": 60.0, "scenario": scenario, **table}
    return BangApp(LocalSession(LocalTable(setup=setup, **options)))  # type: ignore[arg-type]


SHOOTER = Scenario(
    seats=[SeatRig(hand=["BANG! A♠", "Beer 6♥"]), SeatRig(hand=["Panic! J♥"])],
    turn=0, start="play",
)


async def test_pick_a_card_then_a_lit_target_then_confirm() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        assert table.view.hand[0] == card("BANG! A♠")
        await pilot.press("1")  # BANG!: the targets in reach light up
        panel = table.query_one(ChoicePanel)
        targets = {a.target for a in panel.actions}
        assert targets and all(a.card == card("BANG! A♠") for a in panel.actions)
        lit = {p.seat for p in table.query(SeatPanel) if p.has_class("-target")}
        assert lit == targets
        assert all(table.view.players[t].in_reach for t in targets)
        await pilot.press("escape")  # back out: nothing lit, nothing sent
        assert not any(p.has_class("-target") for p in table.query(SeatPanel))
        assert table.view.hand[0] == card("BANG! A♠")
        await pilot.press("1", "enter")  # confirm the highlighted target
        target = panel.actions[0].target if panel.actions else None
        await until(pilot, lambda: card("BANG! A♠") not in table.view.hand, what="the shot")
        assert table.view.discard_top == card("BANG! A♠")
        assert target is None or table.view.pending.seat == target


async def test_a_refusal_is_shown() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        stale = table.view.pending.id + 7
        await table.session.act(table.view.options[0], stale)
        await until(pilot, lambda: "Refused" in str(table.info.render()), what="the refusal")
        assert f"decision {stale}" in str(table.info.render())


async def test_end_turn_key_and_the_hand_limit() -> None:
    app = local_app(Scenario(
        seats=[SeatRig(hand=["Beer 6♥", "Beer 7♥", "Missed! 2♠", "Missed! 3♠", "Panic! J♥",
                             "Duel J♠"], life=2)],
        turn=0, start="play",
    ))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        await pilot.press("e")  # cards could still be played: asked first
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await until(pilot, lambda: table.view.pending.kind == "discard", what="discarding")
        assert {a.kind for a in table.view.options} == {"discard"}
        await pilot.press("enter")
        await until(pilot, lambda: len(table.view.hand) == 5, what="one card discarded")


async def test_ending_the_turn_with_playable_cards_asks_first() -> None:
    """No slip: `e` with a Beer and a Panic! still playable asks; n, Esc and a stray Enter
    (the focus is on No) keep the turn; y ends it. With nothing playable, `e` just ends it."""
    app = local_app(Scenario(seats=[SeatRig(hand=["Beer 6♥", "Panic! J♥"], life=2)],
                             turn=0, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        decision = table.view.pending.id
        for answer in ("n", "escape", "enter"):
            await pilot.press("e")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen),
                        what="the question")
            question = str(app.screen.query_one("#question").render())
            assert "Beer" in question and "Panic!" in question, question
            await pilot.press(answer)
            await until(pilot, lambda: app.screen is table, what="back at the table")
            await pilot.pause(0.05)
            assert table.view.pending.id == decision and table.view.pending.kind == "play"
        await pilot.press("e", "y")
        await until(pilot, lambda: table.view.pending.id != decision, what="the turn's end")

    app = local_app(Scenario(seats=[SeatRig(hand=["Missed! 2♠"])], turn=0, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        decision = table.view.pending.id
        await pilot.press("e")  # a Missed! cannot be played on your turn: nothing to lose
        await until(pilot, lambda: table.view.pending.id != decision, what="the turn's end")
        assert not isinstance(app.screen, ConfirmScreen)


async def test_a_card_picked_when_it_cannot_be_played_says_why() -> None:
    """The info line says why a picked card does nothing: not playable now, or not your
    turn (and whose decision it is); a playable card gets just its text."""
    app = local_app(Scenario(seats=[SeatRig(hand=["Missed! 2♠", "BANG! A♠"])], turn=0,
                             start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        await pilot.press("1")  # a Missed! on your own turn
        assert str(table.info.render()).startswith("Not playable now · Missed!:")
        await pilot.press("2")  # the BANG!: playable, just its text
        assert str(table.info.render()).startswith("BANG!:")
        await pilot.press("enter")  # shoot: now the target must answer
        await until(pilot, lambda: table.view.pending.seat != 0, what="the shot")
        await pilot.press("1")
        assert str(table.info.render()).startswith(
            f"Not your turn: {NAMES[table.view.pending.seat]} is deciding · "), \
            str(table.info.render())


async def test_an_eliminated_player_is_told_they_are_out() -> None:
    app = local_app(Scenario(seats=[SeatRig(), SeatRig(hand=["BANG! A♠"])], turn=1,
                             start="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        assert str(table.info.render()).startswith("Waiting for Carlo")
        players = list(table.view.players)
        players[0] = msgspec.structs.replace(players[0], alive=False)
        table.view = msgspec.structs.replace(table.view, players=tuple(players))
        table._show_waiting()
        assert str(table.info.render()).startswith(
            "You are out: watch, but give the living no hints · Waiting for Carlo")


async def test_quitting_during_a_game_asks_first() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        # This game lives in the app: no promise that the table goes on.
        assert str(app.screen.query_one("#question").render()) == "Quit while the game is on?"
        await pilot.press("n")
        await until(pilot, lambda: app.screen is table_of(app), what="back at the table")
        assert app.is_running
        await pilot.press("ctrl+q", "ctrl+q")  # asked, then Ctrl+Q again: quits
        await until(pilot, lambda: not app.is_running, what="the app's exit")

    app = local_app(SHOOTER)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.press("ctrl+q", "y")
        await until(pilot, lambda: not app.is_running, what="the app's exit")


async def test_timeouts_apply_the_default_until_game_over() -> None:
    """Nobody touches the keyboard: the human's defaults and the bots finish the game."""
    app = local_app(bot_delay=0.0, timeout=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60,
                    what="the end of the game")
        over = app.screen
        assert over.view.winner is not None
        assert "Time ran out for Rosa: " in table_of(app).game_log.text()
        assert all(p.role for p in over.view.players)  # every role revealed
        await until(pilot, lambda: over.query(DataTable)
                    and over.query_one(DataTable).row_count == len(NAMES), what="the results")
        rows = [over.query_one(DataTable).get_row_at(i) for i in range(len(NAMES))]
        assert [row[0] == "won" for row in rows] == \
            [p.seat in over.view.winners for p in over.view.players]  # ★ is the Sheriff's
        await pilot.press("r")  # the rematch runs just as fast, to its own game over
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen)
                    and app.screen is not over, timeout=60, what="the rematch's end")


async def test_light_theme_and_no_color(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("NO_COLOR", "1")
    app = BangApp(LocalSession(LocalTable(setup=Setup(players=4, seed=1), bot_delay=60)),
                  theme="light")
    async with app.run_test() as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        assert app.no_color
        assert not app.current_theme.dark
        await pilot.press("t")
        assert app.current_theme.dark


async def test_mouse_picks_a_card_and_a_target() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        hand = table.hand
        await until(pilot, lambda: hand.cards and hand.size.width, what="the hand drawn")
        await pilot.pause()
        await pilot.click(hand, offset=(len("Your hand: ") + 2, 0))  # on "1 BANG! A♠"
        await until(pilot, lambda: table.selected == card("BANG! A♠"), what="the click")
        targets = [a.target for a in table.panel.actions]
        seat = next(p for p in table.query(SeatPanel) if p.seat == targets[-1])
        await pilot.click(seat)
        assert table.panel.highlighted == len(targets) - 1
        assert seat.has_class("-aimed")


async def test_targets_and_the_aimed_seat_are_painted_in_the_themes_colours() -> None:
    """On a wide table, with a BANG! picked: the seats it can aim at on the theme's success
    colour at 25%, the one aimed at on it at 55% with a double border of it (also when the
    card picked before had its first choice highlighted too); a theme change repaints
    them."""
    app = local_app(SHOOTER)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        await until(pilot, lambda: table.hand.cards, what="the hand drawn")
        await pilot.press("2")  # Beer 6♥ first: its one choice is highlighted, as BANG!'s
        await until(pilot, lambda: table.selected == card("Beer 6♥"), what="the Beer")
        await pilot.press("1")  # BANG! A♠
        await until(pilot, lambda: table.selected == card("BANG! A♠"), what="the pick")
        await pilot.pause()
        targets = {a.target for a in table.panel.actions if a.target is not None}
        assert targets

        def check() -> None:
            success = Color.parse(app.theme_variables["success"])
            aimed = table.panel.actions[table.panel.highlighted or 0].target
            assert aimed is not None
            for panel in table.query(SeatPanel):
                if panel.seat == aimed:
                    assert panel.styles.background == success.multiply_alpha(0.55)
                    assert panel.styles.border_top == ("double", success)
                elif panel.seat in targets:
                    assert panel.styles.background == success.multiply_alpha(0.25)
                    assert panel.styles.border_top[0] == "round"

        check()
        app.theme = "nord"  # another success colour
        await pilot.pause()
        check()


async def test_command_palette_offers_the_table_commands() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        titles = {c.title for c in app.get_system_commands(table_of(app))}
        assert {"End turn", "Toggle game log", "Show help", "Toggle light/dark theme"} <= titles


async def test_a_decision_shows_once_on_the_table_until_its_time_runs_out() -> None:
    """Kit Carlson must put a card back: asked on the table itself (no pop-up), with the three
    cards he looks at and the countdown; nobody answers; the default applies and the list
    moves on to his turn."""
    app = local_app(Scenario(deck=["Wells Fargo 3♥", "Duel J♠", "Scope A♠"], turn=0),
                    first="kit_carlson", timeout=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).my_options, what="the ask")
        table = table_of(app)
        assert table.view.pending.kind == "kit_put_back" and app.screen is table
        assert len(app.screen_stack) == 2  # the default screen and the table: nothing over it
        shown = table.panel.render().plain
        assert all(name in shown for name in ("Wells Fargo 3♥", "Duel J♠", "Scope A♠")), shown
        await until(pilot, lambda: "left" in table.panel.clock,
                    what="the countdown")
        await until(pilot, lambda: table.view.pending.kind == "play", what="the default")
        assert len(table.view.hand) == 5 + 2  # kept 2
        assert not table.panel.cards


async def test_wide_terminals_seat_everyone_around_the_table() -> None:
    app = local_app(SHOOTER)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)

        def layout() -> list[object]:
            return [c.seat if isinstance(c, SeatPanel) else type(c).__name__
                    for c in table.seats.children if c.styles.display != "none"]

        # Seat 1 plays after Rosa (seat 0): on her left; seat 3 on her right; she is below.
        await until(pilot, lambda: layout() == ["Static", 2, "Static", 1, "TableCenter", 3, 0],
                    what="the ring")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: layout() == [1, 2, 3, 0], what="the compact grid")


async def test_the_log_shows_the_newest_lines_and_scrolls_back() -> None:
    from textual.app import App, ComposeResult

    from client.widgets.log import GameLog

    class LogApp(App[None]):
        def compose(self) -> ComposeResult:
            yield GameLog()

    app = LogApp()
    async with app.run_test(size=(30, 4)) as pilot:
        log = app.query_one(GameLog)
        log.add([f"line {n}" for n in range(1, 11)])
        log.add(["Rosa plays BANG! Q♥ on Carlo, who is far away"])  # wraps to two rows
        await pilot.pause()

        def shown() -> list[str]:
            return str(log.render()).splitlines()

        assert shown() == ["line 9", "line 10", "Rosa plays BANG! Q♥ on Carlo,", "who is far away"]
        log.scroll_back(2)
        assert shown() == ["line 7", "line 8", "line 9", "line 10"]
        log.scroll_back(100)  # no further than the first line
        assert shown()[0] == "line 1"
        log.scroll_back(-100)
        assert shown()[-1] == "who is far away"
        assert "line 1\nline 2" in log.text()



class Recorder:
    """Wraps a real bot and keeps what it is told."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seen: list[Event] = []

    def choose(self, view: TableView) -> Action:
        return self.bot.choose(view)

    def observe(self, events: list[Event]) -> None:
        self.seen.extend(events)
        self.bot.observe(events)


async def test_offline_bots_are_told_what_happens_at_the_table() -> None:
    """Offline play runs through the game driver: each bot observes every event (before, the
    offline bots never did, and played without their role inference)."""
    session = LocalSession(LocalTable(setup=Setup(players=4, seed=9), seat=None, bot_delay=0))
    await session.start()
    assert session.game is not None
    recorders = {seat: Recorder(bot) for seat, bot in session.game.bots.items()}
    session.game.bots = dict(recorders)
    updates = [u async for u in _until_over(session)]
    await session.close()
    shown = [(e.kind, e.seat, e.target) for u in updates[1:] for e in u.events]
    assert len(recorders) == 4 and len(shown) > 50
    for recorder in recorders.values():
        assert [(e.kind, e.seat, e.target) for e in recorder.seen] == shown


async def _until_over(session: LocalSession) -> AsyncIterator[ViewUpdate]:
    async for update in session.events():
        if isinstance(update, ViewUpdate):
            yield update
            if update.view.winner is not None:
                return
