"""The server's side of accounts: registering a name with its public key, and checking
an opening's ``account`` against the connection's challenge.

The accounts themselves live in an ``AccountBook`` (the server's database;
``MemoryAccountBook`` in tests), keyed by the name's skeleton (``fold_name``), so that
names that look alike are one name. An opening's account is known by the name as it was
registered, however the opening spells it.

>>> import asyncio
>>> from coloretto.online.wire.accounts import new_account, sign_challenge
>>> book, ana = MemoryAccountBook(), new_account("127.0.0.1:7787", "Ana")
>>> asyncio.run(register(book, Register.of("Ana", ana.public_key)))
AccountMessage(name='Ana')
>>> asyncio.run(register(book, Register.of("ANA", bytes(32)))).code
<ErrorCode.NAME_TAKEN: 'name-taken'>
>>> nonce = new_challenge().nonce
>>> claim = AccountClaim("Ana", sign_challenge(ana, nonce, ana.server, "host"))
>>> asyncio.run(check_account(book, claim, nonce, ana.server, "host"))
'Ana'
>>> asyncio.run(registered_name(book, "\N{CYRILLIC CAPITAL LETTER A}NA"))
'Ana'
"""

from __future__ import annotations

import secrets
from typing import NamedTuple, Protocol

from coloretto.online.wire.accounts import fold_name, verify_challenge
from coloretto.online.wire.messages import AccountMessage, ChallengeMessage, ErrorMessage
from coloretto.online.wire.protocol import (
    KEY_BYTES,
    AccountClaim,
    ErrorCode,
    ProtocolError,
    Register,
)


class Registered(NamedTuple):
    """An account as the server keeps it: its name as registered and its public key."""

    name: str
    key: bytes


class AccountBook(Protocol):
    """Where a server keeps its accounts: each one's name and public key, under the name's
    skeleton (``fold_name``), which is unique."""

    async def create(self, name: str, folded: str, key: bytes) -> bool:
        """Keep the account ``name`` (skeleton ``folded``) with the public ``key``; False,
        keeping nothing, if an account of that skeleton exists already (checked and kept
        at once: of two at the same time, one gets False)."""
        ...

    async def find(self, folded: str) -> Registered | None:
        """The account whose name's skeleton is ``folded`` (``None``: there is none)."""
        ...


class MemoryAccountBook:
    """An ``AccountBook`` in memory, for tests: ``accounts`` maps a skeleton to the name
    and the key."""

    def __init__(self) -> None:
        self.accounts: dict[str, Registered] = {}

    async def create(self, name: str, folded: str, key: bytes) -> bool:
        """Keep the account unless its skeleton is taken."""
        if folded in self.accounts:
            return False
        self.accounts[folded] = Registered(name, key)
        return True

    async def find(self, folded: str) -> Registered | None:
        """The account, if there is one."""
        return self.accounts.get(folded)


class AccountError(ProtocolError):
    """An opening's ``account`` that opens nothing (error code ``bad-account``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ErrorCode.BAD_ACCOUNT)


def new_challenge() -> ChallengeMessage:
    """The answer to a ``challenge`` request: a fresh random nonce, which the server keeps
    for this connection's opening (and uses once)."""
    return ChallengeMessage.of(secrets.token_bytes(KEY_BYTES))


async def register(book: AccountBook, request: Register) -> AccountMessage | ErrorMessage:
    """The answer to ``register`` (its name and key checked by ``parse_request``):
    ``account`` once the name is the key's, else the error ``name-taken`` (the name, or
    one that looks the same, is taken)."""
    if not await book.create(request.name, fold_name(request.name), request.key):
        return ErrorMessage(
            ErrorCode.NAME_TAKEN,
            f"the name {request.name} (or one that looks the same) is taken on this server",
        )
    return AccountMessage(request.name)


async def check_account(
    book: AccountBook,
    claim: AccountClaim | None,
    nonce: bytes | None,
    server_id: str,
    route: str,
) -> str | None:
    """The account an opening names, checked: its name (``None``: no ``account``, a guest).
    ``nonce`` is the challenge this connection was given (``None``: none), ``server_id``
    the server's address as its players name it (``accounts.normalise_server``), ``route``
    what the opening does (``accounts.opening_route``). ``AccountError`` unless the
    account exists and signed exactly this. The server forgets ``nonce`` after one
    opening, so that a signature is never taken twice. The name returned is the account's
    as registered (the claim may spell it otherwise: "ana" for "Ana"), the name its seat
    takes at a public or rated table."""
    if claim is None:
        return None
    if nonce is None:
        raise AccountError("ask for a challenge before naming an account")
    found = await book.find(fold_name(claim.name))
    if found is None:
        raise AccountError(f"there is no account {claim.name} on this server")
    if not verify_challenge(found.key, nonce, server_id, route, claim.signature):
        raise AccountError(f"the signature is not account {claim.name}'s for this challenge")
    return found.name


async def registered_name(book: AccountBook, name: str) -> str | None:
    """The registered name of the account whose name reads as ``name`` (the same
    skeleton), if there is one: a guest may not sit under it at a public table."""
    found = await book.find(fold_name(name))
    return None if found is None else found.name
