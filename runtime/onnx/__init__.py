"""yaten.onnx: importable, so programs that import ``torch.onnx`` at the top run. yaten cannot export to
ONNX (that needs torch's exporter and graph capture): ``export`` and ``dynamo_export`` raise
``NotImplementedError`` saying so; ``is_in_onnx_export()`` is False.

>>> import yaten
>>> yaten.onnx.is_in_onnx_export()
False
"""

__all__ = ["OnnxExporterError", "dynamo_export", "export", "is_in_onnx_export"]

_EXPORT = (
    "yaten cannot export models to ONNX (torch.onnx.{}): it has no graph capture or ONNX exporter. "
    "Save the weights with yaten.save(model.state_dict(), f), load them into the same model under torch, "
    "and export from there"
)


class OnnxExporterError(RuntimeError):
    """Errors raised by the ONNX exporter."""


def is_in_onnx_export() -> bool:
    """Whether the code runs inside an ONNX export: never, in yaten."""
    return False


def export(model, args=(), f=None, *, kwargs=None, **options):
    """Export ``model`` to ONNX: NotImplementedError (yaten has no exporter).

    >>> import yaten
    >>> yaten.onnx.export(yaten.nn.Linear(1, 1), (yaten.ones(1),), "m.onnx")
    Traceback (most recent call last):
    NotImplementedError: yaten cannot export models to ONNX (torch.onnx.export): ...
    """
    raise NotImplementedError(_EXPORT.format("export"))


def dynamo_export(model, *model_args, export_options=None, **model_kwargs):
    """The older dynamo-based export: NotImplementedError (yaten has no exporter)."""
    raise NotImplementedError(_EXPORT.format("dynamo_export"))
