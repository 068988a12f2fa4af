"""The bench's side of the load workers (`client.benchkit.worker`): start them, give each its
share of a job, start them all at one instant, and merge what they report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from client.benchkit import ROOT, BenchError

#: The go names an instant this far ahead, so that every worker has it in time.
START_MARGIN = 0.5
#: A result line carries every latency and size: far past asyncio's 64 KiB line limit.
LINE_LIMIT = 1 << 28


@dataclass
class TableRun:
    """The networked tables of every worker together."""

    latencies: list[float]  # µs from an action sent to the last seat's update
    sizes: list[int]  # bytes of each public RoomDelta the clients received
    sealed: list[int]  # the distinct lengths of the sealed messages they received
    actions: int
    games: int
    errors: Counter[str]  # refusals and timeouts met by the clients, by code
    started: int  # games started, the first ones included
    acked: dict[str, list[int]]  # room -> the decisions whose act the host acknowledged
    pause: float  # seconds: the longest pause of a game in course


@dataclass
class FloodRun:
    """An honest table playing under a junk flood, both from one instant for the same time."""

    sent: int  # junk messages the stranger sent
    seconds: float  # the time it took to send them
    requests: int  # requests the honest clients sent during the flood
    answered_ms: list[float]  # ms from each answered request to its answer
    errors: Counter[str]  # refusals and unanswered requests among them, by code
    actions: int  # the honest seats' actions applied during the flood
    games: int  # their games finished during it


class WorkerPool:
    """`count` worker processes, each with one event loop of clients."""

    def __init__(self, count: int, broker: str, fingerprint: str) -> None:
        self.count = count
        self.broker = broker
        self.fingerprint = fingerprint
        self.procs: list[asyncio.subprocess.Process] = []

    async def __aenter__(self) -> WorkerPool:
        for _ in range(self.count):
            self.procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "client.benchkit.worker", "--broker", self.broker,
                "--fingerprint", self.fingerprint, stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, cwd=ROOT, limit=LINE_LIMIT))
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        for proc in self.procs:
            if exc_type is not None:
                with contextlib.suppress(ProcessLookupError):  # it has exited already
                    proc.kill()
            elif proc.stdin is not None:
                proc.stdin.close()  # the end of its jobs
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 15)
            except TimeoutError:
                proc.kill()
                await proc.wait()

    async def connect(self, clients: int, window: float = 0.0) -> list[float]:
        """`clients` fresh identities starting at instants spread evenly over `window`
        seconds (0: all at the start), the instants dealt round-robin to the workers: the
        milliseconds from each one's start to its welcome (those not welcomed are missing)."""
        starts = [k * window / clients for k in range(clients)]
        results = await self._run([{"op": "connect", "starts": starts[i::self.count]}
                                   for i in range(self.count)])
        return [ms for result in results for ms in result["welcome_ms"]]

    async def tables(self, tables: int, seconds: float, rate: float | None,
                     lean: bool = True, seats: int = 4,
                     on_go: Callable[[float], None] | None = None,
                     takeovers: bool = False) -> TableRun:
        """`tables` tables of `seats` networked bots, dealt round-robin to the workers;
        `lean`: lean seats (`client.benchkit.lean`), else the client library's. `on_go`: told
        the instant (`time.time()`) the tables start playing. `takeovers`: lean seats follow
        the rooms' snapshots (a host will be killed)."""
        results = await self._run([
            {"op": "tables", "tables": list(range(i, tables, self.count)), "seconds": seconds,
             "rate": rate, "timed": False, "lean": lean, "seats": seats,
             "takeovers": takeovers}
            for i in range(self.count)], on_go)
        errors: Counter[str] = Counter()
        acked: dict[str, list[int]] = {}
        for result in results:
            errors.update(result["errors"])
            acked |= result["acked"]  # each room is played by one worker
        return TableRun(latencies=[x for r in results for x in r["latencies"]],
                        sizes=[x for r in results for x in r["sizes"]],
                        sealed=sorted({x for r in results for x in r["sealed"]}),
                        actions=sum(r["actions"] for r in results),
                        games=sum(r["games"] for r in results), errors=errors,
                        started=sum(r["started"] for r in results), acked=acked,
                        pause=max(r["pause"] for r in results))

    async def flood(self, rate: float, seconds: float, pace: float) -> FloodRun:
        """The first worker seats one table of networked bots playing at most `pace` actions
        a second; the second, a stranger, floods the broker with junk aimed at the table's
        clients, `rate` messages a second (see `client.benchkit.flood`). Needs two workers."""
        honest, stranger = self.procs[:2]
        await self._send(honest, {"op": "tables", "tables": [0], "seconds": seconds,
                                  "rate": pace, "timed": True})
        clients = (await self._message(honest, "ready"))["clients"]
        await self._send(stranger, {"op": "flood", "victims": clients, "rate": rate,
                                    "seconds": seconds})
        await self._expect(stranger, "ready")
        played, flooded = await self._start([honest, stranger])
        asked = played["requests"]
        return FloodRun(sent=flooded["sent"], seconds=flooded["seconds"], requests=asked["sent"],
                        answered_ms=asked["answered_ms"], errors=Counter(asked["errors"]),
                        actions=played["actions"], games=played["games"])

    async def _run(self, jobs: list[dict[str, Any]],
                   on_go: Callable[[float], None] | None = None) -> list[dict[str, Any]]:
        """Give each worker its job; once all are ready, start them at one instant."""
        for proc, job in zip(self.procs, jobs, strict=True):
            await self._send(proc, job)
        for proc in self.procs:
            await self._expect(proc, "ready")
        return await self._start(self.procs, on_go)

    async def _start(self, procs: list[asyncio.subprocess.Process],
                     on_go: Callable[[float], None] | None = None) -> list[dict[str, Any]]:
        """Start ready workers at one instant (told to `on_go`); their results."""
        go = time.time() + START_MARGIN
        if on_go is not None:
            on_go(go)
        for proc in procs:
            await self._send(proc, {"go": go})
        return [await self._expect(proc, "result") for proc in procs]

    @staticmethod
    async def _send(proc: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        await proc.stdin.drain()

    @classmethod
    async def _expect(cls, proc: asyncio.subprocess.Process, key: str) -> Any:
        return (await cls._message(proc, key))[key]

    @staticmethod
    async def _message(proc: asyncio.subprocess.Process, key: str) -> dict[str, Any]:
        """The worker's next line, which must carry `key`."""
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if not line:
            raise BenchError(f"a load worker exited (code {await proc.wait()}); see above")
        message = json.loads(line)
        if "error" in message:
            raise BenchError(f"a load worker failed: {message['error']}")
        if key not in message:
            raise BenchError(f"a load worker said {line.decode().strip()[:80]} where {key} "
                             f"was due")
        return message
