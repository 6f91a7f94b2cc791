"""How tensors and storages cross process boundaries: by shared memory, never by copy (torch's reductions).

``init_reductions()`` registers these with ``multiprocessing.reduction.ForkingPickler``, the pickler
multiprocessing uses for ``Queue``, ``Pipe`` and the arguments of a ``spawn``/``forkserver`` Process.
Sending a cpu tensor moves its storage into shared memory first (``share_memory_``, in place, as torch
does) and sends a reference to that memory: a file descriptor passed over a Unix socket
(``file_descriptor``) or a ``/dev/shm`` name (``file_system``). The receiver maps the same bytes, so an
in-place update on either side is seen by the other (the Hogwild pattern). A storage received twice
(or sent back) is one storage object in each process.
"""

import os
from multiprocessing import reduction

from .._shared_memory import SharedBuffer
from .._storage import UntypedStorage
from .._tensor import Tensor


def _check_cpu(device) -> None:
    if device.type != "cpu":
        raise RuntimeError(
            "yaten.multiprocessing can't send a cuda tensor or storage to another process: CUDA IPC is not "
            "available in yaten; send it as a cpu tensor (.cpu()) and move it to the device in the receiver"
        )


def rebuild_storage_fd(df, nbytes: int) -> UntypedStorage:
    return SharedBuffer.attach(df.detach(), nbytes).storage()


def rebuild_storage_filename(name: str, nbytes: int) -> UntypedStorage:
    return SharedBuffer.attach(os.open(name, os.O_RDWR), nbytes, name).storage()


def reduce_storage(storage: UntypedStorage):
    _check_cpu(storage.device)
    shm = storage.share_memory_()._shm
    if shm.name is not None:
        return (rebuild_storage_filename, (shm.name, storage.nbytes()))
    return (rebuild_storage_fd, (reduction.DupFd(shm.fd), storage.nbytes()))


def rebuild_tensor(
    cls, storage: UntypedStorage, dtype, offset: int, size: tuple, stride: tuple, requires_grad: bool
):
    from .._factories import empty
    from ..autograd.grad_mode import no_grad

    with no_grad():
        t = empty(0, dtype=dtype).set_(storage, offset, size, stride)
    t._vc[0] = 0
    if cls is not Tensor:  # a Parameter: torch's nn.Parameter(data, requires_grad)
        return cls(t, requires_grad)
    t.requires_grad = requires_grad
    return t


def reduce_tensor(tensor: Tensor):
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, "
            "since autograd does not support crossing process boundaries.  "
            "If you just want to transfer the data, call detach() on the tensor "
            "before serializing (e.g., putting it on the queue)."
        )
    _check_cpu(tensor.device)
    tensor.share_memory_()
    args = (
        tensor.untyped_storage(),
        tensor.dtype,
        tensor.storage_offset(),
        tuple(tensor.shape),
        tensor.stride(),
    )
    return (rebuild_tensor, (type(tensor), *args, tensor.requires_grad))


def init_reductions() -> None:
    """Make multiprocessing send yaten's tensors, Parameters and storages through shared memory."""
    from ..nn.parameter import Parameter

    reduction.register(UntypedStorage, reduce_storage)
    reduction.register(Tensor, reduce_tensor)
    reduction.register(Parameter, reduce_tensor)
