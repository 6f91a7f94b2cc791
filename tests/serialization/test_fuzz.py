"""Fuzzing yaten.load: a real checkpoint truncated or with bits flipped loads or raises one of two types.

Every outcome is a loaded object, a RuntimeError or a pickle.UnpicklingError (torch.load's documented
errors); never KeyError, ValueError, struct.error, zlib.error, RecursionError, MemoryError, ...
"""

import io
import pickle
import random
import zipfile

import pytest

import yaten


def _checkpoint() -> bytes:
    # A module's state_dict (an OrderedDict with _metadata), an optimizer-like state, views, a parameter.
    net = yaten.nn.Sequential(yaten.nn.Linear(3, 2), yaten.nn.BatchNorm1d(2))
    x = yaten.arange(6.0)
    obj = {"model": net.state_dict(), "step": 7, "views": [x, x[2:4]], "p": yaten.nn.Parameter(yaten.ones(2)),
           "meta": {"name": "ü", "lr": 1e-3, "betas": (0.9, 0.999), "ids": {1, 2}, "blob": b"\x00\xff"}}  # fmt: skip
    buf = io.BytesIO()
    yaten.save(obj, buf)
    return buf.getvalue()


GOOD = _checkpoint()


def _outcome(data: bytes) -> str:
    try:
        yaten.load(io.BytesIO(data))
    except (RuntimeError, pickle.UnpicklingError):
        return "refused"
    return "loaded"


def test_the_checkpoint_loads_and_has_every_kind_of_record():
    assert _outcome(GOOD) == "loaded"
    names = zipfile.ZipFile(io.BytesIO(GOOD)).namelist()
    assert "archive/data.pkl" in names and "archive/data/5" in names and "archive/byteorder" in names


def test_truncation_at_every_seventh_byte():
    outcomes = {_outcome(GOOD[:cut]) for cut in range(0, len(GOOD), 7)}
    assert outcomes == {"refused"}


@pytest.mark.parametrize("seed", range(4))
def test_random_bit_flips(seed):
    rng = random.Random(seed)
    outcomes = []
    for _ in range(100):
        bad = bytearray(GOOD)
        for _ in range(rng.choice((1, 1, 2, 8))):
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        outcomes.append(_outcome(bytes(bad)))  # anything else propagates and fails the test
    assert "refused" in outcomes


@pytest.mark.parametrize("seed", range(2))
def test_random_bytes_in_the_pickle(seed):
    # The pickle is read without a CRC check failing first: bytes replaced inside data.pkl itself.
    z = zipfile.ZipFile(io.BytesIO(GOOD))
    pkl = z.read("archive/data.pkl")
    rng = random.Random(seed)
    for _ in range(150):
        bad = bytearray(pkl)
        for _ in range(rng.choice((1, 2, 4))):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as w:
            for n in z.namelist():
                w.writestr(n, bytes(bad) if n == "archive/data.pkl" else z.read(n))
        _outcome(out.getvalue())  # loads or raises one of the two types; anything else fails the test
