"""yaten.hub: ``torch.hub``'s cache directory (``get_dir``/``set_dir``, torch's ``$TORCH_HOME/hub``
default) and its loaders. Loading from a hub needs the network and the repository's ``hubconf.py``
written for torch's downloads, which yaten does not do: ``load``, ``list``, ``help``,
``load_state_dict_from_url`` and ``download_url_to_file`` raise ``RuntimeError`` saying so, except
that ``load(path, model, source="local")`` imports a local ``hubconf.py`` and calls its entry point, and
``load_state_dict_from_url`` loads a file already in the cache, as torch's do without the network.

>>> import yaten
>>> yaten.hub.get_dir().endswith("hub")
True
"""

import importlib.util
import os
import sys
import warnings
from urllib.parse import urlparse

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir"]

ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
MODULE_HUBCONF = "hubconf.py"
_HUB_DIR = [None]


def _no_network(what: str) -> RuntimeError:
    return RuntimeError(
        f"yaten cannot {what}: yaten.hub does not download (no network access is made). Download the "
        "weights with torch or by hand and load them with yaten.load, or use "
        "yaten.hub.load(local_dir, model, source='local')"
    )


def _get_torch_home() -> str:
    return os.path.expanduser(
        os.getenv(ENV_TORCH_HOME, os.path.join(os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch"))
    )


def get_dir() -> str:
    """The hub cache directory: what ``set_dir`` set, else ``$TORCH_HOME/hub`` (``~/.cache/torch/hub``)."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _HUB_DIR[0] is not None:
        return _HUB_DIR[0]
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d) -> None:
    """Set the hub cache directory.

    >>> import yaten
    >>> old = yaten.hub.get_dir()
    >>> yaten.hub.set_dir("/tmp/hub")
    >>> yaten.hub.get_dir()
    '/tmp/hub'
    >>> yaten.hub.set_dir(old)
    """
    _HUB_DIR[0] = os.path.expanduser(d)


def _load_local_hubconf(hub_dir: str):
    path = os.path.join(hub_dir, MODULE_HUBCONF)
    spec = importlib.util.spec_from_file_location("hubconf", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, hub_dir)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(hub_dir)
    return module


def _entry(module, model: str):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    func = getattr(module, model, None)
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False, verbose=True,
         skip_validation=False, **kwargs):  # fmt: skip
    """``model(*args, **kwargs)`` from a local directory's ``hubconf.py`` (``source="local"``); a GitHub
    repository would need the network: RuntimeError."""
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        raise _no_network(f"load {repo_or_dir!r} from GitHub (torch.hub.load)")
    return _entry(_load_local_hubconf(repo_or_dir), model)(*args, **kwargs)


def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The entry points of a GitHub repository's hubconf: needs the network, so RuntimeError."""
    raise _no_network(f"list the models of {github!r} (torch.hub.list)")


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of a GitHub repository's entry point: needs the network, so RuntimeError."""
    raise _no_network(f"fetch the help of {github}:{model} (torch.hub.help)")


def download_url_to_file(url, dst, hash_prefix=None, progress=True) -> None:
    """Download ``url`` to ``dst``: yaten makes no network access, so RuntimeError."""
    raise _no_network(f"download {url} (torch.hub.download_url_to_file)")


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True, check_hash=False,
                             file_name=None, weights_only=False):  # fmt: skip
    """The checkpoint at ``url`` if it is already in the hub cache (``<hub dir>/checkpoints/<file>``, as
    torch caches it), loaded with ``yaten.load``; otherwise it would need downloading: RuntimeError."""
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    filename = file_name or os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        raise _no_network(f"download {url} to {cached_file} (torch.hub.load_state_dict_from_url)")
    from .serialization import load as _load

    return _load(cached_file, map_location=map_location, weights_only=weights_only)
