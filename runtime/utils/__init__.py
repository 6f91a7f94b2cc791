"""yaten.utils: hooks, and ``data`` (loaded on first use)."""


def __getattr__(name: str):
    if name == "data":
        import importlib

        return importlib.import_module("yaten.utils.data")
    raise AttributeError(f"module 'yaten.utils' has no attribute '{name}'")
