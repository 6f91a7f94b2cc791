"""Bad and edge calls of elementwise ops: integer division by zero, bool arithmetic, overlapping
in-place writes, ``~``, ``where``'s condition, integer rounding and the gradients at ties and NaN.

Each case is ``(label, call)``, where ``call(m)`` runs with the library module ``m`` (``torch`` or
``yaten``); ``test_bad_pointwise.py`` asserts that yaten raises what torch raises (type and message)
or returns what torch returns, and ``bad_calls.py`` counts them in its report. Cases where torch
returns are here on purpose: they pin down where an error must not be raised (float division by
zero is inf, full overlap is allowed, an empty result divides by nothing).
"""

NAN = float("nan")
INF = float("inf")


def _sq(m):
    """A 3x3 float tensor with distinct values."""
    return m.arange(9.0).reshape(3, 3)


def _grads(m, fn, x, y):
    """The gradients of ``fn(x, y).sum()`` with respect to both inputs."""
    a = m.tensor(x, requires_grad=True)
    b = m.tensor(y, requires_grad=True)
    fn(m, a, b).sum().backward()
    return a.grad, b.grad


def _clamp_grad(m):
    a = m.tensor([NAN, 1.0, 2.0, -1.0], requires_grad=True)
    a.clamp_min(0.0).backward(m.full((4,), INF))
    return a.grad


# Integer division and remainder by zero: RuntimeError("ZeroDivisionError"), as torch's cpu kernels.
DIVISION = [
    ("int // 0", lambda m: m.tensor([5]) // 0),
    ("int // tensor with a 0", lambda m: m.tensor([5, 3]) // m.tensor([1, 0])),
    ("int // False", lambda m: m.tensor([5]) // False),
    ("number // int tensor 0", lambda m: 5 // m.tensor([0])),
    ("floor_divide int by 0", lambda m: m.floor_divide(m.tensor([5]), 0)),
    ("floor_divide_ int by 0", lambda m: m.tensor([5]).floor_divide_(0)),
    ("floor_divide_ int by tensor 0", lambda m: m.tensor([5]).floor_divide_(m.tensor([0]))),
    ("uint8 // 0", lambda m: m.tensor([5], dtype=m.uint8) // 0),
    ("div trunc int by 0", lambda m: m.div(m.tensor([5]), 0, rounding_mode="trunc")),
    ("div trunc int by tensor 0", lambda m: m.div(m.tensor([5]), m.tensor([0]), rounding_mode="trunc")),
    ("div floor int by 0", lambda m: m.div(m.tensor([5]), 0, rounding_mode="floor")),
    ("div floor int by tensor 0", lambda m: m.div(m.tensor([5]), m.tensor([0]), rounding_mode="floor")),
    ("int % 0", lambda m: m.tensor([5]) % 0),
    ("int % tensor 0", lambda m: m.tensor([5]) % m.tensor([0])),
    ("number % int tensor 0", lambda m: 5 % m.tensor([0])),
    ("int8 % 0", lambda m: m.tensor([5], dtype=m.int8) % 0),
    ("remainder int by 0", lambda m: m.remainder(m.tensor([5]), 0)),
    ("remainder_ int by 0", lambda m: m.tensor([5]).remainder_(0)),
    ("fmod int by 0", lambda m: m.fmod(m.tensor([5]), 0)),
    ("fmod int by tensor 0", lambda m: m.fmod(m.tensor([5, 2]), m.tensor([1, 0]))),
    ("fmod_ int by 0", lambda m: m.tensor([5]).fmod_(0)),
    # where torch returns
    ("float // 0 is inf", lambda m: m.tensor([5.0, -5.0, 0.0]) // 0),
    ("float % 0 is nan", lambda m: m.tensor([5.0]) % 0),
    ("int // 0.0 is inf", lambda m: m.tensor([5]) // 0.0),
    ("int % 0.0 is nan", lambda m: m.tensor([5]) % 0.0),
    ("int / 0 is inf", lambda m: m.tensor([5, -5]) / 0),
    ("int / tensor 0 is inf", lambda m: m.tensor([5]) / m.tensor([0])),
    ("fmod float by 0 is nan", lambda m: m.fmod(m.tensor([5.0]), 0.0)),
    ("empty int // 0", lambda m: m.tensor([], dtype=m.int64) // 0),
    ("empty int // tensor 0", lambda m: m.tensor([], dtype=m.int64) // m.tensor([0])),
    ("div trunc int exact past 2**53", lambda m: m.div(m.tensor([2**62 + 3, -7, 7]), m.tensor([3, 2, -2]), rounding_mode="trunc")),
    ("div trunc int by number", lambda m: m.div(m.tensor([-7, 7]), 2, rounding_mode="trunc")),
    ("fmod int signs", lambda m: m.fmod(m.tensor([7, -7, 7, -7]), m.tensor([2, 2, -2, -2]))),
    ("fmod float signs", lambda m: m.fmod(m.tensor([5.5, -5.5, -4.0, -5.0, 5.0]), m.tensor([2.0, 2.0, 2.0, INF, -INF]))),
    ("remainder int signs", lambda m: m.remainder(m.tensor([7, -7, 7, -7]), m.tensor([2, 2, -2, -2]))),
]  # fmt: skip

# An integer tensor to a negative integer number: refused even where the answer is exact (1 ** -1).
POWER = [
    ("int ** -1", lambda m: m.tensor([2]) ** -1),
    ("pow int 1 by -1", lambda m: m.pow(m.tensor([1]), -1)),
    ("pow int -1 by -1", lambda m: m.pow(m.tensor([-1]), -1)),
    ("pow int 0 by -1", lambda m: m.pow(m.tensor([0]), -1)),
    ("pow_ int by -1", lambda m: m.tensor([2]).pow_(-1)),
    ("int8 ** -2", lambda m: m.tensor([2], dtype=m.int8) ** -2),
    ("bool ** -1", lambda m: m.tensor([True]) ** -1),
    # where torch returns
    ("int ** tensor -1", lambda m: m.pow(m.tensor([2, 1]), m.tensor([-1, -1]))),
    ("number ** int tensor -1", lambda m: m.pow(2, m.tensor([-1]))),
    ("int ** -1.0 is float", lambda m: m.tensor([2]) ** -1.0),
    ("bool ** 2 is int", lambda m: m.tensor([True, False]) ** 2),
]

# Arithmetic on bool tensors that torch refuses (and the mixed kinds it allows).
BOOL = [
    ("neg bool", lambda m: m.neg(m.tensor([True, False]))),
    ("-bool", lambda m: -m.tensor([True, False])),
    ("neg_ bool", lambda m: m.tensor([True, False]).neg_()),
    ("abs bool", lambda m: m.abs(m.tensor([True, False]))),
    ("relu bool", lambda m: m.relu(m.tensor([True, False]))),
    ("floor bool", lambda m: m.floor(m.tensor([True, False]))),
    ("ceil bool", lambda m: m.ceil(m.tensor([True, False]))),
    ("trunc bool", lambda m: m.trunc(m.tensor([True, False]))),
    ("round bool", lambda m: m.round(m.tensor([True, False]))),
    ("1 - bool", lambda m: 1 - m.tensor([True, False])),
    ("1.5 - bool", lambda m: 1.5 - m.tensor([True, False])),
    ("True - bool", lambda m: True - m.tensor([True, False])),
    ("bool - 1", lambda m: m.tensor([True, False]) - 1),
    ("bool - bool", lambda m: m.tensor([True, False]) - m.tensor([True, True])),
    ("bool - True", lambda m: m.tensor([True, False]) - True),
    ("float - True", lambda m: m.tensor([1.0]) - True),
    ("sub bool bool", lambda m: m.sub(m.tensor([True]), m.tensor([False]))),
    ("int sub_ bool", lambda m: m.tensor([1]).sub_(m.tensor([True]))),
    ("bool ** bool", lambda m: m.tensor([True]) ** m.tensor([True])),
    ("bool % bool", lambda m: m.tensor([True]) % m.tensor([True])),
    ("bool // bool", lambda m: m.tensor([True]) // m.tensor([True])),
    ("fmod bool bool", lambda m: m.fmod(m.tensor([True]), m.tensor([True]))),
    # where torch returns
    ("bool + bool", lambda m: m.tensor([True, False]) + m.tensor([True, True])),
    ("bool % 2", lambda m: m.tensor([True, False]) % 2),
    ("sign bool", lambda m: m.sign(m.tensor([True, False]))),
    ("bool clamp_min", lambda m: m.tensor([True, False]).clamp_min(0)),
]

# ``~`` and bitwise_not: bitwise on integers, logical on bool, refused on floats.
INVERT = [
    ("~float", lambda m: ~m.tensor([1.0])),
    ("bitwise_not float", lambda m: m.bitwise_not(m.tensor([1.0]))),
    ("bitwise_not_ float", lambda m: m.tensor([1.0]).bitwise_not_()),
    # where torch returns
    ("~bool", lambda m: ~m.tensor([True, False])),
    ("~int", lambda m: ~m.tensor([5, -1, 0])),
    ("~uint8", lambda m: ~m.tensor([5, 0], dtype=m.uint8)),
    ("~int8", lambda m: ~m.tensor([5, -128], dtype=m.int8)),
    ("bitwise_not int", lambda m: m.bitwise_not(m.tensor([2**62]))),
    ("bitwise_not_ int", lambda m: m.tensor([1, -2]).bitwise_not_()),
    ("~ 0-d bool", lambda m: ~m.tensor(True)),
]

# where's condition must be bool (uint8 is deprecated but allowed).
WHERE = [
    ("where float condition", lambda m: m.where(m.tensor([1.0, 0.0]), m.tensor([1.0, 2.0]), m.tensor([3.0, 4.0]))),
    ("where int condition", lambda m: m.where(m.tensor([1, 0]), m.tensor([1.0, 2.0]), m.tensor([3.0, 4.0]))),
    ("where float condition, number other", lambda m: m.where(m.tensor([1.0, 0.0]), m.tensor([1.0, 2.0]), 0.0)),
    ("where float condition, number self", lambda m: m.where(m.tensor([1.0, 0.0]), 0.0, m.tensor([1.0, 2.0]))),
    ("Tensor.where int condition", lambda m: m.tensor([1.0, 2.0]).where(m.tensor([1, 0]), 0.0)),
    # where torch returns
    ("where uint8 condition", lambda m: m.where(m.tensor([1, 0], dtype=m.uint8), m.tensor([1.0, 2.0]), m.tensor([3.0, 4.0]))),
    ("where bool condition", lambda m: m.where(m.tensor([True, False]), m.tensor([1, 2]), 0.5)),
]  # fmt: skip

# Writes whose destination overlaps itself or an input: torch refuses what it knows is ambiguous.
OVERLAP = [
    ("add_ into expanded", lambda m: m.zeros(3).expand(3, 3).add_(1)),
    ("mul_ into expanded", lambda m: m.zeros(3).expand(3, 3).mul_(m.ones(3, 3))),
    ("neg_ into expanded", lambda m: m.zeros(3).expand(3, 3).neg_()),
    ("clamp_min_ into expanded", lambda m: m.zeros(3).expand(3, 3).clamp_min_(0)),
    ("uniform_ into expanded", lambda m: m.zeros(3).expand(3, 3).uniform_()),
    ("normal_ into expanded", lambda m: m.zeros(3).expand(3, 3).normal_()),
    ("add_ shifted self", lambda m: (lambda a: a[1:].add_(a[:-1]))(m.arange(4.0))),
    ("add_ transposed self", lambda m: (lambda a: a.add_(a.t()))(_sq(m))),
    ("sub_ transposed self", lambda m: (lambda a: a.sub_(a.t()))(_sq(m))),
    ("mul_ own row", lambda m: (lambda a: a.mul_(a[0]))(_sq(m))),
    ("add_ with alpha shifted self", lambda m: (lambda a: a[1:].add_(a[:-1], alpha=2))(m.arange(4.0))),
    ("copy_ shifted self", lambda m: (lambda a: a[1:].copy_(a[:-1]))(m.arange(4.0))),
    ("copy_ transposed self", lambda m: (lambda a: a.copy_(a.t()))(_sq(m))),
    ("setitem shifted self", lambda m: (lambda a: a.__setitem__(slice(1, None), a[:-1]))(m.arange(4.0))),
    ("masked_fill_ mask shifted self", lambda m: (lambda a: a[1:].masked_fill_(a[:-1], True))(m.tensor([True, False, False, False]))),
    ("index_put_ accumulate values in self", lambda m: (lambda a: a.index_put_((m.tensor([1, 2]),), a[:2], accumulate=True))(m.arange(4.0))),
    ("index_put_ values in self", lambda m: (lambda a: a.index_put_((m.tensor([1, 2]),), a[:2]))(m.arange(4.0))),
    ("index_put_ values are self", lambda m: (lambda a: a.index_put_((m.tensor([0, 1, 2, 3]),), a, accumulate=True))(m.arange(4.0))),
    ("add out= shifted input", lambda m: (lambda a: m.add(a[:-1], a[:-1], out=a[1:]))(m.arange(4.0))),
    ("neg out= shifted input", lambda m: (lambda a: m.neg(a[:-1], out=a[1:]))(m.arange(4.0))),
    ("mul out= expanded", lambda m: m.mul(m.ones(3, 3), m.ones(3, 3), out=m.zeros(3).expand(3, 3))),
    # where torch returns
    ("add_ self", lambda m: (lambda a: a.add_(a))(m.arange(4.0))),
    ("add out= self", lambda m: (lambda a: m.add(a, a, out=a))(m.arange(4.0))),
    ("add out= other half", lambda m: (lambda a: m.add(a[:2], a[:2], out=a[2:]))(m.arange(4.0))),
    ("add_ a view of all of self", lambda m: (lambda a: a.add_(a.view(4)))(m.arange(4.0))),
    ("add_ other half", lambda m: (lambda a: a[:2].add_(a[2:]))(m.arange(4.0))),
    ("add_ expanded row of self", lambda m: (lambda a: a[1:].add_(a[0:1].expand(2, 3)))(_sq(m))),
    ("add_ strided part of self", lambda m: (lambda a: a[:2].add_(a[::2][:2]))(m.arange(6.0))),
    ("add_ into empty expanded", lambda m: m.zeros(0).expand(3, 0).add_(1)),
    ("add_ into size-1 zero stride", lambda m: m.zeros(3).expand(1, 3).add_(1)),
    ("masked_fill_ mask is self", lambda m: (lambda a: a.masked_fill_(a, False))(m.tensor([True, False]))),
    ("masked_fill_ into expanded", lambda m: m.zeros(3).expand(3, 3).masked_fill_(m.ones(3, 3, dtype=m.bool), 1)),
    ("index_put_ into expanded", lambda m: m.zeros(3).expand(3, 3).index_put_((m.tensor([0]),), m.tensor(1.0), accumulate=True)),
    ("copy_ self", lambda m: (lambda a: a.copy_(a))(m.arange(4.0))),
]  # fmt: skip

# Rounding an integer is exact (no float64 round trip); gradients at ties and NaN follow torch.
VALUES = [
    ("round int64 past 2**53", lambda m: m.round(m.tensor([2**53 + 1, -(2**53) - 1]))),
    ("round_ int64 past 2**53", lambda m: m.tensor([2**53 + 1]).round_()),
    ("floor int64 past 2**53", lambda m: m.floor(m.tensor([2**53 + 1]))),
    ("ceil int64 past 2**53", lambda m: m.ceil(m.tensor([2**53 + 1]))),
    ("trunc int64 past 2**53", lambda m: m.trunc(m.tensor([2**53 + 1]))),
    ("round int8", lambda m: m.round(m.tensor([3, -3], dtype=m.int8))),
    ("round float halves to even", lambda m: m.round(m.tensor([-2.5, -1.5, -0.5, -0.4, 0.5, 1.5, 2.5, 0.6, 2**60 + 0.0]))),
    ("maximum grad at nan and ties", lambda m: _grads(m, lambda m, a, b: m.maximum(a, b), [NAN, 1.0, 2.0, 0.0], [0.0, 1.0, 3.0, NAN])),
    ("minimum grad at nan and ties", lambda m: _grads(m, lambda m, a, b: m.minimum(a, b), [NAN, 1.0, 2.0, 0.0], [0.0, 1.0, 3.0, NAN])),
    ("clamp_min grad of inf at nan", _clamp_grad),
    ("fmod grad", lambda m: _grads(m, lambda m, a, b: m.fmod(a, b), [5.5, -5.5], [2.0, 2.0])),
]  # fmt: skip

CASES = DIVISION + POWER + BOOL + INVERT + WHERE + OVERLAP + VALUES

# Calls where NumPy would report a floating-point error and torch is silent: they must stay silent
# under ``warnings.simplefilter("error")`` and give torch's values.
SILENT = [
    ("log 0", lambda m: m.log(m.tensor([0.0, -1.0]))),
    ("0 / 0", lambda m: m.tensor([0.0, 1.0]) / 0),
    ("tensor / tensor 0", lambda m: m.tensor([1.0, 0.0]) / m.tensor([0.0, 0.0])),
    ("exp overflow", lambda m: m.exp(m.tensor([1000.0]))),
    ("exp overflow float16", lambda m: m.exp(m.tensor([100.0], dtype=m.float16))),
    ("sqrt -1", lambda m: m.sqrt(m.tensor([-1.0]))),
    ("rsqrt 0", lambda m: m.rsqrt(m.tensor([0.0]))),
    ("reciprocal 0", lambda m: m.reciprocal(m.tensor([0.0]))),
    ("inf - inf in place", lambda m: m.tensor([INF]).add_(-INF)),
    ("0 * inf in place", lambda m: m.tensor([0.0]).mul_(INF)),
    ("pow of negative to fraction", lambda m: m.tensor([-8.0]) ** (1 / 3)),
    ("float % 0", lambda m: m.tensor([1.0]) % 0),
    ("float // 0", lambda m: m.tensor([1.0]) // 0),
    ("float64 to float16 overflow", lambda m: m.tensor([1e10], dtype=m.float64).half()),
    ("prod overflow", lambda m: m.prod(m.tensor([1e38, 1e38]))),
    ("sum overflow", lambda m: m.tensor([3e38, 3e38]).sum()),
    ("mean of inf and -inf", lambda m: m.tensor([INF, -INF]).mean()),
    ("matmul overflow", lambda m: m.tensor([[1e308, 1e308]], dtype=m.float64) @ m.tensor([[1e308], [1e308]], dtype=m.float64)),
    ("addmm inf times 0", lambda m: m.addmm(m.tensor([[INF]]), m.tensor([[INF]]), m.tensor([[0.0]]))),
    ("softmax of inf", lambda m: m.softmax(m.tensor([INF, 1.0]), 0)),
    ("log_softmax of -inf", lambda m: m.log_softmax(m.tensor([-INF, -INF]), 0)),
    ("mse_loss of inf", lambda m: m.nn.functional.mse_loss(m.tensor([INF]), m.tensor([INF]))),
]  # fmt: skip
