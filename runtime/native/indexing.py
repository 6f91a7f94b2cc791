"""Functional indexing ops: a copy, then the in-place op (autograd goes through both)."""


def scatter_src(self, dim, index, src):
    return self.clone().scatter_(dim, index, src)


def scatter_value(self, dim, index, value):
    return self.clone().scatter_(dim, index, value)


def scatter_add(self, dim, index, src):
    return self.clone().scatter_add_(dim, index, src)


def masked_fill_scalar(self, mask, value):
    return self.clone().masked_fill_(mask, value)


def masked_fill_tensor(self, mask, value):
    return self.clone().masked_fill_(mask, value)


def index_put(self, indices, values, accumulate=False):
    return self.clone().index_put_(indices, values, accumulate)
