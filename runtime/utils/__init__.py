"""yaten.utils: hooks, and ``data`` and ``checkpoint`` (loaded on first use)."""


def __getattr__(name: str):
    if name in ("data", "checkpoint"):
        import importlib

        return importlib.import_module(f"yaten.utils.{name}")
    raise AttributeError(f"module 'yaten.utils' has no attribute '{name}'")
