"""Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict side by side with PyTorch."""

from collections import OrderedDict

import pytest

from tests.nn._module_parity import affine_class, same


def _layers(m, n=3):
    Affine = affine_class(m)
    return [Affine(3, 3) for _ in range(n)]


def _names(mod):
    return [k for k, _ in mod.named_children()]


# --- Sequential -------------------------------------------------------------------------------------------


def test_sequential_forward_and_repr():
    def case(m):
        seq = m.nn.Sequential(*_layers(m))
        x = m.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        y = seq(x)
        y.sum().backward()
        return y, x.grad, repr(seq), repr(m.nn.Sequential()), [n for n, _ in seq.named_parameters()]

    same(case)


def test_sequential_from_ordered_dict_and_indexing():
    def case(m):
        a, b, c = _layers(m)
        seq = m.nn.Sequential(OrderedDict([("first", a), ("second", b), ("third", c)]))
        out = [_names(seq), seq[0] is a, seq[-1] is c, seq[-3] is a, seq.second is b]
        sl = seq[1:]
        out += [type(sl).__name__, _names(sl), sl[0] is b, _names(seq[::2]), repr(seq)]
        for bad in (3, -4):
            try:
                seq[bad]
            except IndexError as e:
                out.append(str(e))
        try:
            seq["first"]
        except TypeError as e:
            out.append(type(e).__name__)
        return out

    same(case)


def test_sequential_mutation():
    def case(m):
        a, b, c = _layers(m)
        d = m.nn.Sequential()
        seq = m.nn.Sequential(a, b)
        out = [seq.append(c) is seq, len(seq), _names(seq)]
        seq[1] = d
        out.append(seq[1] is d)
        del seq[0]
        out += [_names(seq), seq[0] is d]
        seq.insert(0, a)
        seq.insert(-1, b)
        out.append([type(x).__name__ for x in seq])
        out.append(seq.pop(1) is b)
        seq.extend([b, b])
        out.append(len(seq))
        del seq[1:3]
        out.append([type(x).__name__ for x in seq])
        for bad in (lambda: seq.insert(9, a), lambda: seq.insert(0, 3)):
            try:
                bad()
            except (IndexError, AssertionError) as e:
                out.append(type(e).__name__)
        return out

    same(case)


def test_sequential_operators():
    def case(m):
        a, b = _layers(m, 2)
        s1, s2 = m.nn.Sequential(a), m.nn.Sequential(b)
        s3 = s1 + s2
        out = [type(s3).__name__, len(s3), s3[1] is b, len(s1 * 3), len(2 * s1)]
        s1 += s2
        out.append(len(s1))
        s2 *= 2
        out.append(len(s2))
        for bad in (lambda: s1 + [a], lambda: s1 * 0, lambda: s1 * 1.5):
            try:
                bad()
            except (ValueError, TypeError) as e:
                out.append((type(e).__name__, str(e).split(" <class")[0]))
        out.append([k for k in dir(s3) if k.isdigit()])
        return out

    same(case)


def test_sequential_state_dict_keys():
    def case(m):
        seq = m.nn.Sequential(*_layers(m, 2))
        return list(seq.state_dict())

    assert same(case) == ("list", ["0.weight", "0.bias", "1.weight", "1.bias"])


# --- ModuleList -------------------------------------------------------------------------------------------


def test_module_list():
    def case(m):
        a, b, c = _layers(m)
        ml = m.nn.ModuleList([a, b])
        out = [len(ml), ml[-1] is b, type(ml[:1]).__name__, list(ml) == [a, b]]
        ml.append(c)
        ml.insert(1, c)
        out.append([x is c for x in ml])
        ml.extend([a])
        ml += [b]
        out.append(len(ml))
        ml[0] = b
        out.append(ml[0] is b)
        out.append(ml.pop(0) is b)
        del ml[1:3]
        out.append(_names(ml))
        combined = ml + m.nn.ModuleList([a])
        out.append((type(combined).__name__, len(combined)))
        out.append([n for n, _ in ml.named_parameters()])
        for bad in (lambda: ml[10], lambda: ml.extend(3), lambda: ml.append(3)):
            try:
                bad()
            except (IndexError, TypeError) as e:
                out.append((type(e).__name__, str(e)))
        return out

    same(case)


def test_module_list_repr_folds_repeats():
    def case(m):
        a, b, c = _layers(m)
        Affine = affine_class(m)
        ml = m.nn.ModuleList([a, b, c, Affine(3, 2), m.nn.Sequential(a, b), Affine(3, 2)])
        return repr(ml), repr(m.nn.ModuleList())

    got = same(case)
    assert "(0-2): 3 x Affine(in_features=3, out_features=3)" in got[1][0]


# --- ModuleDict -------------------------------------------------------------------------------------------


def test_module_dict():
    def case(m):
        a, b, c = _layers(m)
        md = m.nn.ModuleDict({"b": b, "a": a})
        out = [list(md), list(md.keys()), "a" in md, len(md), md["a"] is a]
        md["c"] = c
        md.update([("d", a)])
        md.update(m.nn.ModuleDict({"e": b}))
        out.append(list(md))
        out.append(md.pop("b") is b)
        del md["c"]
        out += [list(md), [k for k, _ in md.items()], len(list(md.values())), repr(md)]
        out.append([n for n, _ in md.named_parameters()])
        for bad in (
            lambda: md.update(3),
            lambda: md.update([3]),
            lambda: md.update([("x", a, 1)]),
            lambda: md["zz"],
        ):
            try:
                bad()
            except (TypeError, ValueError, KeyError) as e:
                out.append((type(e).__name__, str(e)))
        md.clear()
        out.append(len(md))
        return out

    same(case)


# --- ParameterList / ParameterDict --------------------------------------------------------------------------


def test_parameter_list():
    def case(m):
        t = m.ones(2)
        pl = m.nn.ParameterList([t, m.nn.Parameter(m.zeros(3, 1)), "notes"])
        out = [type(pl[0]).__name__, pl[0].data_ptr() == t.data_ptr(), pl[2], len(pl), repr(pl)]
        pl.append(m.zeros(1, 2, dtype=m.float64))
        pl.extend([m.ones(1)])
        pl += [m.ones(2)]
        pl[1] = m.full((2,), 3.0)
        out += [len(pl), [n for n, _ in pl.named_parameters()], pl[1], type(pl[1:3]).__name__, len(pl[::2])]
        out.append(list(pl.state_dict()))
        for bad in (lambda: pl.extend(m.ones(2)), lambda: pl[10], lambda: pl(1)):
            try:
                bad()
            except (TypeError, IndexError, RuntimeError) as e:
                out.append((type(e).__name__, str(e)))
        return out

    same(case)


def test_parameter_dict():
    def case(m):
        pd = m.nn.ParameterDict({"b": m.ones(1), "a": m.zeros(2, 2)})
        out = [list(pd), repr(pd), type(pd["a"]).__name__]
        pd["c"] = m.nn.Parameter(m.ones(3), requires_grad=False)
        pd.update([("d", m.ones(1))])
        pd.update(OrderedDict([("z", m.ones(1)), ("y", m.ones(1))]))
        out.append(list(pd.keys()))
        out += [pd.get("zz", 5), "c" in pd, pd.setdefault("e", m.ones(2)).shape, pd.pop("d").shape]
        out.append(pd.popitem()[0])
        del pd["b"]
        out += [list(pd), len(pd), list(reversed(pd)), [k for k, _ in pd.items()], len(list(pd.values()))]
        out += [
            list(pd.copy()),
            list(pd | m.nn.ParameterDict({"q": m.ones(1)})),
            list(pd.fromkeys(["u", "v"])),
        ]
        out.append([n for n, _ in pd.named_parameters()])
        pd |= m.nn.ParameterDict({"w": m.ones(1)})
        out.append(list(pd))
        for bad in (lambda: pd[3], lambda: pd.update(3), lambda: pd.update([3]), lambda: pd.update([(1, 2, 3)]),
                    lambda: pd(1)):  # fmt: skip
            try:
                bad()
            except (TypeError, ValueError, RuntimeError) as e:
                out.append((type(e).__name__, str(e)))
        pd.clear()
        out.append(len(pd))
        return out

    same(case)


@pytest.mark.parametrize("container", ["ParameterList", "ParameterDict"])
def test_parameter_containers_train_with_module(container):
    def case(m):
        if container == "ParameterList":
            ps = m.nn.ParameterList([m.tensor([1.0, 2.0]), m.tensor([3.0])])
            params = list(ps)
        else:
            ps = m.nn.ParameterDict({"a": m.tensor([1.0, 2.0]), "b": m.tensor([3.0])})
            params = list(ps.values())
        (params[0].sum() * params[1].sum()).backward()
        return [p.grad for p in ps.parameters()], ps.double() is ps, [p.dtype for p in ps.parameters()]

    same(case)
