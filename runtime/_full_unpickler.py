"""The full unpickler of ``yaten.load(..., weights_only=False)``: any global, torch's names mapped to yaten.

It runs whatever the pickle says (pickle's own unpickler, or ``pickle_module``'s), as
``torch.load(weights_only=False)`` does: **only for files from a source you trust**. PyTorch's
tensor and storage rebuilds are yaten's (the tensors' bytes come from the archive's records, as in
a weights-only load), and every other ``torch.X`` the file names is yaten's ``X``
(``_torch_names.yaten_global``), so a whole module or optimizer saved by torch loads as yaten's.
"""

import functools
import pickle

from ._torch_names import yaten_global
from ._unpickler import allowed_global, load_storage, python3_name


@functools.cache
def unpickler_class(base: type) -> type:
    """A subclass of ``base`` (``pickle.Unpickler`` or ``pickle_module.Unpickler``) that reads a checkpoint."""

    class FullUnpickler(base):
        def __init__(self, file, storage, **kwargs) -> None:
            super().__init__(file, **kwargs)
            self.storage = storage

        def find_class(self, module: str, name: str):
            py_module, py_name = python3_name(module, name)
            found = allowed_global(py_module, py_name)
            if found is not None:
                return found
            if py_module == "torch" or py_module.startswith("torch."):
                return yaten_global(py_module, py_name)
            return super().find_class(module, name)

        def persistent_load(self, pid):
            return load_storage(pid, self.storage)

    return FullUnpickler


def full_load(file, storage, pickle_module=pickle, **pickle_load_args):
    """Unpickle ``file`` without restriction, storages read by ``storage(key, location, dtype, numel)``."""
    return unpickler_class(pickle_module.Unpickler)(file, storage, **pickle_load_args).load()
