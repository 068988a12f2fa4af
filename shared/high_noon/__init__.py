"""High Noon, the event-card expansion: its cards (`cards`), its state and rulebook (`rules`).
A game plays it when its `Setup` names it in `expansions` (../shared/HIGH_NOON.md)."""
