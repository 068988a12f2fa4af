"""Footer key labels in the user's language: a node's bindings carry English descriptions,
replaced per instance (Textual copies the class bindings into every node)."""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from client.i18n import I18n


def localize_bindings(node: DOMNode, i18n: I18n) -> None:
    if not i18n.catalog.footer:
        return
    bindings = node._bindings.key_to_bindings
    for key, entries in bindings.items():
        bindings[key] = [dataclasses.replace(b, description=i18n.footer(b.description))
                         for b in entries]
