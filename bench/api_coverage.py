"""How much of the PyTorch API that real programs use yaten has: ``api-usage.tsv`` recomputed for yaten.

``bench/api-usage.tsv`` (a copy of the project's shared table) lists each public name of PyTorch 2.13
with how often 19 public PyTorch codebases reference it (``refs``) and how many of them do
(``repos``). This script resolves every name against yaten as ``python -m yaten.run`` would serve
it (``torch.X`` -> ``yaten.X``, ``torch.Tensor.m`` -> ``yaten.Tensor.m``, ``torch.nn.functional.f``
-> ``yaten.nn.functional.f``) and prints the use-weighted coverage overall and per namespace, how
many names used by two or more codebases are missing, and the missing names, most used first::

    .venv/bin/python bench/api_coverage.py            # the summary and the 40 most used missing names
    .venv/bin/python bench/api_coverage.py --all      # every missing name
    .venv/bin/python bench/api_coverage.py --tsv ../shared/api-usage.tsv

A name counts as present only when it resolves to a real object: an attribute of the yaten module
or class, or a yaten submodule that imports; never the runner's placeholders (``MissingModule``,
whose every use says ``yaten has no torch.X yet``).
"""

import argparse
import csv
import importlib
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

import yaten
from yaten._torch_alias import MissingModule

TSV = Path(__file__).with_name("api-usage.tsv")
_ABSENT = object()


@dataclass(frozen=True)
class Name:
    """One row of the table: a public torch name and its use."""

    refs: int
    repos: int
    namespace: str
    name: str


def read_table(path: Path) -> list[Name]:
    """The rows of an api-usage.tsv (``#`` lines are its preamble; the first other line its header)."""
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t")
    return [Name(int(r["refs"]), int(r["repos"]), r["namespace"], r["name"]) for r in rows]


def _instance_attribute(cls: type, attr: str):
    # Tensor attributes an instance sets (``grad``, ``requires_grad``) that the class itself lacks;
    # ``getattr_static`` reads them without running a property.
    if cls is not yaten.Tensor:
        return _ABSENT
    try:
        return inspect.getattr_static(yaten.zeros(1), attr)
    except AttributeError:
        return _ABSENT


def resolve(name: str):
    """The yaten object that ``torch.<...>`` resolves to, or ``None`` when yaten lacks it.

    >>> resolve("torch.nn.functional.relu") is yaten.nn.functional.relu
    True
    >>> resolve("torch.no_such_function") is None
    True
    """
    parts = name.split(".")
    if parts[0] != "torch":
        raise ValueError(f"{name!r} is not a torch name")
    obj, path = yaten, "yaten"
    for attr in parts[1:]:
        path = f"{path}.{attr}"
        try:
            found = getattr(obj, attr)
        except AttributeError:
            found = _ABSENT
        if found is _ABSENT and inspect.ismodule(obj):
            try:
                found = importlib.import_module(path)
            except ModuleNotFoundError:
                found = _ABSENT
        if found is _ABSENT and isinstance(obj, type):
            found = _instance_attribute(obj, attr)
        if found is _ABSENT or isinstance(found, MissingModule):
            return None
        obj = found
    return obj


@dataclass(frozen=True)
class Coverage:
    """The use-weighted coverage of a set of names."""

    names: int
    present: int
    refs: int
    present_refs: int

    @property
    def weighted(self) -> float:
        return self.present_refs / self.refs if self.refs else 1.0


def coverage(rows: list[Name], present: set[str]) -> Coverage:
    """Counts and use-weighted share of ``rows`` whose names are in ``present``.

    >>> rows = [Name(30, 3, "torch", "torch.a"), Name(10, 1, "torch", "torch.b")]
    >>> coverage(rows, {"torch.a"}).weighted
    0.75
    """
    have = [r for r in rows if r.name in present]
    return Coverage(len(rows), len(have), sum(r.refs for r in rows), sum(r.refs for r in have))


def report(rows: list[Name], limit: int | None) -> str:
    """The summary table, then the missing names with their use (``limit`` of them, or all)."""
    present = {r.name for r in rows if resolve(r.name) is not None}
    missing = sorted((r for r in rows if r.name not in present), key=lambda r: (-r.refs, -r.repos, r.name))
    lines = ["namespace                      names  present   refs  weighted"]
    by_namespace: dict[str, list[Name]] = {}
    for r in rows:
        by_namespace.setdefault(r.namespace, []).append(r)
    groups = sorted(by_namespace.items(), key=lambda kv: -sum(r.refs for r in kv[1]))
    for label, group in [*groups, ("all", rows)]:
        c = coverage(group, present)
        lines.append(f"{label:<28} {c.names:>7} {c.present:>8} {c.refs:>6} {c.weighted:>8.2%}")
    widely_used = [r for r in missing if r.repos >= 2]
    lines += ["", f"missing names used by 2 or more codebases: {len(widely_used)}", *_listing(widely_used)]
    shown = "all" if limit is None else f"first {limit}"
    lines += ["", f"missing names, most used first ({shown} of {len(missing)}):", *_listing(missing[:limit])]
    return "\n".join(lines)


def _listing(rows: list[Name]) -> list[str]:
    return ["refs  repos  name", *(f"{r.refs:>4} {r.repos:>6}  {r.name}" for r in rows)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tsv", type=Path, default=TSV, help="the api-usage table (default: %(default)s)")
    parser.add_argument("--all", action="store_true", help="list every missing name, not only the first 40")
    args = parser.parse_args(argv)
    print(report(read_table(args.tsv), None if args.all else 40))


if __name__ == "__main__":
    sys.exit(main())
