"""``python -m codegen check-schemas FILE``: parse and round-trip every ``func:`` of a native_functions.yaml.

This proves :mod:`codegen.model` covers PyTorch's whole schema language: run it on the file torchgen
ships and every schema must parse and print back unchanged.
"""

import sys

import yaml

from codegen.model import FunctionSchema

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SHOWN_FAILURES = 5


def check_schemas(path: str) -> int:
    """Print ``parsed N/M, round-tripped K/M`` for the M entries of ``path``; return 0 if all pass.

    The first few failures go to stderr with their reason, so stdout stays one line.
    """
    with open(path, encoding="utf-8") as f:
        entries = yaml.load(f, Loader=_LOADER) or []
    total = parsed = round_tripped = 0
    failures: list[str] = []
    for entry in entries:
        total += 1
        func = entry.get("func") if isinstance(entry, dict) else None
        if not isinstance(func, str):
            failures.append(f"entry {total}: no 'func:' string")
            continue
        try:
            schema = FunctionSchema.parse(func, require_canonical=False)
        except ValueError as e:
            failures.append(f"{func}\n    parse error: {e}")
            continue
        parsed += 1
        printed = str(schema)
        if printed == func:
            round_tripped += 1
        else:
            failures.append(f"{func}\n    prints back as: {printed}")
    print(f"parsed {parsed}/{total}, round-tripped {round_tripped}/{total}")
    for failure in failures[:_SHOWN_FAILURES]:
        print(failure, file=sys.stderr)
    if len(failures) > _SHOWN_FAILURES:
        print(f"... and {len(failures) - _SHOWN_FAILURES} more", file=sys.stderr)
    return 0 if parsed == round_tripped == total else 1
