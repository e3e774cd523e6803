"""The rooms' files: snapshots, action logs replayed after a crash, the finished rooms'
archive, and files that are not what they claim."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.online.protocol import Host
from coloretto.online.room_store import KEEP_FINISHED, MAX_LOG_ACTIONS, RoomStore
from coloretto.online.rooms import Room
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record
from tests.online.conftest import ROOT

LOG = logging.getLogger("test-room-store")


def new_room(code: str = "ABCDEF", games: int = 1) -> tuple[Room, str]:
    """A started room of four: two people (Ana hosts), two bots; returns it and Ben's token."""
    room, _ = Room.open(code, Host("Ana", Rules(players=4, games=games), "easy", 0, 30))
    _, token = room.join("Ben")
    room.start()
    return room, token


def play(store: RoomStore, room: Room, actions: int, rng: random.Random) -> None:
    """Play (and log) up to ``actions`` actions, some of them covered by a bot."""
    for _ in range(actions):
        game = room.session.game
        if game.is_over:
            return
        ply = room.ply
        move = room.session.apply(rng.choice(game.legal_actions()))
        covered = rng.random() < 0.2
        if covered:
            room.covered.append(ply)
        store.append(room.code, ply, move, covered)


def loaded(store: RoomStore, log: logging.Logger = LOG) -> dict[str, Room]:
    return {room.code: room for room in store.load_all(log)}


def same(a: Room, b: Room) -> bool:
    return (
        a.session.game.history() == b.session.game.history()
        and a.session.game.setup == b.session.game.setup
        and a.covered == b.covered
        and a.people == b.people
        and a.started == b.started
        and a.session.match.game_number == b.session.match.game_number
    )


@pytest.fixture
def store(tmp_path: Path) -> RoomStore:
    return RoomStore(DataDir(tmp_path))


def test_a_room_played_to_the_end_comes_back_whole(store: RoomStore) -> None:
    room, token = new_room()
    store.save(room.snapshot())
    play(store, room, 1000, random.Random(1))
    assert room.session.game.is_over
    assert room.covered
    [again] = store.load_all(LOG)
    assert same(again, room)
    assert again.player_of(token) == 1
    assert again.ply == room.ply


def test_a_save_drops_the_log_and_the_next_actions_follow_it(store: RoomStore) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    rng = random.Random(2)
    play(store, room, 20, rng)
    store.save(room.snapshot())
    assert len(store.path(room.code).with_suffix(".log").read_text().splitlines()) == 1
    play(store, room, 20, rng)
    assert same(loaded(store)[room.code], room)


def test_the_next_game_of_a_match_is_logged_after_its_deal(store: RoomStore) -> None:
    room, _ = new_room(games=2)
    store.save(room.snapshot())
    rng = random.Random(3)
    play(store, room, 1000, rng)
    room.next_game(2)
    store.save(room.snapshot())
    play(store, room, 30, rng)
    again = loaded(store)[room.code]
    assert same(again, room)
    assert again.session.match.results == room.session.match.results


def test_a_log_left_from_the_game_before_is_not_replayed(
    store: RoomStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Killed between a save's two steps: the next game's snapshot, the last game's log."""
    room, _ = new_room(games=2)
    store.save(room.snapshot())
    play(store, room, 1000, random.Random(4))
    room.next_game(2)
    snapshot = room.snapshot()
    write_record(store.path(room.code), snapshot.state, snapshot.seats, snapshot.meta)
    assert same(loaded(store)[room.code], room)
    assert "does not follow its snapshot" in caplog.text
    play(store, room, 10, random.Random(5))  # its log was started afresh
    assert same(loaded(store)[room.code], room)


def test_a_torn_last_line_is_ignored_and_cut_off(store: RoomStore) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    rng = random.Random(6)
    play(store, room, 12, rng)
    log = store.path(room.code).with_suffix(".log")
    whole = log.read_bytes()
    with log.open("ab") as file:
        file.write(b'{"ply": 12, "move": {"player": ')
    assert same(loaded(store)[room.code], room)
    assert log.read_bytes() == whole
    play(store, room, 5, rng)
    assert same(loaded(store)[room.code], room)


@pytest.mark.parametrize(
    "bad",
    [
        "not json at all",
        '{"ply": 11, "move": {"player": 0, "action": "draw"}}',
        '{"ply": true, "move": {"player": 0, "action": "draw"}}',
        '{"ply": 12, "move": {"player": 0, "action": "take 9"}}',
        '{"ply": 12, "move": {"player": 0, "action": "fly"}}',
        '{"ply": 12, "move": "draw"}',
        '{"ply": 12, "move": {"player": 0, "action": "draw"}, "covered": false}',
        '{"ply": 12, "move": {"player": 0, "action": "draw"}, "room": "../../x"}',
        "[" * 400,
        "[" * 100_000,
    ],
    ids=lambda bad: bad[:30],
)
def test_a_line_that_does_not_fit_stops_the_replay_and_is_logged(
    store: RoomStore, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    rng = random.Random(7)
    play(store, room, 12, rng)
    kept = room.session.game
    log = store.path(room.code).with_suffix(".log")
    whole = log.read_bytes()
    with log.open("a") as file:
        file.write(bad + "\n")
    play(store, room, 5, rng)  # after the bad line: not replayed
    again = loaded(store)[room.code]
    assert again.session.game.history() == kept.history()
    assert "log replayed up to action 13" in caplog.text
    assert log.read_bytes() == whole


def test_a_card_that_does_not_match_the_deck_stops_the_replay(
    store: RoomStore, caplog: pytest.LogCaptureFixture
) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    game = room.session.game
    drawn = game.apply("draw").last_move
    assert drawn is not None
    assert drawn.card is not None
    other = next(c for c in game.unseen() if c != drawn.card)
    store.append(room.code, 0, drawn._replace(card=other), False)
    assert loaded(store)[room.code].ply == 0
    assert "does not fit the game" in caplog.text


def test_a_log_is_read_only_so_far(store: RoomStore, caplog: pytest.LogCaptureFixture) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    log = store.path(room.code).with_suffix(".log")
    move = room.session.game.apply("draw").last_move
    assert move is not None
    with log.open("a") as file:
        file.write(" " * 10_000 + "\n" + "x" * (10 * 2**20))
    assert loaded(store)[room.code].ply == 0
    line = json.dumps({"ply": 0, "move": {"player": move.player, "action": "draw"}})
    log.write_text(log.read_text().splitlines()[0] + "\n" + (line + "\n") * (MAX_LOG_ACTIONS + 5))
    assert loaded(store)[room.code].ply == 0
    assert "a line too long, or too many" in caplog.text


def test_a_room_saved_before_logs_were_kept_loads_and_is_logged(store: RoomStore) -> None:
    room, _ = new_room()
    play_only = random.Random(8)
    for _ in range(15):
        room.session.apply(play_only.choice(room.session.game.legal_actions()))
    snapshot = room.snapshot()
    store.folder.mkdir(parents=True)
    write_record(store.path(room.code), snapshot.state, snapshot.seats, snapshot.meta)
    assert same(loaded(store)[room.code], room)
    play(store, room, 10, play_only)
    assert same(loaded(store)[room.code], room)


def test_an_action_of_a_room_never_saved_is_refused(store: RoomStore) -> None:
    room, _ = new_room()
    move = room.session.apply(room.session.game.legal_actions()[0])
    with pytest.raises(FileNotFoundError):
        store.append(room.code, 0, move, False)


def test_an_action_the_disk_refuses_leaves_the_log_as_it_was(
    store: RoomStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    rng = random.Random(11)
    play(store, room, 5, rng)
    log = store.path(room.code).with_suffix(".log")
    whole = log.read_bytes()
    write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: write(fd, data[:10]))
    move = room.session.game.apply(room.session.game.legal_actions()[0]).last_move
    assert move is not None
    with pytest.raises(OSError, match="the disk is full"):
        store.append(room.code, room.ply, move, False)
    monkeypatch.undo()
    assert log.read_bytes() == whole
    play(store, room, 5, rng)
    assert same(loaded(store)[room.code], room)


def test_a_finished_room_is_archived_and_loaded_on_demand(store: RoomStore) -> None:
    room, token = new_room()
    store.save(room.snapshot())
    play(store, room, 1000, random.Random(9))
    store.archive(room)
    assert list(store.folder.glob("ABCDEF*")) == []
    assert loaded(store) == {}
    again = store.load_archived("ABCDEF")
    assert again is not None
    assert same(again, room)
    assert again.player_of(token) == 1
    assert store.load_archived("QWERTY") is None
    assert store.taken("ABCDEF")  # a new room does not take a finished one's code
    assert not store.taken("QWERTY")


def test_finished_rooms_older_than_a_week_are_deleted_and_nothing_else(
    store: RoomStore,
) -> None:
    for code in ("AGEDAB", "FRESHA"):
        room, _ = new_room(code)
        store.save(room.snapshot())
        play(store, room, 1000, random.Random(9))
        store.archive(room)
    now = time.time()
    old = store.finished / "AGEDAB.json"
    os.utime(old, (now - KEEP_FINISHED - 60, now - KEEP_FINISHED - 60))
    stray = store.finished / "notes.txt"  # not a room's: never touched, however old
    stray.write_text("mine")
    os.utime(stray, (0, 0))
    assert store.prune_finished(now) == 1
    assert not old.exists()
    assert store.load_archived("AGEDAB") is None
    assert store.load_archived("FRESHA") is not None
    assert stray.exists()
    assert store.prune_finished(now + KEEP_FINISHED + 60) == 1  # its week is up too


def test_a_room_archived_then_killed_before_its_files_went_is_not_loaded(
    store: RoomStore,
) -> None:
    room, _ = new_room()
    store.save(room.snapshot())
    play(store, room, 1000, random.Random(10))
    store.archive(room)
    store.save(room.snapshot())
    assert loaded(store) == {}
    assert not store.path(room.code).exists()
    assert store.load_archived(room.code) is not None


def test_a_room_that_never_started_is_removed(store: RoomStore) -> None:
    room, _ = Room.open("ABCDEF", Host("Ana", Rules(players=3), "easy", 0, 30))
    store.save(room.snapshot())
    store.remove("ABCDEF")
    store.remove("ABCDEF")  # nothing left: fine
    assert loaded(store) == {}
    assert list(store.folder.iterdir()) == []


def test_files_that_are_no_room_are_logged_and_left_alone(
    store: RoomStore, caplog: pytest.LogCaptureFixture
) -> None:
    room, _ = new_room("QWERTY")
    store.save(room.snapshot())
    snapshot = room.snapshot()
    others = {
        "notes.json": "{}",
        "abcdef.json": "{}",
        "ABCDEF.json": "not json",
        "ZZZZZZ.log": "{}\n",
        ".ABCDEF.json.x.tmp": "{",
    }
    for name, text in others.items():
        (store.folder / name).write_text(text)
    write_record(store.path("KLMNPQ"), snapshot.state, snapshot.seats, snapshot.meta)
    assert list(loaded(store)) == ["QWERTY"]
    assert "ABCDEF.json: not valid JSON" in caplog.text
    assert "KLMNPQ.json: room.code: not this file's room code" in caplog.text
    for name, text in others.items():
        assert (store.folder / name).read_text() == text


@pytest.mark.parametrize("code", ["../../etc/x", "ABCDE/", "abcdef", "ABCDEF/../../x", ""])
def test_a_hostile_code_never_reaches_a_path(store: RoomStore, code: str) -> None:
    room, _ = new_room()
    move = room.session.apply(room.session.game.legal_actions()[0])
    for call in (store.path, store.remove, lambda c: store.append(c, 0, move, False)):
        with pytest.raises(ValueError, match="not a room code"):
            call(code)
    assert store.load_archived(code) is None
    assert not store.folder.exists()


CHILD = """
import random, sys, time
from pathlib import Path
from coloretto.engine import Rules
from coloretto.online.protocol import Host
from coloretto.online.room_store import RoomStore
from coloretto.online.rooms import Room
from coloretto.store.paths import DataDir
store = RoomStore(DataDir(Path(sys.argv[1])))
room, _ = Room.open("ABCDEF", Host("Ana", Rules(players=5), "easy", 0, 30))
room.start()
store.save(room.snapshot())
rng = random.Random(int(sys.argv[2]))
while not room.session.game.is_over:
    ply = room.ply
    store.append("ABCDEF", ply, room.session.apply(rng.choice(room.session.game.legal_actions())),
                 False)
    print(ply, flush=True)
    time.sleep(0.001)
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_between_two_actions_loses_at_most_the_one_being_written(
    tmp_path: Path, seed: int
) -> None:
    """After ``kill -9``, every action whose ``append`` returned is there, and at most one
    more (written, but not yet told)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    for line in child.stdout:
        if int(line) >= 10:
            break
    time.sleep(random.Random(seed).uniform(0, 0.05))
    child.send_signal(signal.SIGKILL)
    told = int([line, *child.stdout][-1])
    child.wait()
    [room] = RoomStore(DataDir(tmp_path)).load_all(LOG)
    assert room.ply in (told + 1, told + 2)
