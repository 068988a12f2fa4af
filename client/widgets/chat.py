"""Table talk: the lines said, newest at the bottom, and a line to type in.

Widgets down, messages up: the screen feeds `add()` with `ChatLine`s and hears `ChatPane.Said`
when the player sends a line. Muting is the reader's own business and stays here: `/mute NAME`
hides that speaker's lines (by key id, so a namesake is not muted too), `/unmute NAME` brings
them back. Everything shown is plain text (`client.plaintext`): nobody's line can style, move
or break another player's screen.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input

from client.i18n import I18n
from client.plaintext import clean
from client.session import ChatLine
from client.widgets.log import GameLog
from shared import chat

#: Each seat's colour in the chat (seat number modulo the length); readable on the dark and
#: the light theme alike.
SEAT_COLOURS = ("#e5534b", "#3b8eea", "#3fb950", "#d29922", "#bc8cff", "#39c5cf", "#f778ba")
SPECTATOR_COLOUR = "#8b949e"


#: The keys of a screen with a chat: `m` talks, `x` hides or shows it, F2... say a quick
#: phrase (the screen's `action_talk`, `action_toggle_chat`, `action_phrase(n)`).
TALK_BINDINGS = [
    Binding("m", "talk", "Talk"),
    Binding("x", "toggle_chat", show=False),
    *[Binding(f"f{n + 2}", f"phrase({n})", show=False) for n in range(len(chat.PHRASES))],
]


class ChatInput(Input):
    """Focused only on purpose (`m`, or a click): never by Tab or a screen's auto-focus,
    where it would swallow the table's single-key commands as typed letters."""

    can_focus = False

    def take_focus(self) -> None:
        self.can_focus = True
        self.focus()

    def on_blur(self) -> None:
        self.can_focus = False

    def on_click(self) -> None:
        self.take_focus()


class ChatPane(Vertical):
    """What was said at the table and a one-line input (Enter sends, Esc goes back)."""

    BINDINGS = [Binding("escape", "leave", show=False)]

    class Said(Message):
        """The player sent `text` (never a /command)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Left(Message):
        """The player went back to the game (Esc): the screen says where the keys go."""

    def __init__(self, i18n: I18n, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n
        self.lines = GameLog(classes="chat-lines")  # its wrapping and scrolling
        self.input = ChatInput(placeholder=i18n.t("chat_placeholder"),
                               max_length=chat.TEXT_MAX, classes="chat-input")
        self.muted: set[str] = set()
        self._people: dict[str, str] = {}  # name, case-folded -> who (see `_who`)

    def compose(self) -> ComposeResult:
        yield self.lines
        yield self.input

    def know(self, name: str, key: str) -> None:
        """Someone at the table, so that `/mute NAME` finds them before they speak."""
        if name:
            self._people[name.casefold()] = _who(name, key)

    def add(self, line: ChatLine) -> None:
        self.know(line.name, line.key)
        if _who(line.name, line.key) in self.muted:
            return
        self.lines.add_content([self.styled(line)])

    def styled(self, line: ChatLine) -> Content:
        t = self.i18n.t
        words = line.text or t(f"phrase_{line.phrase}")
        colour = SPECTATOR_COLOUR if line.seat is None else \
            SEAT_COLOURS[line.seat % len(SEAT_COLOURS)]
        name = clean(line.name) or t("chat_spectator")
        parts: list[tuple[str, str] | str] = []
        if line.channel == chat.SPECTATORS:
            parts.append((f"[{t('chat_spectators')}] ", "dim"))
        parts += [(name, f"bold {colour}"), ": ", clean(words)]
        return Content.assemble(*parts)

    def text(self) -> str:
        """Every line shown, as plain text."""
        return self.lines.text()

    def focus_input(self) -> None:
        self.display = True
        self.input.take_focus()

    def action_leave(self) -> None:
        self.screen.set_focus(None)
        self.post_message(self.Left())

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()
        self.input.value = ""
        if not typed:
            return
        command, _, argument = typed.partition(" ")
        if command in ("/mute", "/unmute") and argument.strip():
            self._mute(argument.strip(), command == "/mute")
        else:
            self.post_message(self.Said(typed))

    def _mute(self, name: str, mute: bool) -> None:
        who = self._people.get(name.casefold())
        if who is None:
            self.notify(self.i18n.t("chat_no_one", name=clean(name)), severity="warning",
                        markup=False)
            return
        (self.muted.add if mute else self.muted.discard)(who)
        key = "chat_muted" if mute else "chat_unmuted"
        self.notify(self.i18n.t(key, name=clean(name)), markup=False)


def _who(name: str, key: str) -> str:
    """Whom a line is from: the key id of a person, the name of a bot (which has no key)."""
    return f"key:{key}" if key else f"name:{name}"
