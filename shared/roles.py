"""Roles, how many of each a table gets, and the winning sides."""

from __future__ import annotations

from typing import Final

SHERIFF: Final = "sheriff"
DEPUTY: Final = "deputy"
OUTLAW: Final = "outlaw"
RENEGADE: Final = "renegade"

ROLE_NAMES: Final = {SHERIFF: "Sheriff", DEPUTY: "Deputy", OUTLAW: "Outlaw", RENEGADE: "Renegade"}
#: Role names by language code.
ROLE_NAMES_BY_LANG: Final[dict[str, dict[str, str]]] = {
    "en": ROLE_NAMES,
    "it": {SHERIFF: "Sceriffo", DEPUTY: "Vice", OUTLAW: "Fuorilegge", RENEGADE: "Rinnegato"},
    "es": {SHERIFF: "Sheriff", DEPUTY: "Ayudante", OUTLAW: "Forajido", RENEGADE: "Renegado"},
    # Seed 003 says "seriff-helyettes"; the short form fits a seat's first line.
    "hu": {SHERIFF: "Seriff", DEPUTY: "Helyettes", OUTLAW: "Bandita", RENEGADE: "Renegát"},
}

#: The roles dealt for each player count (seed 000). Three players use the special variant.
ROLE_DEAL: Final[dict[int, tuple[str, ...]]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}
MIN_PLAYERS, MAX_PLAYERS = 3, 7

# Winning sides. With 4-7 players: the law, the outlaws or the renegade. With 3 players each
# role wins alone.
SIDE_SHERIFF: Final = "sheriff"
SIDE_OUTLAWS: Final = "outlaws"
SIDE_RENEGADE: Final = "renegade"
SIDE_3P: Final = {DEPUTY: "3p_deputy", OUTLAW: "3p_outlaw", RENEGADE: "3p_renegade"}

#: In the 3-player variant, whom each role must eliminate personally.
TARGET_3P: Final = {DEPUTY: RENEGADE, RENEGADE: OUTLAW, OUTLAW: DEPUTY}
