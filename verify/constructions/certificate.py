"""Certificates for the lower bound sep >= ((floor((d_x - H)/2) over 3^(L-2))) (d_x > 3^L).

A certificate holds integer weights, integer template vectors for the two positions of N = 2
(A = {0}, B = {1}), a prime p, the claimed rank m and det mod p of the m x m grid matrix
M[i, j] = y_p^0(t^A_i, t^B_j).  det != 0 mod p means rank M = m over GF(p), so rank over Q >= m,
so sep >= m at these weights (Claim 2 of the first supplement) and almost everywhere (Claim 3).

The checker trusts nothing but the file: it rebuilds M from the stored weights, templates and prime
by the vectorised eq. 3 Y = sum_h W^O W^V X X^T (W^K)^T W^Q X (supplement eq. 1), recomputes the
determinant and the bound, and accepts only if every stored number agrees.  M is evaluated for all
grid points at once by ``grid_eval`` (exact float64 BLAS) when the prime is small enough for that
(``grid_eval.fits``; ``certify`` picks such a prime), else point by point in nmod_mat arithmetic; the
first point is always also evaluated in nmod_mat arithmetic (the fingerprint), and the two must agree.  The certificate
also stores every coordinate of Y at the first grid point, which every weight moves (even those
y_p^0 never reads), so changing any weight, template, the prime, the rank or the determinant
changes something the checker recomputes.

A certificate of the one-slot layout (``bound`` = ``BOUND_TEXT_ONE_SLOT``; ``verify.constructions.one_slot``)
stores the layout's 0/1 weights instead of a seeded draw (the checker rebuilds them and compares), layout
templates (v, 0, 1) and (0, w, 1), and claims ((floor((d_x - 1)/2) over 3^(L-2))), which is at least the
printed bound for every H; it holds for every H dividing d_x and every d_x >= 3, not only d_x > 3^L.
"""

from __future__ import annotations

import random
from math import comb
from typing import TYPE_CHECKING, Any

import flint

from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, draw_weights
from ..schema import VERSION, schema_name, stamp
from . import grid_eval
from .one_slot import columns, layout_templates, one_slot_bound, one_slot_weights

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["lower_bound", "certify", "check_certificate", "validate_certificate", "check_size"]

FORMAT = "verify-separation-rank-certificate/1"
#: The bound a certificate claims, stored as text and compared exactly.
BOUND_TEXT = "multichoose(floor((width - heads)/2), 3^(depth - 2))"
#: The bound of the one-slot layout (issue 34), the same for every H dividing d_x.
BOUND_TEXT_ONE_SLOT = "multichoose(floor((width - 1)/2), 3^(depth - 2)), one-slot layout"
#: Forward passes (grid entries m^2) a certificate may need: about 10^7, a few minutes.
MAX_GRID_ENTRIES = 10_000_000
#: Certificate depths beyond this are refused before 3^L is formed (d_x > 3^L is out of reach).
MAX_CERT_DEPTH = 64

_INT_FIELDS = ("depth", "width", "heads", "attn_dim", "tokens", "position", "output", "prime", "claimed_rank",
               "determinant_mod_prime")
_FIELDS = set(_INT_FIELDS) | {"format", "residual", "partition_a", "bound", "weights", "templates_a",
                              "templates_b", "outputs_at_first_point"}


def lower_bound(depth: int, width: int, heads: int) -> int:
    """((floor((d_x - H)/2) over 3^(L-2))): the lower bound of Theorems 1-2 (first supplement B.2).

    >>> lower_bound(2, 10, 2)
    4
    """
    n, k = (width - heads) // 2, 3 ** (depth - 2)
    return comb(n + k - 1, k)


def _layers(weights_json: dict[Any, Any], p: int):
    """Per layer, per head, (W^O W^V, (W^K)^T W^Q) as nmod_mats built from the stored integers."""
    out = []
    for layer in weights_json["layers"]:
        heads = []
        for q, k, v, o in zip(layer["query"], layer["key"], layer["value"], layer["output"], strict=False):
            mat = lambda m: flint.nmod_mat([[x % p for x in row] for row in m], p)  # noqa: E731
            heads.append((mat(o) * mat(v), mat(k).transpose() * mat(q)))
        out.append(heads)
    return out


def _outputs(layers, columns, p: int, residual: bool) -> flint.nmod_mat:
    """Y (d_x x N) by eq. 3 applied to the columns of X, all mod p."""
    x = flint.nmod_mat([[c[a] % p for c in columns] for a in range(len(columns[0]))], p)
    for heads in layers:
        gram = x * x.transpose()
        y = None
        for ov, kq in heads:
            term = ov * gram * kq * x
            y = term if y is None else y + term
        x = y + x if residual else y
    return x


def _output(layers, columns, p: int, output: int, residual: bool) -> int:
    return int(_outputs(layers, columns, p, residual)[output, 0])


def _fingerprint(layers, rows, cols, p, residual: bool) -> list[int]:
    """Every coordinate of Y at the first grid point: every stored weight moves some of them."""
    return [int(v) for v in _outputs(layers, [rows[0], cols[0]], p, residual).entries()]


def _grid(layers, rows, cols, p, output: int, residual: bool, progress: Callable[[int, int],
          object] | None = None) -> flint.nmod_mat:
    matrix = []
    for i, a in enumerate(rows):
        matrix.append([_output(layers, [a, b], p, output, residual) for b in cols])
        if progress is not None:
            progress(i + 1, len(rows))
    return flint.nmod_mat(matrix, p)


def _matrix(weights: dict[Any, Any], layers, rows, cols, p, output: int, residual: bool, progress: Callable[[int, int],
            object] | None = None) -> flint.nmod_mat:
    """The grid matrix mod p: batched (``grid_eval``) when float64 is exact at this prime, else ``_grid``."""
    heads = max((len(layer["query"]) for layer in weights["layers"]), default=1)
    if grid_eval.fits(len(rows[0]), heads, p):
        values = grid_eval.grid_values(weights, rows, cols, p, output, residual, progress)
        return flint.nmod_mat(values.tolist(), p)
    return _grid(layers, rows, cols, p, output, residual, progress)


def certificate_prime(width: int, heads: int) -> int:
    """The prime ``certify`` uses by default: the largest below 2^20 at which the batched grid is exact
    (``grid_eval.largest_fitting_prime``), else ``DEFAULT_PRIME`` (point-by-point evaluation).  Any prime
    proves the bound: det M != 0 mod p implies rank M = m over Q."""
    return grid_eval.largest_fitting_prime(width, heads) or DEFAULT_PRIME


def check_size(m: int, width: int, depth: int, heads: int) -> None:
    """Refuse (InputError) an m x m certificate grid above ``MAX_GRID_ENTRIES`` forward passes, before
    any template is drawn or any entry computed (closed form: m^2 passes of L layers)."""
    if m * m > MAX_GRID_ENTRIES:
        raise InputError(f"the certificate's {m:,} x {m:,} grid needs {m * m:.3g} forward passes of {depth} "
                         f"layers, over the limit of {MAX_GRID_ENTRIES:,}; choose a smaller width or depth "
                         f"(e.g. --depth 3 --width 28)")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_matrix(value) -> bool:
    return isinstance(value, list) and all(isinstance(r, list) and all(_is_int(x) for x in r) for r in value)


def parse_certificate(text: str, file: str) -> dict[Any, Any]:
    """The JSON of a certificate file (``file`` names it in the messages), refused (``InputError``) when it is
    not JSON, holds a key twice (``json`` keeps the last: a certificate must say each thing once), an
    integer of over 4,300 digits or nesting Python cannot follow."""
    import json

    fix = "give a file written by 'verify certify'"

    def unique(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise InputError(f"{file!r} gives the key {key[:40]!r} twice, so which value it certifies is "
                                 f"ambiguous; {fix}")
            seen.add(key)
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=unique)
    except InputError:
        raise
    except json.JSONDecodeError as exc:
        raise InputError(f"{file!r} is not JSON ({exc.msg}); {fix}") from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise InputError(f"{file!r} holds an integer of over 4,300 digits, too long for a certificate; {fix}") from None
    except RecursionError:
        raise InputError(f"{file!r} nests too deeply to be a certificate; {fix}") from None


def validate_certificate(data: object) -> None:
    """Check the structure of a certificate: every field present with its type, no other field.

    Raises InputError (the file is not a certificate: exit 2); whether its numbers prove the claim
    is ``check_certificate``'s job (exit 1 when they do not).
    """
    def bad(what: str):
        return InputError(f"the certificate is malformed: {what}; give a file written by 'verify certify'")

    if not isinstance(data, dict):
        raise bad(f"it is a JSON {type(data).__name__}, not an object")
    if data.get("format") != FORMAT:
        raise bad(f"its format is {data.get('format')!r}, not {FORMAT!r}")
    if "schema" in data or "schema_version" in data:  # written from format version 2 on (docs/formats.md)
        if (data.get("schema"), data.get("schema_version")) != (schema_name("certificate"), VERSION):
            raise bad(f"its schema is {data.get('schema')!r} version {data.get('schema_version')!r}, not "
                      f"{schema_name('certificate')!r} version {VERSION}")
    missing = sorted(_FIELDS - set(data))
    unknown = sorted(set(data) - _FIELDS - {"schema", "schema_version"})
    if missing or unknown:
        raise bad(("missing " + ", ".join(missing) if missing else "") + ("; " if missing and unknown else "")
                  + ("unknown fields " + ", ".join(unknown) + " (every field must be checked)" if unknown else ""))
    for name in _INT_FIELDS:
        if not _is_int(data[name]):
            raise bad(f"{name} must be an integer, got {data[name]!r:.40}")
    if not isinstance(data["residual"], bool) or not isinstance(data["bound"], str):
        raise bad("residual must be true or false and bound a string")
    for name in ("partition_a", "outputs_at_first_point"):
        if not (isinstance(data[name], list) and all(_is_int(x) for x in data[name])):
            raise bad(f"{name} must be a list of integers")
    for name in ("templates_a", "templates_b"):
        if not _int_matrix(data[name]):
            raise bad(f"{name} must be a list of integer vectors")
    weights = data["weights"]
    if not (isinstance(weights, dict) and set(weights) == {"seed", "weight_range", "layers"}
            and _is_int(weights["seed"]) and _is_int(weights["weight_range"]) and isinstance(weights["layers"], list)):
        raise bad("weights must hold exactly seed, weight_range (integers) and layers (a list)")
    for layer in weights["layers"]:
        if not (isinstance(layer, dict) and set(layer) == {"query", "key", "value", "output"}
                and all(isinstance(layer[k], list) and all(_int_matrix(m) for m in layer[k]) for k in layer)):
            raise bad("each layer must hold query, key, value and output: per head an integer matrix")
    _check_magnitudes(data, bad)


#: Every integer of a certificate is below this in absolute value (primes and residues are word-size,
#: weights at most 2^62); a larger one is refused before any arithmetic is done with it.
MAX_CERT_INT = 2**64


def _check_magnitudes(data: dict[Any, Any], bad) -> None:
    """Reading side: refuse integers beyond ``MAX_CERT_INT`` and a grid whose closed-form size (log of
    multichoose(floor((d_x - H)/2), 3^(L-2)), by lgamma) is far past ``MAX_GRID_ENTRIES``, so a crafted
    file cannot make the checker compute a binomial of 10^18 terms."""
    from math import lgamma, log

    weights = data["weights"]
    numbers = [data[name] for name in _INT_FIELDS] + [weights["seed"], weights["weight_range"]]
    numbers += data["partition_a"] + data["outputs_at_first_point"]
    numbers += [x for t in data["templates_a"] + data["templates_b"] for x in t]
    numbers += [x for layer in weights["layers"] for mats in layer.values() for mat in mats for row in mat for x in row]
    if any(abs(x) >= MAX_CERT_INT for x in numbers):
        raise bad("an integer is 2^64 or more in absolute value, beyond any certificate's numbers")
    depth, width, heads = data["depth"], data["width"], data["heads"]
    if 2 <= depth <= MAX_CERT_DEPTH and 1 <= heads <= width:
        n, k = ((width - 1) // 2 if data["bound"] == BOUND_TEXT_ONE_SLOT else (width - heads) // 2), 3 ** (depth - 2)
        if n >= 1 and lgamma(n + k) - lgamma(k + 1) - lgamma(n) > log(MAX_GRID_ENTRIES) / 2 + 1:
            raise InputError(f"the certificate's grid for depth {depth}, width {width}, heads {heads} needs over "
                             f"{MAX_GRID_ENTRIES:,} forward passes; choose a smaller width or depth")


def _certify_one_slot(spec: NetworkSpec, seed: int, prime: int | None, weight_range: int, tries: int,
                      progress: Callable[[int, int], object] | None) -> dict[Any, Any]:
    """A certificate of the one-slot layout: its 0/1 weights, seeded layout templates (v, 0, 1), (0, w, 1)."""
    if spec.depth < 2 or spec.residual or spec.heads * spec.attn_dim != spec.width or spec.width < 3:
        raise InputError(f"the one-slot layout needs depth >= 2, width >= 3, heads dividing width {spec.width} "
                         f"and no residual connections; e.g. --depth 2 --width 12 --heads 2")
    m = one_slot_bound(spec.depth, spec.width)
    check_size(m, spec.width, spec.depth, spec.heads)
    prime = certificate_prime(spec.width, spec.heads) if prime is None else prime
    weights = one_slot_weights(spec).as_dict() | {"seed": seed, "weight_range": weight_range}
    layers = _layers(weights, prime)
    for attempt in range(tries):
        rng = random.Random(f"verify-certificate-one-slot:{seed}:{attempt}")
        draw = lambda rng=rng: [rng.randint(-weight_range, weight_range) for _ in range(columns(spec.width))]  # noqa: E731
        rows, cols = layout_templates(spec.width, [draw() for _ in range(m)], [draw() for _ in range(m)])
        det = int(_matrix(weights, layers, rows, cols, prime, spec.output, False, progress).det())
        if det:
            return {**stamp({}, "certificate"), "format": FORMAT, "depth": spec.depth, "width": spec.width,
                    "heads": spec.heads,
                    "attn_dim": spec.attn_dim, "residual": False, "tokens": 2, "partition_a": [0],
                    "position": 0, "output": spec.output, "prime": prime, "claimed_rank": m,
                    "bound": BOUND_TEXT_ONE_SLOT, "weights": weights, "templates_a": rows, "templates_b": cols,
                    "determinant_mod_prime": det,
                    "outputs_at_first_point": _fingerprint(layers, rows, cols, prime, False)}
    raise InputError(f"no nonsingular {m} x {m} grid matrix found in {tries} draws; try another --seed")


def certify(spec: NetworkSpec, seed: int = 0, prime: int | None = None,
            weight_range: int = DEFAULT_WEIGHT_RANGE, tries: int = 3, progress: Callable[[int, int],
            object] | None = None,
            layout: str = "seeded") -> dict[Any, Any]:
    """Find and return a certificate for ``spec`` (d_x > 3^L, depth >= 2, H < d_x).

    ``prime`` defaults to ``certificate_prime(width, heads)``, at which the grid is evaluated batched.
    ``layout`` "one-slot" certifies the one-slot construction's bound ((floor((d_x - 1)/2) over 3^(L-2)))
    instead (any d_x >= 3, every H dividing d_x, no residual).
    """
    if layout == "one-slot":
        return _certify_one_slot(spec, seed, prime, weight_range, tries, progress)
    if spec.depth < 2 or spec.width <= 3**spec.depth or spec.heads >= spec.width:
        raise InputError(f"certificates need depth >= 2, width > 3^depth = {3**spec.depth} and heads < width; "
                         f"e.g. --depth 2 --width 10 or --depth 3 --width 28")
    m = lower_bound(spec.depth, spec.width, spec.heads)
    if m < 1:  # d_x - H < 2: the bound is 0, there is no grid to certify (and none to index)
        raise InputError(f"the bound ((floor((d_x - H)/2) over 3^(L-2))) is 0 at width {spec.width} and heads "
                         f"{spec.heads}: nothing to certify; choose heads <= width - 2")
    check_size(m, spec.width, spec.depth, spec.heads)
    prime = certificate_prime(spec.width, spec.heads) if prime is None else prime
    weights = draw_weights(spec, seed, weight_range).as_dict()
    layers = _layers(weights, prime)
    for attempt in range(tries):
        rng = random.Random(f"verify-certificate:{seed}:{attempt}")
        draw = lambda rng=rng: [rng.randint(-weight_range, weight_range) for _ in range(spec.width)]  # noqa: E731
        rows, cols = [draw() for _ in range(m)], [draw() for _ in range(m)]
        det = int(_matrix(weights, layers, rows, cols, prime, spec.output, spec.residual, progress).det())
        if det:
            return {**stamp({}, "certificate"), "format": FORMAT, "depth": spec.depth, "width": spec.width,
                    "heads": spec.heads,
                    "attn_dim": spec.attn_dim, "residual": spec.residual, "tokens": 2, "partition_a": [0],
                    "position": 0, "output": spec.output, "prime": prime, "claimed_rank": m,
                    "bound": BOUND_TEXT,
                    "weights": weights, "templates_a": rows, "templates_b": cols,
                    "determinant_mod_prime": det,
                    "outputs_at_first_point": _fingerprint(layers, rows, cols, prime, spec.residual)}
    raise InputError(f"no nonsingular {m} x {m} grid matrix found in {tries} draws; try another --seed")


def check_certificate(data: dict[Any, Any], progress: Callable[[int, int], object] | None = None) -> tuple[bool, str]:
    """Re-check a certificate from its own numbers; returns (holds, one-line reason).

    Raises InputError when ``data`` is not a certificate at all (``validate_certificate``) or its grid
    is beyond ``check_size``; every other defect is a failure of the claim.
    """
    validate_certificate(data)
    depth, width, heads, p = data["depth"], data["width"], data["heads"], data["prime"]
    if not (2 < p < 2**64 and flint.fmpz(p).is_prime()):
        return False, "the prime is not a word-size prime"
    one_slot = data["bound"] == BOUND_TEXT_ONE_SLOT
    if one_slot:
        if not (2 <= depth <= MAX_CERT_DEPTH and 3 <= width and 1 <= heads and heads * data["attn_dim"] == width
                and not data["residual"]):
            return False, "the one-slot layout needs depth >= 2, width >= 3, d_a = d_x / H and no residual"
    elif not (2 <= depth <= MAX_CERT_DEPTH and 1 <= heads < width and width > 3**depth):
        return False, "the spec is outside the regime d_x > 3^L (depth >= 2, 1 <= heads < width)"
    if (data["tokens"], data["partition_a"], data["position"]) != (2, [0], 0):
        return False, "a certificate is for N = 2, A = {0}, output position 0"
    if data["bound"] not in (BOUND_TEXT, BOUND_TEXT_ONE_SLOT):
        return False, f"the stated bound {data['bound']!r:.60} is not the bound of Theorems 1-2"
    m = data["claimed_rank"]
    bound_m = one_slot_bound(depth, width) if one_slot else lower_bound(depth, width, heads)
    if m != bound_m:
        return False, f"claimed rank {m} is not the bound {bound_m}"
    if m < 1:
        return False, "the bound is 0 here (d_x - H < 2): a certificate claims sep >= 1 or more"
    check_size(m, width, depth, heads)
    rows, cols = data["templates_a"], data["templates_b"]
    if len(rows) != m or len(cols) != m or any(len(t) != width for t in rows + cols):
        return False, "templates do not form an m x m grid of width-d_x vectors"
    d_a, weights = data["attn_dim"], data["weights"]
    if not (0 <= data["output"] < width and d_a >= 1):
        return False, "the output coordinate or the attention dimension is out of range"
    layers = weights["layers"]
    shapes = {"query": (d_a, width), "key": (d_a, width), "value": (d_a, width), "output": (width, d_a)}
    if len(layers) != depth or any(len(layer[name]) != heads or any(
            len(mat) != shape[0] or any(len(row) != shape[1] for row in mat) for mat in layer[name])
            for layer in layers for name, shape in shapes.items()):
        return False, "weights do not match depth, heads, width and attn_dim"
    bound = weights["weight_range"]
    if bound < 1 or any(abs(x) > bound for layer in layers for mats in layer.values() for mat in mats
                        for row in mat for x in row) or any(abs(x) > bound for t in rows + cols for x in t):
        return False, f"a weight or template lies outside the stated weight_range [-{bound}, {bound}]"
    try:
        spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=d_a, residual=data["residual"],
                           output=data["output"])
    except InputError as exc:
        return False, f"the network it describes is not valid ({exc})"
    if one_slot:
        if one_slot_weights(spec).as_dict()["layers"] != layers:
            return False, "the weights are not the one-slot layout's for this depth, width and heads"
    elif draw_weights(spec, weights["seed"], bound).as_dict() != weights:
        return False, f"the weights are not the seeded draw of seed {weights['seed']} and weight_range {bound}"
    built = _layers(weights, p)
    fingerprint = _fingerprint(built, rows, cols, p, spec.residual)
    if fingerprint != data["outputs_at_first_point"]:
        return False, "the recomputed outputs at the first grid point differ from the stored ones"
    grid = _matrix(weights, built, rows, cols, p, spec.output, spec.residual, progress)
    if int(grid[0, 0]) != fingerprint[2 * spec.output]:  # Y is d_x x 2, row-major: Y[output, 0]
        return False, "the grid's first entry differs from the point-by-point forward pass there"
    det = int(grid.det())
    if det == 0:
        return False, "the grid matrix is singular mod p"
    if det != data["determinant_mod_prime"]:
        return False, "the recomputed determinant differs from the stored one"
    return True, f"sep >= {m} almost everywhere: the {m} x {m} grid matrix has determinant {det} mod {p}"
