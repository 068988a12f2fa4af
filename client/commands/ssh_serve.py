"""`bang ssh-serve`: the SSH door. Players run plain `ssh` and land in the lobby."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from client.commands.common import bounded, broker_url, port_number

if TYPE_CHECKING:
    import socket

    from server.ssh_door import DoorConfig, DoorServer
    from server.ssh_door.privileges import Account

EXAMPLES = """examples:
  bang ssh-serve                        host + embedded broker + door on port 2222
  bang ssh-serve --auth pubkey          players need an SSH key; it keeps their seat
  bang ssh-serve --broker mqtt://127.0.0.1:1883 --port 2022 --max-sessions 20
  bang ssh-serve --bind 127.0.0.1 --idle 600 --host-key /var/lib/bang/ssh_host_ed25519_key
  sudo bang ssh-serve --user bang --data /var/lib/bang --port 22
                                        bind port 22 as root, then run as the user bang

players then connect with:
  ssh -p 2222 yourname@this-machine     (yourname becomes their default player name)
"""

log = logging.getLogger("bang.ssh")


_positive = bounded(int, 1, None, "a whole number", "at least 1")
_seconds = bounded(float, 0.0, None, "a number of seconds", "0 (off) or more")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ssh-serve", help="run an SSH door: players need nothing but ssh",
        description="Serve the game over SSH: every session gets its own terminal and its own "
        "client, dropped straight into the lobby; q or Ctrl+Q leaves. Nothing else is offered "
        "(no shell, commands, sftp or forwarding). Without --broker it also runs the host with "
        "an embedded broker, so this one command opens a whole game server.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=port_number, default=2222, help="SSH port (default 2222)")
    parser.add_argument("--bind", metavar="ADDR", default="",
                        help="listen on this address only (default: all interfaces)")
    parser.add_argument("--broker", metavar="URL", type=broker_url,
                        help="use the host behind this broker instead of starting one")
    parser.add_argument("--mqtt-port", type=port_number, default=1883, metavar="PORT",
                        help="port of the embedded broker, on 127.0.0.1 (default 1883; "
                        "not with --broker)")
    parser.add_argument("--auth", choices=("guest", "pubkey", "hybrid"), default="hybrid",
                        help="guest: anyone, no key; pubkey: an SSH key is required and "
                        "identifies the player; hybrid (default): keys are used when offered, "
                        "others play as guests. Only a key lets a player reclaim a seat")
    parser.add_argument("--host-key", type=Path, metavar="PATH",
                        help="ed25519 host key, created (mode 0600) if missing "
                        "(default: in the user data dir)")
    parser.add_argument("--max-sessions", type=_positive, default=50, metavar="N",
                        help="sessions at once (default 50)")
    parser.add_argument("--max-per-ip", type=_positive, default=4, metavar="N",
                        help="sessions at once from one address (default 4)")
    parser.add_argument("--idle", type=_seconds, default=1800, metavar="SECONDS",
                        help="disconnect after this long without a keystroke; 0 = never "
                        "(default 1800)")
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="door data: host key, player profiles and, without --broker, the "
                        "host's games (default: user data dir)")
    parser.add_argument("--user", metavar="NAME",
                        help="started as root: bind the port, then run the whole door (host, "
                        "players' clients) as this user, with no supplementary groups and no "
                        "way back to root; the data directory must be usable by it "
                        "(see docs/SSH.md)")
    parser.add_argument("--verbose", action="store_true", help="log every SSH event")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.main import setup_logging
    from server.ssh_door import DoorStartError
    from server.ssh_door.hostkey import HostKeyError
    from server.ssh_door.privileges import PrivilegeError, UsageError, find_account

    if args.broker and args.mqtt_port != 1883:
        print("bang ssh-serve: --mqtt-port is for the embedded broker; not with --broker",
              file=sys.stderr)
        return 2
    try:
        account = find_account(args.user) if args.user is not None else None
    except UsageError as exc:
        print(f"bang ssh-serve: {exc}", file=sys.stderr)
        return 2
    setup_logging(args.verbose)
    if not args.verbose:
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
    config = door_config(args, _broker_url(args))
    try:
        sockets = _bind_and_become(config, account, _games_path(args), args.data)
        return asyncio.run(_serve(args, config, sockets))
    except UsageError as exc:
        print(f"bang ssh-serve: {exc}", file=sys.stderr)
        return 2
    except (HostKeyError, DoorStartError, PrivilegeError) as exc:
        print(f"bang ssh-serve: {exc}", file=sys.stderr)
    return 1


def _bind_and_become(config: DoorConfig, account: Account | None, games: Path | None,
                     data: Path | None) -> list[socket.socket]:
    """Bind the port with whatever privilege the door was started with, then give it all up
    before a file is read or a player served: with `--user`, switch to that user (see
    server/ssh_door/privileges.py for why the whole door), root first creating the `--data`
    directory `data` for it if needed; in any case, clear ambient capabilities so that no
    client inherits one. Runs before the event loop starts: no threads yet."""
    from server.ssh_door import privileges
    from server.ssh_door.server import bind_sockets

    sockets = bind_sockets(config.bind, config.port)
    privileges.clear_ambient_capabilities()
    if account is None:
        if os.geteuid() == 0:
            log.warning("running as root: every player's client runs as root too; use "
                        "--user NAME, or systemd's User= (see docs/SSH.md)")
        return sockets
    if data is not None:  # not the defaults: they are in root's home, out of the user's reach
        privileges.prepare_directory(data, account)
    privileges.drop_privileges(account)
    directories = list(dict.fromkeys([config.data_dir] + ([games.parent] if games else [])))
    privileges.check_usable(account, [*directories, config.players_dir],
                            read=[config.host_key_file], read_write=[games] if games else [])
    log.info("running as user %s (uid %d, gid %d): no supplementary groups, no new "
             "privileges", account.name, account.uid, account.gid)
    return sockets


def _broker_url(args: argparse.Namespace) -> str:
    from server.broker import EmbeddedBroker

    return args.broker or EmbeddedBroker(port=args.mqtt_port).url


def _games_path(args: argparse.Namespace) -> Path | None:
    """Where the host started by the door keeps its games (None with --broker: no host here).
    Beside the door's own data when --data names a folder."""
    from server.main import default_data_path

    if args.broker:
        return None
    return args.data / "host.sqlite3" if args.data else default_data_path()


def door_config(args: argparse.Namespace, broker_url: str) -> DoorConfig:
    from server.ssh_door import AuthMode, DoorConfig

    extra = {"data_dir": args.data} if args.data else {}
    return DoorConfig(
        broker_url=broker_url, port=args.port, bind=args.bind, auth=AuthMode(args.auth),
        host_key_path=args.host_key, max_sessions=args.max_sessions,
        max_per_ip=args.max_per_ip, idle_timeout=args.idle, **extra,
    )


async def _serve(args: argparse.Namespace, config: DoorConfig,
                 sockets: list[socket.socket]) -> int:
    from server.ssh_door import serve, start_door

    door = await start_door(config, sockets)  # a bad host key fails before the host starts
    host_task: asyncio.Task[int] | None = None
    games = _games_path(args)
    try:
        if games is not None:
            host_task = await _start_host(args.mqtt_port, games)
            if host_task.done():  # the host has logged why it could not start
                print("bang ssh-serve: the host did not start (see above); for a taken broker "
                      "port use --mqtt-port, or --broker to use a host that is already running",
                      file=sys.stderr)
                return host_task.result() or 1
        await serve(door, on_ready=_announce)
    finally:
        await door.close()
        if host_task is not None:
            host_task.cancel()  # the door took over SIGINT/SIGTERM; the host's finally saves
            with contextlib.suppress(asyncio.CancelledError):
                await host_task
    return 0


async def _start_host(mqtt_port: int, games: Path) -> asyncio.Task[int]:
    """`bang host` with its embedded broker, in this process; returns once it is up (or gone)."""
    from server.main import run_host

    ready = asyncio.Event()
    task = asyncio.create_task(run_host(None, mqtt_port, False, games, ready=ready))
    waiter = asyncio.create_task(ready.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    return task


def _announce(door: DoorServer) -> None:
    config = door.config
    where = config.bind or "all interfaces"
    print(
        f"SSH door on port {door.port} ({where}), auth {config.auth.value}, "
        f"at most {config.max_sessions} sessions, {config.max_per_ip} per address\n"
        f"host key {config.host_key_file}\n"
        f"host key fingerprint {door.fingerprint}\n"
        f"players connect with: ssh -p {door.port} NAME@THIS-HOST",
        flush=True,
    )
