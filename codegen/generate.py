"""``python -m codegen``: load the spec, render generated/, write it (or check it is fresh)."""

import sys
from pathlib import Path

from codegen import emit
from codegen.load import SpecError, load

ROOT = Path(__file__).resolve().parent.parent


def generate(check: bool = False, root: Path = ROOT) -> int:
    try:
        spec = load(root)
        files = emit.render(spec)
    except SpecError as e:
        print(e, file=sys.stderr)
        return 1
    stale = emit.write(root / "generated", files, check)
    if check:
        if stale:
            print(
                "generated/ is stale; run `make generate`. Would change: " + ", ".join(stale), file=sys.stderr
            )
            return 1
        print(f"generated/ is fresh ({len(files)} files)")
        return 0
    print(f"generated/: {len(stale)} file(s) written, {len(files) - len(stale)} unchanged")
    return 0
