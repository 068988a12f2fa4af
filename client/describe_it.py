"""Log lines in Italian, with the rulebook's card names: the counterpart of shared.describe
(English), event kind for event kind. Events arrive already redacted for the viewer."""

from __future__ import annotations

from client.i18n import I18n
from shared.cards import CARDS, SUIT_SYMBOL
from shared.events import visible_to
from shared.model import Event
from shared.roles import ROLE_NAMES_IT

_IT = I18n("it")

#: The engine's free-text notes, in Italian; an unknown note is shown as it is.
_NOTES = {
    "Barrel": "il Barile",
    "Dynamite": "la Dinamite",
    "Jail": "la Prigione",
    "as BANG!": "come BANG!",
    "as Missed!": "come Mancato!",
    "against Indians!": "contro gli Indiani!",
    "in the Duel": "nel Duello",
    "to survive": "per sopravvivere",
    "discard phase": "fine turno",
    "replaced weapon": "arma sostituita",
    "reward": "ricompensa",
    "hand": "dalla mano",
    "in play": "in gioco",
}

_SIDES = {
    "sheriff": "lo Sceriffo e i Vice",
    "outlaws": "i Fuorilegge",
    "renegade": "il Rinnegato",
    "3p_deputy": "il Vice",
    "3p_outlaw": "il Fuorilegge",
    "3p_renegade": "il Rinnegato",
}


def _label(card: int | None) -> str:
    if card is None or card < 0:
        return "niente"
    c = CARDS[card]
    return f"{_IT.card_name(c.key)} {c.rank}{SUIT_SYMBOL[c.suit]}"


def _note(note: str) -> str:
    return _NOTES.get(note, note)


#: See shared.describe._DEFAULT_CHOSEN.
_DEFAULT_CHOSEN_IT = {"end_turn": "il turno finisce", "take_hit": "incassa il colpo",
                      "die": "nessuna Birra per salvarsi", "draw_deck": "pesca dal mazzo"}


def describe_it(event: Event, table, viewer: int | None) -> str:  # noqa: C901, ANN001
    """One Italian line for `event`; `table` is a view or a state (for the names)."""
    names = [p.name for p in table.players]

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None else "nessuno"

    def cards() -> str:
        if event.cards and visible_to(event, viewer):
            return ", ".join(_label(c) for c in event.cards)
        n = event.count
        return f"{n} cart{'a' if n == 1 else 'e'}"

    e, k = event, event.kind
    seat, target, card = who(e.seat), who(e.target), _label(e.card)
    note = f" ({_note(e.note)})" if e.note else ""
    lines = {
        "game_start": lambda: f"Inizia una partita a {e.count} giocatori",
        "turn_start": lambda: f"— Turno {e.value}: {seat} —",
        "time_up": lambda: f"Tempo scaduto per {seat}: "
        + _DEFAULT_CHOSEN_IT.get(e.note, "si applica la scelta predefinita"),
        "turn_end": lambda: f"{seat} passa il turno"
        + (" (in Prigione)" if e.note == "skipped" else ""),
        "draw": lambda: f"{seat} pesca {cards()}{note}",
        "reshuffle": lambda: f"Gli scarti vengono mescolati in un nuovo mazzo ({e.count} carte)",
        "flip": lambda: f"{seat} estrae! {card} per {_note(e.note)}",
        "reveal": lambda: f"{seat} mostra la seconda carta: {card}",
        "draw_discard": lambda: f"{seat} prende {card} dagli scarti",
        "play": lambda: f"{seat} gioca {card}" + (f" {_note(e.note)}" if e.note else "")
        + (f" su {target}" if e.target is not None and e.target != e.seat else ""),
        "equip": lambda: f"{seat} mette in gioco {card}"
        + (f" davanti a {target}" if e.target != e.seat else ""),
        "discard": lambda: f"{seat} scarta {card}{note}",
        "missed": lambda: f"{seat} evita il colpo",
        "barrel_saves": lambda: f"Il Barile salva {seat} ({card})",
        "barrel_fails": lambda: f"Il Barile non salva {seat} ({card})",
        "hit": lambda: f"{seat} perde {e.count} punt{'o' if e.count == 1 else 'i'} vita"
        + (f" (da {target})" if e.target is not None else "") + f": ne restano {e.value}",
        "heal": lambda: f"{seat} recupera {e.count} punt{'o' if e.count == 1 else 'i'} vita: "
        f"{e.value}",
        "survives": lambda: f"{seat} sopravvive con {e.value} punti vita",
        "eliminated": lambda: f"{seat} è eliminato"
        + (f" da {target}" if e.target is not None else "")
        + f": era {ROLE_NAMES_IT.get(e.note, e.note)}",
        "vulture": lambda: f"{seat} (Vulture Sam) prende {cards()} da {target}",
        "discard_all": lambda: f"Le carte di {seat} vanno negli scarti: "
        + (", ".join(_label(c) for c in e.cards) or f"{e.count} carte"),
        "penalty": lambda: f"{seat} ha ucciso un Vice e scarta tutte le carte ({e.count})",
        "game_over": lambda: f"Partita finita: vincono {_SIDES.get(e.note, e.note)}",
        "dynamite_explodes": lambda: f"La Dinamite esplode davanti a {seat}!",
        "dynamite_passes": lambda: f"La Dinamite passa da {seat} a {target}",
        "jail_escape": lambda: f"{seat} esce di Prigione",
        "jail_stays": lambda: f"{seat} resta in Prigione e salta il turno",
        "store_open": lambda: "Emporio: " + (", ".join(_label(c) for c in e.cards)
                                             or f"{e.count} carte"),
        "store_pick": lambda: f"{seat} prende {card} dall'Emporio",
        "lucky_pick": lambda: f"{seat} (Lucky Duke) sceglie {card} per {_note(e.note)}",
        "kit_look": lambda: f"{seat} (Kit Carlson) guarda {cards()}",
        "kit_keep": lambda: f"{seat} (Kit Carlson) tiene {cards()}",
        "give": lambda: f"{seat} dà {cards()} a {target} (Youl Grinner)",
        "steal": lambda: f"{seat} prende {cards()} a {target}{note}",
        "forced_discard": lambda: f"{seat} fa scartare {card} a {target}{note}",
        "fizzle": lambda: f"{seat} non trova niente da prendere a {target}",
        "henry_block": lambda: f"{seat} (Henry Block) spara prima a {target}",
        "sid": lambda: f"{seat} (Sid Ketchum) scarta "
        + (", ".join(_label(c) for c in e.cards) or f"{e.count} carte")
        + " per recuperare un punto vita",
        "chuck": lambda: f"{seat} (Chuck Wengam) cede un punto vita per 2 carte: "
        f"ne restano {e.value}",
        "jose": lambda: f"{seat} (José Delgado) scarta {card} per 2 carte",
        "game_stopped": lambda: "La partita si è fermata: il motore delle regole ha fallito "
        "sull'ultima mossa. A questo tavolo non si può più giocare.",
    }
    line = lines.get(k)
    return line() if line else f"{k}: {seat} {target}"
