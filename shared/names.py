"""What a player's or a room's name may be: text that shows as what it is.

A name is normalized (Unicode NFKC, outer spaces trimmed, inner runs of spaces made one), then
must be 1-NAME_MAX characters, every one visible: no control, format (zero-width, bidi),
private-use or unassigned characters, no separators but the plain space, and none of the
letters that draw nothing (the Hangul fillers, the Braille blank...). A player's name must also
write its letters in one script, so that `аlice` (a Cyrillic `а`) is refused rather than passed
off as `alice`; Japanese may mix Han, Hiragana and Katakana. Two players of the same name in a
room are told apart by their key id (`SeatInfo.key`).
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 24
#: Letters that take no room on screen.
INVISIBLE = frozenset(chr(code) for code in (
    0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, *range(0x180B, 0x1810),
    0x1D159, *range(0x1D173, 0x1D17B)))
#: Categories refused outright: other (control, format, surrogate, private use, unassigned)
#: and line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Scripts that one name may mix.
SCRIPT_FAMILIES = {"HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE", "CJK": "JAPANESE"}
_SPACES = re.compile(r"\s+")


class BadName(ValueError):
    """Why a name is refused, in words for the person who typed it."""


def normalize(name: str, *, person: bool = True) -> str:
    """The name as it will be shown; BadName when it cannot be one. `person`: a player's
    name (one script), else a room's."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()
    if not text or len(text) > NAME_MAX:
        raise BadName(f"a name is 1-{NAME_MAX} characters")
    for char in (*_SPACES.sub(" ", name), *text):  # as typed first, so the message names it
        if char in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES:
            raise BadName(f"a name cannot hold the invisible or control character "
                          f"U+{ord(char):04X}")
    if person and len(scripts(text)) > 1:
        raise BadName("a name writes its letters in one alphabet (look-alike letters "
                      "from another one are refused)")
    return text


def scripts(text: str) -> set[str]:
    """The scripts of the letters in `text` (from their Unicode names: LATIN, CYRILLIC...)."""
    found = set()
    for char in text:
        if not char.isalpha():
            continue
        script = unicodedata.name(char, "UNKNOWN").split(" ")[0]
        found.add(SCRIPT_FAMILIES.get(script, script))
    return found
