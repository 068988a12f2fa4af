"""Redraws that change widgets in place must show what a rebuild would."""

from __future__ import annotations

import msgspec
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from client.app import BangApp
from client.screens.table import TableScreen
from client.session import ViewUpdate
from client.uibench import FeedSession, game_updates
from client.widgets.footer import KeyFooter
from client.widgets.log import GameLog
from client.widgets.rows import RowsWidget


def footer_line(app: BangApp) -> list[tuple[str, str, object]]:
    """The footer as drawn: each piece's text, style and place."""
    return pieces(app.screen._compositor.render_strips()[-1])


async def test_the_footer_changed_in_place_is_the_footer_rebuilt() -> None:
    session = FeedSession()
    app = BangApp(session)
    shown: set[bool] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for update in game_updates(players=4, seed=3, limit=40):
            session.emit(update)
            await pilot.pause()
            await pilot.pause()
            footer = app.screen.query_one(KeyFooter)
            keys = [(k.key, k.description, k.has_class("-disabled"))
                    for k in footer.query(FooterKey)]
            line = footer_line(app)
            shown.add(any(k == "e" and not dimmed for k, _, dimmed in keys))
            footer.call_later(footer.recompose)  # as Textual does: in the footer's context
            await pilot.pause()
            await pilot.pause()
            assert [(k.key, k.description, k.has_class("-disabled"))
                    for k in footer.query(FooterKey)] == keys
            assert footer_line(app) == line
    assert shown == {True, False}  # End turn lit up and dimmed


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield GameLog()


def rows(log: GameLog) -> list[list[Segment]]:
    return [list(log.render_line(y)) for y in range(log.size.height)]


def whole(log: GameLog) -> list[list[Segment]]:
    """The rows as Textual renders the widget's `render()` at once."""
    strips = Visual.to_strips(log, log.render(), log.size.width, log.size.height,
                              log.visual_style)
    blank = Strip.blank(log.size.width, log.visual_style.rich_style)
    return [list(strips[y] if y < len(strips) else blank) for y in range(log.size.height)]


async def test_the_log_rendered_row_by_row_is_the_log_rendered_whole() -> None:
    app = LogApp()
    async with app.run_test(size=(30, 8)) as pilot:
        log = app.query_one(GameLog)
        assert rows(log) == whole(log)  # empty
        for n in range(12):
            log.add([f"Line {n}: Bang! 7♥ at Slab the Killer, who plays a Missed! Q♠"])
            await pilot.pause()
            assert rows(log) == whole(log)
        log.scroll_back(3)
        await pilot.pause()
        assert rows(log) == whole(log)
        await pilot.resize_terminal(22, 6)
        await pilot.pause()
        assert rows(log) == whole(log)
        app.theme = "textual-light"
        await pilot.pause()
        assert rows(log) == whole(log)


def looks(strips: list[Strip]) -> list[list[tuple[str, str]]]:
    """What rows show: each piece's text and style, without the places (offsets) that
    Textual reads from `render_line` when the mouse asks, not from a frame."""
    return [[(segment.text, str(segment.style)) for segment in strip] for strip in strips]


def pipeline(log: GameLog, crop: Region) -> list[list[tuple[str, str]]]:
    """The rows in `crop` as Textual's own pipeline renders them (line cache, box, effects)."""
    log._styles_cache.clear()
    return looks(Widget.render_lines(log, crop))


def drawn(log: GameLog, crop: Region) -> list[list[tuple[str, str]]]:
    return looks(log.render_lines(crop))


async def test_the_logs_own_row_rendering_is_textuals() -> None:
    """The log's rows skip Textual's row-by-row pipeline when its box adds nothing to them;
    what they show is the same, and any box that does add something goes through it."""
    app = LogApp()
    async with app.run_test(size=(30, 8)) as pilot:
        log = app.query_one(GameLog)
        for n in range(12):
            log.add([f"Line {n}: Bang! 7♥ at Slab the Killer, who plays a Missed! Q♠"])
            await pilot.pause()
            for crop in (log.size.region, Region(3, 2, 20, 4)):
                assert drawn(log, crop) == pipeline(log, crop)
        app.theme = "textual-light"
        await pilot.pause()
        assert drawn(log, log.size.region) == pipeline(log, log.size.region)
        log.styles.border_top = ("solid", "red")
        log.styles.padding = (0, 1)
        await pilot.pause()
        rows = drawn(log, log.size.region)
        assert rows == pipeline(log, log.size.region)
        assert "".join(text for text, _ in rows[0]) == "─" * log.size.width  # its border


async def test_text_in_the_log_is_selected_with_the_mouse() -> None:
    """The log's frames carry no places, but a drag across it still selects its text."""
    app = LogApp()
    async with app.run_test(size=(30, 8)) as pilot:
        log = app.query_one(GameLog)
        log.add([f"Line {n}: Bang!" for n in range(20)])
        await pilot.pause()
        await pilot.mouse_down(log, offset=(0, 2))
        await pilot.hover(log, offset=(6, 3))
        await pilot.mouse_up(log, offset=(6, 3))
        await pilot.pause()
        assert app.screen.get_selected_text() == "Line 14: Bang!\nLine 15"


async def test_a_decision_coming_and_going_lays_nothing_out() -> None:
    """Decisions of yours come and go without a layout pass (the choices are drawn in rows
    kept for them): only their rows are repainted."""
    for size in ((80, 24), (160, 50)):
        session = FeedSession()
        app = BangApp(session)
        asked = next(u for u in game_updates(players=7, seed=1, limit=60) if u.view.options)
        pending = asked.view.pending
        assert pending is not None
        other = (pending.seat + 1) % len(asked.view.players)
        waiting = ViewUpdate(msgspec.structs.replace(
            asked.view, options=(), pending=msgspec.structs.replace(pending, seat=other)), ())
        layouts: list[object] = []
        async with app.run_test(size=size) as pilot:
            assert isinstance(app.screen, TableScreen)
            app.screen.screen_layout_refresh_signal.subscribe(app.screen, layouts.append)
            for update in (asked, waiting):  # the first time lays the table out
                session.emit(update)
                await pilot.pause(0.1)
            for _ in range(50):  # until it has settled
                seen = len(layouts)
                await pilot.pause(0.1)
                if len(layouts) == seen:
                    break
            layouts.clear()
            for update in (asked, waiting) * 3:
                session.emit(update)
                await pilot.pause(0.05)
                table = app.screen
                assert bool(table.my_options) == bool(update.view.options)
            await pilot.pause(0.2)
        assert layouts == [], size


async def test_rows_repainted_in_part_show_what_a_whole_repaint_would() -> None:
    """Seats, the hand, the choices, the centre and the status line repaint only the rows that
    changed (`RowsWidget.repaint`): after every update of a game, at both sizes, each of them
    is what repainting it whole gives."""
    for size in ((80, 24), (160, 50)):
        session = FeedSession()
        app = BangApp(session)
        async with app.run_test(size=size) as pilot:
            for update in game_updates(players=7, seed=2, limit=120):
                session.emit(update)
                await pilot.pause()
                if not isinstance(app.screen, TableScreen):  # the game is over
                    break
                for widget in app.screen.query(RowsWidget):
                    box = widget.region.size.region
                    before = [list(strip) for strip in widget.render_lines(box)]
                    widget.refresh()
                    assert [list(strip) for strip in widget.render_lines(box)] == before, \
                        (size, type(widget).__name__)


def whole_rows(widget: RowsWidget) -> list[list[tuple[str, str, object]]]:
    """The widget's rows as Textual renders its `render()` all at once."""
    width, height = widget.size
    strips = Visual.to_strips(widget, widget.render(), width, height, widget.visual_style)
    blank = Strip.blank(width, widget.visual_style.rich_style)
    return [pieces(strips[y] if y < len(strips) else blank) for y in range(height)]


def pieces(strip: Strip) -> list[tuple[str, str, object]]:
    """Each piece's text, style and place (offset): all that a frame or the mouse reads."""
    return [(s.text, str(s.style), s.style.meta.get("offset") if s.style else None)
            for s in strip]


async def test_rows_rendered_one_by_one_are_the_widget_rendered_whole() -> None:
    """Seats, the hand, the choices, the table's centre and the status line render only the
    rows that show something new: after every update of a game, at both sizes and in two
    themes, each of their rows is what Textual renders of the whole widget, places
    included."""
    for size in ((80, 24), (160, 50)):
        session = FeedSession()
        app = BangApp(session)
        kinds: set[str] = set()
        async with app.run_test(size=size) as pilot:
            for n, update in enumerate(game_updates(players=7, seed=4, limit=80)):
                session.emit(update)
                if n == 40:
                    app.theme = "textual-light"  # the same rows, other colours
                await pilot.pause()
                if not isinstance(app.screen, TableScreen):  # the game is over
                    break
                for widget in app.screen.query(RowsWidget):
                    if widget.display and widget.size.area:
                        kinds.add(type(widget).__name__)
                        rows = [pieces(widget.render_line(y))
                                for y in range(widget.size.height)]
                        assert rows == whole_rows(widget), (size, type(widget).__name__)
        expected = {"SeatPanel", "HandView", "ChoicePanel", "StatusBar"} | (
            {"TableCenter"} if size[0] > 100 else set())
        assert kinds == expected, size


async def test_the_deciding_seat_is_outlined_in_the_themes_warning_colour() -> None:
    """On a wide table the seat whose decision is pending has a border of the theme's
    warning colour (set on the box itself: no restyle), and bold rows; the others keep the
    stylesheet's border. Your seat and the turn's have their backgrounds. A theme change
    recolours them; a compact table has no borders."""
    session = FeedSession()
    app = BangApp(session)
    updates = game_updates(players=7, seed=4, limit=30)
    async with app.run_test(size=(160, 50)) as pilot:

        def check() -> None:
            view = table.view
            assert view is not None and view.pending is not None
            warning = Color.parse(app.theme_variables["warning"])
            for panel in table.seat_panels:
                edge, colour = panel.styles.border_top
                deciding = panel.seat == view.pending.seat
                assert (edge, colour == warning) == ("round", deciding), panel.seat
                # Your seat on the theme's primary colour at 15%, the turn's on its warning.
                theme = app.theme_variables
                background = Color(0, 0, 0, 0)
                if panel.seat == view.viewer:
                    background = Color.parse(theme["primary"]).multiply_alpha(0.15)
                elif panel.seat == view.turn:
                    background = warning.multiply_alpha(0.15)
                assert panel.styles.background == background, panel.seat
                character = panel.render_line(1)  # not bold otherwise
                assert any("bold" in str(s.style) for s in character if s.text.strip()) \
                    == deciding

        for update in updates:
            session.emit(update)
            await pilot.pause()
            table = app.screen
            assert isinstance(table, TableScreen)
            check()
        app.theme = "nord"  # another warning colour
        await pilot.pause()
        await pilot.pause()
        check()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        table = app.screen
        assert all(panel.styles.border_top[0] in ("", "none") for panel in table.seat_panels)
