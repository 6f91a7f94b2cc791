"""Tests for codegen.load (strict loading: every spec error, with its exact message) and for
codegen.generate (all-or-nothing, deterministic, written only when changed, ``--check``).

Each case builds a throwaway repository root in ``tmp_path``: the two spec files from inline YAML and
tiny stand-ins for the runtime modules the loader reads by source (never imports).
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codegen import emit
from codegen.generate import generate
from codegen.load import KernelDef, SpecError, load
from codegen.model import BASE_TYPES

REPO = Path(__file__).resolve().parents[2]
NF, D = "spec/native_functions.yaml", "spec/derivatives.yaml"

RUNTIME = {
    "runtime/kernels/cpu/reduce.py": """
        import numpy as np

        def sum_all(self, dtype=None):
            return np.sum(self, dtype=dtype)

        def sum_dim(self, dim, keepdim=False, dtype=None):
            return np.sum(self, axis=dim, keepdims=keepdim, dtype=dtype)

        def cat(*tensors, **options):
            return np.concatenate(tensors)

        def _private(self):
            return self
        """,
    "runtime/kernels/cuda/reduce.py": """
        def sum_all(self, dtype=None):
            return self
        """,
    "runtime/kernels/cpu/scalar.py": """
        def exp(x):
            return x

        def log(x):
            return x

        def _private(x):
            return x
        """,
    "runtime/kernels/cuda/scalar.py": """
        def exp(x):
            return x
        """,
    "runtime/native/composite.py": """
        def square(self):
            return self * self
        """,
    "runtime/autograd/formulas.py": """
        def sum_backward(grad, shape, dim, keepdim):
            return grad

        def _private(grad):
            return grad
        """,
}

# The spec of the happy path; the error cases below are small variations on it.
GOOD_NF = """\
- func: exp(Tensor self) -> Tensor
  variants: function, method
  pointwise: exp(self)
  promotion: int_to_float
  tags: [pointwise]
- func: mul.Tensor(Tensor self, Tensor other) -> Tensor
  pointwise: self * other
  doc: Multiplies.
- func: sum(Tensor self, *, ScalarType? dtype=None) -> Tensor
  variants: method
  dispatch:
    CPU, CUDA: sum_all
- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
  dispatch:
    CPU: sum_dim
- func: square(Tensor self) -> Tensor
  dispatch:
    CompositeImplicitAutograd: square
- func: cat(Tensor[] tensors, int dim=0) -> Tensor
  dtypes: no_bool
  dispatch:
    CPU: cat
"""

GOOD_D = """\
- name: exp(Tensor self) -> Tensor
  self: grad * result
- name: mul.Tensor(Tensor self, Tensor other) -> Tensor
  self: grad * other
  other: mul(grad, self)
- name: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
  self: >-
    sum_backward(grad, self.shape, dim,
    keepdim)
- name: cat(Tensor[] tensors, int dim=0) -> Tensor
  output_differentiability: [True]
  tensors: "[grad.narrow(dim, 0, t.shape[dim]) for t in tensors]"
"""


def make_root(tmp_path: Path, nf: str = GOOD_NF, d: str = GOOD_D, runtime: dict | None = None) -> Path:
    """A repository root holding the two spec files and the runtime stand-ins (``runtime`` overrides)."""
    files = {**RUNTIME, **(runtime or {})}
    files[NF], files[D] = nf, d
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return tmp_path


def spec_error(tmp_path: Path, nf: str = GOOD_NF, d: str = GOOD_D, runtime: dict | None = None) -> str:
    with pytest.raises(SpecError) as e:
        load(make_root(tmp_path, nf, d, runtime))
    return str(e.value)


# --- the happy path ----------------------------------------------------------------------------------


def test_load_parses_the_model(tmp_path):
    spec = load(make_root(tmp_path))
    names = ["exp", "mul.Tensor", "sum", "sum.dim_IntList", "square", "cat"]
    assert [fn.name for fn in spec.functions] == names
    exp, mul, total, sum_dim, square, cat = spec.functions
    assert (exp.line, exp.variants, exp.pointwise, exp.promotion, exp.dtypes, exp.dispatch) == (
        1, ("function", "method"), "exp(self)", "int_to_float", "all", (),
    )  # fmt: skip
    assert (mul.line, mul.variants, mul.promotion, mul.doc) == (6, ("function",), "default", "Multiplies.")
    assert str(mul.schema) == "mul.Tensor(Tensor self, Tensor other) -> Tensor"
    # "CPU, CUDA: k" is two dispatch entries.
    assert (total.variants, total.dispatch) == (("method",), (("CPU", "sum_all"), ("CUDA", "sum_all")))
    assert total.kernel("CUDA") == "sum_all" and total.kernel("CompositeExplicitAutograd") is None
    assert sum_dim.dispatch == (("CPU", "sum_dim"),) and sum_dim.line == 13
    assert square.dispatch == (("CompositeImplicitAutograd", "square"),)
    assert (cat.dtypes, cat.promote, cat.pointwise) == ("no_bool", None, None)

    assert [str(d.schema.name) for d in spec.derivatives] == ["exp", "mul.Tensor", "sum.dim_IntList", "cat"]
    d_exp, d_mul, d_sum, d_cat = spec.derivatives
    # Each formula with the line of its key, so generated code can point back at it.
    assert d_exp.formulas == ((("self",), "grad * result", 2),) and d_exp.line == 1
    assert d_mul.formulas == ((("self",), "grad * other", 4), (("other",), "mul(grad, self)", 5))
    assert d_sum.formulas == ((("self",), "sum_backward(grad, self.shape, dim, keepdim)", 7),)
    assert d_cat.formulas == ((("tensors",), "[grad.narrow(dim, 0, t.shape[dim]) for t in tensors]", 12),)
    assert (d_cat.output_differentiability, d_exp.output_differentiability) == ((True,), None)
    assert spec.derivative_for("mul.Tensor") is d_mul and spec.derivative_for("sum") is None

    # Kernels map to the yaten module that defines them (read by source; nothing is imported).
    assert spec.kernel_modules[("CPU", "sum_dim")] == KernelDef(
        "yaten.kernels.cpu.reduce", "runtime/kernels/cpu/reduce.py",
        ("self", "dim", "keepdim", "dtype"), ("self", "dim"),
    )  # fmt: skip
    assert spec.kernel_modules[("CUDA", "sum_all")].module == "yaten.kernels.cuda.reduce"
    assert spec.kernel_modules[("CompositeImplicitAutograd", "square")].module == "yaten.native.composite"
    assert spec.kernel_modules[("CPU", "cat")].params is None  # *args: parameters not checked
    assert ("CPU", "_private") not in spec.kernel_modules
    # Only the public names: the generated code star-imports these modules.
    assert spec.scalar_functions == ("exp", "log")
    assert spec.helpers == ("sum_backward",)


def test_multi_input_formula_and_empty_derivatives(tmp_path):
    d = """\
        - name: mul.Tensor(Tensor self, Tensor other) -> Tensor
          self, other: mul_backward(grad, self, other, grad_input_mask)
        """
    helpers = {"runtime/autograd/formulas.py": "def mul_backward(grad, a, b, mask):\n    return grad, grad\n"}
    spec = load(make_root(tmp_path, d=d, runtime=helpers))
    assert spec.derivatives[0].formulas == (
        (("self", "other"), "mul_backward(grad, self, other, grad_input_mask)", 2),
    )
    (tmp_path / D).write_text("")
    assert load(tmp_path).derivatives == ()


# --- spec/native_functions.yaml -----------------------------------------------------------------------

EXP = "- func: exp(Tensor self) -> Tensor\n  pointwise: exp(self)\n"
SUM = "- func: sum(Tensor self, *, ScalarType? dtype=None) -> Tensor\n"
SUM_DIM = "- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor\n"

NATIVE_ERRORS = [
    pytest.param(
        EXP + "- func: neg(Tensor self -> Tensor\n  pointwise: -self\n",
        f"{NF}:3: neg: unbalanced brackets in schema 'neg(Tensor self -> Tensor': '(' is never closed; "
        "add the missing ')'",
        id="malformed-schema",
    ),
    pytest.param(
        EXP + "- func: neg(Tensor self) Tensor\n  pointwise: -self\n",
        f"{NF}:3: neg: schema 'neg(Tensor self) Tensor' has no '->'; write the returns after the arguments, "
        "e.g. 'foo(Tensor self) -> Tensor', or '-> ()' when it returns nothing",
        id="schema-without-arrow",
    ),
    pytest.param(
        EXP + "- func: mul(Tensor self, Tensr other) -> Tensor\n  pointwise: self * other\n",
        f"{NF}:3: mul: unknown type 'Tensr' in argument 'other'; use one of {', '.join(sorted(BASE_TYPES))}",
        id="unknown-type",
    ),
    pytest.param(
        EXP + "- func: exp(Tensor self) -> Tensor\n  pointwise: exp(self) + 1\n",
        f"{NF}:3: exp: duplicate overload name (first defined at line 1); give each overload its own '.name'",
        id="duplicate-overload",
    ),
    pytest.param(
        EXP + "  tag: [pointwise]\n",
        f"{NF}:1: exp: unknown key 'tag'; the keys an entry may have are: "
        "func, variants, dispatch, pointwise, promotion, promote, dtypes, complex, scalar_of, cpu_scalars, "
        "aliases, python_module, autocast, tags, doc",
        id="unknown-key",
    ),
    pytest.param(
        EXP + "  autocast: {cpu: bfloat16}\n",
        f"{NF}:1: exp: autocast: cpu: bfloat16 is not a device type and cast kind; use "
        "{cpu|cuda: lower_precision_fp|fp32|fp32_set_opt_dtype|promote|banned}",
        id="autocast-kind",
    ),
    pytest.param(
        EXP + "- func: exp_(Tensor(a!) self) -> Tensor(a!)\n  autocast: {cpu: fp32}\n",
        f"{NF}:3: exp_: autocast: is for functional overloads (torch's autocast lists name no others)",
        id="autocast-not-functional",
    ),
    pytest.param(
        EXP + "  python_module: fft\n",
        f"{NF}:1: exp: python_module: fft binds functions named 'fft_<name>' (variants: function), as PyTorch's",
        id="python-module-name",
    ),
    pytest.param(
        EXP + "  python_module: fft.x\n",
        f"{NF}:1: exp: python_module: 'fft.x' is not a module name; write e.g. 'fft'",
        id="python-module-not-a-name",
    ),
    pytest.param(
        EXP + "  cpu_scalars: [self]\n",
        f"{NF}:1: exp: cpu_scalars: 'self' is not a Tensor argument other than self; use one of self",
        id="cpu-scalars-self",
    ),
    pytest.param(
        EXP + "  pointwise: exp(self) + 1\n",
        f"{NF}:3: exp: key 'pointwise' is given twice (first at line 2); keep one",
        id="duplicate-key",
    ),
    pytest.param(
        SUM + "  dispatch:\n    CPU: sum_all\n    CPU: sum_dim\n",
        f"{NF}:4: sum: key 'CPU' is given twice (first at line 3); keep one",
        id="duplicate-dispatch-key",
    ),
    pytest.param(
        EXP + "- fnc: neg(Tensor self) -> Tensor\n",
        f"{NF}:3: <entry>: missing 'func:'; every entry starts with '- func: <schema>'",
        id="missing-func",
    ),
    pytest.param(
        SUM + "  dispatch:\n    Autograd: sum_all\n",
        f"{NF}:1: sum: unknown dispatch key 'Autograd'; use one of "
        "CPU, CUDA, CompositeExplicitAutograd, CompositeImplicitAutograd, SparseCPU, SparseCUDA",
        id="unknown-dispatch-key",
    ),
    pytest.param(
        SUM + "  dispatch: CPU\n",
        f"{NF}:1: sum: 'dispatch' must be a dict, got 'CPU'",
        id="dispatch-not-a-mapping",
    ),
    pytest.param(
        SUM + "  dispatch:\n    CPU: sum-all\n",
        f"{NF}:1: sum: dispatch kernel for 'CPU' must be a Python function name, got 'sum-all'",
        id="kernel-not-an-identifier",
    ),
    pytest.param(
        SUM,
        f"{NF}:1: sum: needs a 'dispatch:' (kernels per device) or a 'pointwise:' expression",
        id="no-implementation",
    ),
    pytest.param(
        EXP + SUM + "  dispatch:\n    CPU: sum_al\n",
        f"{NF}:3: sum: kernel 'sum_al' for CPU is not defined in any module of runtime/kernels/cpu/; "
        "define 'def sum_al(...)' there or fix the name",
        id="unknown-cpu-kernel",
    ),
    pytest.param(
        SUM_DIM + "  dispatch:\n    CUDA: sum_dim\n",
        f"{NF}:1: sum.dim_IntList: kernel 'sum_dim' for CUDA is not defined in any module of "
        "runtime/kernels/cuda/; define 'def sum_dim(...)' there or fix the name",
        id="kernel-only-on-another-device",
    ),
    pytest.param(
        SUM + "  dispatch:\n    CompositeExplicitAutograd: sum_all\n",
        f"{NF}:1: sum: kernel 'sum_all' for CompositeExplicitAutograd is not defined in any module of "
        "runtime/native/; define 'def sum_all(...)' there or fix the name",
        id="unknown-native-kernel",
    ),
    pytest.param(
        SUM + "  dispatch:\n    CPU: _private\n",
        f"{NF}:1: sum: kernel '_private' for CPU is not defined in any module of runtime/kernels/cpu/; "
        "define 'def _private(...)' there or fix the name",
        id="private-kernel",
    ),
    pytest.param(
        SUM_DIM + "  dispatch:\n    CPU: sum_all\n",
        f"{NF}:1: sum.dim_IntList: kernel 'sum_all' (runtime/kernels/cpu/reduce.py) has no parameter 'dim'; "
        "kernels take the schema's arguments by name (add 'dim', with a default if other overloads lack it)",
        id="kernel-lacks-parameter",
    ),
    pytest.param(
        SUM + "  dispatch:\n    CPU: sum_dim\n",
        f"{NF}:1: sum: kernel 'sum_dim' (runtime/kernels/cpu/reduce.py) requires 'dim', which the schema "
        "does not have; give it a default or rename it after a schema argument",
        id="kernel-requires-parameter",
    ),
    pytest.param(
        EXP + "  variants: function, methods\n",
        f"{NF}:1: exp: unknown variant 'methods'; use 'function', 'method' or 'function, method'",
        id="unknown-variant",
    ),
    pytest.param(
        EXP + "  variants: [function]\n",
        f"{NF}:1: exp: 'variants' must be a str, got ['function']",
        id="variants-not-a-string",
    ),
    pytest.param(
        EXP + "  promotion: int_to_floats\n",
        f"{NF}:1: exp: unknown promotion 'int_to_floats'; use one of default, int_to_float, always_bool, "
        "bool_to_long, complex_to_float",
        id="unknown-promotion",
    ),
    pytest.param(
        EXP + "  dtypes: integral\n  complex: true\n",
        f"{NF}:1: exp: 'complex: true' is for pointwise ops whose dtypes include floating ones",
        id="complex-integral",
    ),
    pytest.param(
        EXP + "  complex: 1\n",
        f"{NF}:1: exp: 'complex' must be a bool, got 1",
        id="complex-not-a-bool",
    ),
    pytest.param(
        EXP + "  dtypes: float\n",
        f"{NF}:1: exp: unknown dtypes 'float'; use one of all, floating, float_double, integral, no_bool",
        id="unknown-dtypes",
    ),
    pytest.param(
        EXP + "  promote: self\n",
        f"{NF}:1: exp: 'promote' must be a list, got 'self'",
        id="promote-not-a-list",
    ),
    pytest.param(
        "- func: exp(Tensor self) -> Tensor\n  pointwise: expp(self)\n",
        f"{NF}:1: exp: pointwise expression calls unknown function 'expp'; use one of the functions of "
        "runtime/kernels/cpu/scalar.py or add it there",
        id="pointwise-unknown-function",
    ),
    pytest.param(
        "- func: exp(Tensor self) -> Tensor\n  pointwise: _private(self)\n",
        f"{NF}:1: exp: pointwise expression calls unknown function '_private'; use one of the functions of "
        "runtime/kernels/cpu/scalar.py or add it there",
        id="pointwise-private-function",
    ),
    pytest.param(
        "- func: log(Tensor self) -> Tensor\n  pointwise: log(self)\n",
        f"{NF}:1: log: pointwise expression calls 'log', which runtime/kernels/cpu/scalar.py defines but "
        "runtime/kernels/cuda/scalar.py does not; add it there too (the generated CUDA kernel calls it)",
        id="pointwise-function-missing-on-cuda",
    ),
    pytest.param(
        "- func: exp(Tensor self) -> Tensor\n  pointwise: self.exp()\n",
        f"{NF}:1: exp: pointwise: a pointwise expression may only call plain functions, like exp(self)",
        id="pointwise-method-call",
    ),
    pytest.param(
        "- func: scale(Tensor self) -> Tensor\n  pointwise: self * factor\n",
        f"{NF}:1: scale: pointwise expression uses 'factor', which is not an argument of the schema (self)",
        id="pointwise-unknown-name",
    ),
    pytest.param(
        "- func: exp(Tensor self) -> Tensor\n  pointwise: exp(self) +\n",
        f"{NF}:1: exp: pointwise: formula is not a valid Python expression (invalid syntax): exp(self) +",
        id="pointwise-not-python",
    ),
    pytest.param(
        "func: exp(Tensor self) -> Tensor\npointwise: exp(self)\n",
        f"{NF}:1: <file>: the file must be a YAML list of entries ('- func: ...')",
        id="not-a-list",
    ),
    pytest.param(
        EXP + "- exp\n",
        f"{NF}:3: <file>: every list item must be an entry ('- func: <schema>' and its keys), got 'exp'",
        id="item-not-a-mapping",
    ),
    pytest.param(
        EXP + "  variants: [function\n",
        f"{NF}:4: <file>: not valid YAML (expected ',' or ']', but got '<stream end>')",
        id="not-yaml",
    ),
]


@pytest.mark.parametrize("nf, message", NATIVE_ERRORS)
def test_native_functions_errors(tmp_path, nf, message):
    assert spec_error(tmp_path, nf=nf, d="") == message


# --- spec/derivatives.yaml ----------------------------------------------------------------------------

NAME_EXP = "- name: exp(Tensor self) -> Tensor\n"
NAME_SUM_DIM = "- name: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor\n"

DERIVATIVE_ERRORS = [
    pytest.param(
        NAME_EXP + "  self: grad * result\n- name: neg(Tensor self) -> Tensor\n  self: -grad\n",
        f"{D}:3: neg: no op 'neg' in {NF}; add it there first or fix the name",
        id="op-not-in-native-functions",
    ),
    pytest.param(
        "- name: mul.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n  self: grad\n",
        f"{D}:1: mul.Tensor: schema differs from {NF}:6; write it exactly as "
        "'mul.Tensor(Tensor self, Tensor other) -> Tensor'",
        id="schema-differs",
    ),
    pytest.param(
        "- name: mul.Tensor(Tensor self, Tensor other) -> Tensor\n  self: grad * other\n  alpha: grad\n",
        f"{D}:3: mul.Tensor: formula for 'alpha', which is not an argument of the schema (self, other); "
        "an entry's other keys are name, output_differentiability, result and node",
        id="formula-for-missing-argument",
    ),
    pytest.param(
        NAME_EXP + "  Self: grad\n",
        f"{D}:2: exp: formula for 'Self', which is not an argument of the schema (self); "
        "an entry's other keys are name, output_differentiability, result and node",
        id="misspelt-key",
    ),
    pytest.param(
        NAME_EXP + "  self: grad * reslt\n",
        f"{D}:2: exp: formula uses unknown name 'reslt'; use the schema's arguments, grad/grads/result, "
        "a yaten op, or a helper defined in runtime/autograd/formulas.py",
        id="formula-unknown-name",
    ),
    pytest.param(
        NAME_EXP + "  self: _private(grad)\n",
        f"{D}:2: exp: formula uses unknown name '_private'; use the schema's arguments, grad/grads/result, "
        "a yaten op, or a helper defined in runtime/autograd/formulas.py",
        id="formula-private-helper",
    ),
    pytest.param(
        NAME_SUM_DIM + "  self: grad\n  dim: grad\n",
        f"{D}:3: sum.dim_IntList: formula for 'dim' of type int[1]?, which is not differentiable; "
        "only Tensor arguments get gradients",
        id="formula-for-non-differentiable",
    ),
    pytest.param(
        NAME_SUM_DIM + "  self: grad\n  dim: non_differentiable\n",
        f"{D}:1: sum.dim_IntList: 'dim: non_differentiable' names no Tensor argument of the schema",
        id="non-differentiable-not-a-tensor",
    ),
    pytest.param(
        NAME_EXP + "  node: 3\n  self: grad\n",
        f"{D}:1: exp: 'node' must be a class name, got 3",
        id="node-not-a-name",
    ),
    pytest.param(
        NAME_EXP + "  self: grad *\n",
        f"{D}:2: exp: formula is not a valid Python expression (invalid syntax): grad *",
        id="formula-not-python",
    ),
    pytest.param(
        NAME_EXP + "  self: 1\n",
        f"{D}:1: exp: the formula for 'self' must be a string expression, got 1",
        id="formula-not-a-string",
    ),
    pytest.param(
        NAME_EXP + "  self: grad * result\n" + NAME_EXP + "  self: grad * exp(self)\n",
        f"{D}:3: exp: second derivatives entry for 'exp' (first at line 1); merge them into one",
        id="two-entries-for-one-op",
    ),
    pytest.param(
        NAME_EXP + "  self: grad * result\n  self: grad * exp(self)\n",
        f"{D}:3: exp: key 'self' is given twice (first at line 2); keep one",
        id="formula-given-twice",
    ),
    pytest.param(
        NAME_EXP + "  output_differentiability: [True, False]\n  self: grad\n",
        f"{D}:1: exp: output_differentiability has 2 entries but the schema has 1 returns; "
        "give one True/False per return",
        id="output-differentiability-length",
    ),
    pytest.param(
        NAME_EXP + "  output_differentiability: true\n  self: grad\n",
        f"{D}:1: exp: 'output_differentiability' must be a list of True/False, one per output",
        id="output-differentiability-type",
    ),
    pytest.param(
        NAME_EXP + "  dispatch:\n    Default:\n      self: grad\n",
        f"{D}:1: exp: per-dispatch-key formulas ('dispatch:') are not supported; write the formulas under "
        "the entry",
        id="dispatch-formulas",
    ),
    pytest.param(
        "- self: grad\n",
        f"{D}:1: <entry>: missing 'name:'; every entry starts with '- name: <schema>'",
        id="missing-name",
    ),
    pytest.param(
        "name: exp(Tensor self) -> Tensor\n",
        f"{D}:1: <file>: the file must be a YAML list of entries ('- name: ...')",
        id="not-a-list",
    ),
    pytest.param(
        "- name: exp(Tensor self)->Tensor\n  self: grad\n",
        f"{D}:1: exp: schema 'exp(Tensor self)->Tensor' is not written canonically; write it exactly as "
        "'exp(Tensor self) -> Tensor'",
        id="non-canonical-schema",
    ),
]


@pytest.mark.parametrize("d, message", DERIVATIVE_ERRORS)
def test_derivatives_errors(tmp_path, d, message):
    assert spec_error(tmp_path, d=d) == message


def test_formula_may_not_call_a_method_only_op(tmp_path):
    # A formula calls yaten.<op>; an op with only the method variant has no such function.
    nf = EXP + "  variants: method\n" + SUM_DIM + "  dispatch:\n    CPU: sum_dim\n"
    assert spec_error(tmp_path, nf=nf, d=NAME_SUM_DIM + "  self: exp(grad)\n") == (
        f"{D}:2: sum.dim_IntList: formula uses unknown name 'exp'; use the schema's arguments, "
        "grad/grads/result, a yaten op, or a helper defined in runtime/autograd/formulas.py"
    )


@pytest.mark.parametrize(
    "nf, message",
    [
        pytest.param(
            EXP + "- func: neg_(Tensor(a!) self) -> Tensor(a!)\n",
            f"{NF}:3: neg_: no functional overload with the same arguments to derive this variant from; "
            "add it, or give this entry its own 'dispatch:'",
            id="inplace",
        ),
        pytest.param(
            EXP + "- func: exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
            "- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n",
            f"{NF}:4: neg.out: no functional overload with the same arguments to derive this variant from; "
            "add it, or give this entry its own 'dispatch:'",
            id="out",
        ),
    ],
)
def test_variant_without_functional(tmp_path, nf, message):
    spec = load(make_root(tmp_path, nf=nf, d=""))
    with pytest.raises(SpecError) as e:
        emit.render(spec)
    assert str(e.value) == message


# --- generate: all-or-nothing, written only when changed, --check -----------------------------------

HEADER = "# @generated by `python -m codegen` from spec/native_functions.yaml and spec/derivatives.yaml.\n"


def snapshot(folder: Path) -> dict:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def age(folder: Path) -> None:
    """Backdate every file, so that a rewrite would show in its mtime whatever the clock's resolution."""
    for p in folder.iterdir():
        os.utime(p, ns=(1_000_000_000, 1_000_000_000))


def test_generate_error_leaves_generated_untouched(tmp_path, capsys):
    root = make_root(tmp_path, d=NAME_EXP + "  self: grad * reslt\n")
    out = root / "generated"
    out.mkdir()
    (out / "ops.py").write_text("# an old ops.py\n")
    (out / "stale.py").write_text("# no longer generated\n")
    age(out)
    before = snapshot(out)
    assert generate(check=False, root=root) == 1
    captured = capsys.readouterr()
    assert captured.err == f"{D}:2: exp: formula uses unknown name 'reslt'; use the schema's arguments, " \
        "grad/grads/result, a yaten op, or a helper defined in runtime/autograd/formulas.py\n"  # fmt: skip
    assert captured.out == ""
    assert snapshot(out) == before
    assert generate(check=True, root=root) == 1
    assert "reslt" in capsys.readouterr().err
    assert snapshot(out) == before


def test_generate_writes_only_what_changed_and_check_names_stale_files(tmp_path, capsys):
    root = make_root(tmp_path)
    out = root / "generated"
    # No generated/ yet: everything is stale, and --check writes nothing.
    assert generate(check=True, root=root) == 1
    names = sorted(emit.render(load(root)))
    assert capsys.readouterr().err == (
        "generated/ is stale; run `make generate`. Would change: " + ", ".join(names) + "\n"
    )
    assert not out.exists()

    assert generate(check=False, root=root) == 0
    assert capsys.readouterr().out == f"generated/: {len(names)} file(s) written, 0 unchanged\n"
    assert sorted(p.name for p in out.iterdir()) == names
    for p in out.iterdir():
        assert p.read_text().startswith(HEADER), p.name

    # A second run writes nothing: same bytes, same mtimes.
    age(out)
    before = snapshot(out)
    assert generate(check=False, root=root) == 0
    assert capsys.readouterr().out == f"generated/: 0 file(s) written, {len(names)} unchanged\n"
    assert snapshot(out) == before
    assert generate(check=True, root=root) == 0
    assert capsys.readouterr().out == f"generated/ is fresh ({len(names)} files)\n"

    # An edited formula makes exactly the Backward nodes stale; --check names them and changes nothing.
    (root / D).write_text(GOOD_D.replace("self: grad * result", "self: result * grad"))
    assert generate(check=True, root=root) == 1
    assert (
        capsys.readouterr().err
        == "generated/ is stale; run `make generate`. Would change: autograd_nodes.py\n"
    )
    assert snapshot(out) == before
    assert generate(check=False, root=root) == 0
    assert capsys.readouterr().out == f"generated/: 1 file(s) written, {len(names) - 1} unchanged\n"
    after = snapshot(out)
    assert "grad_self = result * grad if needs[0]" in (out / "autograd_nodes.py").read_text()
    assert {n for n in names if after[n] != before[n]} == {"autograd_nodes.py"}

    # A file that would no longer be generated is stale too, and a real run removes it.
    (out / "old_ops.py").write_text(HEADER)
    assert generate(check=True, root=root) == 1
    assert capsys.readouterr().err == (
        "generated/ is stale; run `make generate`. Would change: old_ops.py (not generated any more)\n"
    )
    assert (out / "old_ops.py").exists()
    assert generate(check=False, root=root) == 0
    assert not (out / "old_ops.py").exists()
    assert sorted(p.name for p in out.iterdir()) == names


def test_generate_is_deterministic(tmp_path):
    a, b = make_root(tmp_path / "a"), make_root(tmp_path / "b")
    assert generate(root=a) == 0 and generate(root=b) == 0
    files = sorted(p.name for p in (a / "generated").iterdir())
    assert files == sorted(p.name for p in (b / "generated").iterdir())
    for name in files:
        assert (a / "generated" / name).read_bytes() == (b / "generated" / name).read_bytes(), name


def test_repository_generated_is_fresh():
    proc = subprocess.run(
        [sys.executable, "-m", "codegen", "--check"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("generated/ is fresh (")


# --- scalar_of ----------------------------------------------------------------------------------------
MUL_SCALAR = """\
- func: mul.Scalar(Tensor self, Scalar other) -> Tensor
  pointwise: self * other
  scalar_of: {target}
"""


@pytest.mark.parametrize(
    "target, d, message",
    [
        ("mul.Tensor", GOOD_D, None),
        (
            "mull.Tensor",
            GOOD_D,
            f"{NF}:23: mul.Scalar: scalar_of names 'mull.Tensor', which is not an op of {NF}",
        ),
        (
            "mul.Tensor",
            GOOD_D.replace(
                "- name: mul.Tensor(Tensor self, Tensor other) -> Tensor\n  self: grad * other\n  "
                "other: mul(grad, self)\n",
                "",
            ),
            f"{NF}:23: mul.Scalar: scalar_of names 'mul.Tensor', which has no derivatives entry to record",
        ),
        (
            "mul.Tensor",
            GOOD_D + "- name: mul.Scalar(Tensor self, Scalar other) -> Tensor\n  self: grad * other\n",
            f"{NF}:23: mul.Scalar: has its own derivatives entry (line 13) but also scalar_of; it records "
            "mul.Tensor's node, so remove one",
        ),
        (
            "exp",
            GOOD_D,
            f"{NF}:23: mul.Scalar: scalar_of 'exp' must have the same arguments, with Tensor where this overload "
            "has Scalar; its schema is 'exp(Tensor self) -> Tensor'",
        ),
    ],
    ids=["ok", "unknown", "no-derivative", "own-derivative", "other-arguments"],
)
def test_scalar_of(tmp_path, target, d, message):
    nf = GOOD_NF + MUL_SCALAR.format(target=target)
    if message is None:
        spec = load(make_root(tmp_path, nf=nf, d=d))
        assert next(f for f in spec.functions if f.name == "mul.Scalar").scalar_of == "mul.Tensor"
    else:
        assert spec_error(tmp_path, nf=nf, d=d) == message


def test_a_kernel_defined_in_two_modules_is_an_error(tmp_path):
    """The generator would otherwise pick one silently (a copy helper named like an op's kernel)."""
    twin = {"runtime/kernels/cpu/more.py": "def sum_all(self, dtype=None):\n    return self\n"}
    message = spec_error(tmp_path, runtime=twin)
    assert message.endswith(
        "kernel 'sum_all' for CPU is defined in runtime/kernels/cpu/more.py and runtime/kernels/cpu/reduce.py; "
        "rename one of them (or make it private)"
    )


def test_formula_helpers_include_star_imported_sibling_modules(tmp_path):
    formulas = """
        from .linalg_formulas import *

        def sum_backward(grad, shape, dim, keepdim):
            return grad
        """
    sibling = """
        def solve_backward(grad, A):
            return grad

        def _hidden(grad):
            return grad
        """
    root = make_root(
        tmp_path,
        runtime={"runtime/autograd/formulas.py": formulas, "runtime/autograd/linalg_formulas.py": sibling},
    )
    assert load(root).helpers == ("solve_backward", "sum_backward")


# --- aliases -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "aliases, message",
    [
        ("[multiply]", None),
        ("[1x]", f"{NF}:6: mul.Tensor: aliases: '1x' is not a Python name; list names such as 'absolute'"),
        ("[exp]", f"{NF}:6: mul.Tensor: alias 'exp' is the name of an op; remove the alias or the op"),
    ],
    ids=["ok", "not-a-name", "an-op"],
)
def test_aliases(tmp_path, aliases, message):
    nf = GOOD_NF.replace("  pointwise: self * other\n", f"  pointwise: self * other\n  aliases: {aliases}\n")
    if message is None:
        spec = load(make_root(tmp_path, nf=nf))
        assert next(f for f in spec.functions if f.name == "mul.Tensor").aliases == ("multiply",)
        functions = emit.render(spec)["functions.py"]
        assert '_Overload("multiply", ' in functions and "def multiply(*args, **kwargs):" in functions
    else:
        assert spec_error(tmp_path, nf=nf) == message


def test_an_alias_of_two_ops_is_an_error(tmp_path):
    nf = GOOD_NF.replace("  pointwise: exp(self)\n", "  pointwise: exp(self)\n  aliases: [twin]\n").replace(
        "  pointwise: self * other\n", "  pointwise: self * other\n  aliases: [twin]\n"
    )
    assert (
        spec_error(tmp_path, nf=nf)
        == f"{NF}:7: mul.Tensor: alias 'twin' is already an alias of 'exp'; keep one"
    )
