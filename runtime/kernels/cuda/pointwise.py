"""Running a generated elementwise kernel on device arrays: broadcast, cast, launch, write back.

The generator emits, per ``pointwise:`` op, a ``@cuda.jit`` kernel over flat arrays::

    @cuda.jit
    def add_Tensor(out, self, other, alpha):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = self[i] + alpha * other[i]

``launcher`` wraps it into the callable that ``yaten._pointwise.PointwiseOp`` calls for cuda
tensors. Type promotion has already happened there: this module only moves data.
"""

import math

import numpy as np

from ..._promotion import infer_size
from . import memory
from .copy import contiguous_cast, copy_into, launch


def launcher(kernel):
    """The runner of ``kernel``: ``run(args, tensor_positions, result_dtype, compute_dtype, out)``.

    ``args`` holds the op's arguments in schema order: device arrays (any shape and strides, 0-d,
    broadcastable) or 0-d host arrays (CPU scalars) at ``tensor_positions``, Python numbers elsewhere. The tensors are broadcast and
    cast to ``compute_dtype`` into flat contiguous device arrays, the numbers become NumPy scalars
    of ``compute_dtype``, and one thread per element runs the kernel. The result is a new device
    array of the broadcast shape and ``result_dtype``, or ``out`` (any strides, the broadcast
    shape), written in place and returned.
    """

    def run(args, tensor_positions, result_dtype, compute_dtype, out):
        shape = tuple(infer_size(*(args[i].shape for i in tensor_positions)))
        if out is not None:
            full = tuple(infer_size(tuple(out.shape), shape))
            if full != tuple(out.shape):
                raise RuntimeError(
                    f"output with shape {list(out.shape)} doesn't match the broadcast shape {list(full)}"
                )
            shape = full
        n = math.prod(shape)
        # The kernel writes its own dtype: bool for comparisons, else the compute dtype
        # (float32 for float16 results), cast to the result dtype afterwards.
        rnp = result_dtype.np
        knp = rnp if rnp == np.bool_ else compute_dtype.np
        if out is not None and out.dtype == knp and memory.is_contiguous(out):
            res = out
        elif out is None and n == 0:
            return memory.empty(shape, rnp)
        else:
            res = memory.empty(shape, knp)
        if n:
            cnp = compute_dtype.np
            call = []
            for i, a in enumerate(args):
                if i in tensor_positions:
                    if isinstance(a, np.ndarray):  # a CPU 0-d tensor joining the op as a number
                        a = memory.from_host(a)
                    call.append(memory.flat(contiguous_cast(a, shape, cnp)))
                else:
                    call.append(cnp.type(a))
            launch(kernel, n, memory.flat(res), *call)
        if out is not None:
            return out if res is out else copy_into(out, res)
        return res if knp == rnp else contiguous_cast(res, shape, rnp)

    run.kernel = kernel
    return run
