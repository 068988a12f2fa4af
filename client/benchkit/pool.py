"""The bench's side of the load workers (`client.benchkit.worker`): start them, give each its
share of a job, start them all at one instant, and merge what they report."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
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
                proc.kill()
            elif proc.stdin is not None:
                proc.stdin.close()  # the end of its jobs
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 15)
            except TimeoutError:
                proc.kill()
                await proc.wait()

    async def connect(self, clients: int) -> list[float]:
        """A burst of `clients` fresh identities, spread over the workers: the milliseconds
        from the start to each welcome (those not welcomed are missing)."""
        shares = [clients // self.count + (i < clients % self.count) for i in range(self.count)]
        results = await self._run([{"op": "connect", "clients": n} for n in shares])
        return [ms for result in results for ms in result["welcome_ms"]]

    async def tables(self, tables: int, seconds: float, rate: float | None) -> TableRun:
        """`tables` tables of networked bots, dealt round-robin to the workers."""
        results = await self._run([
            {"op": "tables", "tables": list(range(i, tables, self.count)), "seconds": seconds,
             "rate": rate} for i in range(self.count)])
        errors: Counter[str] = Counter()
        for result in results:
            errors.update(result["errors"])
        return TableRun(latencies=[x for r in results for x in r["latencies"]],
                        sizes=[x for r in results for x in r["sizes"]],
                        sealed=sorted({x for r in results for x in r["sealed"]}),
                        actions=sum(r["actions"] for r in results),
                        games=sum(r["games"] for r in results), errors=errors)

    async def _run(self, jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Give each worker its job; once all are ready, start them at one instant."""
        for proc, job in zip(self.procs, jobs, strict=True):
            await self._send(proc, job)
        for proc in self.procs:
            await self._expect(proc, "ready")
        go = time.time() + START_MARGIN
        for proc in self.procs:
            await self._send(proc, {"go": go})
        return [await self._expect(proc, "result") for proc in self.procs]

    @staticmethod
    async def _send(proc: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        await proc.stdin.drain()

    @staticmethod
    async def _expect(proc: asyncio.subprocess.Process, key: str) -> Any:
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if not line:
            raise BenchError(f"a load worker exited (code {await proc.wait()}); see above")
        message = json.loads(line)
        if "error" in message:
            raise BenchError(f"a load worker failed: {message['error']}")
        return message[key]
