"""End-to-end protection for the wire, as pure functions over the `cryptography` package.

- Every client owns an X25519 key pair (its credential; the seat it takes is bound to it).
  Its client id (`cid`) is derived from the public key, so nobody can claim someone else's id.
- Client and host derive two ChaCha20-Poly1305 keys from X25519(client, host) with HKDF:
  one per direction. Client requests and host replies are sealed with them, which both hides
  them from other broker users and authenticates the sender.
- The host signs its public messages (lobby, spectator updates) with Ed25519. Clients pin the
  host's fingerprint on first use.
- Requests carry a strictly increasing counter (microseconds since the epoch, or last + 1),
  so a replayed or re-ordered old request is refused without keeping state on the client.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import OrderedDict

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_BYTES = 32
NONCE_BYTES = 12
CID_HEX = 24  # 96 bits of SHA-256 of the client's public key


class CryptoError(Exception):
    """A box that does not open, a bad signature or a malformed key."""


def client_id(public_key: bytes) -> str:
    """The client id that goes in topics: a short hash of the client's X25519 public key."""
    return hashlib.sha256(b"bang/v1 cid" + public_key).hexdigest()[:CID_HEX]


def fingerprint(sign_public: bytes, kx_public: bytes) -> str:
    """The host's fingerprint, shown at start and pinned by clients (like an SSH host key)."""
    digest = hashlib.sha256(b"bang/v1 host" + sign_public + kx_public).hexdigest()
    return "SHA256:" + ":".join(digest[i : i + 4] for i in range(0, 32, 4))


class HostKeys:
    """The host's long-term keys: Ed25519 to sign, X25519 to agree session keys."""

    def __init__(self, sign: Ed25519PrivateKey, kx: X25519PrivateKey) -> None:
        self.sign = sign
        self.kx = kx
        self.sign_public = sign.public_key().public_bytes_raw()
        self.kx_public = kx.public_key().public_bytes_raw()
        self.fingerprint = fingerprint(self.sign_public, self.kx_public)

    @classmethod
    def generate(cls) -> HostKeys:
        return cls(Ed25519PrivateKey.generate(), X25519PrivateKey.generate())

    def to_bytes(self) -> bytes:
        return self.sign.private_bytes_raw() + self.kx.private_bytes_raw()

    @classmethod
    def from_bytes(cls, raw: bytes) -> HostKeys:
        if len(raw) != 2 * KEY_BYTES:
            raise CryptoError("host key file must hold 64 bytes")
        return cls(
            Ed25519PrivateKey.from_private_bytes(raw[:KEY_BYTES]),
            X25519PrivateKey.from_private_bytes(raw[KEY_BYTES:]),
        )


class ClientKey:
    """A client's credential: an X25519 private key kept on the player's machine."""

    def __init__(self, private: X25519PrivateKey) -> None:
        self.private = private
        self.public = private.public_key().public_bytes_raw()
        self.cid = client_id(self.public)

    @classmethod
    def generate(cls) -> ClientKey:
        return cls(X25519PrivateKey.generate())

    def to_bytes(self) -> bytes:
        return self.private.private_bytes_raw()

    @classmethod
    def from_bytes(cls, raw: bytes) -> ClientKey:
        if len(raw) != KEY_BYTES:
            raise CryptoError("client key file must hold 32 bytes")
        return cls(X25519PrivateKey.from_private_bytes(raw))


class Session:
    """The two directional AEAD keys shared by one client and the host."""

    def __init__(self, shared_secret: bytes, client_public: bytes, host_public: bytes) -> None:
        okm = HKDF(
            algorithm=hashes.SHA256(),
            length=2 * KEY_BYTES,
            salt=None,
            info=b"bang/v2 session" + client_public + host_public,
        ).derive(shared_secret)
        self.to_host = ChaCha20Poly1305(okm[:KEY_BYTES])
        self.to_client = ChaCha20Poly1305(okm[KEY_BYTES:])

    @classmethod
    def for_client(cls, key: ClientKey, host_kx_public: bytes) -> Session:
        return cls(_exchange(key.private, host_kx_public), key.public, host_kx_public)

    @classmethod
    def for_host(cls, keys: HostKeys, client_public: bytes) -> Session:
        return cls(_exchange(keys.kx, client_public), client_public, keys.kx_public)


def _exchange(private: X25519PrivateKey, peer_public: bytes) -> bytes:
    if len(peer_public) != KEY_BYTES:
        raise CryptoError("an X25519 public key is 32 bytes")
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(peer_public))
    except ValueError as exc:  # a low-order point: the shared secret would be all zeros
        raise CryptoError("degenerate X25519 public key") from exc


def seal(aead: ChaCha20Poly1305, plaintext: bytes, aad: bytes) -> bytes:
    """nonce || ciphertext+tag, with a fresh random nonce."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + aead.encrypt(nonce, plaintext, aad)


def open_box(aead: ChaCha20Poly1305, box: bytes, aad: bytes) -> bytes:
    if len(box) < NONCE_BYTES + 16:
        raise CryptoError("sealed box too short")
    try:
        return aead.decrypt(box[:NONCE_BYTES], box[NONCE_BYTES:], aad)
    except InvalidTag as exc:
        raise CryptoError("sealed box does not open with this seat's key") from exc


def sign(keys: HostKeys, data: bytes) -> bytes:
    return keys.sign.sign(data)


#: Signed messages this process verified lately. One process often holds several clients of
#: the same room (the SSH door, a bench worker, a player who also watches): each gets the
#: same signed bytes, and one Ed25519 check (~150 µs) serves them all. Only successes are
#: kept, so nothing unverified is ever believed.
VERIFIED_MEMO = 2048
_verified: OrderedDict[tuple[bytes, bytes, bytes], None] = OrderedDict()


def verify(sign_public: bytes, signature: bytes, data: bytes) -> None:
    """Raise CryptoError unless `signature` is the host's over `data`."""
    if len(sign_public) != KEY_BYTES:
        raise CryptoError("an Ed25519 public key is 32 bytes")
    key = (sign_public, signature, data)
    if key in _verified:
        return
    try:
        Ed25519PublicKey.from_public_bytes(sign_public).verify(signature, data)
    except InvalidSignature as exc:
        raise CryptoError("bad host signature") from exc
    _verified[key] = None
    if len(_verified) > VERIFIED_MEMO:
        _verified.popitem(last=False)


def next_counter(last: int) -> int:
    """A strictly increasing counter that survives restarts without storage."""
    return max(last + 1, time.time_ns() // 1000)
