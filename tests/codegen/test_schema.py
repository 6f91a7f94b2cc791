"""Tests for codegen.model (the schema language) and ``python -m codegen check-schemas``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from codegen.model import (
    Annotation,
    Argument,
    BaseType,
    FunctionSchema,
    ListType,
    OperatorName,
    OptionalType,
    Return,
    SchemaKind,
    Type,
)

REPO = Path(__file__).resolve().parents[2]


def torch_native_functions() -> str:
    import torchgen

    return os.path.join(os.path.dirname(torchgen.__file__), "packaged/ATen/native/native_functions.yaml")


# One schema per feature of the grammar, most of them verbatim from PyTorch's file.
ROUND_TRIP = [
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
    "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "__lshift__.Scalar(Tensor self, Scalar other) -> Tensor",
    "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "_foo.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    (
        "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> "
        "(Tensor(a!) values, Tensor(b!) indices)"
    ),
    "_print(str s) -> ()",
    "chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
    "view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
    "foo(Tensor(a! -> a|b) self) -> Tensor(a|b)",
    "_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()",
    "_foreach_add.List_out(Tensor[] self, Tensor[] other, *, Scalar alpha=1, Tensor(a!)[] out) -> ()",
    "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    (
        "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
        "SymInt[2] dilation=1, SymInt groups=1) -> Tensor"
    ),
    (
        "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
        'str padding="valid", SymInt[2] dilation=1, SymInt groups=1) -> Tensor'
    ),
    (
        "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, "
        "bool ceil_mode=False) -> Tensor"
    ),
    "upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
    (
        "upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> "
        "Tensor"
    ),
    "nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor",
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
    'stft(Tensor self, int n_fft, *, str pad_mode="reflect", bool? return_complex=None) -> Tensor',
    "_test_string_default(Tensor dummy, str a=\"\\\"'\\\\\", str b='\"\\'\\\\') -> Tensor",
    'foo(Tensor self, int[] dims=[-2, -1], str sep=", ", str arrow="->") -> Tensor',
    (
        "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"
    ),
    "normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
    (
        "_cudnn_rnn(Tensor input, Tensor[] weight, int weight_stride0, Tensor? weight_buf, Tensor hx, Tensor? cx, "
        "int mode, SymInt hidden_size, SymInt proj_size, int num_layers, bool batch_first, float dropout, bool train, "
        "bool bidirectional, SymInt[] batch_sizes, Tensor? dropout_state) -> (Tensor, Tensor, Tensor, Tensor, Tensor)"
    ),
    (
        "_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker, Tensor found_inf, float scale_growth_factor, "
        "float scale_backoff_factor, int growth_interval) -> Tensor(a!)"
    ),
    (
        "_fused_moving_avg_obs_fq_helper(Tensor self, Tensor observer_on, Tensor fake_quant_on, "
        "Tensor(a!) running_min, Tensor(b!) running_max, Tensor(c!) scale, Tensor(d!) zero_point, "
        "float averaging_const, int quant_min, int quant_max, int ch_axis, bool per_row_fake_quant=False, "
        "bool symmetric_quant=False) -> (Tensor output, Tensor mask)"
    ),
    "set_.source_Storage(Tensor(a!) self, Storage source) -> Tensor(a!)",
    "record_stream(Tensor(a!) self, Stream s) -> ()",
    "_sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()",
    "sym_is_contiguous(Tensor self, MemoryFormat memory_format=contiguous_format) -> SymBool",
    "_fused_adam_(Tensor(a!)[] self, Tensor(b!)[] grads, float lr, *, Tensor? found_inf=None) -> ()",
    "cudnn_grid_sampler(Tensor self, Tensor grid) -> Tensor output",
    "sym_size.int(Tensor self, int dim) -> SymInt",
    "_local_scalar_dense(Tensor self) -> Scalar",
    "is_nonzero(Tensor self) -> bool",
    "split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]",
    "unsafe_split.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> ()",
    "foo(Tensor(a)? self, Tensor(b!)? other, *, Dimname[1]? names=None) -> Tensor(a)?",
    "_batch_norm_with_update_functional(Tensor input, Tensor running_mean) -> (Tensor, Tensor running_mean_out)",
    "_scratch_op.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_buf) -> Tensor(a!)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text: str) -> None:
    schema = FunctionSchema.parse(text)
    assert str(schema) == text
    assert FunctionSchema.parse(str(schema)) == schema


def test_add_tensor_structure() -> None:
    s = FunctionSchema.parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    assert s.name == OperatorName(base="add", overload="Tensor")
    assert [a.name for a in s.flat_positional] == ["self", "other"]
    assert [(a.name, a.default) for a in s.flat_kwarg_only] == [("alpha", "1")]
    assert s.flat_kwarg_only[0].type == BaseType("Scalar")
    assert s.out_arguments == ()
    assert [a.name for a in s.flat_arguments] == ["self", "other", "alpha"]
    assert s.schema_order_arguments() == s.flat_arguments
    assert s.returns == (Return(BaseType("Tensor")),)
    assert s.kind() == SchemaKind.functional == "functional"
    assert not s.is_out_fn()
    assert s.self_argument == Argument(BaseType("Tensor"), "self")


def test_named_tuple_returns() -> None:
    s = FunctionSchema.parse(
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    )
    assert [(str(r.type), r.name) for r in s.returns] == [("Tensor", "values"), ("Tensor", "indices")]
    assert s.flat_positional[2].default == "False"


def test_unnamed_and_empty_returns() -> None:
    assert (
        FunctionSchema.parse("f(Tensor a) -> (Tensor, Tensor)").returns == (Return(BaseType("Tensor")),) * 2
    )
    assert FunctionSchema.parse("_print(str s) -> ()").returns == ()


def test_out_variant() -> None:
    s = FunctionSchema.parse(
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
    )
    assert s.is_out_fn() and s.kind() == "out"
    assert [a.name for a in s.flat_kwarg_only] == ["alpha"]
    (out,) = s.out_arguments
    assert out.name == "out" and out.is_write and out.annotation == Annotation(("a",), is_write=True)
    assert s.returns[0].annotation == out.annotation
    assert [a.name for a in s.flat_arguments] == ["self", "other", "alpha", "out"]


def test_kinds() -> None:
    inplace = FunctionSchema.parse(
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"
    )
    assert inplace.kind() == SchemaKind.inplace and inplace.name.inplace and inplace.name.name == "add_"
    assert not inplace.is_out_fn()
    dunder = FunctionSchema.parse("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")
    assert dunder.kind() == "inplace" and dunder.name == OperatorName("and", True, True, "Tensor")
    assert FunctionSchema.parse("__and__.Tensor(Tensor self, Tensor other) -> Tensor").kind() == "functional"
    mutable = FunctionSchema.parse(
        "_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker, Tensor found_inf) -> Tensor(a!)"
    )
    assert mutable.kind() == "inplace"  # the trailing '_' wins over the mutable growth_tracker
    stats = FunctionSchema.parse("bn(Tensor input, Tensor(a!) running_mean) -> Tensor")
    assert stats.kind() == "mutable"
    scratch = FunctionSchema.parse(
        "op.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_x) -> Tensor(a!)"
    )
    assert scratch.kind() == "scratch"


def test_operator_names() -> None:
    cases = {
        "add.Tensor": ("add", False, False, "Tensor", "add_Tensor"),
        "add_.Scalar": ("add", True, False, "Scalar", "add__Scalar"),
        "__lshift__.Scalar": ("lshift", False, True, "Scalar", "__lshift___Scalar"),
        "__iand__": ("and", True, True, "", "__iand__"),
        "_foo.out": ("_foo", False, False, "out", "_foo_out"),
    }
    for text, (base, inplace, dunder, overload, unambiguous) in cases.items():
        name = OperatorName.parse(text)
        assert (name.base, name.inplace, name.dunder, name.overload) == (base, inplace, dunder, overload)
        assert name.unambiguous_name() == unambiguous
        assert str(name) == text


def test_types() -> None:
    assert Type.parse("Tensor?[]") == ListType(OptionalType(BaseType("Tensor")))
    assert Type.parse("int[1]?") == OptionalType(ListType(BaseType("int"), 1))
    assert Type.parse("SymInt[]?") == OptionalType(ListType(BaseType("SymInt")))
    assert Type.parse("Tensor?[]").base_type == BaseType("Tensor")
    assert Type.parse("Tensor?[]").is_tensor_like() and not Type.parse("int[2]").is_tensor_like()
    for text in ["Tensor?[]", "int[1]?", "SymInt[2]", "float[]?", "Scalar", "ScalarType?", "Device?"]:
        assert str(Type.parse(text)) == text
    with pytest.raises(ValueError, match="is a ListType, not a BaseType"):
        BaseType.parse("int[]")


def test_annotations() -> None:
    assert Annotation.parse("a! -> a|b") == Annotation(("a",), True, ("a", "b"))
    assert Annotation.parse("a -> *") == Annotation(("a",), False, ("*",))
    arg = Argument.parse("Tensor(b!)[] grads")
    assert arg.type == ListType(BaseType("Tensor")) and arg.annotation == Annotation(("b",), True)
    assert str(arg) == "Tensor(b!)[] grads"
    ret = Return.parse("Tensor(a -> *)")
    assert ret.name is None and str(ret.annotation) == "a -> *"
    ret = Return.parse("Tensor(a!) values")
    assert ret.name == "values" and ret.is_write


def test_defaults_keep_source_text() -> None:
    s = FunctionSchema.parse(
        'f(Tensor self, int[2] stride=[1, 1], str padding="valid", float[]? scale=None) -> Tensor'
    )
    assert [a.default for a in s.flat_positional] == [None, "[1, 1]", '"valid"', "None"]
    assert Argument.parse("str a='x=y'").default == "'x=y'"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("foo(Foo x) -> Tensor", "unknown type 'Foo' in argument 'x'; use one of"),
        ("foo(Tensor self) -> Bar", "unknown type 'Bar' in return 'Bar'"),
        ("foo(Tensor self)", "has no '->'; write the returns after the arguments"),
        ("foo(Tensor self, int[2 x) -> Tensor", r"unbalanced brackets .* '\[' is closed by '\)'"),
        ("foo(Tensor self, int x]) -> Tensor", r"unbalanced brackets .* '\(' is closed by '\]'"),
        ("foo(Tensor self -> Tensor", r"unbalanced brackets .* '\(' is never closed; add the missing '\)'"),
        ("foo(Tensor self)) -> Tensor", r"unbalanced brackets .* '\)' at column 17 closes nothing"),
        ('foo(Tensor self, str s="x) -> Tensor', "unterminated string literal"),
        (
            "foo(Tensor self, int self) -> Tensor",
            "argument name 'self' is used twice; give each argument a distinct",
        ),
        ("foo(Tensor x) -> (Tensor a, Tensor a)", "return name 'a' is used twice"),
        ("foo(Tensor self,) -> Tensor", "empty argument .* remove the stray ','"),
        ("foo(Tensor self, *) -> Tensor", r"'\*' ends"),
        ("foo(Tensor self, *, *, int x) -> Tensor", r"'\*' appears twice"),
        ("foo(Tensor self, int) -> Tensor", "argument 'int' needs a type and a name"),
        ("foo(Tensor self, int x=) -> Tensor", "empty default"),
        ("foo(int(a) x) -> Tensor", "alias annotation .* on type 'int'; only Tensor types alias"),
        ("foo(Tensor?(a) x) -> Tensor", "an alias annotation goes right after 'Tensor'"),
        ("foo(Tensor(A!) x) -> Tensor", r"invalid alias annotation \(A!\)"),
        ("foo(Tensor(a|b!) x) -> Tensor", "writes to a union of alias sets"),
        ("foo(Tensor self, int[0] x) -> Tensor", "invalid list size in type 'int\\[0\\]' in argument 'x'"),
        ("foo(Tensor self, int?? x) -> Tensor", "optional twice"),
        ("foo(Tensor x) -> (Tensor)", "one-element tuple"),
        ("foo(Tensor x) -> Tensor -> Tensor", "more than one '->'"),
        ("(Tensor x) -> Tensor", "must start with 'name\\(arguments\\)'"),
        (
            "foo_out(Tensor self) -> Tensor",
            "'_out' suffix is reserved; use an overload instead, e.g. 'foo.out'",
        ),
        (
            "foo(Tensor self, *, Tensor(a!) out, int x) -> Tensor(a!)",
            "argument 'x' follows the out arguments",
        ),
        ("foo.out(Tensor self, *, Tensor(a!) out) -> Tensor", "return 0 'Tensor' is not out argument 0"),
        ("foo(Tensor self, Tensor(a!) out) -> Tensor(a!)", "did you forget to put the out argument after"),
        ("foo.out(Tensor self, *, Tensor(a!) a, Tensor(b!) b) -> Tensor(a!)", "it has 2 but 1 returns"),
        ("foo.out(Tensor self, *, Tensor(a!)[] out) -> Tensor(a!)", "must return '\\(\\)'"),
        ("foo_(Tensor self) -> Tensor", "in-place operator foo_ needs a mutable 'self'"),
        ("foo_(Tensor(a!) self) -> Tensor", "in-place operator foo_ must return self"),
        ("foo(Tensor self) -> (Tensor(a!), Tensor)", "returns mix mutable"),
        (
            "foo(Tensor self,int x) -> Tensor",
            "not written canonically; write it exactly as 'foo\\(Tensor self, int x\\)",
        ),
        ("foo(Tensor self, int x)->Tensor", "not written canonically"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FunctionSchema.parse(text)


def test_invariants_checked_on_construction() -> None:
    with pytest.raises(ValueError, match="unknown type 'Foo'"):
        BaseType("Foo")
    with pytest.raises(ValueError, match="size 0"):
        ListType(BaseType("int"), 0)
    with pytest.raises(ValueError, match="is in-place; build it with base='add', inplace=True"):
        OperatorName("iadd", dunder=True)
    with pytest.raises(ValueError, match="'__ifoo__' is not an in-place dunder"):
        OperatorName("foo", inplace=True, dunder=True)


def test_non_canonical_text_parses_when_allowed() -> None:
    s = FunctionSchema.parse("foo(Tensor self,int x)->Tensor", require_canonical=False)
    assert str(s) == "foo(Tensor self, int x) -> Tensor"


def test_every_torch_schema_agrees_with_torchgen() -> None:
    # torchgen's own model is the reference for what each schema means.
    from torchgen.model import FunctionSchema as TorchgenSchema

    def view(args):
        return [(a.name, str(a.type), a.default, str(a.annotation)) for a in args]

    with open(torch_native_functions(), encoding="utf-8") as f:
        funcs = [e["func"] for e in yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))]
    for func in funcs:
        ours, theirs = FunctionSchema.parse(func), TorchgenSchema.parse(func)
        assert ours.kind() == theirs.kind().name, func
        assert view(ours.flat_positional) == view(theirs.arguments.flat_positional), func
        assert view(ours.flat_kwarg_only) == view(theirs.arguments.flat_kwarg_only), func
        assert view(ours.out_arguments) == view(theirs.arguments.out), func
        assert [(r.name, str(r.type), str(r.annotation)) for r in ours.returns] == [
            (r.name, str(r.type), str(r.annotation)) for r in theirs.returns
        ], func
        assert ours.name.overload == theirs.name.overload_name, func
        assert ours.name.inplace == theirs.name.name.inplace, func


def run_check_schemas(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", "check-schemas", path],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_schemas_on_torch_file() -> None:
    path = torch_native_functions()
    with open(path, encoding="utf-8") as f:
        m = len(yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    result = run_check_schemas(path)
    assert result.stdout == f"parsed {m}/{m}, round-tripped {m}/{m}\n"
    assert result.stderr == ""
    assert result.returncode == 0


def test_check_schemas_reports_failures(tmp_path: Path) -> None:
    spec = tmp_path / "native_functions.yaml"
    spec.write_text(
        "- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
        "- func: foo(Foo x) -> Tensor\n"
        "- func: bar(Tensor self,int x) -> Tensor\n"
        "- dispatch: {}\n"
    )
    result = run_check_schemas(str(spec))
    assert result.stdout == "parsed 2/4, round-tripped 1/4\n"
    assert result.returncode == 1
    assert "unknown type 'Foo' in argument 'x'" in result.stderr
    assert "prints back as: bar(Tensor self, int x) -> Tensor" in result.stderr
    assert "entry 4: no 'func:' string" in result.stderr


def test_backward_class_names_are_pytorchs() -> None:
    """Each Backward class is named as PyTorch names the node of the same overload (its index among
    the entries of that base name in PyTorch's derivatives.yaml), so ``grad_fn.name()`` agrees."""
    import torchgen
    import yaml

    from codegen.api import backward_names
    from codegen.load import load

    path = os.path.join(os.path.dirname(torchgen.__file__), "packaged/autograd/derivatives.yaml")
    with open(path) as f:
        torch_entries = yaml.safe_load(f)

    class Entry:  # what backward_names reads of an entry
        def __init__(self, signature: str):
            self.schema = FunctionSchema.parse(signature)
            self.node = None  # PyTorch derives every name in its file

    torch_names = backward_names([Entry(e["name"]) for e in torch_entries])
    ours = backward_names(load(Path(__file__).resolve().parents[2]).derivatives)
    order = list(torch_names)

    def comparable(op: str) -> bool:
        # The index can only agree when every PyTorch entry of that base name before it is ours too
        # (fill_.Scalar is FillBackward2 in PyTorch, after fill.Scalar and fill.Tensor, which we lack).
        base = op.split(".")[0].rstrip("_")
        earlier = [o for o in order[: order.index(op)] if o.split(".")[0].rstrip("_") == base]
        return all(o in ours for o in earlier)

    differs = {
        op: (cls, torch_names[op]) for op, cls in ours.items() if op in torch_names and torch_names[op] != cls
    }
    assert {op: names for op, names in differs.items() if comparable(op)} == {}
    assert sum(comparable(op) for op in ours if op in torch_names) >= 90  # most are compared


def test_node_name_stems_are_title_cased_as_pytorchs() -> None:
    """The stems PyTorch's own nodes have (``torch.log1p(x).grad_fn.name() == "Log1PBackward0"``)."""
    import torch

    from codegen.api import camel

    x = torch.rand(1, 1, 4, 4, requires_grad=True)
    made = {
        "log1p": torch.log1p(x),
        "max_pool2d_with_indices": torch.nn.functional.max_pool2d(x, 2),
        "_softmax": torch._softmax(x, 1, False),
        "adaptive_avg_pool2d": torch.nn.functional.adaptive_avg_pool2d(x, 2),
        "_log_softmax": torch.log_softmax(x, 1),
    }
    assert {base: camel(base) + "Backward0" for base in made} == {
        b: t.grad_fn.name() for b, t in made.items()
    }
