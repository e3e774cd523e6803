"""Accounts, pure and on disk: keys kept and carried to another machine, names unique as
they look, challenges signed for one use, the new requests and messages checked, and the
server's side (``account_service``) with a book in memory."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path

import pytest
from msgspec.structs import replace

from coloretto.engine import Rules
from coloretto.online.server.account_service import (
    AccountError,
    MemoryAccountBook,
    check_account,
    new_challenge,
    register,
)
from coloretto.online.wire.accounts import (
    EXPORT_PREFIX,
    MAX_EXPORT,
    Account,
    account_path,
    export_text,
    fold_name,
    forget_account,
    import_text,
    list_accounts,
    load_account,
    new_account,
    normalise_server,
    opening_route,
    save_account,
    sign_challenge,
    verify_challenge,
)
from coloretto.online.wire.messages import (
    AccountMessage,
    ErrorMessage,
    parse_message,
)
from coloretto.online.wire.protocol import (
    MAX_REQUEST,
    AccountClaim,
    Challenge,
    ErrorCode,
    Host,
    Join,
    ProtocolError,
    Register,
    Resume,
    Watch,
    account_name,
    b64url,
    encode,
    parse_request,
)
from coloretto.store.paths import DataDir

SERVER = "ws://127.0.0.1:7787"
CYRILLIC_ANA = "\N{CYRILLIC CAPITAL LETTER A}NA"
FULLWIDTH_ANA = "\uff21\uff2e\uff21"


@pytest.fixture
def ana() -> Account:
    return new_account(SERVER, "Ana")


# ------------------------------------------------------------------ keys on disk


def test_an_account_is_kept_privately_and_read_back(tmp_path: Path, ana: Account) -> None:
    data = DataDir(tmp_path)
    assert load_account(data, SERVER) is None
    path = save_account(data, ana)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.name == f"{path.stem}.json"  # a hash names the file
    assert "Ana" not in path.name
    assert load_account(data, "127.0.0.1:7787") == ana  # the same server, spelt otherwise
    assert load_account(data, "ws://127.0.0.1:7788") is None
    assert repr(ana) == f"Account(server={SERVER!r}, name='Ana')"  # no key shown
    assert list_accounts(data) == ([ana], [])
    forget_account(data, SERVER)
    assert load_account(data, SERVER) is None


def test_a_spoiled_account_file_is_refused_with_a_message(tmp_path: Path, ana: Account) -> None:
    data = DataDir(tmp_path)
    path = save_account(data, ana)
    kept = json.loads(path.read_text())
    other = new_account(SERVER, "Ben")
    cases = {
        "{not json": "is not an account",
        json.dumps({**kept, "public": b64url(other.public_key)}): "the account was changed",
        json.dumps({**kept, "name": "Ana\x1b[2J"}): "control or invisible",
        json.dumps({**kept, "server": "ws://127.0.0.1:9"}): "another server",
        json.dumps({**kept, "extra": 1}): "expected format, server, name",
        "x" * 5000: "larger than 4096 bytes",
    }
    for text, words in cases.items():
        path.write_text(text)
        with pytest.raises(ValueError, match=words):
            load_account(data, SERVER)
    accounts, problems = list_accounts(data)
    assert accounts == []
    assert len(problems) == 1


def test_the_file_name_never_comes_from_what_others_say(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    path = account_path(data, "ws://example.org/../../etc")
    assert path.parent == tmp_path / "accounts"
    assert len(path.stem) == 32


@pytest.mark.parametrize(
    ("text", "server"),
    [
        ("127.0.0.1:7787", "ws://127.0.0.1:7787"),
        ("WS://Example.ORG:80/", "ws://example.org"),
        ("wss://example.org:443/coloretto/", "wss://example.org/coloretto"),
        ("wss://example.org:8443", "wss://example.org:8443"),
        ("ws://[::1]:7787", "ws://[::1]:7787"),
    ],
)
def test_servers_are_named_one_way(text: str, server: str) -> None:
    assert normalise_server(text) == server


@pytest.mark.parametrize(
    "text",
    ["example.org", "http://example.org", "ws://user@example.org", "ws://h/?q", "ws://h:99999",
     "ws://h\x1b:1", "ws://" + "h" * 300, "ws://", "ws://h /x"],
)  # fmt: skip
def test_what_is_no_server_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="expected HOST:PORT or a ws:// address"):
        normalise_server(text)


# ------------------------------------------------------------------ another machine


def test_export_and_import_carry_the_same_account(ana: Account) -> None:
    line = export_text(ana)
    assert line.startswith(EXPORT_PREFIX)
    assert len(line.split()) == 1
    assert len(line) < MAX_EXPORT
    assert import_text(f"  {line}\n") == ana
    assert import_text(line[:60] + "\n" + line[60:]) == ana  # broken by a mail program


def test_a_changed_cut_or_huge_line_is_refused_with_a_message(ana: Account) -> None:
    line = export_text(ana)
    payload, check = line.removeprefix(EXPORT_PREFIX).split(".")
    flipped = payload[:30] + ("A" if payload[30] != "A" else "B") + payload[31:]
    cases = {
        line[:-3]: "changed or cut",
        EXPORT_PREFIX + flipped + "." + check: "changed or cut",
        "coloretto-account:2:" + payload + "." + check: "starts with coloretto-account:1:",
        "x" * (MAX_EXPORT + 1): f"at most {MAX_EXPORT} characters",
        "": "starts with",
    }
    for text, words in cases.items():
        with pytest.raises(ValueError, match=words):
            import_text(text)


def test_a_line_made_again_with_another_key_is_refused(ana: Account) -> None:
    """A check made anew does not let a wrong key through: the public key must match."""
    from coloretto.online.wire import accounts  # noqa: PLC0415

    data = json.loads(
        accounts._unb64url(export_text(ana).removeprefix(EXPORT_PREFIX).partition(".")[0])
    )
    data["key"] = b64url(new_account(SERVER, "Ana").secret)
    payload = b64url(json.dumps(data).encode())
    with pytest.raises(ValueError, match="the public key is not the private key's"):
        import_text(f"{EXPORT_PREFIX}{payload}.{accounts._check(payload)}")
    data["name"] = "\x1b]0;pwned\x07"
    payload = b64url(json.dumps(data).encode())
    with pytest.raises(ValueError, match="control or invisible"):
        import_text(f"{EXPORT_PREFIX}{payload}.{accounts._check(payload)}")


# ------------------------------------------------------------------ names


def test_names_that_look_alike_fold_to_one() -> None:
    assert (
        fold_name("Ana") == fold_name(CYRILLIC_ANA) == fold_name("ana") == fold_name(FULLWIDTH_ANA)
    )
    assert fold_name("B0b") == fold_name("bob")
    assert fold_name("Il1") == fold_name("lll") == fold_name("|||")
    assert fold_name("rnaria") == fold_name("maria")
    assert fold_name("Ana") != fold_name("Ann")
    assert fold_name("Ana") == fold_name("Ána")  # accents do not part names


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "a letter or a digit"),
        ("   ", "a letter or a digit"),
        ("--", "a letter or a digit"),
        ("Ana\x00", "control or invisible"),
        ("A\u202ena", "control or invisible"),
        ("A" * 17, "at most 16"),
        ("Ana (you)", "marks each player's own seat"),
    ],
)
def test_bad_names_are_refused(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        account_name(text)


# ------------------------------------------------------------------ challenges


def test_a_signature_is_bound_to_the_nonce_the_server_and_the_route(ana: Account) -> None:
    nonce = new_challenge().nonce
    signature = sign_challenge(ana, nonce, SERVER, "join K7PQ2M")
    key = ana.public_key
    assert verify_challenge(key, nonce, SERVER, "join K7PQ2M", signature)
    assert not verify_challenge(key, new_challenge().nonce, SERVER, "join K7PQ2M", signature)
    assert not verify_challenge(key, nonce, SERVER, "join ABCDEF", signature)
    assert not verify_challenge(key, nonce, SERVER, "host", signature)
    assert not verify_challenge(key, nonce, "ws://evil.example:7787", "join K7PQ2M", signature)
    assert not verify_challenge(new_account(SERVER, "Ben").public_key, nonce, SERVER,
                                "join K7PQ2M", signature)  # fmt: skip
    for bad in ("", "A" * 86, signature[:-1], signature + "A", "!" * 86):
        assert not verify_challenge(key, nonce, SERVER, "join K7PQ2M", bad)
    assert not verify_challenge(b"short", nonce, SERVER, "join K7PQ2M", signature)


def test_each_opening_has_its_route() -> None:
    rules = Rules()
    assert opening_route(Host.of("Ana", rules, "easy", 0.6, 30)) == "host"
    assert opening_route(Join("K7PQ2M", "Ana")) == "join K7PQ2M"
    assert opening_route(Resume("K7PQ2M", "a" * 32)) == "resume K7PQ2M"
    assert opening_route(Watch("K7PQ2M")) == "watch K7PQ2M"


# ------------------------------------------------------------------ the requests and messages


def frame(**fields: object) -> str:
    return json.dumps(fields)


def test_the_new_requests_are_parsed_and_sent_alike(ana: Account) -> None:
    claim = AccountClaim("Ana", sign_challenge(ana, bytes(32), SERVER, "host"))
    longest = "\N{MATHEMATICAL BOLD CAPITAL A}" * 16  # 12 bytes each as JSON escapes
    requests = [
        Challenge(),
        Register.of("Ana", ana.public_key),
        Register.of(longest, ana.public_key),
        Host.of(
            longest, Rules(players=5), "normal", 0.6, 30.0, account=AccountClaim(longest, "A" * 86)
        ),
        Host.of("Ana", Rules(), "easy", 0.6, 30.0, account=claim),
        Join("K7PQ2M", "Ana", claim),
        Join("K7PQ2M", "Ana"),
        Resume("K7PQ2M", "a" * 32, claim),
    ]
    for request in requests:
        text = encode(request)
        assert len(text.encode()) <= MAX_REQUEST
        assert parse_request(text) == request
    assert "account" not in encode(Join("K7PQ2M", "Ana"))  # a guest's opening is as ever


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({"name": "Ana"}, ErrorCode.BAD_REQUEST, "key: expected 32 bytes"),
        ({"name": "Ana", "key": "A" * 42}, ErrorCode.BAD_REQUEST, "key: expected 32 bytes"),
        ({"name": "Ana", "key": "A" * 42 + "B"}, ErrorCode.BAD_REQUEST, "key: expected 32"),
        ({"name": "Ana", "key": "+" * 43}, ErrorCode.BAD_REQUEST, "key: expected 32 bytes"),
        ({"name": 7, "key": "A" * 43}, ErrorCode.BAD_REQUEST, "name: expected"),
        ({"name": "A\x1b[2J", "key": "A" * 43}, ErrorCode.BAD_NAME, "control or invisible"),
        ({"name": "A" * 40, "key": "A" * 43}, ErrorCode.BAD_NAME, "at most 16"),
        ({"name": "", "key": "A" * 43}, ErrorCode.BAD_NAME, "a letter or a digit"),
        ({"name": "Ana", "key": "A" * 43, "password": "x"}, ErrorCode.BAD_REQUEST, "unexpected"),
    ],
)
def test_a_bad_register_is_refused(fields: dict[str, object], code: ErrorCode, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as refused:
        parse_request(frame(type="register", **fields))
    assert refused.value.code is code


@pytest.mark.parametrize(
    ("account", "words"),
    [
        ("Ana", "expected an object"),
        ({"name": "Ana"}, "account.signature: expected 64 bytes"),
        ({"name": "Ana", "signature": "A" * 86, "key": "x"}, "account: unexpected field 'key'"),
        ({"name": "Ana", "signature": "A" * 85}, "expected 64 bytes"),
        ({"name": "Ana", "signature": 5}, "expected 64 bytes"),
        ({"name": ["Ana"], "signature": "A" * 86}, "expected an account's name"),
        ({"name": "Ana\x07", "signature": "A" * 86}, "control or invisible"),
    ],
)
def test_a_bad_account_in_an_opening_is_refused(account: object, words: str) -> None:
    text = frame(type="join", version=1, room="K7PQ2M", name="Ana", account=account)
    with pytest.raises(ProtocolError, match=words) as refused:
        parse_request(text)
    assert refused.value.code is ErrorCode.BAD_REQUEST


def test_watching_names_no_account() -> None:
    text = frame(type="watch", version=1, room="K7PQ2M", account={"name": "A", "signature": ""})
    with pytest.raises(ProtocolError, match="unexpected field 'account'"):
        parse_request(text)
    with pytest.raises(ProtocolError, match="unexpected field"):
        parse_request(frame(type="challenge", nonce="A" * 43))


def test_the_new_messages_are_parsed_and_checked() -> None:
    challenge = new_challenge()
    assert parse_message(encode(challenge)) == challenge
    assert parse_message(encode(AccountMessage("Ana"))) == AccountMessage("Ana")
    for text, words in [
        (frame(type="challenge", nonce="A" * 42), "challenge.nonce: expected 32 bytes"),
        (frame(type="challenge"), "challenge.nonce: expected 32 bytes"),
        (frame(type="account", name="\x1b[2J"), "account.name: an account's name"),
        (frame(type="account"), "account.name"),
    ]:
        with pytest.raises(ProtocolError, match=words):
            parse_message(text)
    error = parse_message(frame(type="error", code="name-taken", message="taken"))
    assert error == ErrorMessage(ErrorCode.NAME_TAKEN, "taken")


# ------------------------------------------------------------------ the server's side


def test_register_keeps_one_account_per_name_as_it_looks(ana: Account) -> None:
    book = MemoryAccountBook()

    async def run() -> None:
        assert await register(book, Register.of("Ana", ana.public_key)) == AccountMessage("Ana")
        for name in ("ana", FULLWIDTH_ANA):
            answer = await register(book, Register.of(name, new_account(SERVER, "X").public_key))
            assert isinstance(answer, ErrorMessage)
            assert answer.code is ErrorCode.NAME_TAKEN
            assert "is taken" in answer.message
        with pytest.raises(ProtocolError, match="one script") as refused:  # not even a request
            Register.of(CYRILLIC_ANA, new_account(SERVER, "X").public_key)
        assert refused.value.code is ErrorCode.BAD_NAME
        assert await book.find("ana") == ("Ana", ana.public_key)
        assert await book.find("ben") is None

    asyncio.run(run())
    assert book.accounts["ana"] == ("Ana", ana.public_key)


def test_check_account_takes_only_a_fresh_signature_for_this_opening(ana: Account) -> None:
    book = MemoryAccountBook()
    nonce = new_challenge().nonce
    good = AccountClaim("Ana", sign_challenge(ana, nonce, SERVER, "join K7PQ2M"))

    async def check(claim: AccountClaim | None, nonce: bytes | None, route: str) -> str | None:
        return await check_account(book, claim, nonce, SERVER, route)

    async def run() -> None:
        await register(book, Register.of("Ana", ana.public_key))
        assert await check(None, None, "join K7PQ2M") is None  # a guest
        assert await check(good, nonce, "join K7PQ2M") == "Ana"
        refusals = [
            (good, None, "join K7PQ2M", "ask for a challenge"),
            (good, new_challenge().nonce, "join K7PQ2M", "not account Ana's"),
            (good, nonce, "host", "not account Ana's"),
            (replace(good, name="Ben"), nonce, "join K7PQ2M", "no account Ben"),
        ]
        for claim, given, route, words in refusals:
            with pytest.raises(AccountError, match=words) as refused:
                await check(claim, given, route)
            assert refused.value.code is ErrorCode.BAD_ACCOUNT
        ben = new_account(SERVER, "Ben")
        forged = AccountClaim("Ana", sign_challenge(ben, nonce, SERVER, "join K7PQ2M"))
        with pytest.raises(AccountError):
            await check(forged, nonce, "join K7PQ2M")

    asyncio.run(run())
