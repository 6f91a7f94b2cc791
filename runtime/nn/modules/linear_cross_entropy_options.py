"""``torch.nn.LinearCrossEntropyOptions``: how ``F.linear_cross_entropy`` chunks its batch (the
options of its memory-saving path), validated and resolved per call as torch's."""

import dataclasses

import yaten

__all__ = ["LinearCrossEntropyOptions"]

# (device type, dtype) -> (acc_policy, chunking_method) that "auto" resolves to, as torch's table.
_AUTO_DEFAULTS = {
    ("cuda", yaten.bfloat16): ("compact", "aspect_ratio:2"),
    ("cuda", yaten.float16): ("compact", "aspect_ratio:2"),
    ("cpu", yaten.bfloat16): ("accurate", "aspect_ratio"),
    ("cpu", yaten.float16): ("accurate", "aspect_ratio"),
}
_AUTO_FALLBACK = ("compact", "aspect_ratio:2")
_ACC_DTYPES = (yaten.float16, yaten.bfloat16, yaten.float32, yaten.float64)


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """The chunking of ``linear_cross_entropy``'s batch: ``batch_chunk_size`` rows at a time, or a size
    from ``chunking_method`` (``"aspect_ratio[:k]"``: about ``N * in_features / num_classes`` rows,
    rounded up to a power of two, divided by ``k``); ``acc_dtype`` the dtype gradients accumulate in
    (``acc_policy`` "auto" picks float32 for half-precision inputs). yaten accumulates in ``acc_dtype``
    whatever the ``acc_policy``.

    >>> import yaten
    >>> opts = yaten.nn.LinearCrossEntropyOptions(batch_chunk_size=4)
    >>> opts._adjust(10, 8, 100, yaten.float32, yaten.device("cpu")).batch_chunk_size
    4
    >>> yaten.nn.LinearCrossEntropyOptions(chunking_method="rows")
    Traceback (most recent call last):
    ValueError: invalid chunking_method: 'rows'
    """

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None

    def __post_init__(self):
        if self.acc_policy not in {"auto", "accurate", "balanced", "compact"}:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            if not sep:
                factor = "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        if not (
            self.batch_chunk_size is None
            or (isinstance(self.batch_chunk_size, int) and self.batch_chunk_size > 0)
        ):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {self.batch_chunk_size!r}")
        if self.acc_dtype is not None and self.acc_dtype not in _ACC_DTYPES:
            raise ValueError(
                "acc_dtype must be one of {None, torch.float16, torch.bfloat16, torch.float32, torch.float64}, "
                f"got {self.acc_dtype!r}. Pass acc_dtype=None to let the op pick automatically."
            )

    @staticmethod
    def _resolve_auto_acc_dtype(dtype, device):
        """float32 accumulation for half-precision inputs where the device computes in it, else None."""
        if device is None or dtype not in (yaten.float16, yaten.bfloat16):
            return None
        if device.type == "cuda":
            if not yaten.cuda.is_available():
                return None
            major, _ = yaten.cuda.get_device_capability(device)
            if major < (8 if dtype == yaten.bfloat16 else 7):
                return None
            return yaten.float32
        return yaten.float32 if device.type == "cpu" else None

    def _compute_batch_chunk_size(self, num_batches, in_features, num_classes, method=None) -> int:
        method = str(method if method is not None else self.chunking_method)
        if not method.startswith("aspect_ratio"):
            raise AssertionError(f"unhandled chunking_method: {method!r}")
        factor = int(method.split(":", 1)[1]) if ":" in method else 1
        inc_factor = -(-num_classes // in_features)
        target = -(-num_batches // inc_factor)
        chunk_size = 1 << (target - 1).bit_length()  # the next power of 2 >= target
        return min(chunk_size // factor, num_batches)

    def _adjust(self, num_batches, in_features, num_classes, dtype, device=None):
        """These options resolved for one call: "auto" replaced, the chunk size and acc_dtype fixed."""
        acc_policy, chunking_method = self.acc_policy, self.chunking_method
        if chunking_method == "auto" and self.batch_chunk_size is not None:
            chunking_method = None
        if acc_policy == "auto" or chunking_method == "auto":
            ap, cm = (
                _AUTO_DEFAULTS.get((device.type, dtype), _AUTO_FALLBACK)
                if device is not None
                else _AUTO_FALLBACK
            )
            acc_policy = ap if acc_policy == "auto" else acc_policy
            chunking_method = cm if chunking_method == "auto" else chunking_method
        batch_chunk_size = (
            num_batches if self.batch_chunk_size is None else min(self.batch_chunk_size, num_batches)
        )
        if chunking_method is not None:
            batch_chunk_size = self._compute_batch_chunk_size(
                num_batches, in_features, num_classes, chunking_method
            )
            if self.batch_chunk_size is not None and self.batch_chunk_size != batch_chunk_size:
                raise ValueError(
                    f"batch_chunk_size (={self.batch_chunk_size}) and chunking_method ('{chunking_method}') give "
                    f"different chunk sizes ({self.batch_chunk_size} vs {batch_chunk_size}); pass only one."
                )
        if self.acc_dtype is None:
            auto_acc = self._resolve_auto_acc_dtype(dtype, device) if self.acc_policy == "auto" else None
            acc_dtype = auto_acc if auto_acc is not None else dtype
        else:
            acc_dtype = self.acc_dtype
        return dataclasses.replace(
            self,
            acc_policy=acc_policy,
            chunking_method=chunking_method,
            batch_chunk_size=max(1, batch_chunk_size),
            acc_dtype=acc_dtype,
        )
