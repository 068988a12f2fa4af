"""One seat at the table: everything public about that player."""

from __future__ import annotations

import textwrap

from textual.color import Color
from textual.content import Content
from textual.events import Click
from textual.message import Message

from client.i18n import I18n
from client.plaintext import clean
from client.render import COLT, blue_cards, card_content, life_bullets, spread, weapon
from client.widgets.rows import RowsWidget
from shared.cards import CARDS
from shared.characters import CHARACTERS
from shared.roles import SHERIFF
from shared.views import PlayerView, TableView

#: The classes the stylesheet draws (a seat's span, a dead player's colour): changing one
#: restyles the box. The others are painted on it by `SeatPanel._paint_box`.
RESTYLED = frozenset({"-me", "-dead"})
#: Background of a seat by class, the first that applies: (class, theme colour, alpha).
BACKGROUNDS = (
    ("-aimed", "success", 0.55),
    ("-target", "success", 0.25),
    ("-me", "primary", 0.15),
    ("-turn", "warning", 0.15),
)


class SeatPanel(RowsWidget, can_focus=True):
    """Name, role when known, life as bullets, character, hand size, weapon and reach, blue
    cards in play, distance from you and whether they are in reach. The player's key id (two
    players may share a name) and the character's ability show on hover (tooltip) and on
    focus (`Focused` message, shown on the info line). Your own seat also names the character
    High Noon's New Identity would give you (`other`)."""

    class Chosen(Message):
        """The seat was clicked: the screen uses it as a target when one is being chosen."""

        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    class Focused(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, seat: int, i18n: I18n) -> None:
        super().__init__()  # no id: the table re-seats (new panels) when the layout changes
        self.seat = seat
        self.i18n = i18n
        self.player: PlayerView | None = None
        self.viewer: int | None = None  # whose view: "(you)" goes after that seat's name
        self.key = ""  # the human player's key id from the host; "" for bots and offline
        self.why: str | None = None  # why the card you picked cannot aim here (`explain`)
        self.other: str | None = None  # your New Identity, on your own seat
        self._shown: tuple[object, ...] | None = None  # what `show` last drew
        self.deciding = False  # the pending decision is this seat's (see `_paint_box`)

    def show(self, view: TableView, key: str = "") -> None:
        """Draw this seat from `view`. Only what this seat shows is compared: most updates
        change one or two seats, and the others are not repainted."""
        player, pending = view.players[self.seat], view.pending
        turn = view.turn == self.seat and view.winner is None
        deciding = pending is not None and pending.seat == self.seat
        other = view.other_character if view.viewer == self.seat else None
        shown = (player, key, view.viewer, turn, deciding, other)
        if shown == self._shown:
            return
        if self.player is None or (player.name, player.character, key, other) != \
                (self.player.name, self.player.character, self.key, self.other):
            self.tooltip = _details(player, key, self.i18n, other)
        self._shown = shown
        self.player, self.viewer, self.key, self.other = player, view.viewer, key, other
        restyled = self.mark({"-turn": turn, "-me": view.viewer == self.seat,
                              "-dead": not player.alive})
        if deciding != self.deciding:
            self.deciding = deciding
            self._paint_box()
        if restyled:
            self.refresh()  # a new style: every row
        else:
            self.repaint()  # the rows that changed: most updates change one (a life, a count)

    def mark(self, classes: dict[str, bool]) -> bool:
        """Add or remove CSS classes; whether the box was restyled. Only the classes the
        stylesheet draws (`RESTYLED`) restyle it; the others are painted on it (`_paint_box`,
        which repaints the box when its look changes: not for your own seat's turn)."""
        before = self.classes
        for name, add in classes.items():
            self.set_class(add, name, update=False)
        if self.classes == before:
            return False
        restyled = bool((before ^ self.classes) & RESTYLED)
        if restyled:
            self.update_node_styles(animate=False)  # seats have no transitions to animate
        self._paint_box()
        return restyled

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._paint_box())

    def _paint_box(self) -> None:
        """The box's background and border, set here on the box from the theme: the seat whose
        turn it is, a seat the picked card can aim at, the one aimed at, and on a wide table
        the one deciding (in bold too, `rows`). A class change restyles the box through the
        whole stylesheet, about half a millisecond for each of the seats a turn moves
        between; these change at every turn and every card picked."""
        variables = self.app.theme_variables or self.app.get_css_variables()
        background = next((Color.parse(variables[colour]).multiply_alpha(alpha)
                           for name, colour, alpha in BACKGROUNDS if name in self.classes),
                          None)
        if background != self.styles.inline.get_rules().get("background"):
            self.styles.background = background
        wide = self.is_attached and self.screen.has_class("-wide")
        if wide and "-aimed" in self.classes:
            self.styles.border = ("double", variables["success"])
        elif wide and self.deciding:
            self.styles.border = ("round", variables["warning"])
        elif self.styles.inline.has_rule("border_top"):
            self.styles.border = None  # the stylesheet's again

    def explain(self, why: str | None) -> None:
        """Show why the picked card leaves this seat out (None: nothing to say)."""
        if why != self.why:
            self.why = why
            self.repaint()

    def on_focus(self) -> None:
        if self.player is not None:  # the key first: the ability may not fit on the line
            key = _key_id(self.key, self.i18n)
            ability = _ability(self.player, self.i18n)
            if self.other:
                ability += " · " + _other(self.other, self.i18n)
            self.post_message(self.Focused(f"{key} · {ability}" if key else ability))

    def on_click(self, event: Click) -> None:
        self.post_message(self.Chosen(self.seat))

    def rows(self) -> list[Content]:
        """The box's rows at its size, in bold while the seat decides."""
        size = self.content_size
        rows = self._plain_rows(size.width, size.height)
        return [row.stylize_before("bold") for row in rows] if self.deciding else rows

    def _plain_rows(self, width: int, height: int) -> list[Content]:
        if self.player is None:
            return [Content("")]
        p, t = self.player, self.i18n.t
        width = max(width, 10)
        wide = width >= 34
        marker = "▶ " if "-turn" in self.classes else "  "
        if self.deciding and "-turn" not in self.classes:
            marker = "… "
        role = ""
        if p.role is not None:
            role = ("★ " if p.role == SHERIFF else "") + self.i18n.role(p.role)
        name = clean(p.name) + (f" ({t('you')})" if self.viewer == self.seat else "")
        who = Content.assemble((marker, "bold $text-warning"), (name, "bold"), " ",
                               (role, "italic"))
        life = Content.styled(life_bullets(p), "$text-error" if p.alive else "dim")
        character = CHARACTERS[p.character].name
        if self.other in CHARACTERS:
            character += f" (⇄ {CHARACTERS[self.other].name})"
        if not p.alive:
            return [
                spread(who, life, width),
                spread(Content(f"  {character}"), Content.styled(t("dead"), "italic"), width),
            ]
        hand = Content(t("hand_count", n=p.hand_count))
        gun, reach_value = weapon(p, self.i18n)
        where = short_where = Content("")
        if self.why is not None:
            where = short_where = Content.styled(f"✗ {self.why}", "$text-warning")
        elif p.distance is not None:
            mark = "✓" if p.in_reach else "✗"
            style = "$text-success" if p.in_reach else "$text-muted"
            where = Content.styled(f"{t('distance', d=p.distance)} {mark}", style)
            short_where = Content.styled(f"{p.distance}{mark}", style)
        if wide:
            pieces = [Content(f"  {gun} ({t('reach', n=reach_value)})")]
            pieces += [card_content(c, self.i18n) for c in blue_cards(p)]
            in_play = Content(" · ").join(pieces)
        else:  # compact: the Colt .45 goes without saying, blue cards matter more
            names = [] if gun == COLT else [(gun, f"({reach_value})")]
            names += [(self.i18n.card_name(CARDS[c].key), "") for c in blue_cards(p)]
            in_play, where = _compact_in_play(names, where, short_where, width)
        lines = [
            spread(who, life, width),
            spread(Content(f"  {character}"), hand, width),
            spread(in_play, where, width),
        ]
        ability = _wrapped(self.i18n.ability(p.character), width - 2, height - 3)
        lines += [Content.styled("  " + line, "dim italic") for line in ability]
        return lines


def _wrapped(text: str, width: int, rows: int) -> list[str]:
    """`text` on at most `rows` lines of `width`; what does not fit ends in an ellipsis."""
    if rows <= 0:
        return []
    lines = textwrap.wrap(text, max(width, 4)) or [""]
    if len(lines) > rows:
        lines = lines[:rows]
        lines[-1] = lines[-1][:max(width - 1, 0)].rstrip() + "…"
    return lines


def _ability(player: PlayerView, i18n: I18n) -> str:
    character = CHARACTERS[player.character]
    return f"{character.name}: {i18n.ability(character.key)}"


def _other(other: str, i18n: I18n) -> str:
    """'New Identity: Kit Carlson: his ability'."""
    character = CHARACTERS[other]
    return i18n.t("other_character", name=f"{character.name}: {i18n.ability(other)}")


def _key_id(key: str, i18n: I18n) -> str:
    """'key 1a2b3c4d', or "" when the host gave none."""
    return i18n.t("key_id", id=clean(key)) if key else ""


def _details(player: PlayerView, key: str, i18n: I18n, other: str | None = None) -> Content:
    """The tooltip: the name with the key id, then the ability (and the New Identity's)."""
    name = Content.styled(clean(player.name), "bold")
    key_id = _key_id(key, i18n)
    if key_id:
        name += Content.styled(f" · {key_id}", "dim")
    ability = _ability(player, i18n) + (f"\n{_other(other, i18n)}" if other else "")
    return Content.assemble(name, "\n", ability)


def _compact_in_play(names: list[tuple[str, str]], where: Content, short_where: Content,
                     width: int) -> tuple[Content, Content]:
    """A compact seat's third line: its cards in play (name, suffix) and where it is. Cards in
    play are never hidden behind an ellipsis (a Jail or a Dynamite matters): when the line is
    too long the indent goes and the distance keeps only its number, then every name is
    shortened alike."""
    full = "  " + " · ".join(name + suffix for name, suffix in names)
    if len(full) + 1 + where.cell_length <= width or not names:
        return Content(full), where
    if len(full) - 2 + 1 + short_where.cell_length <= width:
        return Content(full[2:]), short_where
    for sep in (" · ", "·"):  # the tighter separator only when the first does not fit
        room = width - short_where.cell_length - 1 - len(sep) * (len(names) - 1) \
            - sum(len(suffix) for _, suffix in names)
        each = max(2, room // len(names))  # characters of each name, its "." included
        line = sep.join((name if len(name) <= each else name[:each - 1] + ".") + suffix
                        for name, suffix in names)
        if len(line) + 1 + short_where.cell_length <= width:
            break
    return Content(line), short_where

