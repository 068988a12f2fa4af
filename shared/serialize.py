"""The game state as MessagePack bytes, and back."""

from __future__ import annotations

import msgspec

from shared.high_noon.rules import HighNoonState
from shared.model import GameState

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(GameState)
_high_noon_decoder = msgspec.msgpack.Decoder(HighNoonState)


class _Expansions(msgspec.Struct):
    """What tells an expansion's state from a base one (its own fields; the rest ignored)."""

    event_deck: list[str] | None = None


_probe = msgspec.msgpack.Decoder(_Expansions)


def encode_state(state: GameState) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> GameState:
    """The state, of the type it was encoded from (a High Noon game's `HighNoonState`).
    Raises msgspec.ValidationError / DecodeError on anything that is not a valid state."""
    if _probe.decode(data).event_deck is not None:
        return _high_noon_decoder.decode(data)
    return _decoder.decode(data)
