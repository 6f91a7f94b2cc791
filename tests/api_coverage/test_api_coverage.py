"""bench/api_coverage.py: api-usage.tsv recomputed for yaten, so the coverage figures stay current.

(This folder is not named ``coverage``: on a spawned worker's sys.path it would shadow the coverage
package that Numba imports when it is installed.)
"""

import doctest

import pytest

import yaten
from bench import api_coverage
from yaten._torch_alias import MissingModule


def test_the_table_is_read_whole():
    rows = api_coverage.read_table(api_coverage.TSV)
    assert len(rows) == 2562
    assert rows[0] == api_coverage.Name(2514, 18, "nn", "torch.nn.Module")
    assert len({r.name for r in rows}) == len(rows)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("torch.cat", lambda: yaten.cat),
        ("torch.Tensor.view", lambda: yaten.Tensor.view),
        ("torch.nn.functional.relu", lambda: yaten.nn.functional.relu),
        ("torch.utils.data.DataLoader", lambda: yaten.utils.data.DataLoader),  # reached by importing
        ("torch.autograd.grad", lambda: yaten.autograd.grad),
    ],
)
def test_present_names_resolve_to_yatens_objects(name, expected):
    assert api_coverage.resolve(name) is expected()


def test_an_attribute_only_instances_carry_counts():
    assert api_coverage.resolve("torch.Tensor.grad") is not None


@pytest.mark.parametrize("name", ["torch.no_such_op", "torch.Tensor.no_such_method", "torch.nn.NoSuchLayer"])
def test_absent_names_do_not_resolve(name):
    assert api_coverage.resolve(name) is None


def test_the_runners_placeholders_do_not_count(monkeypatch):
    monkeypatch.setattr(yaten, "onnx", MissingModule("torch.onnx"), raising=False)
    assert api_coverage.resolve("torch.onnx") is None
    assert api_coverage.resolve("torch.onnx.export") is None


def test_a_name_outside_torch_is_refused():
    with pytest.raises(ValueError, match="'numpy.add' is not a torch name"):
        api_coverage.resolve("numpy.add")


def test_the_report_gives_the_figures_and_does_not_fall_back():
    rows = api_coverage.read_table(api_coverage.TSV)
    text = api_coverage.report(rows, limit=5)
    present = {r.name for r in rows if api_coverage.resolve(r.name) is not None}
    overall = api_coverage.coverage(rows, present)
    assert f"all                             2562 {overall.present:>8} {overall.refs:>6} " in text
    assert "missing names used by 2 or more codebases: " in text
    # Names only ever get added: the use-weighted coverage measured when the script was written.
    assert overall.weighted >= 0.94


def test_the_docstring_examples_run():
    result = doctest.testmod(api_coverage)
    assert result.attempted > 0 and result.failed == 0
