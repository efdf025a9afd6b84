"""The match's read, compiled once (games.queries): the same objects Django's own read gives, in
one query, locking the match alone when asked, and Django's read whenever compiling cannot help."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Match, Seat
from games.queries import CompiledRead
from tests.games.helpers import any_move

pytestmark = pytest.mark.django_db


def _values(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


@pytest.fixture
def played(alice, bob):
    """A match in play, one move made (snapshot, to_move, dates all filled)."""
    match = services.match_create(creator=alice, variant="cribbage", players=2)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    seat = match.to_move[0]
    services.match_play(
        match_id=match.pk,
        user=[alice, bob][seat],
        seq=match.seq,
        move=any_move(match, seat),
    )
    return Match.objects.get(pk=match.pk)


def test_the_read_gives_what_djangos_own_read_gives(played):
    read = services.read_match(played.pk)
    assert _values(read) == _values(played)
    assert _values(read.created_by) == _values(played.created_by)
    expected = Seat.objects.filter(match=played).select_related("user").order_by("index")
    got = list(read.seats.all())
    assert [_values(s) for s in got] == [_values(s) for s in expected]
    assert [_values(s.user) for s in got] == [_values(s.user) for s in expected]
    assert all(s.match is read for s in got)  # one match object for every seat
    assert read.updated_at.tzinfo is not None and isinstance(read.snapshot, dict | list | str)


def test_the_read_is_one_query_and_leaves_nothing_to_read_later(played):
    services.read_match(played.pk)  # compiled on the first read
    with CaptureQueriesContext(connection) as queries:
        read = services.read_match(played.pk)
        names = [s.user.username for s in read.seats.all()]
        creator = read.created_by.username
        in_tournament = hasattr(read, "tournament_game")
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert (names, creator, in_tournament) == (["alice", "bob"], "alice", False)


def test_the_compiled_sql_is_djangos_for_the_same_read(played):
    build = services._seats_joined
    services.read_match(played.pk)
    compiled = services._READ._for(connection.alias)
    sql, params = build(played.pk).query.get_compiler(using=connection.alias).as_sql()
    assert (compiled.sql, params) == (sql, (played.pk,))


def test_no_such_match_reads_as_none(played):
    assert services.read_match(played.pk + 1000) is None
    assert services.read_match(0) is None
    assert services.read_match(2**70) is None


def test_the_locked_read_locks_the_match_alone_inside_a_transaction(played):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = services.read_match(played.pk, lock=True)
    assert [s.index for s in read.seats.all()] == [0, 1]
    (sql,) = [q["sql"] for q in queries if "games_seat" in q["sql"]]
    if connection.features.has_select_for_update_of:
        assert sql.endswith('FOR UPDATE OF "games_match"')
    else:  # SQLite locks the whole database while writing
        assert "FOR UPDATE" not in sql


@pytest.mark.django_db(transaction=True)
def test_the_locked_read_outside_a_transaction_fails_as_djangos_own_does(played):
    def outcome(read):
        try:
            return len(read())
        except transaction.TransactionManagementError:
            return "refused"

    theirs = outcome(lambda: list(services._seats_joined(played.pk).select_for_update()))
    ours = outcome(lambda: services.read_match(played.pk, lock=True).seats.all())
    assert ours == theirs  # refused where rows are locked (PostgreSQL), read on SQLite
    assert theirs == ("refused" if connection.features.has_select_for_update else 2)


def test_values_that_never_change_stay_in_the_compiled_sql(played):
    read = CompiledRead(lambda pk: Seat.objects.filter(match_id=pk, index__lt=1).order_by("index"))
    with CaptureQueriesContext(connection) as queries:
        seats = read(played.pk)
    assert read._for(connection.alias) is not None
    assert [s.index for s in seats] == [0] and "4611686018427387903" not in queries[0]["sql"]


def test_a_read_of_several_values_puts_each_where_the_queryset_uses_it(played, alice, bob):
    read = CompiledRead(
        lambda pk, user: (
            Seat.objects.filter(match_id=pk)
            .filter(Q(user_id=user) | Q(match__created_by_id=user, index=1))
            .order_by("index")
        )
    )
    assert read._for(connection.alias) is not None
    assert [s.user for s in read(played.pk, alice.pk)] == [alice, bob]  # alice made the match
    assert [s.user for s in read(played.pk, bob.pk)] == [bob]
    assert read(played.pk + 1, alice.pk) == []


def test_a_queryset_that_compiles_otherwise_is_read_the_usual_way(played, charlie):
    # The value goes into the SQL as words, not as the number: nothing to put it in by, so
    # Django reads it each time.
    read = CompiledRead(lambda pk: Seat.objects.filter(match__seed__startswith=str(pk)[:1]))
    assert read._for(connection.alias) is None
    assert read(played.pk) == list(Seat.objects.filter(match__seed__startswith=str(played.pk)[:1]))


def test_rows_of_one_match_share_one_match_built_once(played, charlie, monkeypatch):
    """The seats' rows each hold their match: it is converted and built from the first of them
    only, and every seat of a match holds that one object; another match's seats hold theirs."""
    other = services.match_create(creator=charlie, variant="cribbage", players=3)
    read = CompiledRead(
        lambda pk: Seat.objects.filter(match_id__gte=pk).select_related("match__created_by"),
        shared=("match",),
    )
    decoded = []
    real = Match._meta.get_field("snapshot").from_db_value
    monkeypatch.setattr(
        Match._meta.get_field("snapshot"),
        "from_db_value",
        lambda value, *args: decoded.append(value) or real(value, *args),
    )
    seats = read(played.pk)
    assert len(seats) == 5 and len(decoded) == 2  # 2 + 3 seats, one snapshot each match
    matches = {s.match_id: s.match for s in seats}
    assert all(s.match is matches[s.match_id] for s in seats)
    for match in matches.values():
        assert _values(match) == _values(Match.objects.get(pk=match.pk))
        assert match.created_by.username == ("alice" if match.pk == played.pk else "charlie")
    assert matches[other.pk].snapshot is None and matches[played.pk].snapshot is not None


def test_a_shared_name_the_read_does_not_follow_is_built_the_usual_way(played):
    # The match is not followed by select_related: nothing to share, the read is Django's.
    read = CompiledRead(lambda pk: Seat.objects.filter(match_id=pk), shared=("match",))
    assert read._for(connection.alias).shared == ()
    assert sorted(s.index for s in read(played.pk)) == [0, 1]


# -- a move's two writes -----------------------------------------------------------------------


def test_a_row_inserted_is_the_row_create_writes(played):
    from games.models import Move
    from games.queries import insert_row

    move = {"type": "play", "card": "5H", "note": "ünï"}
    values = dict(seq=90, seat=1, move=move, by_computer=True, to_move_before=[0, 1])
    Move.objects.create(match=played, **{**values, "seq": 91})
    with CaptureQueriesContext(connection) as queries:
        insert_row(Move, match=played, **values)
    assert len(queries) == 1 and queries[0]["sql"].startswith("INSERT")
    mine, djangos = Move.objects.get(match=played, seq=90), Move.objects.get(match=played, seq=91)
    assert {**_values(mine), "id": 0, "seq": 0, "created_at": 0} == {
        **_values(djangos),
        "id": 0,
        "seq": 0,
        "created_at": 0,
    }
    assert mine.move == move and mine.to_move_before == [0, 1] and mine.by_computer
    assert abs((mine.created_at - djangos.created_at).total_seconds()) < 60  # auto_now_add
    defaults = dict(seq=92, seat=0, move={"type": "go"})  # to_move_before and by_computer default
    insert_row(Move, match=played, **defaults)
    assert Move.objects.get(match=played, seq=92).to_move_before == []


def test_a_second_row_for_the_same_seq_is_refused_whole(played):
    from django.db import IntegrityError

    from games.models import Move
    from games.queries import insert_row

    seq = Move.objects.filter(match=played).get().seq
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_row(Move, match=played, seq=seq, seat=0, move={"type": "go"})
    assert Move.objects.filter(match=played).count() == 1


def test_fields_updated_are_written_as_save_writes_them(played):
    from games.queries import update_fields

    before = played.updated_at
    played.seq += 5
    played.to_move = [1]
    played.snapshot = {"a board": ["as", "json"], "n": 1}
    played.moves_played = 41
    played.status = "finished"  # not among the fields named: left as it is
    with CaptureQueriesContext(connection) as queries:
        update_fields(played, ("seq", "moves_played", "snapshot", "to_move", "updated_at"))
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    assert played.updated_at > before  # auto_now, set on the object too
    stored = Match.objects.get(pk=played.pk)
    assert (stored.seq, stored.moves_played, stored.to_move, stored.snapshot) == (
        played.seq,
        41,
        [1],
        {"a board": ["as", "json"], "n": 1},
    )
    assert stored.updated_at == played.updated_at and stored.status == "active"


def test_an_update_of_a_row_gone_fails_as_save_does(played):
    from django.db import DatabaseError

    from games.queries import update_fields

    gone = Match.objects.get(pk=played.pk)
    Match.objects.filter(pk=played.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update_fields(gone, ("seq",))
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        gone.save(update_fields=["seq"])


def test_a_model_listened_to_is_saved_the_usual_way(played):
    """A pre_save or post_save receiver is never passed over."""
    from django.db.models.signals import post_save, pre_save

    from games.models import Move
    from games.queries import insert_row, update_fields

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append((sender.__name__, kwargs.get("created"), kwargs.get("update_fields")))

    for signal in (pre_save, post_save):
        signal.connect(receiver, sender=Match, dispatch_uid=f"test-{signal}")
        signal.connect(receiver, sender=Move, dispatch_uid=f"test-move-{signal}")
    try:
        update_fields(played, ("seq",))
        insert_row(Move, match=played, seq=70, seat=0, move={"type": "go"})
    finally:
        for signal in (pre_save, post_save):
            signal.disconnect(sender=Match, dispatch_uid=f"test-{signal}")
            signal.disconnect(sender=Move, dispatch_uid=f"test-move-{signal}")
    assert heard == [
        ("Match", None, frozenset({"seq"})),
        ("Match", False, frozenset({"seq"})),
        ("Move", None, None),
        ("Move", True, None),
    ]
