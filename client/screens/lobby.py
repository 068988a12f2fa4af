"""The lobby: rooms with their seats, status and options; create a room, take a seat, get
ready, start, or watch. Opens the table as soon as the host sends a view of our room."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Static

from client.i18n import I18n
from client.localize import localize_bindings
from client.net import LobbyUpdate, Remote, RemoteError, Status, TableUpdate
from client.plaintext import clean, plain
from client.remote_session import RemoteSession, chat_line
from client.screens.create_room import CreateRoomScreen, RoomForm
from client.widgets.chat import TALK_BINDINGS, ChatPane
from shared import protocol as p
from shared.chat import PHRASES
from shared.setup import EXPANSIONS


@dataclass
class LobbyIntent:
    """What to do once connected: `bang join --room` / `bang watch --room` skip the clicks."""

    join: str | None = None
    watch: str | None = None
    create: RoomForm | None = None  # `bang play --lan`: open a room and wait for friends
    invite: str | None = None  # with `create`: the `bang join` line for friends, without --room


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("c", "create", "Create"),
        Binding("w", "watch", "Watch"),
        Binding("r", "ready", "Ready"),
        Binding("s", "start", "Start"),
        *TALK_BINDINGS,
    ]

    def __init__(self, remote: Remote, name: str, i18n: I18n,
                 intent: LobbyIntent | None = None, spectator: bool = False,
                 on_connected: Callable[[], None] | None = None) -> None:
        """`on_connected` runs once, when the broker and host are first reached (`bang join`
        then keeps the broker as the default)."""
        super().__init__()
        self.remote = remote
        self.on_connected = on_connected
        self._ever_connected = False
        self.player_name = name
        self.i18n = i18n
        localize_bindings(self, i18n)
        self.intent = intent or LobbyIntent()
        self.spectator = spectator
        self.rooms: list[p.RoomInfo] = []
        self.my_room: str | None = None
        self.my_seat: int | None = None
        self.watched: str | None = None
        self.chat = ChatPane(i18n, id="lobby-chat")
        self.chat.display = False  # until we sit or watch somewhere
        self._ready = False
        self._started = False
        self._at_table = False
        self._table_room: str | None = None  # the room of the table we went to
        self._set_aside: set[str] = set()  # tables left with `b`: opened again only on request
        self._hosting: str | None = None

    def compose(self) -> ComposeResult:
        t = self.i18n.t
        yield Static(plain(f" {t('title')} · {t('lobby')} · {self.remote.broker}"),
                     id="lobby-title")
        yield Static(t("connecting"), id="lobby-status")
        yield Static(id="lobby-invite")
        with Vertical(id="lobby-body"):
            yield DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
            yield Static(id="room-detail")
            with Horizontal(id="lobby-buttons"):
                yield Button(f"{t('create_room')} (c)", id="create", variant="primary")
                if not self.spectator:
                    yield Button(f"{t('take_seat')} (Enter)", id="join")
                    yield Button(f"{t('ready')} (r)", id="ready")
                    yield Button(f"{t('start')} (s)", id="start", variant="success")
                yield Button(f"{t('watch')} (w)", id="watch")
            yield self.chat
        yield Footer()

    def on_mount(self) -> None:
        t = self.i18n.t
        self.query_one("#rooms", DataTable).add_columns(
            t("room"), t("status"), t("seats"), t("options")
        )
        self._listen()

    def on_screen_resume(self) -> None:
        if self._at_table:  # back from a table: read the lobby's updates again
            self._at_table = False
            if self._table_room is not None:
                self._set_aside.add(self._table_room)
            self._listen(follow_lobby=True)

    # --- the host's updates ----------------------------------------------------------------

    @work(exclusive=True, group="lobby")
    async def _listen(self, follow_lobby: bool = False) -> None:
        if follow_lobby:
            await self.remote.set_follow_lobby(True)
        if not self._started:  # the first Status says how connecting went
            self._started = True
            await self.remote.__aenter__()
        else:
            self._show_rooms(list(self.remote.lobby.values()))
        async for update in self.remote.updates():
            if isinstance(update, Status):
                if update.connected:
                    await self._connected()
                elif self._ever_connected:
                    self._status(self.i18n.t("reconnecting") + f" ({update.reason})")
                else:  # never reached: say so, not "connection lost"
                    self._status(self.i18n.t("unreachable", reason=update.reason))
            elif isinstance(update, LobbyUpdate):
                self._show_rooms(update.rooms)
            elif isinstance(update, p.Error | p.PublicError):
                self.notify(clean(self.i18n.refusal(update.code, update.message)),
                            severity="error", markup=False)
            elif isinstance(update, p.Chat):
                if update.room == self._talk_room():
                    self.chat.add(chat_line(update))
            elif isinstance(update, TableUpdate):
                self._room_update(update)
                if update.view is not None and self._wanted(update.room):
                    await self.remote.set_follow_lobby(False)  # a seated player needs no lobby
                    self._open_table(update)
                    return

    def _wanted(self, room: str) -> bool:
        """Any table of ours (a seat reclaimed after a crash included), except that a lobby
        opened to host a new room (`bang play --lan`) waits for that room, and a table the
        player left for the lobby (`b`) opens again only when they choose its room."""
        if room in self._set_aside:
            return False
        return self._hosting is None or room == self._hosting

    async def _connected(self) -> None:
        try:
            await self.remote.wait_connected(30)
            self._status(self.i18n.t("connected"))
            if not self._ever_connected:
                self._ever_connected = True
                if self.on_connected is not None:
                    self.on_connected()
            self._show_rooms(await self.remote.list_rooms())
        except (RemoteError, TimeoutError) as problem:
            self._status(f"{self.i18n.t('reconnecting')} ({self.i18n.problem(problem)})")
            return
        intent, self.intent = self.intent, LobbyIntent()
        if intent.create:
            self._hosting = await self._create(intent.create)
            if intent.invite and self._hosting:
                self._invite(f"{intent.invite} --room {self._hosting}")
        elif intent.join or intent.watch:
            wanted = intent.join or intent.watch or ""
            room_id = self._room_id(wanted)
            if room_id is None:
                self.notify(self.i18n.t("no_such_room", room=clean(wanted)), severity="error",
                            markup=False)
            elif intent.join:
                await self._join(room_id)
            else:
                await self._watch(room_id)

    def _invite(self, line: str) -> None:
        """The line friends type to join the room we host, shown for as long as we wait."""
        invite = self.query_one("#lobby-invite", Static)
        invite.update(plain(self.i18n.t("lan_invite", line=line)))
        invite.display = True

    def _status(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(plain(text))

    def _room_update(self, update: TableUpdate) -> None:
        self.rooms = [update.info if r.id == update.room else r for r in self.rooms]
        self._show_rooms(self.rooms)

    def _open_table(self, update: TableUpdate) -> None:
        session = RemoteSession(self.remote, update.room, update.seat, first=update)
        self._at_table, self._table_room = True, update.room
        self.app.open_table(session)  # type: ignore[attr-defined]

    # --- the rooms list --------------------------------------------------------------------

    def _show_rooms(self, rooms: list[p.RoomInfo]) -> None:
        chosen = self._selected()
        self.rooms = list(rooms)
        table = self.query_one("#rooms", DataTable)
        table.clear()
        t = self.i18n.t
        for room in self.rooms:
            taken = sum(s.kind != "empty" for s in room.seats)
            o = room.options
            pool = t("pool_all") if o.pool == "all" else t("pool_base")
            timeout = f"{o.turn_timeout:g}s" if o.turn_timeout else "∞"
            extras = "".join(f" · {t('expansion_' + name)}" for name in o.expansions
                             if name in EXPANSIONS)
            table.add_row(
                plain(f"{room.name} [{room.id}]"), t(_STATUS.get(room.status, "waiting")),
                f"{taken}/{len(room.seats)}", f"{pool} · {timeout}{extras}", key=room.id,
            )
        if self.rooms:
            table.move_cursor(row=self._cursor_row(chosen.id if chosen else None))
        self._show_detail()

    def _cursor_row(self, chosen: str | None) -> int:
        """Where the cursor goes when the list changes: our own room, else the room it was
        on (rooms move as they start and end), else the first one still open to players."""
        ids = [room.id for room in self.rooms]
        for wanted in (self.my_room, self.watched, chosen):
            if wanted in ids:
                return ids.index(wanted)
        return next((i for i, room in enumerate(self.rooms) if room.status == "waiting"), 0)

    def _selected(self) -> p.RoomInfo | None:
        table = self.query_one("#rooms", DataTable)
        if not self.rooms or table.cursor_row >= len(self.rooms):
            return None
        return self.rooms[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _show_detail(self) -> None:
        room = self._selected()
        detail = self.query_one("#room-detail", Static)
        if room is None:
            detail.update(self.i18n.t("no_rooms"))
            return
        seats = Text(" · ").join(self._seat_text(s) for s in room.seats)
        detail.update(Text.assemble(f"{self.i18n.t('seats')}: ", seats))

    def _seat_text(self, seat: p.SeatInfo) -> Text:
        """'2. alice (key 1a2b3c4d, ready)'. The name is plain text; the key id, dimmed, tells
        two players of the same name apart."""
        t = self.i18n.t
        number = f"{seat.seat + 1}. "
        if seat.kind == "empty":
            return Text(f"{number}({t('free')})")
        marks = [plain(t("key_id", id=seat.key), "dim")] if seat.key else []
        if seat.kind == "bot":
            marks.append(Text(t("bot")))
        if seat.kind == "human" and seat.ready:
            marks.append(Text(t("ready_mark")))
        text = Text(number) + plain(seat.name)
        if marks:
            text += Text(" (") + Text(", ").join(marks) + Text(")")
        return text

    def _room_id(self, wanted: str) -> str | None:
        """A room given by id or by name; None when the host lists no such room (a malformed
        id and an unknown one get the same answer)."""
        for room in self.rooms:
            if wanted in (room.id, room.name):
                return room.id
        return None

    # --- actions ---------------------------------------------------------------------------

    async def _request(self, request) -> p.RoomInfo | int | None:  # noqa: ANN001
        try:
            return await request
        except (RemoteError, TimeoutError) as refusal:
            self.notify(clean(self.i18n.problem(refusal)), severity="error",
                        markup=False)
            return None

    async def _join(self, room_id: str) -> None:
        self._set_aside.discard(room_id)  # chosen again: its table may open
        seat = await self._request(self.remote.join(room_id, self.player_name))
        if isinstance(seat, int):
            self.my_room, self.my_seat, self._ready = room_id, seat, False
            self.notify(f"{self.i18n.t('take_seat')}: {seat + 1}")
            self.chat.display = True

    async def _watch(self, room_id: str) -> None:
        self._set_aside.discard(room_id)
        info = await self._request(self.remote.watch(room_id, self.player_name))
        if isinstance(info, p.RoomInfo):
            self.watched = room_id
            self.chat.display = True
            if info.status == "waiting":
                self.notify(self.i18n.t("waiting"))

    # --- table talk, in the room we sit in or watch ----------------------------------------

    def _talk_room(self) -> str | None:
        return self.my_room or self.watched

    def action_talk(self) -> None:
        if self._talk_room() is not None:
            self.chat.focus_input()

    def action_toggle_chat(self) -> None:
        if self._talk_room() is not None:
            self.chat.display = not self.chat.display

    async def action_phrase(self, index: int) -> None:
        room = self._talk_room()
        if room is not None:
            await self._request(self.remote.say(room, phrase=PHRASES[index]))

    @on(ChatPane.Said)
    async def _said(self, event: ChatPane.Said) -> None:
        room = self._talk_room()
        if room is not None:
            await self._request(self.remote.say(room, text=event.text))

    @on(DataTable.RowSelected)
    async def _row_chosen(self) -> None:
        """Enter (or a click) on a room: take a seat, or watch it as a spectator."""
        await (self.action_watch() if self.spectator else self.action_join())

    async def action_join(self) -> None:
        room = self._selected()
        if room is not None and not self.spectator:
            await self._join(room.id)

    async def action_watch(self) -> None:
        room = self._selected()
        if room is not None:
            await self._watch(room.id)

    async def action_ready(self) -> None:
        if self.my_room is not None:
            self._ready = not self._ready
            await self._request(self.remote.ready(self.my_room, self._ready))

    async def action_start(self) -> None:
        if self.my_room is not None:
            await self._request(self.remote.start(self.my_room, bots=True))

    def action_create(self) -> None:
        async def create(form: RoomForm | None) -> None:  # a screen callback returns nothing
            await self._create(form)

        self.app.push_screen(CreateRoomScreen(self.i18n, self.player_name), callback=create)

    async def _create(self, form: RoomForm | None) -> str | None:
        """Create a room and sit in it (or watch it); its id."""
        if form is None:
            return None
        info = await self._request(self.remote.create_room(
            form.name, seats=form.players, pool=form.pool, turn_timeout=form.timeout,
            bot=form.bot, expansions=form.expansions, high_noon=form.high_noon(),
        ))
        if not isinstance(info, p.RoomInfo):
            return None
        if not self.spectator:
            await self._join(info.id)
            if form.bots and self.my_room == info.id:
                await self._request(self.remote.start(info.id, bots=True))
        else:
            await self._watch(info.id)
        return info.id

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"create": self.action_create, "join": self.action_join,
                   "ready": self.action_ready, "start": self.action_start,
                   "watch": self.action_watch}
        result = actions[event.button.id or ""]()
        if result is not None:
            await result


_STATUS = {"waiting": "waiting", "playing": "playing", "over": "finished"}
