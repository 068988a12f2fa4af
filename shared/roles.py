"""Roles, how many of each a table gets, and the winning sides."""

from __future__ import annotations

SHERIFF = "sheriff"
DEPUTY = "deputy"
OUTLAW = "outlaw"
RENEGADE = "renegade"

ROLE_NAMES = {SHERIFF: "Sheriff", DEPUTY: "Deputy", OUTLAW: "Outlaw", RENEGADE: "Renegade"}
#: Role names by language code.
ROLE_NAMES_BY_LANG: dict[str, dict[str, str]] = {
    "en": ROLE_NAMES,
    "it": {SHERIFF: "Sceriffo", DEPUTY: "Vice", OUTLAW: "Fuorilegge", RENEGADE: "Rinnegato"},
    "es": {SHERIFF: "Sheriff", DEPUTY: "Ayudante", OUTLAW: "Forajido", RENEGADE: "Renegado"},
    # Seed 003 says "seriff-helyettes"; the short form fits a seat's first line.
    "hu": {SHERIFF: "Seriff", DEPUTY: "Helyettes", OUTLAW: "Bandita", RENEGADE: "Renegát"},
}

#: The roles dealt for each player count (seed 000). Three players use the special variant.
ROLE_DEAL: dict[int, tuple[str, ...]] = {
    3: (DEPUTY, OUTLAW, RENEGADE),
    4: (SHERIFF, RENEGADE, OUTLAW, OUTLAW),
    5: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY),
    6: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY),
    7: (SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY),
}
MIN_PLAYERS, MAX_PLAYERS = 3, 7

# Winning sides. With 4-7 players: the law, the outlaws or the renegade. With 3 players each
# role wins alone.
SIDE_SHERIFF = "sheriff"
SIDE_OUTLAWS = "outlaws"
SIDE_RENEGADE = "renegade"
SIDE_3P = {DEPUTY: "3p_deputy", OUTLAW: "3p_outlaw", RENEGADE: "3p_renegade"}

#: In the 3-player variant, whom each role must eliminate personally.
TARGET_3P = {DEPUTY: RENEGADE, RENEGADE: OUTLAW, OUTLAW: DEPUTY}
