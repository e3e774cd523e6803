"""Accounts on a game server, without passwords on the wire.

An account is a name on one server and an Ed25519 key pair. The private key never leaves
the player's data directory (``accounts/``, one small private file per server) except as
the line ``export_text`` writes for the player to carry to another machine; the server
keeps the public key. To name an account in an opening, the client signs the server's
fresh challenge together with the server's address and what the opening does
(``sign_challenge``), so a signature opens nothing else, nowhere else, and never again.

Names are unique per server as they read (``fold_name``): "Ana", "ana" and "ANA" written
with a Cyrillic A are one name.

>>> account = new_account("127.0.0.1:7787", "Ana")
>>> account.server, account.name
('ws://127.0.0.1:7787', 'Ana')
>>> import_text(export_text(account)) == account
True
>>> nonce = bytes(32)
>>> signature = sign_challenge(account, nonce, account.server, "join K7PQ2M")
>>> verify_challenge(account.public_key, nonce, account.server, "join K7PQ2M", signature)
True
>>> verify_challenge(account.public_key, nonce, account.server, "join ABCDEF", signature)
False
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from coloretto.online.wire.names import fold
from coloretto.online.wire.protocol import (
    KEY_BYTES,
    SIGNATURE_BYTES,
    Host,
    Join,
    Opening,
    Resume,
    Watch,
    account_name,
    b64url,
    from_b64url,
)
from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

FORMAT = "coloretto-account/1"
"""The ``format`` of an account's file."""

EXPORT_PREFIX = "coloretto-account:1:"
"""How an exported account's line starts."""

MAX_EXPORT = 1024
"""The longest exported line taken (one is about 250 characters)."""

MAX_FILE = 4096
"""The largest account file read."""

MAX_SERVER = 200
"""The longest server address an account is kept for."""

MAX_ACCOUNTS = 1000
"""The most account files listed."""

CHALLENGE_CONTEXT = "coloretto-challenge/1"
"""The first line of every signed challenge: a signature for nothing else."""


# ------------------------------------------------------------------ names


def fold_name(name: str) -> str:
    """The key under which account names are unique on a server: the name's skeleton as
    ``names.fold`` makes it (UTS #39's, from Unicode's confusables data, case folded,
    accents, strokes and invisible characters left out), so that names that read alike
    are one name.

    >>> cyrillic = "\\N{CYRILLIC CAPITAL LETTER A}NA"
    >>> fold_name("Ana") == fold_name(cyrillic) == fold_name("ana") == fold_name(" ANA ")
    True
    >>> fold_name("B0b") == fold_name("bob"), fold_name("I1l"), fold_name("Ana Lee")
    (True, 'lll', 'ana lee')
    """
    return fold(name)


# ------------------------------------------------------------------ servers


def normalise_server(text: str) -> str:
    """A server's address as accounts are kept and signed for: ``ws://`` or ``wss://``
    (``HOST:PORT`` means ``ws://``), host in lower case, no default port, no slash at
    the end; ``ValueError`` saying why when it is no server's address.

    >>> normalise_server("Games.Example.org:7787"), normalise_server("wss://example.org:443/c/")
    ('ws://games.example.org:7787', 'wss://example.org/c')
    >>> normalise_server("example.org")
    Traceback (most recent call last):
    ...
    ValueError: expected HOST:PORT or a ws:// address, not 'example.org'
    """
    text = text.strip()
    wrong = ValueError(f"expected HOST:PORT or a ws:// address, not {printable(text, 60)!r}")
    if len(text) > MAX_SERVER or printable(text) != text or not text.isascii():
        raise wrong
    if "://" not in text:
        if not text.rpartition(":")[2].isdigit():
            raise wrong
        text = f"ws://{text}"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise wrong from None
    host = parts.hostname
    if (
        parts.scheme not in ("ws", "wss")
        or not host
        or parts.username is not None
        or parts.query
        or parts.fragment
        or "?" in text
        or "#" in text
        or " " in text
    ):
        raise wrong
    if ":" in host:
        host = f"[{host}]"
    default = 80 if parts.scheme == "ws" else 443
    where = host if port in (None, default) else f"{host}:{port}"
    return f"{parts.scheme}://{where}{parts.path.rstrip('/')}"


# ------------------------------------------------------------------ accounts


@dataclass(frozen=True)
class Account:
    """An account: its server (``normalise_server``), its name there and its private key
    (32 bytes, Ed25519; never shown by ``repr``)."""

    server: str
    name: str
    secret: bytes = field(repr=False)

    @property
    def private_key(self) -> Ed25519PrivateKey:
        """The key that signs this account's challenges."""
        return Ed25519PrivateKey.from_private_bytes(self.secret)

    @property
    def public_key(self) -> bytes:
        """The public key (32 bytes), as the server keeps it."""
        return self.private_key.public_key().public_bytes_raw()


def new_account(server: str, name: str) -> Account:
    """A new account ``name`` on ``server`` with a fresh key pair; ``ValueError`` saying
    why if the server's address or the name is not one."""
    key = Ed25519PrivateKey.generate().private_bytes_raw()
    return Account(normalise_server(server), account_name(name), key)


def _account(data: object) -> Account:
    """The account in a file's or an export's JSON object; ``ValueError`` saying what is
    wrong."""
    if not isinstance(data, dict) or set(data) != {"format", "server", "name", "key", "public"}:
        raise ValueError("not an account (expected format, server, name, key and public)")
    if data["format"] != FORMAT:
        raise ValueError(f"not an account of this version (expected {FORMAT})")
    server, name = data["server"], data["name"]
    if not isinstance(server, str) or not isinstance(name, str):
        raise ValueError("the server and the name must be text")
    if normalise_server(server) != server:
        raise ValueError(f"{printable(server, 60)!r} is not a server's address as kept")
    secret = from_b64url(data["key"], KEY_BYTES, "key")
    account = Account(server, account_name(name), secret)
    if from_b64url(data["public"], KEY_BYTES, "public") != account.public_key:
        raise ValueError("the public key is not the private key's: the account was changed")
    return account


def _json(account: Account) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "server": account.server,
        "name": account.name,
        "key": b64url(account.secret),
        "public": b64url(account.public_key),
    }


def account_path(data: DataDir, server: str) -> Path:
    """The file of the account on ``server`` (``normalise_server``), named by a hash of the
    address: nothing the server or anyone else says chooses a path."""
    digest = hashlib.sha256(normalise_server(server).encode("utf-8")).hexdigest()
    return data.root / "accounts" / f"{digest[:32]}.json"


def load_account(data: DataDir, server: str) -> Account | None:
    """This player's account on ``server`` (``None``: none kept here); ``ValueError``
    saying why if its file cannot be read or is not an account on that server."""
    path = account_path(data, server)
    account = _read(path)
    if account is not None and account.server != normalise_server(server):
        raise ValueError(f"{path} holds the account of another server ({account.server})")
    return account


def _read(path: Path) -> Account | None:
    try:
        raw = read_bounded(path, MAX_FILE)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ValueError(f"{path} cannot be read ({error.strerror or error})") from None
    try:
        return _account(json.loads(raw))
    except (ValueError, RecursionError) as error:
        raise ValueError(f"{path} is not an account: {error}") from None


def save_account(data: DataDir, account: Account) -> Path:
    """Keep ``account`` in the data directory (a private file, written atomically, over the
    one kept for its server); its path. ``OSError`` if the disk refuses."""
    path = account_path(data, account.server)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomically(path, json.dumps(_json(account), indent=1) + "\n", mode=0o600)
    return path


def forget_account(data: DataDir, server: str) -> None:
    """Remove the account kept for ``server`` (if any); ``OSError`` if the disk refuses."""
    account_path(data, server).unlink(missing_ok=True)


def list_accounts(data: DataDir) -> tuple[list[Account], list[str]]:
    """The accounts kept here (by server), and why the other files there are none."""
    folder = data.root / "accounts"
    try:
        paths = sorted(p for p in folder.glob("*.json") if _FILE_NAME.fullmatch(p.name))
    except OSError as error:
        return [], [f"{folder} cannot be read ({error.strerror or error})"]
    accounts: list[Account] = []
    problems: list[str] = []
    for path in paths[:MAX_ACCOUNTS]:
        try:
            account = _read(path)
        except ValueError as error:
            problems.append(str(error))
            continue
        if account is not None and account_path(data, account.server) != path:
            problems.append(f"{path} holds an account of another server's file")
        elif account is not None:
            accounts.append(account)
    return sorted(accounts, key=lambda a: a.server), problems


_FILE_NAME = re.compile(r"[0-9a-f]{32}\.json")


# ------------------------------------------------------------------ moving to another machine


def export_text(account: Account) -> str:
    """The account as one line of text, for ``import_text`` on another machine (it holds
    the private key: whoever has the line has the account)."""
    payload = b64url(json.dumps(_json(account), separators=(",", ":")).encode("utf-8"))
    return f"{EXPORT_PREFIX}{payload}.{_check(payload)}"


def import_text(text: str) -> Account:
    """The account in a line ``export_text`` wrote (spaces around and line breaks inside
    ignored); ``ValueError`` saying why it is not one.

    >>> import_text("coloretto-account:1:eyJ9.AAAA")
    Traceback (most recent call last):
    ...
    ValueError: the account line was changed or cut (its check does not match): copy it again
    """
    if len(text) > MAX_EXPORT:
        raise ValueError(f"an account line has at most {MAX_EXPORT} characters")
    line = "".join(text.split())
    if not line.startswith(EXPORT_PREFIX):
        raise ValueError(f"an account line starts with {EXPORT_PREFIX}")
    payload, _, check = line.removeprefix(EXPORT_PREFIX).partition(".")
    if not payload or check != _check(payload):
        raise ValueError(
            "the account line was changed or cut (its check does not match): copy it again"
        )
    try:
        data = json.loads(_unb64url(payload))
    except (ValueError, RecursionError):
        raise ValueError("the account line holds no account") from None
    try:
        return _account(data)
    except ValueError as error:
        raise ValueError(f"the account line: {error}") from None


def _check(payload: str) -> str:
    return b64url(hashlib.sha256(payload.encode("ascii", "replace")).digest()[:9])


def _unb64url(text: str) -> bytes:
    """The bytes of unpadded base64url ``text`` of any length (``ValueError`` if it is not)."""
    size = len(text) * 3 // 4
    return from_b64url(text, size, "the account line")


# ------------------------------------------------------------------ challenges


def opening_route(opening: Opening) -> str:
    """What an opening does, as its account's signature names it.

    >>> opening_route(Join("K7PQ2M", "Ana")), opening_route(Watch("K7PQ2M"))
    ('join K7PQ2M', 'watch K7PQ2M')
    """
    match opening:
        case Host():
            return "host"
        case Join(room=room) | Resume(room=room) | Watch(room=room):
            return f"{type(opening).__name__.lower()} {room}"


def challenge_text(nonce: bytes, server: str, route: str) -> bytes:
    """What an account signs for a challenge: the context, the server's address without
    its path (a proxy in front may pass the path on or take it off: the server knows only
    its host and port, from the ``Host`` header), what is done and the nonce,
    unambiguously (as a JSON list).

    >>> challenge_text(bytes(2), "ws://h:1", "host")
    b'["coloretto-challenge/1","ws://h:1","host","AAA"]'
    >>> challenge_text(bytes(2), "wss://example.org/coloretto", "host")
    b'["coloretto-challenge/1","wss://example.org","host","AAA"]'
    """
    parts = urlsplit(server)
    signed = f"{parts.scheme}://{parts.netloc}" if parts.netloc else server
    text = json.dumps([CHALLENGE_CONTEXT, signed, route, b64url(nonce)], separators=(",", ":"))
    return text.encode("utf-8")


def sign_challenge(account: Account, nonce: bytes, server: str, route: str) -> str:
    """``account``'s signature (base64url) of the challenge ``nonce`` on ``server`` for
    ``route`` (``opening_route``)."""
    return b64url(account.private_key.sign(challenge_text(nonce, server, route)))


def verify_challenge(
    public_key: bytes, nonce: bytes, server_id: str, route: str, signature: str
) -> bool:
    """True when ``signature`` is the key ``public_key``'s of exactly this challenge:
    ``nonce`` on the server ``server_id`` (its address, as ``normalise_server`` writes it)
    for ``route``. Anything malformed is simply False."""
    try:
        key = Ed25519PublicKey.from_public_bytes(public_key)
        key.verify(
            from_b64url(signature, SIGNATURE_BYTES, "signature"),
            challenge_text(nonce, server_id, route),
        )
    except (ValueError, InvalidSignature):
        return False
    return True
