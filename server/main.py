"""`bang host`: wire the store, the host core, the broker link and signals together."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
from pathlib import Path

import platformdirs

from server.broker import EmbeddedBroker, PortInUse, lan_address
from server.cluster import Cluster
from server.cluster_host import ClusterHost
from server.connection import serve
from server.host import Host
from server.store import ReplayError, open_store
from shared import protocol as p

log = logging.getLogger("bang.host")


def default_data_path() -> Path:
    return Path(platformdirs.user_data_dir("bang-terminal")) / "host.sqlite3"


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        stream=sys.stderr, level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not verbose:
        for noisy in ("amqtt", "transitions", "aiomqtt"):
            logging.getLogger(noisy).setLevel(logging.WARNING)


def public_url(address: p.BrokerAddress) -> str:
    """The broker's URL as players should be told it: without the host's account."""
    return f"{'mqtts' if address.tls else 'mqtt'}://{address.host}:{address.port}"


async def run_host(broker_url: str | None, port: int, lan: bool, store_spec: Path | str,
                   bot_delay: float = 0.5, ready: asyncio.Event | None = None,
                   keep_days: float = 30.0, bot_talk: bool = False,
                   cluster: str | None = None) -> int:
    """Run until SIGINT/SIGTERM. Returns a process exit code. `store_spec`: a SQLite file or
    a postgresql:// URL; `StoreUnavailable` when it cannot be opened, before anything starts.
    `cluster`: the group of hosts this one belongs to (server.cluster)."""
    # First of all: a Ctrl-C while the broker starts must stop the host, not be lost.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    store = open_store(store_spec)
    try:
        if cluster is None:
            host = Host(store, bot_delay=bot_delay, keep_days=keep_days, bot_talk=bot_talk)
        else:
            host = ClusterHost(store, Cluster(cluster), bot_delay=bot_delay,
                               keep_days=keep_days, bot_talk=bot_talk)
    except ReplayError as exc:
        log.error("cannot restore the saved games in %s: %s", store.where, exc)
        store.close()
        return 1
    log.info("data in %s; %d room(s) restored", store.where, len(host.rooms))
    log.info("host fingerprint %s", host.keys.fingerprint)
    embedded: EmbeddedBroker | None = None
    if broker_url is None:
        embedded = EmbeddedBroker(port=port, lan=lan)
        try:
            await embedded.start()
        except PortInUse as exc:
            log.error("%s", exc)
            store.close()
            return 1
        broker_url = embedded.url
    address = p.parse_broker_url(broker_url)
    join_url = f"mqtt://{lan_address()}:{port}" if embedded is not None and lan \
        else public_url(address)
    log.info("players join with: bang join --broker %s --fingerprint %s", join_url,
             host.keys.fingerprint)
    if ready is not None:
        ready.set()
    # What exists by now (modules, classes, the restored rooms: some 50,000 objects) lives as
    # long as the host: kept out of the collector's full passes, which each cost ~20 ms less
    # (a full pass at 1000 tables took 65-105 ms of CPU, the event loop stopped meanwhile).
    gc.freeze()
    try:
        await serve(host, address, stop)
    finally:
        host.stop()
        store.close()
        if embedded is not None:
            await embedded.stop()
        log.info("host stopped; everything is saved in %s", store.where)
    return 0
