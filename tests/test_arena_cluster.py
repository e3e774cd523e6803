"""``coloretto arena --scheduler``: the games on a dask cluster of real worker processes
(``dask scheduler`` and ``dask worker`` on loopback), the same figures as the local arena
for the same seed, progress as games finish, and clear errors for a bad cluster."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import coloretto
from coloretto.bots import arena_cluster
from coloretto.bots.arena import Arena, ArenaResult, run_arena
from coloretto.bots.arena_cluster import ClusterError, connect
from coloretto.cli.main import main
from coloretto.engine import Rules
from tests.conftest import install_bots

ROOT = Path(__file__).resolve().parent.parent
DASK = str(Path(sys.executable).with_name("dask"))

PLUGINS = '''
import os
import time
from pathlib import Path


class Waiter:
    """The first game to reach its first move plays on; every other waits (30 s at most)
    until the file ``go`` exists, and leaves ``starved`` if it never came."""

    def __init__(self, seed=None):
        self.waited = False

    def choose(self, view, legal, budget=None):
        if not self.waited:
            self.waited = True
            room = Path(os.environ["WAITER_ROOM"])
            try:
                os.close(os.open(room / "first", os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                deadline = time.monotonic() + 30
                while not (room / "go").exists():
                    if time.monotonic() > deadline:
                        (room / "starved").touch()
                        break
                    time.sleep(0.02)
        return legal[0]


class Raiser:
    """Raises on every move."""

    def __init__(self, seed=None):
        pass

    def choose(self, view, legal, budget=None):
        raise RuntimeError("out of ideas")
'''


@dataclass
class Cluster:
    """A dask scheduler and its worker processes, started as an operator would."""

    address: str
    processes: list[subprocess.Popen[bytes]]

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in reversed(self.processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_cluster(
    folder: Path,
    pythonpath: list[Path],
    workers: int,
    env: dict[str, str] | None = None,
    scheduler_pythonpath: list[Path] | None = None,
) -> Cluster:
    """``dask scheduler`` on a free loopback port and one ``dask worker`` command with
    ``workers`` single-threaded processes (none for 0), ``pythonpath`` first on their path
    (the scheduler's own if given)."""
    folder.mkdir(parents=True, exist_ok=True)

    def quiet(path: list[Path]) -> dict[str, Any]:
        environment = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(map(str, path))}
        return {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": environment}

    scheduler_file = folder / "scheduler.json"
    processes = [
        subprocess.Popen(
            [
                DASK,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
            ],
            cwd=folder,
            **quiet(scheduler_pythonpath or pythonpath),
        )
    ]
    deadline = time.monotonic() + 60
    while not scheduler_file.exists() or not scheduler_file.read_text().strip():
        assert time.monotonic() < deadline, "the scheduler did not start"
        time.sleep(0.1)
    address = json.loads(scheduler_file.read_text())["address"]
    if workers:
        processes.append(
            subprocess.Popen(
                [
                    DASK,
                    "worker",
                    address,
                    "--nworkers",
                    str(workers),
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--local-directory",
                    str(folder),
                ],
                cwd=folder,
                **quiet(pythonpath),
            )
        )
    cluster = Cluster(address, processes)
    if workers:
        with connect(address, timeout=60) as runner:
            runner.client.wait_for_workers(workers, timeout=60)
    return cluster


@pytest.fixture(scope="module")
def plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the test's bot plug-ins (the module and its entry points)."""
    site = tmp_path_factory.mktemp("cluster-site")
    (site / "cluster_bots.py").write_text(textwrap.dedent(PLUGINS))
    dist = site / "cluster_bots-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cluster-bots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[coloretto.bots]\nwaiter = cluster_bots:Waiter\nraiser = cluster_bots:Raiser\n"
    )
    return site


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the waiter bots meet."""
    return tmp_path_factory.mktemp("waiter-room")


@pytest.fixture(scope="module")
def cluster(
    tmp_path_factory: pytest.TempPathFactory, plugins: Path, room: Path
) -> Iterator[Cluster]:
    """A scheduler and 2 worker processes running this coloretto and the plug-ins."""
    running = start_cluster(
        tmp_path_factory.mktemp("cluster"), [ROOT, plugins], 2, env={"WAITER_ROOM": str(room)}
    )
    yield running
    running.stop()


@pytest.fixture
def with_plugins(plugins: Path, room: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-ins on this process's path too (the arena checks its bots here first)."""
    monkeypatch.syspath_prepend(str(plugins))
    monkeypatch.setenv("WAITER_ROOM", str(room))


def figures(result: dict[str, object]) -> dict[str, object]:
    """An arena's JSON without the clock's figures (the time per move)."""
    bots = [{k: v for k, v in bot.items() if "seconds" not in k} for bot in result["bots"]]
    return {**result, "bots": bots}


ARENA = Arena(Rules(players=4), ("search:iterations=2", "expert", "greedy", "builder"), 10, seed=7)


def test_a_cluster_plays_the_local_arena_s_games(cluster: Cluster) -> None:
    """The same seed gives the same figures on 2 worker processes as in one local process,
    pooled in the games' order, and the progress is told once per game."""
    local = run_arena(ARENA, jobs=1)
    told: list[int] = []
    with connect(cluster.address) as runner:
        spread = run_arena(ARENA, on_game=told.append, runner=runner)
    assert figures(spread.to_json()) == figures(local.to_json())
    assert spread.bots["expert"].wins == local.bots["expert"].wins  # not only rounded
    assert told == list(range(1, ARENA.games + 1))


def test_progress_is_told_as_games_finish(cluster: Cluster, room: Path, with_plugins: None) -> None:
    """The first finished game is told while the others still play: they wait for it."""
    arena = Arena(Rules(players=2), ("waiter", "greedy"), 6, seed=3, time_limit=60)

    def told(finished: int) -> None:
        (room / "go").touch()

    with connect(cluster.address) as runner:
        result: ArenaResult = run_arena(arena, on_game=told, runner=runner)
    assert result.games == 6
    assert not (room / "starved").exists()


def coloretto_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    """``coloretto ARGV --json`` in this process: its JSON (it must succeed)."""
    assert main([*argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    loaded: dict[str, object] = json.loads(out)
    return loaded


def test_the_command_on_a_cluster_prints_the_local_figures_and_records(
    cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scheduler`` gives the local run's figures and the same records, written here."""
    table = ["arena", "--players", "3", "--bots", "expert,greedy,taker", "--games", "9"]
    table += ["--seed", "11"]
    here = coloretto_json(capsys, *table, "--jobs", "1", "--record-dir", str(tmp_path / "l"))
    there = coloretto_json(
        capsys, *table, "--scheduler", cluster.address, "--record-dir", str(tmp_path / "c")
    )
    assert figures(there) == figures(here)
    local = sorted(p.name for p in (tmp_path / "l").iterdir())
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == local
    assert len(local) == 9
    for name in local:
        assert (tmp_path / "c" / name).read_text() == (tmp_path / "l" / name).read_text()


def test_a_strict_arena_stops_at_a_fault_on_a_worker(
    cluster: Cluster, with_plugins: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot's fault on a worker stops a strict run as it does here, naming the bot."""
    status = main(
        [
            "arena",
            "--players",
            "2",
            "--bots",
            "raiser,greedy",
            "--games",
            "20",
            "--strict",
            "--scheduler",
            cluster.address,
        ]
    )
    err = capsys.readouterr().err
    assert status == 1
    assert "bot 'raiser' raised RuntimeError: out of ideas" in err
    assert "Traceback" not in err


def failure(capsys: pytest.CaptureFixture[str], address: str, bots: str = "greedy,greedy") -> str:
    """The message of ``coloretto arena --scheduler ADDRESS``, which must fail with 2."""
    status = main(
        ["arena", "--players", "2", "--bots", bots, "--games", "4", "--scheduler", address]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert "Traceback" not in err
    return " ".join(err.split())


def test_jobs_are_for_local_processes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--players", "2", "--bots", "greedy,greedy", "--jobs", "2"]
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--scheduler", "tcp://127.0.0.1:8786"])
    assert stop.value.code == 2
    assert "--jobs is for local processes" in capsys.readouterr().err


def test_a_malformed_address_is_told(capsys: pytest.CaptureFixture[str]) -> None:
    message = failure(capsys, "garbage")
    assert "bad scheduler address 'garbage': missing port number" in message
    message = failure(capsys, "nonsense://host:8786")
    assert "unknown address scheme 'nonsense'" in message


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cluster is given 2 s to answer instead of 10."""
    monkeypatch.setattr(arena_cluster, "CONNECT_SECONDS", 2.0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_nothing_listening_is_told(capsys: pytest.CaptureFixture[str], short_wait: None) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    message = failure(capsys, address)
    assert f"no dask scheduler answers at {address} (within 2 s)" in message
    assert time.monotonic() - started < 30


def test_a_server_that_never_answers_is_told(
    capsys: pytest.CaptureFixture[str], short_wait: None
) -> None:
    """A port where something accepts and says nothing (a web server, say) is not waited on."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        message = failure(capsys, address)
    assert f"no dask scheduler answers at {address}" in message
    assert time.monotonic() - started < 30


def test_a_server_that_answers_garbage_is_told(
    capsys: pytest.CaptureFixture[str], short_wait: None
) -> None:
    """A port that answers bytes that are not dask's (an HTTP reply, say)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"

        def answer() -> None:
            connection, _ = server.accept()
            with connection:
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" + b"\xff" * 64)
                time.sleep(3)

        threading.Thread(target=answer, daemon=True).start()
        message = failure(capsys, address)
    assert address in message


def test_a_worker_s_address_is_not_a_scheduler_s(
    cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    with connect(cluster.address) as runner:
        worker = sorted(runner.client.nthreads())[0]
    message = failure(capsys, worker)
    assert f"{worker} is a dask Worker, not a scheduler" in message


def test_a_scheduler_without_workers_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], short_wait: None
) -> None:
    empty = start_cluster(tmp_path / "empty", [ROOT], 0)
    try:
        message = failure(capsys, empty.address)
    finally:
        empty.stop()
    assert f"the scheduler at {empty.address} has no worker after 2 s" in message
    assert f"dask worker {empty.address} --nworkers N --nthreads 1" in message


@pytest.mark.parametrize("odd", ["the worker", "the scheduler"])
def test_other_coloretto_code_on_the_cluster_is_refused(
    odd: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker's games, or the scheduler's reading of them, would not be this coloretto's:
    the run does not start."""
    other = tmp_path / "other"
    shutil.copytree(Path(coloretto.__file__).parent, other / "coloretto")
    greedy = other / "coloretto" / "bots" / "greedy.py"
    greedy.write_text(greedy.read_text() + "\n# changed\n")
    paths = {"the worker": ([other], [ROOT]), "the scheduler": ([ROOT], [other])}[odd]
    cluster = start_cluster(tmp_path / "odd", paths[0], 1, scheduler_pythonpath=paths[1])
    try:
        message = failure(capsys, cluster.address)
    finally:
        cluster.stop()
    assert f"{odd} " in message
    assert "runs other coloretto code (0.1.0) than here (0.1.0)" in message
    assert "install the same coloretto on the scheduler and every worker" in message


def test_a_cluster_started_before_the_code_changed_is_refused(tmp_path: Path) -> None:
    """Workers and a scheduler keep the code they loaded: after the files change under them
    (an upgrade, a checkout), the arena refuses them until they are restarted."""
    copy = tmp_path / "copy"
    shutil.copytree(Path(coloretto.__file__).parent, copy / "coloretto")
    cluster = start_cluster(tmp_path / "stale", [copy], 1)
    arena = ["-m", "coloretto", "arena", "--players", "2", "--bots", "greedy,greedy"]
    arena += ["--games", "2", "--scheduler", cluster.address]
    env = {**os.environ, "PYTHONPATH": str(copy), "COLORETTO_HOME": str(tmp_path / "home")}
    try:
        first = subprocess.run(
            [sys.executable, *arena],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        greedy = copy / "coloretto" / "bots" / "greedy.py"
        greedy.write_text(greedy.read_text() + "\n# changed\n")
        second = subprocess.run(
            [sys.executable, *arena],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
    finally:
        cluster.stop()
    assert first.returncode == 0, first.stderr
    assert second.returncode == 2
    assert "runs other coloretto code" in second.stderr
    assert "restart them after a change" in " ".join(second.stderr.split())
    assert "Traceback" not in second.stderr


def test_a_scheduler_lost_mid_run_is_told(plugins: Path, tmp_path: Path) -> None:
    """The scheduler stops while games are played: one line, status 2, none of dask's
    tracebacks of its attempts to reconnect."""
    room = tmp_path / "room"
    room.mkdir()
    cluster = start_cluster(tmp_path / "lost", [ROOT, plugins], 1, env={"WAITER_ROOM": str(room)})
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugins)]),
        "COLORETTO_HOME": str(tmp_path / "home"),
        "WAITER_ROOM": str(room),
    }
    arena = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "coloretto",
            "arena",
            "--players",
            "2",
            "--bots",
            "waiter,greedy",
            "--games",
            "6",
            "--time-limit",
            "60",
            "--scheduler",
            cluster.address,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        while not (room / "first").exists():  # a game is played: the others wait
            assert time.monotonic() < deadline, "no game started"
            time.sleep(0.1)
        cluster.processes[0].terminate()
        _, err = arena.communicate(timeout=60)
    finally:
        arena.kill()
        cluster.stop()
    assert arena.returncode == 2, err
    assert err.strip() == f"coloretto arena: error: lost the scheduler at {cluster.address}"


def test_a_bot_missing_on_the_workers_is_told(
    cluster: Cluster,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A plug-in installed here but not on the workers."""
    install_bots(
        tmp_path / "site", monkeypatch, "here_only", PLUGINS, ["hereonly = here_only:Raiser"]
    )
    message = failure(capsys, cluster.address, "hereonly,greedy")
    assert "unknown bot 'hereonly'" in message


def test_without_the_extra_the_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    message = failure(capsys, "tcp://127.0.0.1:8786")
    assert "needs dask.distributed, which is not installed" in message
    assert "pip install 'coloretto[cluster]'" in message
    with pytest.raises(ClusterError):
        connect("tcp://127.0.0.1:8786")


def test_the_local_arena_and_the_game_never_import_dask(tmp_path: Path) -> None:
    """Only ``--scheduler`` loads dask: the local arena does not, nor the game's start."""
    script = textwrap.dedent(
        """
        import sys
        from coloretto.cli.main import build_parser, main

        build_parser(["play"])
        assert main(["arena", "--players", "2", "--bots", "greedy,greedy", "--games", "2"]) == 0
        loaded = [m for m in sys.modules if m.split(".")[0] in ("dask", "distributed")]
        assert not loaded, loaded
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr
