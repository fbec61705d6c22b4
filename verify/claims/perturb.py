"""Perturbed statements a check supplies itself (``Property`` and ``Cases``), and their records.

A perturbed statement is the claim's own statement made one step stronger, or its neighbour
(docs/claims.md, rule 1): a bound x3 or /3 (``scaled``), an index, count or bound moved by one
(``shifted``), an inequality made strict (``strict``), an implication's converse (``converse``), an
equality's or identity's neighbouring formula (``neighbour``).  A check whose statement is true *and* whose perturbation
is refuted shows it could have failed; one without any perturbation cannot show it, and its claim is ``not-decided``
unless another check can.

Each perturbation is *declared* by one of those constructors, which build it from the check's own
function with exactly one argument changed (``given=``: arguments the check passes as well, the same
on both sides; ``claim=``: the changed argument's value in the claim, when it is not the default;
``factory=True``: ``function`` makes the per-case function, as the check's own was made), so its
refutation goes through the claim's own computation::

    Cases(CASES, _case, perturb={"bound x 3": scaled(_case, scale=3)})       # _case(..., scale=1)
    Property(_check, perturb={"count + 1": shifted(_check, extra=1)})        # _check(extra=0)
    Cases(ROWS, _iff(_real), perturb={"at complex points": neighbour(_iff, factory=True, points=_complex)})

A perturbation may also be *stated*: a separate function with no argument changed,
``neighbour(_one_column_more)``, which must recompute what the check's function computes; a stated
``scaled`` or ``shifted`` is recorded as information and never counts.
``defects(perturbation, check_function)`` says what is wrong with one mechanically: undeclared (a
bare callable), not one argument, a step that is not one unit / a factor 3 / a change at all, a
function the check does not compute with, or a stated one sharing nothing with the check.  A defective perturbation is
recorded but never counted (``attach``).  ``perturb`` is a declared perturbation, or a dict
``description -> perturbation``; a bare callable (or dict of them) is still run and counted, for hand-written checks
outside a registry, but the registry test (tests/claims/test_rules.py) rejects it.
"""

from __future__ import annotations

import functools
import inspect
import re
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, Any, Callable, TypeAlias

if TYPE_CHECKING:
    from .record import CheckResult

__all__ = ["record", "as_dict", "NO_PERTURBATION", "attach", "Perturbation", "KINDS", "scaled", "shifted", "converse",
           "neighbour", "strict", "defects", "trivial_description", "stated", "computes_with", "shares_computation"]

#: Why a check that supplies no perturbation cannot show it could fail.
NO_PERTURBATION = ("no perturbed statement supplied (give the check a declared perturb=: scaled, shifted, strict, "
                   "converse or neighbour)")

#: Rule 1's vocabulary: what each declared kind of perturbation changes.
KINDS = {"scaled": "a bound x3 or /3 (one unit on the log3 scale)",
         "shifted": "an index, count or bound moved by one",
         "converse": "an implication's converse (one flag or relation changed)",
         "strict": "an inequality made strict (a flag False -> True, or '<=' -> '<', '>=' -> '>')",
         "neighbour": "an equality's or identity's neighbouring formula (one argument changed)"}

_UNSET = object()
Perturb: TypeAlias = "Perturbation | Callable[..., Any] | dict[str, Callable[..., Any]] | None"  #: perturb= takes


@dataclass(frozen=True)
class Perturbation:
    """A declared perturbed statement: ``function`` (the check's own function, or with ``factory``
    the function that makes it) with the one argument ``argument`` moved from ``claim_value`` (its
    default, unless declared with ``claim=``) to ``value``."""

    kind: str
    function: Callable[..., Any]
    argument: str | None
    value: object
    claim_value: object
    description: str = ""
    factory: bool = False
    extra: dict[Any, Any] = field(default_factory=dict)  # further arguments changed: always a defect
    call: Callable[..., Any] = field(default=None, compare=False, repr=False)

    def __call__(self, *args: Any) -> Any:
        return self.call(*args)


def _declare(kind: str, function: Callable[..., Any], description: str, claim, factory: bool, change: dict[Any, Any],
             given: dict[Any, Any] | None = None) -> Perturbation:
    if not change:
        argument, value, extra = None, None, {}
    else:
        (argument, value), *rest = change.items()
        extra = dict(rest)
    if claim is _UNSET:
        try:
            parameter = inspect.signature(function).parameters.get(argument)
        except (TypeError, ValueError):
            parameter = None
        claim = _UNSET if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default
    arguments = {**(given or {}), **change}
    call = function(**arguments) if factory else functools.partial(function, **arguments)
    return Perturbation(kind, function, argument, value, claim, description or "", factory, extra, call)


def scaled(function: Callable[..., Any], description: str = "", /, *, claim: object = _UNSET, factory: bool = False,
           given: dict[str, Any] | None = None, **change: Any) -> Perturbation:
    """A bound x3 (a lower bound) or /3 (an upper bound): ``function`` with one argument multiplied or
    divided by 3 from its value in the claim (its default, or ``claim=``)."""
    return _declare("scaled", function, description, claim, factory, change, given)


def shifted(function: Callable[..., Any], description: str = "", /, *, claim: object = _UNSET, factory: bool = False,
            given: dict[str, Any] | None = None, **change: Any) -> Perturbation:
    """An index, count or bound moved by one: ``function`` with one argument +1 or -1 from its value in
    the claim (its default, or ``claim=``)."""
    return _declare("shifted", function, description, claim, factory, change, given)


def converse(function: Callable[..., Any], description: str = "", /, *, claim: object = _UNSET, factory: bool = False,
             given: dict[str, Any] | None = None, **change: Any) -> Perturbation:
    """An implication's converse (or a dropped hypothesis; a relation made strict is ``strict``): ``function`` with
    one argument (a flag, a relation) changed from its value in the claim."""
    return _declare("converse", function, description, claim, factory, change, given)


def neighbour(function: Callable[..., Any], description: str = "", /, *, claim: object = _UNSET, factory: bool = False,
              given: dict[str, Any] | None = None, **change: Any) -> Perturbation:
    """An equality's or identity's neighbour (e.g. "absorbed as A^T W^O", a coefficient + 1):
    ``function`` with one argument (a number, a formula, a flag) changed from its value in the claim."""
    return _declare("neighbour", function, description, claim, factory, change, given)


def strict(function: Callable[..., Any], description: str = "", /, *, claim: object = _UNSET, factory: bool = False,
           given: dict[str, Any] | None = None, **change: Any) -> Perturbation:
    """An inequality made strict (a strengthening, not a converse): ``function`` with one flag turned
    on from False, or one relation '<=' -> '<' ('>=' -> '>'), from its value in the claim."""
    return _declare("strict", function, description, claim, factory, change, given)


#: The relations a ``strict`` perturbation may change, and what to.
_STRICTER = {False: True, "<=": "<", ">=": ">"}

#: A description stating a trivial bound: "trivial", or sep / rank / bound (with an optional argument,
#: e.g. sep(chi)) related to the constant 1 itself ("<= 1", ">= 1", not "<= C + 1" nor "= 1 included").
_TRIVIAL = re.compile(r"\btrivial\b|\b(?:sep|rank|bound)\w*(?:\([^()]*\))?\s*(?:<=|>=|<|>|≤|≥)\s*1(?![\w.]|\s*[-+*/^])",
                      re.IGNORECASE)


def trivial_description(description: str) -> bool:
    """Whether ``description`` states a trivial bound ("the bound is trivial", "sep <= 1", "rank >= 1"):
    beating such a bound is information, never a strengthening (rule 1)."""
    return bool(_TRIVIAL.search(description or ""))


def _same(a, b) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an uncomparable pair (arrays, sympy relations) is not the same
        return False


def _step_defect(p: Perturbation) -> str | None:
    """What is wrong with the step from ``claim_value`` to ``value`` for ``p.kind`` (None if fine)."""
    value, claim = p.value, p.claim_value
    if p.kind in ("shifted", "scaled"):
        numbers = all(isinstance(x, Rational) and not isinstance(x, bool) for x in (value, claim))
        if not numbers:
            return f"{p.kind}: {p.argument} = {value!r} from {claim!r} is not a step between rational numbers"
        value, claim = Fraction(str(value)), Fraction(str(claim))
        if p.kind == "shifted" and abs(value - claim) != 1:
            return f"shifted: {p.argument} moves by {value - claim}, not by one"
        if p.kind == "scaled" and not (claim != 0 and value in (3 * claim, claim / 3)):
            return f"scaled: {p.argument} = {value} is not 3 x or 1/3 x its claim value {claim}"
        return None
    if _same(value, claim):
        return f"{p.kind}: {p.argument} = {value!r} is its value in the claim (nothing changed)"
    if p.kind == "strict" and not any(_same(claim, a) and _same(value, b) for a, b in _STRICTER.items()):
        return f"strict: {p.argument} = {value!r} from {claim!r} is not False -> True, '<=' -> '<' or '>=' -> '>'"
    return None


def _code_names(code) -> list[Any]:
    """The global names a code object and the code of its nested functions and lambdas use, each
    once, in a fixed order (the walks below follow them)."""
    names, codes = {}, [code]
    while codes:
        c = codes.pop()
        names.update(dict.fromkeys(c.co_names))
        codes.extend(k for k in c.co_consts if inspect.iscode(k))
    return list(names)


def _referenced(fn, depth: int = 3) -> list[Any]:
    """The functions ``fn`` computes with directly: a partial's function, a closure's cells, the globals
    its code (and the code of its nested functions) names; followed ``depth`` levels."""
    found, todo = [], [(fn, 0)]
    while todo:
        f, level = todo.pop()
        if any(f is g for g in found):
            continue
        found.append(f)
        if level >= depth:
            continue
        if isinstance(f, Perturbation):
            todo.append((f.call, level + 1))
        if isinstance(f, functools.partial):
            todo.append((f.func, level + 1))
            continue
        code = getattr(f, "__code__", None)
        if code is None:
            continue
        namespace = getattr(f, "__globals__", {})
        todo.extend((namespace[n], level + 1) for n in _code_names(code) if callable(namespace.get(n)))
        todo.extend((cell.cell_contents, level + 1) for cell in (f.__closure__ or ())
                    if _filled(cell) and callable(cell.cell_contents))
    return found


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (read only to raise ValueError on an empty cell)
    except ValueError:
        return False
    return True


def computes_with(check_function: Callable[..., Any], p: Perturbation) -> bool:
    """Whether the check's own function is ``p``'s function or calls it (through a partial, a lambda,
    a closure); for a factory-made perturbation, whether the check's function is a closure of the same
    code as ``p``'s (made by the same factory)."""
    if p.factory:
        code = getattr(p.call, "__code__", None)
        return code is not None and any(getattr(f, "__code__", None) is code for f in _referenced(check_function))
    return any(f is p.function for f in _referenced(check_function))


def _footprint(fn, package: str) -> tuple[list[Any], list[Any]]:
    """What ``fn`` computes with outside its own package (``package``, the claim files'): the engine's
    and libraries' functions and classes it reaches through the package's own functions, lambdas,
    closures and partials (those are expanded, the rest are not); and the package's own named helpers
    and module-level data (formulas, tables) it reaches.  Returns (callables, helpers and data)."""
    outside, data, seen, todo = [], [], [], [fn]
    while todo:
        f = todo.pop()
        if any(f is g for g in seen):
            continue
        seen.append(f)
        if isinstance(f, Perturbation):
            todo.append(f.call)
            continue
        if isinstance(f, functools.partial):
            todo.extend([f.func, *f.args, *f.keywords.values()])
            continue
        inner = inspect.unwrap(f) if callable(f) else f
        code = getattr(inner, "__code__", None)
        if code is None or not (getattr(inner, "__module__", "") or "").startswith(package):
            if callable(f) and not any(f is g for g in outside):
                outside.append(f)
            continue
        if f is not fn and getattr(inner, "__name__", "") != "<lambda>":
            data.append(inner)  # one of the package's own helpers, reached: shared if the other reaches it
        namespace = getattr(inner, "__globals__", {})
        for name in _code_names(code):
            if name not in namespace:
                continue
            obj = namespace[name]
            if callable(obj):
                todo.append(obj)
            elif not (inspect.ismodule(obj) or getattr(obj, "is_Symbol", False)):
                data.append(obj)
        todo.extend(cell.cell_contents for cell in (inner.__closure__ or ()) if _filled(cell)
                    and callable(cell.cell_contents))
    return outside, data


def shares_computation(check_function: Callable[..., Any], function: Callable[..., Any]) -> bool:
    """Whether a separately stated ``function`` recomputes what the check computes: it reaches at
    least half of the functions outside the claim's package (the engine's ranks, constructions,
    certificates; classes and builtins aside) that the check's own function reaches, or, where the
    check reaches none, reads a formula or table the check reads; or the check calls ``function``
    itself.  (Half, not all: a check often verifies more than its perturbation needs, e.g. a rank
    besides a proportionality.)  A statement about the bound alone (such as
    "the bound is trivial (<= 1)", which never computes the rank the check computes) fails it."""
    package = (getattr(check_function, "__module__", "") or "").split(".")[0]
    if any(f is function for f in _referenced(check_function)):
        return True
    mine, my_data = (_functions(x) for x in _footprint(check_function, package))
    theirs, their_data = (_functions(x) for x in _footprint(function, package))
    if mine:
        return 2 * sum(any(f is g for g in theirs) for f in mine) >= len(mine)
    return any(x is y for x in my_data for y in their_data)  # the package's own helpers, formulas, tables


def _functions(objects: list[Any]) -> list[Any]:
    """``objects`` without classes and builtins (Fraction, comb, len: arithmetic, not a computation)."""
    return [x for x in objects if not (isinstance(x, type) or inspect.isbuiltin(x))]


def stated(p: object) -> bool:
    """A declared perturbation given as a separate function (no argument of a function changed)."""
    return isinstance(p, Perturbation) and p.argument is None and not p.extra


def defects(p: object, check_function: Callable[..., Any], description: str = "") -> list[str]:
    """Why ``p`` is not a declared one-step strengthening or neighbour of the statement that
    ``check_function`` checks ([] when none is found).  Mechanical, so it guarantees only this:

    * neither ``description`` (its key in ``perturb=``) nor ``p.description`` states a trivial bound
      (``trivial_description``: "trivial", "sep <= 1", "rank >= 1");
    * a ``converse`` is not described as making a relation strict (that is ``strict``);
    * a ``strict`` turns one flag on (False -> True) or one relation '<=' into '<' ('>=' into '>');
    * ``p`` was declared with a kind from rule 1's vocabulary (a bare callable is rejected);
    * ``scaled`` and ``shifted`` are *derived*: the check's own computation (the same function, or a
      closure of the same factory) with exactly one argument moved from its value in the claim by
      one unit (``shifted``) or a factor 3 either way (``scaled``): so a bound x3 is the claim's
      bound x3, and a separately written statement such as "the bound is trivial (<= 1)" cannot be
      declared a strengthening;
    * ``converse`` and ``neighbour`` are derived the same way with a real change;
    * a ``converse`` or ``neighbour`` may instead be *stated* (a separate function, no argument
      changed) when it recomputes what the check computes (``shares_computation``: at least half of
      the engine functions the check reaches, it reaches);
    * a stated ``scaled`` or ``shifted`` is information only: ``attach`` records it and never counts
      it, so a bound's strengthening makes a verdict only when derived.

    It cannot tell whether the changed argument is the claim's bound or index rather than something
    the function merely reports, nor whether the direction strengthens rather than weakens (a
    weakening of a true statement is never refuted, so it cannot make a verdict), nor whether a
    stated converse or neighbour is the right one; a reader still judges the description."""
    if not isinstance(p, Perturbation):
        return ["undeclared: a bare callable; declare it with scaled, shifted, converse or neighbour"]
    problems = []
    name = getattr(p.function, "__name__", repr(p.function))
    for text in {description, p.description} - {""}:
        if trivial_description(text):
            problems.append(f"{text!r} states a trivial bound: information, not a strengthening")
    if p.kind not in KINDS:
        problems.append(f"unknown kind {p.kind!r}")
    if p.kind == "converse" and any(re.search(r"\bstrict\b", t, re.IGNORECASE) for t in (description, p.description)):
        problems.append("a relation made strict is a strengthening, not a converse: declare it with strict")
    if stated(p):
        if p.kind in ("scaled", "shifted", "strict"):
            return problems  # information only: never counted (attach), so it may compute anything
        if not shares_computation(check_function, p.function):
            problems.append(f"stated {p.kind} {name} shares no computation with the check's own function")
        return problems
    if p.extra:
        problems.append(f"changes {1 + len(p.extra)} arguments, not exactly one")
    elif p.claim_value is _UNSET:
        problems.append(f"{p.argument}: no value in the claim (not a parameter with a default; give claim=)")
    else:
        problems.extend(filter(None, [_step_defect(p)]))
    if not computes_with(check_function, p):
        problems.append(f"{name} is not the check's own computation (the check never calls it)")
    return problems


def as_dict(perturb: Perturb) -> dict[str, Callable[..., Any]]:
    """``perturb`` as ``description -> callable`` (a bare callable is "perturbed statement")."""
    if perturb is None:
        return {}
    if isinstance(perturb, Perturbation):
        return {perturb.description or "perturbed statement": perturb}
    if callable(perturb):
        return {getattr(perturb, "__doc__", None) or "perturbed statement": perturb}
    return dict(perturb)


def record(statement: str, refuted: bool, evidence: str, kind: str = "undeclared",
           problems: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """One perturbation's entry in a check result (``counted``: refuted and free of defects)."""
    entry = {"statement": statement.strip().splitlines()[0], "refuted": bool(refuted), "evidence": evidence,
             "kind": kind}
    if problems:
        entry["defects"] = list(problems)
    entry["counted"] = entry["refuted"] and not problems
    return entry


def attach(result: CheckResult, perturb: Perturb, decide: Callable[[Callable[..., Any]], tuple[bool, str]],
           check_function: Callable[..., Any] | None = None) -> CheckResult:
    """Run every perturbation of ``perturb`` through ``decide(fn) -> (refuted, evidence)`` and
    record them on ``result`` (a passing CheckResult), with ``could_fail`` and ``bites_at``.  A
    declared perturbation with ``defects`` against ``check_function`` is recorded but not counted; an
    undeclared one (a bare callable) is counted (the registry test rejects it in a registry)."""
    for statement, fn in as_dict(perturb).items():
        refuted, evidence = decide(fn)
        declared = isinstance(fn, Perturbation)
        problems = defects(fn, check_function, statement) if declared and check_function is not None else []
        if declared and stated(fn) and fn.kind in ("scaled", "shifted", "strict"):
            problems = problems + [f"stated {fn.kind}: information only (a bound's strengthening counts when derived "
                                   "from the check's function)"]
        result.perturbations.append(record(statement, refuted, evidence, fn.kind if declared else "undeclared",
                                           problems))
    result.could_fail = any(p["counted"] for p in result.perturbations)
    if result.perturbations:
        result.evidence += (f"; perturbations refuted {sum(p['refuted'] for p in result.perturbations)} "
                            f"of {len(result.perturbations)}")
        skipped = sum(p["refuted"] and not p["counted"] for p in result.perturbations)
        if skipped:
            result.evidence += f" ({skipped} not counted: not a declared one-step change of the check's function)"
    if not result.could_fail:
        result.bites_at = NO_PERTURBATION if not result.perturbations else "no perturbation refuted"
    return result
