"""The globals a user marks safe for a weights-only load, and the messages of that load's refusals.

As ``torch.serialization``: ``add_safe_globals([cls_or_fn, ...])`` lets the restricted unpickler name,
call, instantiate and set the state of the listed globals; ``safe_globals([...])`` does it for a
``with`` block; an item is a global or a ``(global, "module.qualname")`` pair naming it as the file
does. yaten writes its own globals under torch's names (``torch.nn.modules.linear.Linear``,
``torch.nn.functional.relu``), so a yaten global is listed under that name: ``add_safe_globals(
[yaten.nn.Linear])`` admits the ``torch.nn.modules.linear.Linear`` of a file, whichever library wrote it.
"""

import pickle

from ._torch_names import pickle_name

# The wording of torch 2.13's serialization.py, so messages and the advice in them are the same.
UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)

_marked: set = set()


def add_safe_globals(safe_globals: list) -> None:
    """Mark globals (classes, functions, or ``(global, "module.qualname")`` pairs) safe for a
    ``weights_only`` load: the unpickler may then name, call, instantiate and build them.

    >>> import io, yaten
    >>> class Point:
    ...     def __init__(self, x): self.x = x
    >>> yaten.serialization.add_safe_globals([Point])
    >>> Point in yaten.serialization.get_safe_globals()
    True
    >>> yaten.serialization.clear_safe_globals()
    """
    global _marked
    _marked = _marked.union(set(safe_globals))


def get_safe_globals() -> list:
    """The globals the user marked safe for a ``weights_only`` load (torch's own defaults not included).

    >>> import yaten
    >>> yaten.serialization.get_safe_globals()
    []
    """
    return list(_marked)


def clear_safe_globals() -> None:
    """Forget every global marked safe with ``add_safe_globals``.

    >>> import yaten
    >>> yaten.serialization.add_safe_globals([complex]); yaten.serialization.clear_safe_globals()
    >>> yaten.serialization.get_safe_globals()
    []
    """
    global _marked
    _marked = set()


class safe_globals:
    """Mark globals safe for ``weights_only`` loads inside a ``with`` block, as torch's.

    >>> import yaten
    >>> with yaten.serialization.safe_globals([complex]):
    ...     complex in yaten.serialization.get_safe_globals()
    True
    >>> yaten.serialization.get_safe_globals()
    []
    """

    def __init__(self, safe_globals: list) -> None:
        self.safe_globals = safe_globals

    def __enter__(self) -> None:
        add_safe_globals(self.safe_globals)

    def __exit__(self, exc_type, exc, tb) -> None:
        global _marked
        _marked = _marked - set(self.safe_globals)


def user_allowed() -> dict:
    """``"module.qualname"`` as a file names it -> the global, for every item marked safe."""
    allowed = {}
    for item in _marked:
        if isinstance(item, tuple):
            if len(item) != 2:
                raise ValueError(
                    f"Expected tuple of length 2 (global, str of callable full path), but got tuple of length: "
                    f"{len(item)}"
                )
            if type(item[1]) is not str:
                raise TypeError(
                    f"Expected second item in tuple to be str of callable full path, but got: {type(item[1])}"
                )
            allowed[item[1]] = item[0]
        else:  # named as yaten.save names it (torch's path for a yaten global)
            allowed[_file_name(item)] = item
    return allowed


def _file_name(item) -> str:
    try:
        named = pickle_name(item, item.__qualname__)
    except pickle.PicklingError:  # a private yaten global no file names by a public path
        named = None
    module, name = named or (item.__module__, item.__qualname__)
    return f"{module}.{name}"


def unsupported_global(full: str) -> str:
    """torch's refusal of a global that is neither allowed by default nor marked safe."""
    if full.startswith("builtins"):  # torch names a builtin without its module
        full = full[len("builtins") :]
        full = full[1:] if full.startswith(".") else "builtins" + full
    return (
        f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals([{full}])` "
        "context manager to allowlist this global if you trust this class/function."
    )


def weights_only_message(message: str) -> str:
    """What a failed weights-only load says, around the unpickler's own message (torch's
    ``_get_wo_message``): an unknown global gets the two ways out, anything else the advice to load
    with ``weights_only=False`` from a trusted source."""
    if "was not an allowed global by default." in message:
        return (
            "Weights only load failed. This file can still be loaded, to do so you have two options, "
            "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
            f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
            "the recommended steps in the following error message.\n\tWeightsUnpickler error: "
            + message
            + DOCS_MESSAGE
        )
    return (
        f"Weights only load failed. {UNSAFE_MESSAGE}\nPlease file an issue with the following so that we can "
        "make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n"
        + message
        + DOCS_MESSAGE
    )
