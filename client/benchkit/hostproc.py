"""The host under measurement: `bang host` in its own process (with the embedded broker in it
when the bench has no --broker), as a user runs it, on its own SQLite file or on the bench's
--store, alone or as one host of a cluster. Its log goes to a file, where the bench reads the
host's fingerprint; it is ready once it is linked to the broker and a client has its welcome."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import sys
from pathlib import Path
from types import TracebackType

from client.benchkit import ROOT, BenchError

#: Seconds the host may take to start and welcome a first client.
READY_TIMEOUT = 30.0
_FINGERPRINT = re.compile(r"host fingerprint (\S+)")
_LINKED = re.compile(r"connected to the broker")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostProcess:
    """`bang host --store STORE --bot-delay 0`, on `broker` or an embedded one. `store`: a
    SQLite path or postgresql:// URL (default: DIR/host.sqlite3); `cluster`: the group this
    host joins (`--cluster`, which needs a broker and a PostgreSQL store)."""

    def __init__(self, broker: str | None, workdir: Path, store: Path | str | None = None,
                 cluster: str | None = None) -> None:
        self.port = None if broker else _free_port()
        self.url = broker or f"mqtt://127.0.0.1:{self.port}"
        self.store = store or workdir / "host.sqlite3"
        self.cluster = cluster
        self.log = workdir / "host.log"
        self.workdir = workdir
        self.fingerprint = ""
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> HostProcess:
        where = ["--broker", self.url] if self.port is None else ["--port", str(self.port)]
        if self.cluster is not None:
            where += ["--cluster", self.cluster]
        with self.log.open("wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "client.cli", "host", "--store", str(self.store),
                "--bot-delay", "0", *where, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, stderr=log, cwd=ROOT)
        try:
            self.fingerprint = await self._read_fingerprint()
            await self._wait_log(_LINKED, "link to the broker")
            await self._welcomed()
        except BaseException:
            await self._stop()
            raise
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self._stop()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def kill(self) -> None:
        """SIGKILL, as a crash or `kill -9` would stop it: nothing of its own shutdown runs."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    def peak_rss_mb(self) -> float | None:
        """The host process's peak resident memory so far (VmHWM); None without /proc."""
        self._check_running()
        assert self.proc is not None
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        match = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
        return round(int(match.group(1)) / 1024, 1) if match else None

    def _check_running(self) -> None:
        assert self.proc is not None
        if self.proc.returncode is not None:
            raise BenchError(f"the host exited (code {self.proc.returncode}): {self._last_log()}")

    def _last_log(self) -> str:
        lines = self.log.read_text(errors="replace").strip().splitlines()
        return lines[-1] if lines else "(no log)"

    async def _read_fingerprint(self) -> str:
        return (await self._wait_log(_FINGERPRINT, "fingerprint")).group(1)

    async def _wait_log(self, pattern: re.Pattern[str], what: str) -> re.Match[str]:
        """The first match of `pattern` in the host's log, once it is there."""
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                while True:
                    self._check_running()
                    found = pattern.search(self.log.read_text(errors="replace"))
                    if found:
                        return found
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise BenchError(f"the host logged no {what} within {READY_TIMEOUT:.0f} s; its log "
                             f"ends: {self._last_log()}") from None

    async def _welcomed(self) -> None:
        """Until a client has its welcome, or the host exits."""
        from client.net.remote import Remote
        from shared import crypto

        assert self.proc is not None
        async with Remote(self.url, config_dir=self.workdir / "ready", fingerprint=self.fingerprint,
                          key=crypto.ClientKey.generate()) as remote:
            welcomed = asyncio.create_task(remote.wait_connected(READY_TIMEOUT))
            exited = asyncio.create_task(self.proc.wait())
            await asyncio.wait({welcomed, exited}, return_when=asyncio.FIRST_COMPLETED)
            exited.cancel()
            self._check_running()
            try:
                await welcomed
            except TimeoutError:
                raise BenchError(f"the host did not welcome a client on {self.url} within "
                                 f"{READY_TIMEOUT:.0f} s; its log ends: {self._last_log()}") \
                    from None

    async def _stop(self) -> None:
        """SIGTERM, as a user would stop it; killed if it does not stop in time."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):  # it has just exited
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            proc.kill()
            await proc.wait()
