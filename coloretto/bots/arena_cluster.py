"""The arena on a dask.distributed cluster: its games spread over the cluster's workers.

``dask.distributed`` is the ``cluster`` extra (``pip install 'coloretto[cluster]'``), imported
only once a scheduler is named (``connect``): the game and the local arena never load it.
The workers play ``played_game`` with their own coloretto, which must be this one (checked
before each table): each game is seeded from the arena's seed and its number, so the
figures are the local arena's for the same seed.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import Any
from uuid import uuid4

import coloretto
from coloretto.bots.arena import Arena, FinishedGame, played_game
from coloretto.bots.oracle import make_measured_bot
from coloretto.bots.registry import BotError

CONNECT_SECONDS = 10.0
"""How long the scheduler may take to answer, and to have a worker, before giving up."""

INSTALL = "pip install 'coloretto[cluster]'"
"""How to install the cluster extra."""


class ClusterError(RuntimeError):
    """The cluster cannot play the arena (missing extra, no scheduler, no worker, a worker
    with other code); the message says what to do."""


@dataclass(frozen=True)
class WorkerCheck:
    """What a worker runs: coloretto's version and code, and which bots it cannot make."""

    version: str
    code: str
    problems: tuple[str, ...]


@cache
def code_fingerprint() -> str:
    """A digest of coloretto's Python sources: equal where the games are played alike.

    Taken once per process, when first asked (in a worker, before its first game): a
    worker started before its files changed keeps the digest of the code it runs."""
    root = Path(coloretto.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def check_worker(bots: tuple[str, ...]) -> WorkerCheck:
    """Run on each worker: its coloretto, and the bots of ``bots`` it cannot make."""
    problems = []
    for spec in bots:
        try:
            make_measured_bot(spec, seed=0)
        except (BotError, ValueError) as error:
            problems.append(str(error))
    return WorkerCheck(coloretto.__version__, code_fingerprint(), tuple(problems))


class ClusterRunner:
    """Plays an arena's games on the workers of a connected ``Client`` (``connect``),
    a few per worker thread at a time, and hands each back as it finishes."""

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address

    def __enter__(self) -> ClusterRunner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.client.close()

    def threads(self) -> int:
        """The worker threads the scheduler has now."""
        return sum(self.client.nthreads().values())

    def check(self, arena: Arena) -> None:
        """Fail unless the scheduler and every worker run this coloretto (the scheduler
        reads the games' tasks too) and the workers can make the arena's bots."""
        here = WorkerCheck(coloretto.__version__, code_fingerprint(), ())
        try:
            scheduler: object = self.client.run_on_scheduler(check_worker, ())
        except Exception as error:  # raised on the scheduler, whatever it is
            scheduler = error
        _same_code(f"the scheduler at {self.address}", scheduler, here)
        checks: dict[str, object] = self.client.run(check_worker, arena.bots, on_error="return")
        for worker, check in sorted(checks.items()):
            _same_code(f"the worker {worker}", check, here)
            assert isinstance(check, WorkerCheck)
            if check.problems:
                raise ClusterError(f"the worker {worker}: {check.problems[0]}")

    def play(self, arena: Arena) -> Iterator[FinishedGame]:
        """Every game of ``arena``, as the workers finish them (in any order).

        At most four games per worker thread wait on the cluster at a time, so a long
        table does not fill the scheduler; what is left is cancelled if the run stops.
        """
        self.check(arena)
        run = uuid4().hex[:8]
        numbers = iter(range(arena.games))

        def submit(number: int) -> Any:
            key = f"coloretto-arena-{run}-{number}"
            return self.client.submit(played_game, arena, number, key=key, pure=False)

        first = islice(numbers, 4 * max(1, self.threads()))
        waiting = _distributed().as_completed([submit(n) for n in first], loop=self.client.loop)
        try:
            for future in waiting:
                played: FinishedGame = _outcome(future, self.address)
                following = next(numbers, None)
                if following is not None:
                    waiting.add(submit(following))
                yield played
        finally:
            self.client.cancel(list(waiting.futures))


def _same_code(where: str, check: object, here: WorkerCheck) -> None:
    """Fail unless ``check`` (a ``WorkerCheck``, or the error that came instead) tells of
    this coloretto's code."""
    if not isinstance(check, WorkerCheck):
        raise ClusterError(
            f"{where} cannot run this coloretto ({check}): install the same coloretto on the "
            "scheduler and every worker"
        )
    if (check.version, check.code) != (here.version, here.code):
        raise ClusterError(
            f"{where} runs other coloretto code ({check.version}) than here ({here.version}): "
            "its games would not be this coloretto's; install the same coloretto on the "
            "scheduler and every worker, and restart them after a change"
        )


def _outcome(future: Any, address: str) -> FinishedGame:
    """A finished game's result; a worker lost on it too often, or the scheduler lost, is
    a ``ClusterError``. Any other error is the game's own and is raised as it is."""
    distributed = _distributed()
    try:
        played: FinishedGame = future.result()
    except distributed.KilledWorker as error:
        raise ClusterError(f"the workers of {address} kept dying on a game: {error}") from None
    except distributed.CancelledError:
        raise ClusterError(f"lost the scheduler at {address}") from None
    return played


def connect(address: str, timeout: float | None = None) -> ClusterRunner:
    """A runner on the cluster whose scheduler is at ``address`` (``tcp://HOST:8786``).

    Raises ``ClusterError`` if dask.distributed is not installed, if ``address`` is not a
    dask scheduler's or does not answer within ``timeout`` seconds, or if the scheduler
    has no worker within ``timeout`` seconds (default ``CONNECT_SECONDS``).
    """
    timeout = CONNECT_SECONDS if timeout is None else timeout
    distributed = _distributed()
    kind = _identify(address, timeout)
    if kind != "Scheduler":
        raise ClusterError(
            f"{address} is a dask {kind}, not a scheduler: give the scheduler's address "
            "(port 8786 by default)"
        )
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, ValueError) as error:
        raise ClusterError(f"cannot connect to the scheduler at {address}: {error}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise ClusterError(
            f"the scheduler at {address} has no worker after {timeout:g} s: start some with "
            f"dask worker {address} --nworkers N --nthreads 1"
        ) from None
    return ClusterRunner(client, address)


def _identify(address: str, timeout: float) -> str:
    """What answers at ``address``: "Scheduler", "Worker", ...; a ``ClusterError`` if the
    address is malformed, nothing answers there within ``timeout`` seconds, or what
    answers does not speak dask."""
    rpc = importlib.import_module("distributed.core").rpc

    async def identity() -> object:
        async with rpc(address, timeout=timeout) as scheduler:
            return await scheduler.identity()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), timeout))
    except ValueError as error:
        raise ClusterError(f"bad scheduler address {address!r}: {error}") from None
    except (OSError, TimeoutError):
        raise ClusterError(
            f"no dask scheduler answers at {address} (within {timeout:g} s)"
        ) from None
    except Exception as error:  # whatever answers there, it does not speak dask
        raise ClusterError(f"what answers at {address} is not a dask scheduler: {error}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str):
        raise ClusterError(f"what answers at {address} is not a dask scheduler")
    kind: str = answer["type"]
    return kind


def _distributed() -> Any:
    """The module ``distributed`` (the cluster extra), imported when first needed; a
    ``ClusterError`` that says how to install it if it is missing."""
    try:
        return importlib.import_module("distributed")
    except ImportError as error:
        raise ClusterError(
            f"playing on a cluster needs dask.distributed, which is not installed "
            f"({error}): {INSTALL}"
        ) from None
