"""torch._dynamo.exc: the compiler's exception types that programs catch."""

__all__ = ["InvalidBackend", "TorchDynamoException", "Unsupported"]


class TorchDynamoException(RuntimeError):
    """The base of the compiler's errors."""


class InvalidBackend(TorchDynamoException):
    """``compile(backend=...)`` named a backend that does not exist.

    >>> from yaten._dynamo.exc import InvalidBackend
    >>> InvalidBackend(name="nope")
    InvalidBackend("Invalid backend: 'nope', see `torch._dynamo.list_backends()` for available backends.")
    """

    def __init__(self, name: str) -> None:
        super().__init__(
            f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for available backends."
        )


class Unsupported(TorchDynamoException):
    """Code the compiler cannot trace."""
