"""Optimizer construction and step errors: torch's exception types and messages, yaten's names."""

import pytest
import torch

import yaten


def _outcome(case, lib):
    try:
        case(lib)
    except Exception as e:  # compared by type and message
        return type(e), str(e).replace("torch.", "yaten.")
    return None


def same_error(case):
    got, want = _outcome(case, yaten), _outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want
    return got


def _p(lib, dtype=None):
    return lib.zeros(2, dtype=dtype or lib.float32, requires_grad=True)


PARAM_ERRORS = {
    "single_tensor": lambda m: m.optim.SGD(_p(m)),
    "single_double_tensor": lambda m: m.optim.Adam(_p(m, m.float64)),
    "empty": lambda m: m.optim.Adam([]),
    "not_iterable": lambda m: m.optim.SGD(3),
    "two_groups": lambda m: (lambda p: m.optim.SGD([{"params": [p]}, {"params": [p]}]))(_p(m)),
    "non_leaf": lambda m: m.optim.SGD([_p(m) * 2]),
    "not_a_tensor": lambda m: m.optim.SGD([_p(m), 3]),
    "set": lambda m: m.optim.SGD([{"params": {_p(m)}}]),
    "group_not_dict": lambda m: m.optim.SGD([_p(m)]).add_param_group([_p(m)]),
    "mixed_names": lambda m: m.optim.SGD([("a", _p(m)), _p(m)]),
    "names_in_one_group_only": lambda m: m.optim.SGD([{"params": [("a", _p(m))]}, {"params": [_p(m)]}]),
}


@pytest.mark.parametrize("case", PARAM_ERRORS.values(), ids=PARAM_ERRORS.keys())
def test_param_errors_match_torch(case):
    same_error(case)


def test_single_tensor_message_names_the_yaten_type():
    with pytest.raises(TypeError) as info:
        yaten.optim.SGD(_p(yaten))
    assert str(info.value) == (
        "params argument given to the optimizer should be an iterable of Tensors or dicts, "
        "but got yaten.FloatTensor"
    )


HYPER_ERRORS = {
    "sgd_lr": lambda m: m.optim.SGD([_p(m)], lr=-0.1),
    "sgd_momentum": lambda m: m.optim.SGD([_p(m)], momentum=-0.5),
    "sgd_weight_decay": lambda m: m.optim.SGD([_p(m)], weight_decay=-1e-3),
    "sgd_nesterov_no_momentum": lambda m: m.optim.SGD([_p(m)], nesterov=True),
    "sgd_nesterov_dampening": lambda m: m.optim.SGD([_p(m)], momentum=0.9, dampening=0.1, nesterov=True),
    "sgd_fused_foreach": lambda m: m.optim.SGD([_p(m)], fused=True, foreach=True),
    "sgd_fused_differentiable": lambda m: m.optim.SGD([_p(m)], fused=True, differentiable=True),
    "sgd_tensor_lr_size": lambda m: m.optim.SGD([_p(m)], lr=m.tensor([0.1, 0.2])),
    "adam_lr": lambda m: m.optim.Adam([_p(m)], lr=-1.0),
    "adam_eps": lambda m: m.optim.Adam([_p(m)], eps=-1e-8),
    "adam_beta0": lambda m: m.optim.Adam([_p(m)], betas=(1.0, 0.999)),
    "adam_beta1": lambda m: m.optim.Adam([_p(m)], betas=(0.9, -0.1)),
    "adam_weight_decay": lambda m: m.optim.Adam([_p(m)], weight_decay=-0.1),
    "adam_mixed_betas": lambda m: m.optim.Adam([_p(m)], betas=(0.9, m.tensor(0.99))),
    "adam_fused_foreach": lambda m: m.optim.Adam([_p(m)], fused=True, foreach=True),
    "adam_fused_differentiable": lambda m: m.optim.Adam([_p(m)], fused=True, differentiable=True),
    "adam_tensor_lr_foreach": lambda m: m.optim.Adam([_p(m)], lr=m.tensor(0.1), foreach=True),
    "adamw_lr": lambda m: m.optim.AdamW([_p(m)], lr=-0.01),
    "adamw_beta0": lambda m: m.optim.AdamW([_p(m)], betas=(-0.1, 0.9)),
    "rmsprop_lr": lambda m: m.optim.RMSprop([_p(m)], lr=-0.01),
    "rmsprop_eps": lambda m: m.optim.RMSprop([_p(m)], eps=-1.0),
    "rmsprop_momentum": lambda m: m.optim.RMSprop([_p(m)], momentum=-0.9),
    "rmsprop_weight_decay": lambda m: m.optim.RMSprop([_p(m)], weight_decay=-0.9),
    "rmsprop_alpha": lambda m: m.optim.RMSprop([_p(m)], alpha=-0.99),
    "adagrad_lr": lambda m: m.optim.Adagrad([_p(m)], lr=-0.01),
    "adagrad_lr_decay": lambda m: m.optim.Adagrad([_p(m)], lr_decay=-0.01),
    "adagrad_weight_decay": lambda m: m.optim.Adagrad([_p(m)], weight_decay=-0.01),
    "adagrad_initial_accumulator": lambda m: m.optim.Adagrad([_p(m)], initial_accumulator_value=-1),
    "adagrad_eps": lambda m: m.optim.Adagrad([_p(m)], eps=-1e-10),
    "rmsprop_has_no_fused": lambda m: m.optim.RMSprop([_p(m)], fused=True),
    "adagrad_fused_foreach": lambda m: m.optim.Adagrad([_p(m)], fused=True, foreach=True),
    "adadelta_lr": lambda m: m.optim.Adadelta([_p(m)], lr=-1.0),
    "adadelta_rho": lambda m: m.optim.Adadelta([_p(m)], rho=1.5),
    "adadelta_eps": lambda m: m.optim.Adadelta([_p(m)], eps=-1e-6),
    "adadelta_weight_decay": lambda m: m.optim.Adadelta([_p(m)], weight_decay=-0.1),
    "adadelta_tensor_lr_size": lambda m: m.optim.Adadelta([_p(m)], lr=m.tensor([0.1, 0.2])),
    "adamax_lr": lambda m: m.optim.Adamax([_p(m)], lr=-1.0),
    "adamax_eps": lambda m: m.optim.Adamax([_p(m)], eps=-1.0),
    "adamax_beta0": lambda m: m.optim.Adamax([_p(m)], betas=(1.0, 0.999)),
    "adamax_beta1": lambda m: m.optim.Adamax([_p(m)], betas=(0.9, 1.0)),
    "adamax_weight_decay": lambda m: m.optim.Adamax([_p(m)], weight_decay=-0.1),
    "nadam_lr": lambda m: m.optim.NAdam([_p(m)], lr=-1.0),
    "nadam_beta1": lambda m: m.optim.NAdam([_p(m)], betas=(0.9, -0.1)),
    "nadam_momentum_decay": lambda m: m.optim.NAdam([_p(m)], momentum_decay=-0.1),
    "nadam_weight_decay": lambda m: m.optim.NAdam([_p(m)], weight_decay=-0.1),
    "radam_lr": lambda m: m.optim.RAdam([_p(m)], lr=-1.0),
    "radam_eps": lambda m: m.optim.RAdam([_p(m)], eps=-1.0),
    "radam_beta0": lambda m: m.optim.RAdam([_p(m)], betas=(-0.1, 0.9)),
    "asgd_lr": lambda m: m.optim.ASGD([_p(m)], lr=-1.0),
    "asgd_weight_decay": lambda m: m.optim.ASGD([_p(m)], weight_decay=-1.0),
    "rprop_lr": lambda m: m.optim.Rprop([_p(m)], lr=-1.0),
    "rprop_etas": lambda m: m.optim.Rprop([_p(m)], etas=(1.5, 1.2)),
    "rprop_etas_plus": lambda m: m.optim.Rprop([_p(m)], etas=(0.5, 0.9)),
    "rprop_has_no_fused": lambda m: m.optim.Rprop([_p(m)], fused=True),
    "lbfgs_lr": lambda m: m.optim.LBFGS([_p(m)], lr=-1.0),
    "sparse_adam_lr": lambda m: m.optim.SparseAdam([_p(m)], lr=-1.0),
}


@pytest.mark.parametrize("case", HYPER_ERRORS.values(), ids=HYPER_ERRORS.keys())
def test_hyperparameter_errors_match_torch(case):
    same_error(case)


def test_invalid_learning_rate_message():
    with pytest.raises(ValueError, match=r"^Invalid learning rate: -0.1$"):
        yaten.optim.SGD([_p(yaten)], lr=-0.1)


def test_step_of_the_base_class_is_not_implemented():
    same_error(lambda m: m.optim.Optimizer([_p(m)], {}).step())


def test_required_option_missing_from_a_group():
    def case(m):
        from importlib import import_module

        required = import_module(f"{m.__name__}.optim.optimizer").required
        m.optim.Optimizer([{"params": [_p(m)]}], {"lr": required})

    same_error(case)


def _with_grad(lib, dtype):
    p = lib.zeros(2, dtype=dtype, requires_grad=dtype.is_floating_point)
    p.grad = lib.ones(2, dtype=dtype)
    return p


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adagrad"])
def test_fused_needs_floating_params(name):
    for lib in (yaten, torch):
        opt = getattr(lib.optim, name)([_with_grad(lib, lib.int64)], fused=True)
        with pytest.raises(
            RuntimeError, match=r"`fused=True` requires all the params to be floating point Tensors"
        ):
            opt.step()


@pytest.mark.parametrize("name", ["Adam", "AdamW", "RMSprop"])
def test_capturable_needs_an_accelerator(name):
    for lib in (yaten, torch):
        opt = getattr(lib.optim, name)([_with_grad(lib, lib.float32)], capturable=True)
        with pytest.raises(
            AssertionError, match="If capturable=True, params and state_steps must be on supported devices"
        ):
            opt.step()
