"""The name a player sits down with when they give none: their login name, unless it is
root's or a system account's ("Host" or "Player" then, or the join screen asks)."""

from __future__ import annotations

import argparse
import getpass
import pwd
from typing import Any

import pytest

from coloretto.cli import online_command
from coloretto.cli.online_command import person_login_name

UIDS = {"root": 0, "www-data": 33, "postgres": 114, "ana": 1000, "nobody": 65534}
"""A password database: people from user id 1000 on (on Linux)."""


@pytest.fixture
def login(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the login name ``getpass`` gives (``None``: it has none)."""

    def entry(name: str) -> Any:
        if name not in UIDS:
            raise KeyError(name)
        return type("Entry", (), {"pw_uid": UIDS[name]})()

    monkeypatch.setattr(pwd, "getpwnam", entry)
    monkeypatch.setattr(online_command, "FIRST_PERSON_UID", 1000)

    def as_user(name: str | None) -> None:
        def getuser() -> str:
            if name is None:
                raise OSError("no login name")
            return name

        monkeypatch.setattr(getpass, "getuser", getuser)

    return as_user


@pytest.mark.parametrize(
    ("user", "name"),
    [
        ("ana", "Ana"),
        ("zoe", "Zoe"),  # not in the password database (say, $USER set by hand): a person
        ("root", ""),
        ("ROOT", ""),
        ("Administrator", ""),
        ("www-data", ""),
        ("postgres", ""),
        ("nobody", ""),
        (None, ""),
        ("ben\x1b[2J\x07", "Ben"),  # control characters never reach the table
        ("a" * 40, "A" + "a" * 14 + "…"),  # cut to the longest name
    ],
)
def test_the_login_name_when_it_is_a_persons(login: Any, user: str | None, name: str) -> None:
    login(user)
    assert person_login_name() == name


@pytest.mark.parametrize(
    ("user", "given", "fallback", "name"),
    [
        ("root", None, "Host", "Host"),
        ("root", None, "Player", "Player"),
        ("ana", None, "Host", "Ana"),
        ("root", "Zoe", "Host", "Zoe"),
        ("root", " \x1b\x07 ", "Host", "Host"),  # nothing left of --name
        ("ana", "  Ann Lee\x1b ", "Host", "Ann Lee"),
    ],
)
def test_a_host_or_player_without_a_name(
    login: Any, user: str, given: str | None, fallback: str, name: str
) -> None:
    login(user)
    assert online_command._name(argparse.Namespace(name=given), fallback) == name


def test_root_is_asked_on_the_join_screen(login: Any) -> None:
    """``coloretto join`` without a code: the name field starts empty for root, so the
    screen asks for a name."""
    login("root")
    assert online_command._given_name(argparse.Namespace(name=None)) == ""
    login("ana")
    assert online_command._given_name(argparse.Namespace(name=None)) == "Ana"
