"""Bad and edge calls run with torch and with yaten: does yaten raise what torch raises?

The corpus is ``bad_calls_args.CASES`` (shapes, dtypes, dims, sizes, argument types),
``bad_calls_pointwise.CASES`` (division, bool and overlap errors) and the op table's ``BAD`` samples.
Run ``python -m tests.ops.bad_calls`` for the figures; ``-v`` lists every case that differs.
"""

import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch

import yaten

# The op table's modules import each other by their bare names, as pytest runs them.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bad_calls_args
from op_samples import BAD, functional_ops
from test_ops import _call


@dataclass(frozen=True)
class Outcome:
    label: str
    torch: type | None  # the exception type raised, or None when the call returned
    yaten: type | None

    @property
    def silent(self) -> bool:
        """torch raises, yaten returns a value."""
        return self.torch is not None and self.yaten is None


def raised(lib, call) -> type | None:
    """The type of the exception ``call(lib)`` raises, or None; warnings are not the point here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(lib)
        except Exception as e:  # any exception: its type is what is compared
            return type(e)
    return None


def _op_table_cases() -> list:
    return [
        (f"{fn.name}: {s.label}", lambda m, fn=fn, s=s: _call(m, fn, s))
        for fn in functional_ops()
        for s in BAD.get(fn.name, [])
    ]


def corpus() -> list:
    """Every (label, call) case: the argument corpus, the pointwise one where present, the op table's."""
    cases = list(bad_calls_args.CASES)
    try:
        import bad_calls_pointwise
    except ModuleNotFoundError:  # not written yet
        pass
    else:
        cases += bad_calls_pointwise.CASES
    return cases + _op_table_cases()


def compare(cases) -> list:
    return [Outcome(label, raised(torch, call), raised(yaten, call)) for label, call in cases]


def figures(outcomes) -> dict:
    both = [o for o in outcomes if o.torch is not None and o.yaten is not None]
    same = sum(o.torch is o.yaten for o in both)
    return {
        "calls": len(outcomes),
        "both raise": len(both),
        "same type": same,
        "same type %": round(100.0 * same / len(both), 1) if both else 100.0,
        "silent (torch raises, yaten returns)": sum(o.silent for o in outcomes),
        "reverse (yaten raises, torch returns)": sum(
            o.torch is None and o.yaten is not None for o in outcomes
        ),
    }


def _name(t) -> str:
    return "returns" if t is None else t.__name__


def main(argv) -> None:
    outcomes = compare(corpus())
    for key, value in figures(outcomes).items():
        print(f"{key}: {value}")
    if "-v" in argv:
        for o in outcomes:
            if o.torch is not o.yaten:
                print(f"  {o.label}: torch {_name(o.torch)}, yaten {_name(o.yaten)}")


if __name__ == "__main__":
    main(sys.argv[1:])
