"""Issue 48.1: the typed public API stays typed, checked without a type checker.

``pyright --verifytypes verify`` counts a public function as partially unknown when a parameter or its
return has no annotation, or when an annotation is a bare generic (``list``, ``dict``, ``Callable``: their
type arguments are unknown to it).  These tests walk the public names of ``verify`` and ``verify.api``
with ``inspect`` (the annotations are the source's strings: every module postpones their evaluation)
and fail on either, so the default suite keeps the score from slipping on the names users call; the
mypy snippet in ``tests/test_packaging.py`` checks what a type checker makes of them.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import verify
import verify.api

#: A generic named without its type arguments (``list`` but not ``list[int]``, nor ``np.ndarray``).
BARE = re.compile(r"(?<![\w.])(list|dict|set|frozenset|tuple|type|Callable|Iterable|Iterator|Sequence|Mapping)"
                  r"(?![\w\[])")


def public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """(qualified name, function) for each public function of ``verify`` and ``verify.api``, and each
    method a public class defines itself (its ``__init__`` included, a property by its getter)."""
    seen = set()
    for module, names in ((verify, verify.__all__), (verify.api, verify.api.__all__)):
        for name in names:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    if isinstance(member, property):
                        member = member.fget
                    elif isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if inspect.isfunction(member) and member not in seen:
                        seen.add(member)
                        yield f"{obj.__module__}.{obj.__qualname__}.{attr}", member
            elif inspect.isfunction(obj) and obj not in seen:
                seen.add(obj)
                yield f"{obj.__module__}.{obj.__qualname__}", obj


def unannotated(function: Callable[..., Any]) -> list[str]:
    """What of ``function``'s signature a type checker cannot see: each parameter (but ``self``/``cls``)
    without an annotation, a missing return annotation, and each annotation holding a bare generic."""
    signature = inspect.signature(function)
    problems = []
    for i, parameter in enumerate(signature.parameters.values()):
        if i == 0 and parameter.name in ("self", "cls"):
            continue
        if parameter.annotation is inspect.Parameter.empty:
            problems.append(f"parameter {parameter.name!r} has no annotation")
        elif BARE.search(str(parameter.annotation)):
            problems.append(f"parameter {parameter.name!r}: bare generic in {parameter.annotation!r}")
    if signature.return_annotation is inspect.Signature.empty:
        problems.append("no return annotation")
    elif BARE.search(str(signature.return_annotation)):
        problems.append(f"return: bare generic in {signature.return_annotation!r}")
    return problems


PUBLIC = dict(public_callables())


def test_the_walk_finds_the_public_functions_and_methods():
    """Not vacuous: the entry points users call are among what is checked."""
    for name in ("verify.rank.sep.separation_rank", "verify.api.run_claims", "verify.model.spec.NetworkSpec.__init__",
                 "verify.exact.fields.parse_field"):
        assert name in PUBLIC, sorted(PUBLIC)
    assert len(PUBLIC) >= 40


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_parameter_and_return_of_the_public_api_is_annotated(name):
    assert unannotated(PUBLIC[name]) == [], name


def test_the_check_sees_a_missing_annotation_and_a_bare_generic():
    """The checker itself: a planted gap of each kind is found."""

    def gaps(a, b: list, c: dict[str, int]) -> Callable:
        return print

    def typed(self, a: int, *args: str, **kwargs: float) -> list[dict[str, Any]] | None:
        return None

    assert unannotated(gaps) == ["parameter 'a' has no annotation", "parameter 'b': bare generic in 'list'",
                                 "return: bare generic in 'Callable'"]
    assert unannotated(typed) == []
    assert unannotated(lambda x: x) == ["parameter 'x' has no annotation", "no return annotation"]
