"""Text that comes from someone else (players' and rooms' names, the host's messages, log lines
that quote them), made safe to show.

Such text is never parsed as markup: `plain()` gives a `rich.text.Text`, and Textual's
`Content(...)` is plain too, while a `str` given to `Static.update`, `Label`, a `DataTable` cell
or `notify` (without `markup=False`) is read as markup: `x[/]` raised MarkupError, and
`[@click=app.quit]` is markup for a click action. Nor may it hold anything that acts on the
terminal or hides itself: an ESC reached the terminal as is (colours, a window title), and a
bidi override or a zero-width character makes one name look like another. `clean()` replaces
those characters with a visible placeholder and puts everything on one line.
"""

from __future__ import annotations

import unicodedata

from rich.text import Text

PLACEHOLDER = "\ufffd"
"""Shown instead of a control, format (bidi, zero-width) or surrogate character."""

#: Control (C0, C1, DEL), format (bidi controls, zero-width, soft hyphen, BOM...) and lone
#: surrogates (an undecodable byte of a command-line argument).
_HIDDEN = frozenset({"Cc", "Cf", "Cs"})


def clean(text: str) -> str:
    """`text` on one line with nothing hidden: any whitespace (tabs, line breaks, separators)
    becomes a space, a control or format character `PLACEHOLDER`."""
    if text.isprintable():  # the usual case: nothing to do
        return text
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if char.isspace():
        return " "
    if unicodedata.category(char) in _HIDDEN:
        return PLACEHOLDER
    return char


def plain(text: str, style: str = "") -> Text:
    """`clean(text)` as a Text, for widgets that would read a str as markup."""
    return Text(clean(text), style=style)
