"""Op-table samples of the sparse COO layout's ops that take strided tensors (the table's NumPy samples
describe no sparse tensor: tests/sparse/ compares the ops on sparse inputs with torch). On a strided
input ``to_dense`` is the tensor itself and ``sparse_dim``/``dense_dim`` are 0 and dim(); the ops that
need a sparse tensor raise torch's errors."""

from op_samples import Sample, _f

SAMPLES = {
    "to_dense": [
        Sample((_f(3, 4),), label="strided"),
        Sample((_f(2, 3),), {"dtype": "float64"}, label="dtype"),
    ],
    "sparse_dim": [Sample((_f(3, 4),), label="strided")],
    "dense_dim": [Sample((_f(3, 4),), label="strided")],
}

# A strided tensor where a sparse one is needed: torch's RuntimeError or missing-backend NotImplementedError.
BAD_SAMPLES = {
    name: [Sample((_f(3, 4),), label="strided")]
    for name in ("coalesce", "is_coalesced", "_nnz", "indices", "values", "_indices", "_values", "_to_dense",
                 "_coalesce")
}  # fmt: skip
BAD_SAMPLES["sparse_mask"] = [Sample((_f(3, 4), _f(3, 4)), label="strided mask")]
BAD_SAMPLES["_sparse_sum.dim"] = [Sample((_f(3, 4), [0]), label="strided")]
