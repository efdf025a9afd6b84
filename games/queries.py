"""Reads the site makes on every move and page, their SQL compiled once; a move's two writes.

Django compiles a queryset's SQL anew each time it runs. For the match's read (its seats joined to
their members, the match, its creator and its tournament game: 86 columns) that compiling costs
about 0.3 ms, four times what SQLite spends running it. `CompiledRead` compiles the queryset once
per database, with stand-ins for its parameters, and then runs that SQL with the real values,
building the objects as Django's own ModelIterable does (select_related included). Should the
compiled SQL not hold every stand-in, it reads the usual way every time.

A read of seats joined to their match repeats the match on every seat's row. Django converts and
builds it again for each (its JSON board decoded, its dates parsed): a read named `shared` builds
each such related object once, from the first row that holds it, and hands the same object to
the other rows (a match read thus builds one match, not one per seat).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, connections, router, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.signals import post_save, pre_save

# bigints no row has: they only mark the parameters' places
STAND_INS = tuple(4_611_686_018_427_387_903 - i for i in range(8))


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]  # the SQL's parameters: a constant, or the stand-in's place (_Slot)
    compiler: Any
    model: type[Model]
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    converters: list[tuple[int, Any]]
    shared: tuple[_Shared, ...]


@dataclass(frozen=True)
class _Shared:
    """A related object that rows with the same key share (see CompiledRead's `shared`)."""

    populator: Any  # the select_related populator that builds it
    field: Any  # the foreign key it hangs from
    key: int  # the row's position of that key's value
    columns: frozenset[int]  # the positions it and what it holds are built from


@dataclass(frozen=True)
class _Slot:
    index: int  # which of the read's values goes here


class CompiledRead:
    """`read(*values)`: the objects of `build(*values)`, a queryset whose parameters are those
    whole numbers (each may be used more than once) and values that never change."""

    def __init__(self, build: Callable[..., QuerySet], *, shared: tuple[str, ...] = ()) -> None:
        """`shared`: foreign keys of the read's model, followed by its select_related, whose
        object is built once for each value they hold and shared by the rows that hold it."""
        self.build, self.shared = build, shared
        self.arity = len(inspect.signature(build).parameters)
        sample = build(*STAND_INS[: self.arity])
        self.model, self.locks = sample.model, bool(sample.query.select_for_update)
        self._compiled: dict[str, _Compiled | None] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: int) -> list[Model]:
        db, compiled, rows = self.rows(*values)
        return self.objects(db, compiled, rows) if compiled is not None else rows

    def rows(self, *values: int) -> tuple[str, _Compiled | None, list]:
        """(database, compiled read, the rows as the database gave them); with no compiled
        read, the rows are Django's objects already."""
        db = (router.db_for_write if self.locks else router.db_for_read)(self.model)
        if self.locks and transaction.get_autocommit(db):
            return db, None, list(self.build(*values))  # Django's error: FOR UPDATE outside one
        compiled = self._for(db)
        if compiled is None:
            return db, None, list(self.build(*values))
        params = [values[p.index] if type(p) is _Slot else p for p in compiled.params]
        with connections[db].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            return db, compiled, cursor.fetchall()

    @staticmethod
    def objects(db: str, compiled: _Compiled, rows: list[tuple]) -> list[Model]:
        """The objects of rows read by `rows()`, as Django's ModelIterable builds them, each
        shared related object converted and built only once."""
        connection = compiled.compiler.connection
        built: dict[tuple[int, Any], Model] = {}  # (which shared object, its key) -> it
        objects = []
        for raw in rows:
            row = list(raw)
            known = [built.get((i, row[s.key])) for i, s in enumerate(compiled.shared)]
            skip = frozenset().union(
                *(s.columns for s, kept in zip(compiled.shared, known, strict=True) if kept)
            )
            for pos, (converters, expression) in compiled.converters:
                if pos not in skip:
                    value = row[pos]
                    for converter in converters:
                        value = converter(value, expression, connection)
                    row[pos] = value
            obj = compiled.model.from_db(db, compiled.init_list, row[compiled.start : compiled.end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for i, (s, kept) in enumerate(zip(compiled.shared, known, strict=True)):
                if kept is None:
                    s.populator.populate(row, obj)
                    built[i, row[s.key]] = s.field.get_cached_value(obj)
                else:
                    s.populator.local_setter(obj, kept)
                    s.populator.remote_setter(kept, obj)
            objects.append(obj)
        return objects

    def _for(self, db: str) -> _Compiled | None:
        with self._lock:
            if db in self._compiled:
                return self._compiled[db]
        stand_ins = STAND_INS[: self.arity]
        queryset = self.build(*stand_ins)
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        slots = tuple(
            _Slot(stand_ins.index(p)) if type(p) is int and p in stand_ins else p for p in params
        )
        compiled = None
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        if (
            {p.index for p in slots if type(p) is _Slot} == set(range(self.arity))
            and not compiler.annotation_col_map
            and not compiler.has_composite_fields(fields)
        ):
            klass_info, select = compiler.klass_info, compiler.select
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            init_list = [column[0].target.attname for column in select[start:end]]
            populators = get_related_populators(klass_info, select, db)
            shared = _shared(self.shared, klass_info, populators, init_list, start)
            compiled = _Compiled(
                sql=sql,
                params=slots,
                compiler=compiler,
                model=klass_info["model"],
                start=start,
                end=end,
                init_list=init_list,
                populators=[p for p in populators if all(p is not s.populator for s in shared)],
                converters=list(compiler.get_converters(fields).items()),
                shared=shared,
            )
        with self._lock:
            self._compiled[db] = compiled
        return compiled


def _shared(
    names: tuple[str, ...], klass_info: dict, populators: list, init_list: list[str], start: int
) -> tuple[_Shared, ...]:
    """The shared related objects named, as the compiled read finds them; a name it cannot
    share (not followed by select_related, or its key not read) is built on every row."""
    found = []
    infos = klass_info.get("related_klass_infos", ())
    for info, populator in zip(infos, populators, strict=True):
        field = info["field"]
        if field.name in names and not info["reverse"] and field.attname in init_list:
            found.append(
                _Shared(populator, field, start + init_list.index(field.attname), _columns(info))
            )
    return tuple(found)


def _columns(info: dict) -> frozenset[int]:
    """The positions a select_related object and those it holds are read from."""
    nested = (_columns(inner) for inner in info.get("related_klass_infos", ()))
    return frozenset(info["select_fields"]).union(*nested)


# -- writes -------------------------------------------------------------------------------------
# A move writes two rows: its Move, and the match's new board. Through Model.save each cost about
# 0.2 ms of CPU on SQLite, three times the statement itself, most of it building and compiling
# the query. These write the same row with SQL put together once per model, fields and database.
# Each value goes through its field as save() sends it (pre_save: auto_now and auto_now_add;
# get_db_prep_save: JSON, dates), and a model that a pre_save or post_save receiver listens to
# is saved the usual way, so that no receiver is ever passed over.

_statements: dict[tuple, tuple[str, list]] = {}  # key -> (SQL, the fields in its order)


def _listened_to(model: type[Model]) -> bool:
    return pre_save.has_listeners(model) or post_save.has_listeners(model)


def insert_row(model: type[Model], **values: Any) -> None:
    """Add a row as `model.objects.create(**values)` does, without handing back the object
    (its id is not read back)."""
    obj = model(**values)
    db = router.db_for_write(model, instance=obj)
    if _listened_to(model):
        obj.save(force_insert=True, using=db)
        return
    connection = connections[db]
    key = ("insert", model, db)
    found = _statements.get(key)
    if found is None:
        fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
        quote = connection.ops.quote_name
        # names from the model, quoted; every value a parameter
        sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608
            quote(model._meta.db_table),
            ", ".join(quote(f.column) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        found = _statements[key] = (sql, fields)
    sql, fields = found
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def update_fields(obj: Model, names: tuple[str, ...]) -> None:
    """`obj.save(update_fields=names)`: write those fields of obj's row (the auto_now ones set
    to now on obj as well). Raises DatabaseError, as save() does, if there is no such row."""
    model = type(obj)
    db = router.db_for_write(model, instance=obj)
    if _listened_to(model):
        obj.save(update_fields=names, using=db)
        return
    meta = model._meta
    connection = connections[db]
    key = ("update", model, names, db)
    found = _statements.get(key)
    if found is None:
        fields = [meta.get_field(name) for name in names]
        quote = connection.ops.quote_name
        # names from the model, quoted; every value a parameter
        sql = "UPDATE {} SET {} WHERE {} = %s".format(  # noqa: S608
            quote(meta.db_table),
            ", ".join(f"{quote(f.column)} = %s" for f in fields),
            quote(meta.pk.column),
        )
        found = _statements[key] = (sql, fields)
    sql, fields = found
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    params.append(meta.pk.get_db_prep_save(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
