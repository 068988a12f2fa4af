"""Footer key labels in the user's language: a node's bindings carry English descriptions,
replaced per instance (Textual copies the class bindings into every node)."""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from client.i18n import I18n

_FOOTER_IT = {
    "Back": "Indietro",
    "End turn": "Fine turno",
    "Log": "Cronaca",
    "Help": "Aiuto",
    "Hide": "Nascondi",
    "Rematch": "Rivincita",
    "Quit": "Esci",
    "Create": "Crea",
    "Watch": "Guarda",
    "Ready": "Pronto",
    "Start": "Inizia",
    "Theme": "Tema",
    "Results": "Risultati",
    "Lobby": "Sala",
    "palette": "comandi",
}


def localize_bindings(node: DOMNode, i18n: I18n) -> None:
    if i18n.lang != "it":
        return
    bindings = node._bindings.key_to_bindings
    for key, entries in bindings.items():
        bindings[key] = [
            dataclasses.replace(b, description=_FOOTER_IT.get(b.description, b.description))
            for b in entries
        ]
