"""The hosts under measurement, as one: a single `bang host`, or with `count` a cluster of
`count` of them (`bang host --cluster GROUP`) on one broker and one PostgreSQL store, each in
its own process and work directory. The group name is random, as a deployment's secret would
be; every host of the group must show the same fingerprint (the keys come from the store)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from client.benchkit import BenchError
from client.benchkit.hostproc import HostProcess


class HostGroup:
    """`count` None: one host, as `bang bench relay` always ran it (on `store` if given)."""

    def __init__(self, broker: str | None, workdir: Path, store: Path | str | None = None,
                 count: int | None = None) -> None:
        self.workdir = workdir
        self.killed: HostProcess | None = None
        if count is None:
            self.hosts = [HostProcess(broker, workdir, store)]
        else:
            group = f"bench-{secrets.token_hex(4)}"
            self.hosts = [HostProcess(broker, _mkdir(workdir / f"host{i}"), store, group)
                          for i in range(count)]
        self.url = self.hosts[0].url
        self.store = self.hosts[0].store
        self.fingerprint = ""

    async def __aenter__(self) -> HostGroup:
        started = await asyncio.gather(*(host.__aenter__() for host in self.hosts),
                                       return_exceptions=True)
        problems = [result for result in started if isinstance(result, BaseException)]
        if problems:
            await self._stop()
            raise problems[0]
        fingerprints = {host.fingerprint for host in self.hosts}
        if len(fingerprints) != 1:
            await self._stop()
            raise BenchError(f"the hosts of the cluster show different fingerprints: "
                             f"{', '.join(sorted(fingerprints))}")
        self.fingerprint = fingerprints.pop()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self._stop()

    async def _stop(self) -> None:
        await asyncio.gather(*(host.__aexit__(None, None, None) for host in self.hosts))

    def kill_one(self) -> None:
        """SIGKILL the first host (once): its rooms must move to the others."""
        if self.killed is None:
            self.killed = self.hosts[0]
            self.killed.kill()

    def peak_rss_mb(self) -> float | None:
        """The largest peak resident memory of the hosts still running (VmHWM)."""
        peaks = [host.peak_rss_mb() for host in self.hosts if host is not self.killed]
        known = [peak for peak in peaks if peak is not None]
        return max(known) if known else None


def _mkdir(path: Path) -> Path:
    path.mkdir()
    return path


@dataclass(frozen=True)
class HostSetup:
    """The bench's host flags: each host step starts its own `group` from them."""

    broker: str | None
    store: Path | str | None = None
    count: int | None = None  # --hosts
    kill_one: bool = False

    def group(self, workdir: Path) -> HostGroup:
        return HostGroup(self.broker, workdir, self.store, self.count)
