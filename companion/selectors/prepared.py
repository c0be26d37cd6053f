"""Reads of a fixed shape whose SQL the ORM writes once per database (``Prepared``).

Pages read a few small rows each (a statistics record, the match a sheet shows);
building and compiling each such query through the ORM cost as much as a bare page
(bench/history.py, bench/web.py). A ``Prepared`` read is written as the queryset it
stands for; its SQL is compiled once per database and then run with each call's
arguments, and its rows are what iterating the queryset gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import QuerySet


class Prepared:
    """A read of a fixed shape (``build(*args)``, a queryset) whose SQL the ORM writes once
    per database, then run with each call's ``args`` (ids, game slugs).

    The SQL is the ORM's, compiled from stand-in arguments (negative ids, marked strings)
    whose places among its parameters are then filled with the real ones; the rows go
    through the same value converters the ORM applies (dates on SQLite, JSON), so they
    are what ``list(queryset)`` of its ``values_list`` gives.
    """

    def __init__(self, model: type[Any], build: Callable[..., QuerySet[Any]]) -> None:
        self._model = model
        self._build = build
        self._compiled: dict[str, tuple[str, list[tuple[int | None, Any]], dict[int, Any]]] = {}

    @staticmethod
    def _stand_in(index: int, value: object) -> object:
        return -(10**12) - index if isinstance(value, int) else f"\x00prepared{index}"

    def __call__(self, *args: int | str) -> list[tuple[Any, ...]]:
        alias = router.db_for_read(self._model)
        connection = connections[alias]
        if alias not in self._compiled:
            stand_ins = [self._stand_in(index, arg) for index, arg in enumerate(args)]
            compiler = self._build(*stand_ins).query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            places = [
                (stand_ins.index(param) if param in stand_ins else None, param)
                for param in params
            ]
            if {index for index, _param in places if index is not None} != set(range(len(args))):
                raise ValueError("every argument must be a parameter of the query")
            converters = compiler.get_converters(
                [column[0] for column in compiler.select[:compiler.col_count]]
            )
            self._compiled[alias] = (sql, places, converters)
        sql, places, converters = self._compiled[alias]
        with connection.cursor() as cursor:
            cursor.execute(sql, [param if index is None else args[index]
                                 for index, param in places])
            rows = cursor.fetchall()
        if not converters:
            return [tuple(row) for row in rows]
        converted = []
        for row in rows:
            values = list(row)
            for position, (functions, expression) in converters.items():
                value = values[position]
                for function in functions:
                    value = function(value, expression, connection)
                values[position] = value
            converted.append(tuple(values))
        return converted
