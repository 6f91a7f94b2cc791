"""The caching allocator's report and torch's deprecated memory names: ``memory_summary``,
``memory_cached``/``max_memory_cached`` (now ``memory_reserved``), ``reset_max_memory_allocated``/
``reset_max_memory_cached`` (now ``reset_peak_memory_stats``), each warning as torch's."""

import warnings

from . import max_memory_reserved, memory_reserved, memory_stats, reset_peak_memory_stats

__all__ = ["max_memory_cached", "memory_cached", "memory_summary", "reset_max_memory_allocated",
           "reset_max_memory_cached"]  # fmt: skip

_ROWS = (("Allocated memory", "allocated_bytes.all"), ("Reserved memory", "reserved_bytes.all"))


def _bytes(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} GiB"


def memory_summary(device=None, abbreviated=False) -> str:
    """A printable table of the caching allocator's current and peak usage, in torch's layout.

    >>> import yaten
    >>> print(yaten.cuda.memory_summary().splitlines()[1].strip())
    |                  PyTorch CUDA memory summary, device ID 0                 |
    """
    stats = memory_stats(device)
    width = 75
    rule = "|" + "=" * width + "|"
    lines = [
        rule,
        "|" + "PyTorch CUDA memory summary, device ID 0".center(width) + "|",
        "|" + "-" * width + "|",
        "|"
        + "            Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ".ljust(width)
        + "|",
        "|" + "-" * width + "|",
    ]
    for label, key in _ROWS:
        cur, peak = stats[f"{key}.current"], stats[f"{key}.peak"]
        lines.append(f"| {label:<25} | {_bytes(cur):>10} | {_bytes(peak):>10} | {'':>10} | {'':>10} |")
    allocs, frees = stats["allocation.all.allocated"], stats["allocation.all.freed"]
    lines.append(f"| {'Allocations':<25} | {allocs - frees:>10} | {'':>10} | {allocs:>10} | {frees:>10} |")
    lines.append(rule)
    return "\n".join(lines) + "\n"


def _renamed(old: str, new, message: str):
    """torch's deprecated ``old``: warns ``message`` (FutureWarning) and calls ``new``."""

    def call(device=None):
        warnings.warn(message, FutureWarning, stacklevel=2)
        return new(device)

    call.__name__ = call.__qualname__ = old
    call.__doc__ = f"Deprecated: ``{new.__name__}``."
    return call


memory_cached = _renamed(
    "memory_cached",
    memory_reserved,
    "`torch.cuda.memory_cached` has been renamed to `torch.cuda.memory_reserved`",
)
max_memory_cached = _renamed(
    "max_memory_cached",
    max_memory_reserved,
    "`torch.cuda.max_memory_cached` has been renamed to `torch.cuda.max_memory_reserved`",
)
reset_max_memory_allocated = _renamed(
    "reset_max_memory_allocated",
    reset_peak_memory_stats,
    "torch.cuda.reset_max_memory_allocated now calls torch.cuda.reset_peak_memory_stats, "
    "which resets /all/ peak memory stats.",
)
reset_max_memory_cached = _renamed(
    "reset_max_memory_cached",
    reset_peak_memory_stats,
    "torch.cuda.reset_max_memory_cached now calls torch.cuda.reset_peak_memory_stats, "
    "which resets /all/ peak memory stats.",
)
