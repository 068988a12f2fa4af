"""The asyncssh server: authentication (guest, key, or both) and nothing but game sessions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable

import asyncssh

from server.ssh_door.caps import SessionCaps
from server.ssh_door.config import AuthMode, DoorConfig
from server.ssh_door.hostkey import fingerprint, load_or_create_host_key
from server.ssh_door.identity import Identity
from server.ssh_door.session import DoorSession

log = logging.getLogger(__name__)

_SHUTDOWN_GRACE = 10.0  # seconds for the clients to go when the server stops
#: Connections allowed beyond twice the session caps (in all, and per address).
CONNECTION_SLACK = 2


class DoorStartError(Exception):
    """The door could not listen (port taken, address not local, no permission)."""


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: who logged in, and a `DoorSession` for each session channel."""

    def __init__(self, door: DoorServer) -> None:
        self._door = door
        self._conn: asyncssh.SSHServerConnection | None = None
        self._address = "?"
        self._key: asyncssh.SSHKey | None = None
        self._channels: list[DoorSession] = []
        self._session_timer: asyncio.TimerHandle | None = None
        self._counted = False  # holds a place in the door's connection caps

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self._address = str(peer[0]) if peer else "?"
        refusal = self._door.connections.try_acquire(self._address)
        if refusal:
            log.info("%s: connection refused, too many open (%d in all)", self._address,
                     self._door.connections.active)
            conn.abort()
            return
        self._counted = True

    def connection_lost(self, exc: Exception | None) -> None:
        if self._session_timer is not None:
            self._session_timer.cancel()
        if self._counted:
            self._counted = False
            self._door.connections.release(self._address)

    def auth_completed(self) -> None:
        # asyncssh's login timeout ends at authentication. A connection that then runs no game
        # (`ssh -N`, a refused exec or subsystem, a session without a terminal, a game that
        # ended) would hold a socket forever: it is closed once it has had none for as long.
        self._arm_session_timer()

    def _arm_session_timer(self) -> None:
        self._session_timer = asyncio.get_running_loop().call_later(
            self._door.config.login_timeout, self._close_if_sessionless
        )

    def _close_if_sessionless(self) -> None:
        if self._conn is None:
            return
        if any(channel.live for channel in self._channels):
            self._arm_session_timer()
            return
        log.info("%s: no game session for %.0f s after login; closing", self._address,
                 self._door.config.login_timeout)
        self._conn.close()

    def begin_auth(self, username: str) -> bool:
        self._key = None
        return self._door.config.auth is not AuthMode.GUEST

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Any key is welcome: it is an identity, not a permission. asyncssh calls this again
        # for the signed request and checks the signature right after, so the key recorded last
        # is the one the client proved it holds when authentication succeeds.
        self._key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return self._door.config.auth is AuthMode.HYBRID

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # Hybrid mode: no key offered (or none worked), so this player is a guest.
        self._key = None
        return True

    def session_requested(self) -> DoorSession:
        assert self._conn is not None
        user = self._conn.get_extra_info("username") or ""
        identity = Identity.from_key(user, self._key) if self._key else Identity.guest(user)
        channel = DoorSession(
            self._door.config, self._door.caps, self._door.sessions, self._address, identity
        )
        self._channels = [c for c in self._channels if not c.closed.is_set()] + [channel]
        return channel

    # Forwarding of any kind is refused (asyncssh refuses by default; this says why).
    def connection_requested(self, *args: object) -> bool:
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "port forwarding is disabled here"
        )

    def server_requested(self, *args: object) -> bool:
        return False

    def unix_connection_requested(self, *args: object) -> bool:
        return self.connection_requested()

    def unix_server_requested(self, *args: object) -> bool:
        return False


class DoorServer:
    """The listening door and its live sessions."""

    def __init__(self, config: DoorConfig) -> None:
        self.config = config
        self.caps = SessionCaps(config.max_sessions, config.max_per_ip)
        # Open connections, logged in or not: room for every session plus as many logging in.
        self.connections = SessionCaps(2 * config.max_sessions + CONNECTION_SLACK,
                                       2 * config.max_per_ip + CONNECTION_SLACK)
        self.sessions: set[DoorSession] = set()
        self.host_key = load_or_create_host_key(config.host_key_file)
        self._acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    @property
    def port(self) -> int:
        """The port actually bound (useful when the config asked for port 0)."""
        assert self._acceptor is not None
        return int(self._acceptor.sockets[0].getsockname()[1])

    async def start(self) -> None:
        try:
            self._acceptor = await self._listen()
        except OSError as exc:
            where = f"{self.config.bind or 'all interfaces'} port {self.config.port}"
            raise DoorStartError(f"cannot listen on {where}: {exc.strerror or exc}") from exc

    async def _listen(self) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            lambda: DoorConnection(self),
            self.config.bind,
            self.config.port,
            server_host_keys=[self.host_key],
            encoding=None,
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            login_timeout=self.config.login_timeout,
            keepalive_interval=self.config.keepalive_interval,
            keepalive_count_max=3,
        )

    async def close(self) -> None:
        """Stop accepting, tell every player, and end every client process."""
        if self._acceptor is not None:
            self._acceptor.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.end("The game server is shutting down. Thanks for playing!")
        if sessions:
            # Until each client is gone and each channel closed (so no goodbye is left behind
            # in a send buffer).
            waits = [asyncio.ensure_future(s.finished()) for s in sessions]
            await asyncio.wait(waits, timeout=_SHUTDOWN_GRACE)
            for wait in waits:
                wait.cancel()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()


async def start_door(config: DoorConfig) -> DoorServer:
    door = DoorServer(config)
    await door.start()
    return door


async def serve(door: DoorServer, on_ready: Callable[[DoorServer], None] | None = None) -> None:
    """Run a started door until SIGINT or SIGTERM, then close it."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        if on_ready is not None:
            on_ready(door)
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(sig)
        await door.close()
