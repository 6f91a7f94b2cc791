"""torch.testing: ``assert_close`` (and the deprecated ``assert_allclose``) and ``make_tensor``.

>>> import yaten
>>> yaten.testing.assert_close(yaten.tensor([1.0, 2.0]), yaten.tensor([1.0, 2.0 + 1e-7]))
"""

from ._comparison import assert_allclose, assert_close
from ._creation import make_tensor

__all__ = ["assert_allclose", "assert_close", "make_tensor"]
