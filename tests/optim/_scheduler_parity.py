"""Running a yaten scheduler and torch's side by side: the lrs (and momenta) of every epoch."""

import warnings

import torch

import yaten

EPOCHS = 120


def make_optimizer(lib, name="SGD", **kwargs):
    """Two param groups (lr 0.1 and 0.02); SGD gets momentum 0.9, so momentum can cycle."""
    a, b = lib.zeros(2, requires_grad=True), lib.zeros(3, requires_grad=True)
    kwargs = {"lr": 0.1, "momentum": 0.9, **kwargs} if name == "SGD" else {"lr": 0.1, **kwargs}
    return getattr(lib.optim, name)([{"params": [a]}, {"params": [b], "lr": 0.02}], **kwargs)


def groups_picture(opt):
    keys = ("lr", "initial_lr", "momentum", "betas", "max_lr", "min_lr", "max_momentum", "base_momentum")
    return [{k: g[k] for k in keys if k in g} for g in opt.param_groups]


def trace(lib, make, epochs=EPOCHS, metrics=None):
    """The lrs after construction and after every epoch (optimizer.step then scheduler.step).

    ``make["scheds"]``: ``(name, kwargs)`` pairs, each built on the optimizer; or ``make["build"]``:
    a function ``(lib, opt) -> schedulers`` for schedulers made of schedulers.
    """
    opt = make_optimizer(lib, *make.get("opt", ("SGD",)), **make.get("opt_kwargs", {}))
    if "build" in make:
        schedulers = make["build"](lib, opt)
    else:
        schedulers = [getattr(lib.optim.lr_scheduler, n)(opt, **kw) for n, kw in make["scheds"]]
    states = [(groups_picture(opt), [s.get_last_lr() for s in schedulers])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a correct loop warns about nothing
        for epoch in range(epochs):
            opt.step()
            for s in schedulers:
                if metrics is None:
                    s.step()
                else:
                    s.step(metrics[epoch])
            states.append((groups_picture(opt), [s.get_last_lr() for s in schedulers]))
    return states


def assert_same_trace(make, **kwargs):
    y, t = trace(yaten, make, **kwargs), trace(torch, make, **kwargs)
    for epoch, (a, b) in enumerate(zip(y, t)):
        assert a == b, f"epoch {epoch}"


def outcome(case, lib):
    """``(exception type, message with torch's names as yaten's)`` of ``case(lib)``, or None."""
    try:
        case(lib)
    except Exception as e:  # compared by type and message
        return type(e), str(e).replace("torch.", "yaten.")
    return None
