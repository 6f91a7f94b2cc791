"""yaten.nn.parallel: ``DataParallel`` and its pieces (``data_parallel``, ``scatter``, ``gather``,
``parallel_apply``) at torch's class paths. ``DistributedDataParallel`` belongs to ``yaten.distributed``
(not built yet).

>>> import yaten
>>> yaten.nn.parallel.DataParallel is yaten.nn.DataParallel
True
"""

from .data_parallel import DataParallel, data_parallel
from .parallel_apply import parallel_apply
from .scatter_gather import gather, scatter

__all__ = ["DataParallel", "data_parallel", "gather", "parallel_apply", "scatter"]
