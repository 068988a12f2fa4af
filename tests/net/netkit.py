"""Helpers for the network tests: a real Mosquitto on a free port, a host served over a
broker inside the test's event loop."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from pathlib import Path

from server.connection import serve
from server.host import Host
from server.store import Store
from shared import protocol as p

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


class MosquittoProcess:
    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            "log_dest stderr\nlog_type error\nset_tcp_nodelay true\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


class RunningHost:
    """A host core served over a broker inside the test's event loop."""

    def __init__(self, url: str, data: Path, bot_delay: float = 0.0) -> None:
        self.url = url
        self.data = data
        self.bot_delay = bot_delay
        self.host: Host | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> Host:
        self.store = Store(self.data)
        self.host = Host(self.store, bot_delay=self.bot_delay)
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(serve(self.host, p.parse_broker_url(self.url),
                                               self._stop))
        return self.host

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
        assert self.host is not None
        self.host.stop()
        self.store.close()


