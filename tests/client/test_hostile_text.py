"""Hostile names and messages (issue 14, finding 1): what other players and the host send is
shown as plain text, never as markup, links or click actions, and without control, escape,
bidi or zero-width characters, on every screen that shows names: lobby, seats, log, game over,
toasts, in the offline client and in the remote one."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from client_helpers import Player, answer, lobby_app, table_of, until
from textual.widgets import DataTable, Static

from client.app import BangApp
from client.net import RemoteError
from client.plaintext import PLACEHOLDER, clean, plain
from client.screens.game_over import GameOverScreen
from client.screens.lobby import LobbyScreen
from client.session import LocalSession, LocalTable, Refused, StatusChanged
from client.widgets.log import GameLog
from client.widgets.seat import SeatPanel
from shared import protocol as p
from shared.cards import CARDS
from shared.engine.refs import resolve
from shared.model import Action
from shared.setup import Scenario, SeatRig, Setup

#: Names the host accepts (it refuses the hidden characters below).
MARKUP_NAMES = ["x[/]", "[link=http://e.vi]Z[/]", "[bold red]boo"]
LONG_NAME = "[@click=app.quit]Quit[/]"  # a click action, and as long as a name may be
#: Names only a local game (the settings file, $USER) or a rogue host can bring.
HIDDEN_NAMES = ["\x1b[31mred", "a\u202eevil", "zero\u200bwidth", "tab\tname"]
HIDDEN = frozenset({"Cc", "Cf", "Cs"})


def screen_text(app: BangApp) -> str:
    """The lines the terminal gets for the screen on top, toasts included."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def assert_nothing_hidden(text: str) -> None:
    """No control, escape, bidi or zero-width character; lines are split on newlines only."""
    for line in text.split("\n"):
        hidden = [f"U+{ord(c):04X}" for c in line if unicodedata.category(c) in HIDDEN]
        assert not hidden, f"{hidden} in {line!r}"


def toasts(app: BangApp) -> list[str]:
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def test_the_long_name_is_as_long_as_a_name_may_be() -> None:
    assert len(LONG_NAME) == p.NAME_MAX


@pytest.mark.parametrize(("raw", "shown"), [
    ("x[/]", "x[/]"),
    (LONG_NAME, LONG_NAME),
    ("\x1b[31mred", "\ufffd[31mred"),
    ("\x9b2J\x7f\x00", "\ufffd2J\ufffd\ufffd"),  # C1 CSI, DEL, NUL
    ("a\u202eevil", "a\ufffdevil"),
    ("\u2066iso\u2069\u200e\u200f\u061c", "\ufffdiso\ufffd\ufffd\ufffd\ufffd"),
    ("zero\u200bwidth\u200c\u200d\u2060\ufeff\u00ad", "zero\ufffdwidth" + 5 * PLACEHOLDER),
    ("tab\tname", "tab name"),
    ("two\nlines\r\n", "two lines  "),
    ("para\u2028graph\u2029\u0085", "para graph  "),
    ("bad byte \udcff", "bad byte \ufffd"),  # an undecodable command-line byte
    ("café ★ 名前", "café ★ 名前"),
])
def test_clean(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_plain_is_never_markup() -> None:
    text = plain("[bold red]boo[/] [@click=app.quit]q[/] \x1b[2J", "dim")
    assert text.plain == "[bold red]boo[/] [@click=app.quit]q[/] \ufffd[2J"
    assert not text.spans and text.style == "dim"


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_offline_hostile_names_on_seats_log_game_over_and_toasts(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven hostile names (yours as the settings file or $USER may give it, the others as
    bots'), played to the end by the defaults, in English and in Italian (its own log
    writer)."""
    names = [*HIDDEN_NAMES, "x[/]", "[link=http://e.vi]Z[/]", LONG_NAME]
    added: list[str] = []  # every line given to the log
    add = GameLog.add

    def add_and_keep(log: GameLog, lines: list[str]) -> None:
        added.extend(lines)
        add(log, lines)

    monkeypatch.setattr(GameLog, "add", add_and_keep)
    session = LocalSession(LocalTable(setup=Setup(players=7, seed=3, names=names),
                                      bot_delay=0.0, timeout=0.01))
    app = BangApp(session, lang=lang)
    async with app.run_test(size=(160, 50), notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60,
                    what="the end of the game")
        await pilot.pause(0.2)
        rows = app.screen.query_one(DataTable)
        assert [rows.get_row_at(i)[1].plain for i in range(7)] == [clean(n) for n in names]
        shown = screen_text(app)
        assert_nothing_hidden(shown)
        assert all(clean(name) in shown for name in names)

        await pilot.press("escape")  # back to the final table
        table = table_of(app)
        await until(pilot, lambda: app.screen is table, what="the table")
        session.emit(Refused(f"{LONG_NAME} \x1b]0;pwned\x07 refused"))
        session.emit(StatusChanged("offline", "a\u202eevil\nsays hi"))
        await until(pilot, lambda: len(toasts(app)) == 2, what="two toasts")
        assert toasts(app)[1] == "a\ufffdevil says hi"
        assert f"{LONG_NAME} \ufffd]0;pwned\ufffd refused" in toasts(app)[0]
        assert_nothing_hidden(screen_text(app))
        for panel in table.query(SeatPanel):
            assert panel.tooltip.plain.startswith(clean(names[panel.seat]) + "\n")
        log = table.query_one(GameLog).text().split("\n")
        assert log == [clean(line) for line in added]
        quoted = {name for name in names if any(name in line for line in added)}
        assert quoted & set(HIDDEN_NAMES) and "x[/]" in quoted  # the test quotes some of each
        assert all(any(clean(name) in line for line in log) for name in quoted)
        assert app.is_running


# The remote test: a rigged 4-seat table where Bob (seat 0) shoots the app's user, the Sheriff
# at seat 1 with one life point, who dies: every prompt, the log and game over quote names.
CHARACTERS = ["willy_the_kid", "vulture_sam", "pixie_pete", "rose_doolan"]
ROLES = ["outlaw", "sheriff", "renegade", "outlaw"]
SHOT = Scenario(seats=[SeatRig(hand=["BANG! A♠"]), SeatRig(hand=[], life=1)], turn=0,
                start="play")
BOB, ANN, CARL = MARKUP_NAMES
DAN = LONG_NAME
ROOM_NAME = "[on red]Saloon[/]"


async def test_remote_hostile_names_in_lobby_toasts_seats_prompt_log_and_game_over(
        host, config_dir: Path, tmp_path: Path, rig) -> None:  # noqa: ANN001
    rig(CHARACTERS, ROLES, SHOT)
    app = lobby_app(host.url, config_dir, BOB)  # Bob's name: the host refuses it, quoting it
    async with Player(host.url, tmp_path / "bob") as bob, \
            Player(host.url, tmp_path / "carl") as carl, \
            Player(host.url, tmp_path / "dan") as dan, \
            app.run_test(size=(160, 50), notifications=True) as pilot:
        keys = {BOB: bob.remote.cid[:8], ANN: app.remote.cid[:8], CARL: carl.remote.cid[:8],
                DAN: dan.remote.cid[:8]}
        room = await bob.remote.create_room(ROOM_NAME, seats=4, turn_timeout=30)
        assert await bob.remote.join(room.id, BOB) == 0
        for player, name, seat in ((carl, CARL, 2), (dan, DAN, 3)):
            assert await player.remote.join(room.id, name, seat) == seat
            await player.remote.ready(room.id, True)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: [s.ready for r in lobby.rooms for s in r.seats]
                    == [False, False, True, True], what="the room in the lobby")
        shown = screen_text(app)
        assert f"{ROOM_NAME} [{room.id}]" in shown
        assert f"1. {BOB} (key {keys[BOB]})" in shown
        assert f"3. {CARL} (key {keys[CARL]}, ready)" in shown
        assert f"4. {DAN} (key {keys[DAN]}, ready)" in shown

        await pilot.press("enter")  # take a seat as Bob's namesake: refused
        await until(pilot, lambda: any(BOB in toast for toast in toasts(app)),
                    what="the refusal quoting the name")
        lobby.player_name = ANN
        await pilot.press("enter")
        await until(pilot, lambda: lobby.my_room == room.id, what="Ann's seat")
        await pilot.press("r")
        await until(pilot, lambda: all(s.ready for r in lobby.rooms for s in r.seats[1:]),
                    what="Ann ready")
        await bob.remote.start(room.id, bots=True)
        await until(pilot, lambda: table_of(app) is not None and table_of(app).view is not None,
                    what="the table")
        table = table_of(app)
        await until(pilot, lambda: table.keys, what="the key ids")
        for panel in table.query(SeatPanel):
            name = [BOB, ANN, CARL, DAN][panel.seat]
            assert panel.tooltip.plain.startswith(f"{name} · key {keys[name]}\n")
        await until(pilot, lambda: f"{ANN} (you)" in screen_text(app), what="the seats drawn")
        assert f"{BOB}'s turn" in screen_text(app)
        assert_nothing_hidden(screen_text(app))
        bob_panel = next(panel for panel in table.query(SeatPanel) if panel.seat == 0)
        bob_panel.focus()
        await until(pilot, lambda: f"key {keys[BOB]} · " in str(table.info.render()),
                    what="Bob's key id on the info line")

        await bob.my_turn(room.id)
        await bob.act(room.id, Action("play", card=resolve("BANG! A♠", range(len(CARDS))),
                                      target=1))
        await until(pilot, lambda: f"{BOB} shoots you" in screen_text(app), what="the prompt")
        await answer(pilot, app, "take_hit")
        await answer(pilot, app, "die")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), what="game over")
        await pilot.pause(0.2)
        shown = screen_text(app)
        assert all(name in shown for name in (BOB, ANN, CARL, DAN))
        assert_nothing_hidden(shown)
        log = table.query_one(GameLog).text()
        assert f"{BOB} plays BANG! A♠ on {ANN}" in log
        assert app.is_running


async def test_the_lobby_cleans_what_a_rogue_host_sends(host, config_dir: Path) -> None:
    """Names the host would refuse, and an error message, as a rogue host could send them."""
    app = lobby_app(host.url, config_dir, "Ann")
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        lobby = app.screen
        no_rooms = lobby.i18n.t("no_rooms")  # the host's list, empty: it changes no more
        await until(pilot, lambda: str(lobby.query_one("#room-detail", Static).render())
                    == no_rooms, what="the lobby")
        seats = [p.SeatInfo(seat, "human", name, key="\x1b[2J1234")
                 for seat, name in enumerate(HIDDEN_NAMES)]
        lobby._show_rooms([p.RoomInfo(id="rogue", name="\x1b]0;pwned\x07Saloon\u202e",
                                      status="waiting", options=p.RoomOptions(), seats=seats)])

        async def refused() -> None:
            raise RemoteError("invalid", "\x1b[2Jno\u200b [@click=app.quit]x[/]")

        await lobby._request(refused())
        await until(pilot, lambda: toasts(app), what="the toast")
        shown = screen_text(app)
        assert_nothing_hidden(shown)
        assert "\ufffd]0;pwned\ufffdSaloon\ufffd [rogue]" in shown
        assert "1. \ufffd[31mred (key \ufffd[2J1234) · 2. a\ufffdevil" in shown
        assert toasts(app) == ["\ufffd[2Jno\ufffd [@click=app.quit]x[/]"]
