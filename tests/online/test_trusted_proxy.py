"""Per-address limits behind a proxy, against a real server: behind the nginx of
``docs/online.md`` (as written there, with the server's ``--trusted-proxy``), each
player's connections are counted under the player's own address, not the proxy's, and
what a player writes in ``X-Forwarded-For`` themselves is never believed; a client that
is not a trusted proxy cannot pass for another address with the header; a trusted
proxy's header that names no address is refused. Players are told apart by their
loopback source addresses (127.0.0.x), which nginx passes on from ``$remote_addr``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from tests.online.raw_ws import Server, running
from tests.online.test_proxy import nginx, nginx_blocks

CAP = 3
"""The server's ``--max-per-address`` in these tests."""


def trusting(home: Path, *proxies: str) -> Server:
    """A server that trusts ``proxies`` and lets an address hold ``CAP`` connections."""
    options = [option for proxy in proxies for option in ("--trusted-proxy", proxy)]
    return Server(home, options=(*options, "--max-per-address", str(CAP)))


async def attempt(url: str, source: str, forwarded: str | None = None) -> ClientConnection | int:
    """A WebSocket connection from ``source`` (with an ``X-Forwarded-For`` of its own:
    ``forwarded``), or the HTTP status that refused it."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    try:
        return await connect(url, local_addr=(source, 0), additional_headers=headers,
                             open_timeout=10, close_timeout=1)  # fmt: skip
    except InvalidStatus as refused:
        return refused.response.status_code


async def fill(url: str, source: str, forged: str = "") -> list[ClientConnection]:
    """``CAP`` connections from ``source`` (each with an ``X-Forwarded-For`` naming
    another address, when ``forged`` is the start of one): all let in."""
    held = []
    for number in range(CAP):
        ws = await attempt(url, source, f"{forged}{number + 1}" if forged else None)
        assert isinstance(ws, ClientConnection), f"connection {number + 1} from {source}: {ws}"
        held.append(ws)
    return held


def test_behind_the_documented_nginx_each_player_is_counted_under_their_own_address(
    tmp_path: Path,
) -> None:
    """Two players behind nginx each hold ``CAP`` connections (nginx counted as one
    address, the second player was refused at once); each one's next connection is
    refused with 429, even with an ``X-Forwarded-For`` of their own invention, and a third
    player still gets in. The audit log names the players, not the proxy."""
    (location, *_) = nginx_blocks()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in location
    with running(trusting(tmp_path / "server", "127.0.0.1")) as server:
        location = location.replace("127.0.0.1:7787", server.address)
        with nginx(tmp_path / "nginx", "", location) as port:
            url = f"ws://127.0.0.1:{port}/coloretto/rooms"

            async def test() -> list[ClientConnection | int]:
                held = await fill(url, "127.0.0.2") + await fill(url, "127.0.0.3")
                answers = [
                    await attempt(url, "127.0.0.2"),
                    await attempt(url, "127.0.0.3", forwarded="10.9.9.9"),
                    await attempt(url, "127.0.0.2", forwarded="127.0.0.1"),
                    await attempt(url, "127.0.0.4"),
                ]
                for ws in held + [a for a in answers if isinstance(a, ClientConnection)]:
                    await ws.close()
                return answers

            answers = asyncio.run(asyncio.wait_for(test(), 60))
        assert answers[:3] == [429, 429, 429], answers
        assert isinstance(answers[3], ClientConnection), answers
        audit = server.audit()
    assert "refused 127.0.0.2: too many connections from your address" in audit
    assert "refused 127.0.0.3: too many connections from your address" in audit
    assert "refused 127.0.0.1" not in audit
    assert "10.9.9.9" not in audit


def test_a_client_that_is_no_trusted_proxy_cannot_pass_for_another_address(
    tmp_path: Path,
) -> None:
    """A client that connects to the server directly names a new address in
    ``X-Forwarded-For`` on each connection: ignored, its connections past the cap are
    refused; so are those of a client of a server that trusts no proxy at all."""
    url = "ws://127.0.0.1:{}/rooms"
    for home, proxies in (("trusting", ("127.0.0.1",)), ("trusting-none", ())):
        with running(trusting(tmp_path / home, *proxies)) as server:

            async def test(port: int) -> ClientConnection | int:
                held = await fill(url.format(port), "127.0.0.5", forged="10.0.0.")
                answer = await attempt(url.format(port), "127.0.0.5", forwarded="10.0.0.99")
                for ws in held:
                    await ws.close()
                return answer

            assert asyncio.run(asyncio.wait_for(test(server.port), 30)) == 429, home
            assert "refused 127.0.0.5: too many connections" in server.audit()
            assert "10.0.0." not in server.audit()


def test_a_trusted_proxy_names_the_client_and_its_ipv6_network(tmp_path: Path) -> None:
    """Connections from the trusted proxy (here, clients at its address that write the
    header as a proxy would): an IPv6 client is counted by its /64, so ``CAP`` addresses
    of one /64 fill its share; a client behind a chain of proxies is the right-most
    address that is not a trusted one; a header that names no address gets 400; without
    the header the connection is the proxy's own."""
    url = "ws://127.0.0.1:{}/rooms"
    with running(trusting(tmp_path / "server", "127.0.0.1", "10.0.0.0/8")) as server:

        async def test(port: int) -> list[ClientConnection | int]:
            address = url.format(port)
            held = await fill(address, "127.0.0.1", forged="2001:db8:1:2::")
            answers = [
                await attempt(address, "127.0.0.1", forwarded="2001:db8:1:2:ffff::9"),
                await attempt(address, "127.0.0.1", forwarded="2001:db8:1:3::1"),
                await attempt(address, "127.0.0.1", forwarded="1.2.3.4, 10.1.1.1, 10.2.2.2"),
                await attempt(address, "127.0.0.1", forwarded="1.2.3.4, garbage, 10.2.2.2"),
                await attempt(address, "127.0.0.1", forwarded=""),
                await attempt(address, "127.0.0.1"),
            ]
            for ws in held + [a for a in answers if isinstance(a, ClientConnection)]:
                await ws.close()
            return answers

        answers = asyncio.run(asyncio.wait_for(test(server.port), 30))
        audit = server.audit()
    assert answers[0] == 429, answers  # the fourth of 2001:db8:1:2::/64
    assert answers[3] == 400, answers
    assert all(isinstance(answers[n], ClientConnection) for n in (1, 2, 4, 5)), answers
    assert "refused 2001:db8:1:2::/64: too many connections from your address" in audit
    assert "bad-request 127.0.0.1: X-Forwarded-For names no address: 'garbage'" in audit
