"""The game state as MessagePack bytes, and back."""

from __future__ import annotations

import msgspec

from shared.model import GameState

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(GameState)


def encode_state(state: GameState) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> GameState:
    """Raises msgspec.ValidationError / DecodeError on anything that is not a valid state."""
    return _decoder.decode(data)
