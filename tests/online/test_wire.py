"""The requests and messages as declared (``msgspec`` Structs): every one, with every
optional field, is read back as it was built, and a frame of any shape, or one with any
field changed or any field added, is read or refused with a ``ProtocolError``, never
another exception (``test_messages`` has the server's game, lobby and move messages)."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.bots.registry import LEVELS
from coloretto.engine import Action, Rules, new_game, to_record
from coloretto.engine.record import RulesForm
from coloretto.engine.rules import MAX_GAMES
from coloretto.online.wire.accounts import new_account, sign_challenge
from coloretto.online.wire.messages import (
    MAX_RATING,
    MESSAGES,
    AccountMessage,
    ChallengeMessage,
    ErrorMessage,
    GameMessage,
    LadderEntry,
    LadderMessage,
    LobbyMessage,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    RatedMessage,
    RatingChange,
    ServerMessage,
    TablesMessage,
    TableSummary,
    WelcomeMessage,
    parse_message,
)
from coloretto.online.wire.protocol import (
    CLOCK_NAME,
    MAX_AWAY_AFTER,
    MAX_FILL_AFTER,
    MAX_PLY,
    MIN_FILL_AFTER,
    REQUESTS,
    ROOM_CODE,
    TOKEN,
    AccountClaim,
    Act,
    Challenge,
    Host,
    Join,
    Ladder,
    LockTable,
    Next,
    ProtocolError,
    Register,
    Remove,
    Request,
    Resume,
    Start,
    Tables,
    Watch,
    convert,
    encode,
    parse_request,
)
from coloretto.play.config import MAX_DELAY

codes = st.from_regex(ROOM_CODE, fullmatch=True)
tokens = st.from_regex(TOKEN, fullmatch=True)
names = st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,12}[A-Za-z0-9]", fullmatch=True).map(
    lambda name: " ".join(name.split())
)
ANA = new_account("ws://127.0.0.1:7787", "Ana")
claims = st.none() | st.just(
    AccountClaim("Ana", sign_challenge(ANA, bytes(32), ANA.server, "host"))
)
tenths = st.integers(0, 36000).map(lambda tenths: tenths / 10)


@st.composite
def all_rules(draw: st.DrawFn) -> Rules:
    variant = draw(st.sampled_from(["standard", "four-rows", "ghost"]))
    players = 2 if variant != "standard" else draw(st.integers(2, 5))
    return Rules(players, draw(st.sampled_from(["brown", "gray"])),
                 draw(st.sampled_from(["classic", "anniversary"])), variant,
                 draw(st.integers(1, MAX_GAMES)))  # type: ignore[arg-type]  # fmt: skip


@st.composite
def hosts(draw: st.DrawFn) -> Host:
    public = draw(st.booleans())
    return Host.of(
        draw(names), draw(all_rules()), draw(st.sampled_from(list(LEVELS))),
        draw(tenths.filter(lambda s: s <= MAX_DELAY)),
        draw(tenths.filter(lambda s: s <= MAX_AWAY_AFTER)),
        account=draw(claims), public=public, rated=draw(st.booleans()),
        fill_after=draw(st.none() | tenths.filter(lambda s: MIN_FILL_AFTER <= s <= MAX_FILL_AFTER))
        if public else None,
        clock=draw(st.none() | st.from_regex(CLOCK_NAME, fullmatch=True)),
    )  # fmt: skip


actions = st.sampled_from(
    ["draw", *(f"{kind} {row}" for kind in ("place", "take") for row in range(1, 6))]
).map(Action.parse)

every_request: st.SearchStrategy[Request] = st.one_of(
    hosts(),
    st.builds(Join, codes, names, claims),
    st.builds(Resume, codes, tokens, claims),
    st.builds(Watch, codes),
    st.just(Start()),
    st.builds(Next, st.integers(2, MAX_GAMES)),
    st.builds(Act.of, st.integers(0, MAX_PLY), actions),
    st.builds(Remove, st.integers(0, 4)),
    st.builds(LockTable.of, st.booleans()),
    st.just(Challenge()),
    st.builds(Register.of, names, st.binary(min_size=32, max_size=32)),
    st.just(Tables()),
    st.just(Ladder()),
)


def test_the_strategy_builds_every_declared_request() -> None:
    """The round trip below covers every request the protocol declares."""
    built = {type(request) for request in (Start(), Challenge(), Tables(), Ladder())}
    built |= {Host, Join, Resume, Watch, Next, Act, Remove, Register, type(LockTable.of(False))}
    assert built | {LockTable} == set(REQUESTS.values())


@settings(max_examples=300, deadline=None)  # a busy machine: no time limit
@given(every_request)
def test_every_request_is_read_back_as_it_was_built(request: Request) -> None:
    frame = encode(request)
    assert parse_request(frame) == request
    assert json.loads(frame) == request.to_json()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(every_request, st.data())
def test_a_request_with_any_field_changed_or_added_is_read_or_refused_clearly(
    request: Request, data: st.DataObject
) -> None:
    fields = request.to_json()
    key = data.draw(st.sampled_from(sorted(fields)) | st.text(max_size=8))
    changed = {**fields, key: data.draw(json_values)}
    with contextlib.suppress(ProtocolError):
        parse_request(json.dumps(changed))


@given(st.dictionaries(st.sampled_from(["type", "version", "room", "name", "rules", "ply",
                                         "action", "game", "seat", "key", "account"]),
                       json_values | st.sampled_from(sorted(REQUESTS))))  # fmt: skip
def test_any_object_of_the_requests_fields_is_a_request_or_a_protocol_error(
    frame: dict[str, object],
) -> None:
    with contextlib.suppress(ProtocolError):
        parse_request(json.dumps(frame))


@given(all_rules())
def test_the_rules_wire_form_is_the_game_record_s(rules: Rules) -> None:
    """One form for the rules: the messages' (``RulesForm``, the engine's) is what a game
    record writes, and it reads back as the same rules."""
    written = to_record(new_game(rules, seed=1))["rules"]
    assert RulesForm.of(rules).to_json() == written
    assert convert(written, RulesForm, "rules").rules == rules
    assert RulesForm.read(written, "rules") == rules
    assert Host.of("Ana", rules, "easy", 0.6, 30.0).rules == rules


tables = st.builds(
    TableSummary.of, codes, all_rules().filter(lambda rules: rules.players > 2),
    st.sampled_from(list(LEVELS)), st.lists(names, max_size=2).map(tuple), st.booleans(),
    st.none() | tenths, st.just(()),
)  # fmt: skip
ratings = st.integers(-MAX_RATING, MAX_RATING)
other_messages: st.SearchStrategy[ServerMessage] = st.one_of(
    st.builds(ChallengeMessage.of, st.binary(min_size=32, max_size=32)),
    st.builds(AccountMessage, names),
    st.builds(TablesMessage, st.lists(tables, max_size=3).map(tuple)),
    st.builds(
        LadderMessage,
        st.lists(
            st.builds(LadderEntry, names, ratings, ratings, st.integers(0, 500), st.booleans()),
            max_size=4,
        ).map(tuple),
    ),
    st.builds(
        RatedMessage,
        st.integers(1, 99),
        st.lists(
            st.builds(RatingChange, st.integers(0, 4), names, ratings, ratings), max_size=5
        ).map(tuple),
    ),
)


def test_every_declared_message_is_built_by_a_round_trip_test() -> None:
    """This file's strategy and ``test_messages``' together cover every message."""
    here = {ChallengeMessage, AccountMessage, TablesMessage, LadderMessage, RatedMessage}
    there = {WelcomeMessage, LobbyMessage, GameMessage, MoveMessage, PresenceMessage,
             OverMessage, ErrorMessage}  # fmt: skip
    assert here | there == set(MESSAGES.values())


@settings(max_examples=200, deadline=None)
@given(other_messages, st.data())
def test_the_other_messages_are_read_back_and_any_field_changed_is_read_or_refused(
    message: ServerMessage, data: st.DataObject
) -> None:
    frame = encode(message)
    assert parse_message(frame) == message
    fields = message.to_json()
    key = data.draw(st.sampled_from(sorted(fields)) | st.text(max_size=8))
    with contextlib.suppress(ProtocolError):
        parse_message(json.dumps({**fields, key: data.draw(json_values)}))
