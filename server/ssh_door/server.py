"""The asyncssh server: authentication (guest, key, or both) and nothing but game sessions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Callable

import asyncssh

from server.ssh_door.caps import SessionCaps
from server.ssh_door.childlog import LogBudget
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
            self._door.config, self._door.caps, self._door.sessions, self._address, identity,
            self._door.client_logs,
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
        self.client_logs = LogBudget(config.client_log_total)
        self.host_key = load_or_create_host_key(config.host_key_file)
        self._acceptors: list[asyncssh.SSHAcceptor] = []

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    @property
    def port(self) -> int:
        """The port actually bound (useful when the config asked for port 0)."""
        return int(self._acceptors[0].sockets[0].getsockname()[1])

    async def start(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve on `sockets` (bound earlier, by `bind_sockets`), or bind them now."""
        if sockets is None:
            sockets = bind_sockets(self.config.bind, self.config.port)
        try:
            for sock in sockets:
                self._acceptors.append(await self._listen(sock))
        except OSError as exc:
            for acceptor in self._acceptors:
                acceptor.close()
            for sock in sockets:
                sock.close()
            where = _where(self.config.bind, self.config.port)
            raise DoorStartError(f"cannot listen on {where}: {exc.strerror or exc}") from exc

    async def _listen(self, sock: socket.socket) -> asyncssh.SSHAcceptor:
        return await asyncssh.create_server(
            lambda: DoorConnection(self),
            sock=sock,
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
        for acceptor in self._acceptors:
            acceptor.close()
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
        for acceptor in self._acceptors:
            await acceptor.wait_closed()


def _where(bind: str, port: int) -> str:
    return f"{bind or 'all interfaces'} port {port}"


def bind_sockets(bind: str, port: int) -> list[socket.socket]:
    """The door's listening sockets, bound but not yet served. A separate step so that
    `--user` can bind a port below 1024 as root, then drop root before the door reads its host
    key. As asyncio's create_server would: every address of `bind` (all interfaces when empty),
    SO_REUSEADDR, IPv6 sockets IPv6-only, and address families the machine lacks skipped."""
    try:
        infos = socket.getaddrinfo(bind or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise DoorStartError(f"cannot listen on {_where(bind, port)}: {exc.strerror}") from exc
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            try:
                sock = socket.socket(family, kind, proto)
            except OSError:
                continue  # e.g. IPv6 switched off on this machine
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise DoorStartError(f"cannot listen on {_where(bind, port)}: "
                             f"{exc.strerror or exc}") from exc
    if not sockets:
        raise DoorStartError(f"cannot listen on {_where(bind, port)}: no usable address")
    return sockets


async def start_door(config: DoorConfig, sockets: list[socket.socket] | None = None) -> DoorServer:
    """Load the host key and serve on `sockets` (or on sockets bound now from the config)."""
    try:
        door = DoorServer(config)
    except BaseException:
        for sock in sockets or ():
            sock.close()
        raise
    await door.start(sockets)
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
