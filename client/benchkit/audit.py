"""After the tables have played: the actions the clients saw acknowledged that the store does
not hold. A decision's id is the number of actions before it, so within a room each answered
decision is one stored row, and each acknowledged `act` names the decision it answered."""

from __future__ import annotations

from pathlib import Path


def lost_actions(store_spec: Path | str, acked: dict[str, list[int]]) -> int:
    """`acked`: room -> the decisions whose `act` the host acknowledged (its seat update
    with the request's `ref`, or a `replay` refusal of a re-sent request)."""
    from server.store import open_store

    store = open_store(store_spec)
    try:
        lost = 0
        for room, decisions in acked.items():
            stored = {decision for _, _, decision, _, _ in store.tables.actions(room)}
            lost += sum(decision not in stored for decision in decisions)
        return lost
    finally:
        store.close()
