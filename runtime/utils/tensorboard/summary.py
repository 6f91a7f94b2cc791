"""The Summary protos ``SummaryWriter`` writes, built as torch's ``utils/tensorboard/summary.py`` builds
them (scalars as ``simple_value`` or a scalars-plugin tensor, histograms with TensorFlow's bucket logic,
text through the text plugin)."""

import numpy as np
from tensorboard.compat.proto.summary_pb2 import HistogramProto, Summary, SummaryMetadata
from tensorboard.compat.proto.tensor_pb2 import TensorProto
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboard.plugins.text.plugin_data_pb2 import TextPluginData

__all__ = ["default_bins", "histogram", "make_np", "scalar", "text"]


def make_np(x) -> np.ndarray:
    """A NumPy array of a tensor (detached, on the host), an array or a Python number."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (int, float, np.number)):
        return np.array([x])
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")


def scalar(name, value, new_style=False, double_precision=False) -> Summary:
    array = make_np(value).squeeze()
    if array.ndim != 0:
        raise AssertionError(
            f"Tensor should contain one element (0 dimensions). Was given size: {array.size} and "
            f"{array.ndim} dimensions."
        )
    number = float(array)
    if not new_style:
        return Summary(value=[Summary.Value(tag=name, simple_value=number)])
    if double_precision:
        proto = TensorProto(double_val=[number], dtype="DT_DOUBLE")
    else:
        proto = TensorProto(float_val=[number], dtype="DT_FLOAT")
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name="scalars"))
    return Summary(value=[Summary.Value(tag=name, tensor=proto, metadata=metadata)])


def default_bins() -> list:
    """TensorFlow's default histogram buckets: +-1e-12 growing by 1.1 up to 1e20, and 0."""
    v, buckets = 1e-12, []
    while v < 1e20:
        buckets.append(v)
        v *= 1.1
    return [-b for b in reversed(buckets)] + [0] + buckets


def _make_histogram(values: np.ndarray, bins, max_bins=None) -> HistogramProto:
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, limits = np.histogram(values, bins=bins)
    if max_bins is not None and len(counts) > max_bins:
        subsampling = len(counts) // max_bins
        remainder = len(counts) % subsampling
        if remainder != 0:
            counts = np.pad(
                counts, pad_width=[[0, subsampling - remainder]], mode="constant", constant_values=0
            )
        counts = counts.reshape(-1, subsampling).sum(axis=-1)
        new_limits = np.empty((counts.size + 1,), limits.dtype)
        new_limits[:-1] = limits[:-1:subsampling]
        new_limits[-1] = limits[-1]
        limits = new_limits
    # Drop the empty buckets at both ends, keeping one empty bucket before the first filled one.
    cum_counts = np.cumsum(np.greater(counts, 0))
    start, end = np.searchsorted(cum_counts, [0, cum_counts[-1] - 1], side="right")
    start, end = int(start), int(end) + 1
    counts = counts[start - 1 : end] if start > 0 else np.concatenate([[0], counts[:end]])
    limits = limits[start : end + 1]
    if counts.size == 0 or limits.size == 0:
        raise ValueError("The histogram is empty, please file a bug report.")
    return HistogramProto(min=values.min(), max=values.max(), num=len(values), sum=values.sum(),
                          sum_squares=values.dot(values), bucket_limit=limits.tolist(),
                          bucket=counts.tolist())  # fmt: skip


def histogram(name, values, bins, max_bins=None) -> Summary:
    hist = _make_histogram(make_np(values).astype(float), bins, max_bins)
    return Summary(value=[Summary.Value(tag=name, histo=hist)])


def text(tag, text_string) -> Summary:
    plugin_data = SummaryMetadata.PluginData(
        plugin_name="text", content=TextPluginData(version=0).SerializeToString()
    )
    metadata = SummaryMetadata(plugin_data=plugin_data)
    proto = TensorProto(dtype="DT_STRING", string_val=[text_string.encode(encoding="utf_8")],
                        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=1)]))  # fmt: skip
    return Summary(value=[Summary.Value(tag=tag + "/text_summary", metadata=metadata, tensor=proto)])
