"""yaten.backends, the float32 matmul precision, the determinism switches and random.fork_rng, against
torch's defaults, checks and messages."""

import warnings

import pytest
import torch

import yaten


@pytest.fixture(autouse=True)
def _restore_flags():
    yield
    for lib in (torch, yaten):
        lib.backends.cudnn.benchmark = False
        lib.backends.cudnn.deterministic = False
        lib.backends.cudnn.enabled = True
        lib.backends.cudnn.allow_tf32 = True
        lib.use_deterministic_algorithms(False)
    yaten.set_float32_matmul_precision("highest")


def test_defaults_match_torch():
    for name in ("enabled", "benchmark", "deterministic", "allow_tf32", "benchmark_limit"):
        assert getattr(yaten.backends.cudnn, name) == getattr(torch.backends.cudnn, name), name
    for name in (
        "allow_tf32",
        "allow_fp16_reduced_precision_reduction",
        "allow_bf16_reduced_precision_reduction",
    ):
        assert getattr(yaten.backends.cuda.matmul, name) == getattr(torch.backends.cuda.matmul, name), name
    assert yaten.backends.mkldnn.enabled == torch.backends.mkldnn.enabled
    assert yaten.backends.mps.is_available() is torch.backends.mps.is_available() is False
    assert yaten.backends.mps.is_built() is False
    assert yaten.backends.opt_einsum.is_available() == torch.backends.opt_einsum.is_available()
    assert yaten.backends.opt_einsum.enabled == torch.backends.opt_einsum.enabled
    assert yaten.backends.opt_einsum.strategy == torch.backends.opt_einsum.strategy
    assert yaten.backends.cpu.get_cpu_capability() == torch.backends.cpu.get_cpu_capability()
    assert yaten.backends.openmp.is_available() is True  # Numba's OpenMP layer ships in its wheels
    assert yaten.backends.mkl.is_available() is False  # NumPy's PyPI wheels bring OpenBLAS
    assert yaten.get_float32_matmul_precision() == torch.get_float32_matmul_precision() == "highest"
    for name in ("flash", "mem_efficient", "math", "cudnn"):
        assert (
            getattr(yaten.backends.cuda, f"{name}_sdp_enabled")()
            == getattr(torch.backends.cuda, f"{name}_sdp_enabled")()
        )


def test_yaten_has_no_cudnn_or_onednn():
    assert yaten.backends.cudnn.is_available() is False and yaten.backends.cudnn.version() is None
    assert yaten.backends.mkldnn.is_available() is False
    assert yaten.backends.cuda.is_built() is True


@pytest.mark.parametrize(
    "module, name",
    [("cudnn", "benchmark"), ("cudnn", "deterministic"), ("cudnn", "enabled"), ("cudnn", "allow_tf32"),
     ("mkldnn", "enabled")],
)  # fmt: skip
def test_flags_take_bools_only_with_torchs_message(module, name):
    with pytest.raises(RuntimeError) as want:
        setattr(getattr(torch.backends, module), name, 1)
    with pytest.raises(RuntimeError) as got:
        setattr(getattr(yaten.backends, module), name, 1)
    assert str(got.value) == str(want.value)
    setattr(getattr(yaten.backends, module), name, True)
    assert getattr(getattr(yaten.backends, module), name) is True


def test_cublas_flags_checked_as_torchs():
    for value in (1, "x"):
        with pytest.raises(RuntimeError) as want:
            torch.backends.cuda.matmul.allow_tf32 = value
        with pytest.raises(RuntimeError) as got:
            yaten.backends.cuda.matmul.allow_tf32 = value
        assert str(got.value) == str(want.value)
    with pytest.raises(TypeError) as want:
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = 1
    with pytest.raises(TypeError) as got:
        yaten.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = 1
    assert str(got.value) == str(want.value)
    for lib in (torch, yaten):
        with pytest.raises(AttributeError, match="Unknown attribute foo"):
            lib.backends.cuda.matmul.foo = 1
        with pytest.raises(AttributeError, match="Unknown attribute foo"):
            lib.backends.cuda.matmul.foo  # noqa: B018
    yaten.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    assert yaten.backends.cuda.matmul.allow_bf16_reduced_precision_reduction is False
    yaten.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = True


def test_flags_context_managers_restore():
    for lib in (torch, yaten):
        with lib.backends.cudnn.flags(enabled=False, benchmark=True):
            assert lib.backends.cudnn.enabled is False and lib.backends.cudnn.benchmark is True
            assert lib.backends.cudnn.deterministic is False
        assert lib.backends.cudnn.enabled is True and lib.backends.cudnn.benchmark is False
        with lib.backends.mkldnn.flags(enabled=False):
            assert lib.backends.mkldnn.enabled is False
        assert lib.backends.mkldnn.enabled is True


def test_opt_einsum_settings_checked_as_torchs():
    if torch.backends.opt_einsum.is_available():
        pytest.skip("these messages are those of a machine without opt_einsum")
    for kwargs in ({"enabled": True}, {"strategy": "greedy"}):
        with pytest.raises(ValueError) as want, torch.backends.opt_einsum.flags(**kwargs):
            pass
        with pytest.raises(ValueError) as got, yaten.backends.opt_einsum.flags(**kwargs):
            pass
        assert str(got.value) == str(want.value)
    for lib in (torch, yaten):  # plain assignment is not checked, in torch either
        lib.backends.opt_einsum.enabled = True
        assert lib.backends.opt_einsum.enabled is True
        lib.backends.opt_einsum.enabled = False


def test_matmul_precision_is_allow_tf32():
    for lib in (torch, yaten):
        lib.set_float32_matmul_precision("high")
        assert lib.backends.cuda.matmul.allow_tf32 is True and lib.get_float32_matmul_precision() == "high"
        lib.set_float32_matmul_precision("highest")
        assert lib.backends.cuda.matmul.allow_tf32 is False
    yaten.backends.cuda.matmul.allow_tf32 = True
    assert yaten.get_float32_matmul_precision() == "high"
    yaten.backends.cuda.matmul.allow_tf32 = False
    assert yaten.get_float32_matmul_precision() == "highest"


def test_matmul_precision_checks():
    with pytest.raises(RuntimeError) as want:
        torch.set_float32_matmul_precision(3)
    with pytest.raises(RuntimeError) as got:
        yaten.set_float32_matmul_precision(3)
    assert str(got.value) == str(want.value)
    for lib in (torch, yaten):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.set_float32_matmul_precision("bogus")
        assert [str(w.message).split(" (Triggered")[0] for w in caught] == [
            "bogus is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has no "
            "effect."
        ]
        assert lib.get_float32_matmul_precision() == "highest"


def test_deterministic_switches_follow_torch():
    steps = [
        ("use", (True,), {"warn_only": True}),
        ("use", (True,), {}),
        ("mode", ("warn",), {}),
        ("mode", (0,), {}),
        ("mode", ("error",), {}),
        ("use", (False,), {}),
    ]
    for kind, args, kwargs in steps:
        seen = []
        for lib in (torch, yaten):
            if kind == "use":
                lib.use_deterministic_algorithms(*args, **kwargs)
            else:
                lib.set_deterministic_debug_mode(*args)
            seen.append(
                (lib.are_deterministic_algorithms_enabled(), lib.is_deterministic_algorithms_warn_only_enabled(),
                 lib.get_deterministic_debug_mode())
            )  # fmt: skip
        assert seen[0] == seen[1], (kind, args, kwargs)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.use_deterministic_algorithms(1),
        lambda lib: lib.use_deterministic_algorithms(True, warn_only=1),
        lambda lib: lib.set_deterministic_debug_mode("x"),
        lambda lib: lib.set_deterministic_debug_mode(5),
        lambda lib: lib.set_deterministic_debug_mode(1.0),
    ],
)
def test_deterministic_errors_match_torch(call):
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(Exception) as got:
        call(yaten)
    assert type(got.value) is type(want.value) and str(got.value) == str(want.value)


def test_fork_rng_restores_the_generators():
    yaten.manual_seed(3)
    before = yaten.get_rng_state()
    with yaten.random.fork_rng():
        inside = yaten.rand(4)
    assert yaten.equal(yaten.get_rng_state(), before)
    assert yaten.equal(yaten.rand(4), inside)
    with yaten.random.fork_rng(enabled=False):
        yaten.rand(1)
    assert not yaten.equal(yaten.get_rng_state(), before)
    with (
        pytest.raises(RuntimeError, match="torch has no module of `xpu`"),
        yaten.random.fork_rng(device_type="xpu"),
    ):
        pass
    assert yaten.random.initial_seed() == 3 and yaten.random.default_generator is yaten.default_generator


@pytest.mark.parametrize("kind", ["flash", "mem_efficient", "math", "cudnn"])
def test_sdp_switches_as_torchs(kind):
    with pytest.raises(RuntimeError) as want:
        getattr(torch.backends.cuda, f"enable_{kind}_sdp")(1)
    with pytest.raises(RuntimeError) as got:
        getattr(yaten.backends.cuda, f"enable_{kind}_sdp")(1)
    assert str(got.value) == str(want.value)
    getattr(yaten.backends.cuda, f"enable_{kind}_sdp")(False)
    assert getattr(yaten.backends.cuda, f"{kind}_sdp_enabled")() is False
    getattr(yaten.backends.cuda, f"enable_{kind}_sdp")(True)
