"""The backend names ``torch.compile(backend=...)`` accepts, as torch 2.13 registers them."""

__all__ = ["list_backends"]

# torch._dynamo.list_backends(exclude_tags=()); the listed ones are torch's non-debug, non-experimental set
_LISTED = ("cudagraphs", "inductor", "openxla", "tvm")
_ALL = _LISTED + (
    "aot_eager", "aot_eager_decomp_partition", "aot_eager_default_partitioner", "aot_ts", "eager",
    "eager_debug", "eager_noexcept", "openxla_eval", "pre_dispatch_eager", "ts",
)  # fmt: skip


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """The names of the registered backends (by default without the debug and experimental ones).

    >>> import yaten._dynamo
    >>> yaten._dynamo.list_backends()
    ['cudagraphs', 'inductor', 'openxla', 'tvm']
    """
    return sorted(_ALL if not exclude_tags else _LISTED)
