"""A frozen, typed model of PyTorch's function-schema language (the ``func:`` lines of a spec).

Every class is a frozen dataclass with a ``parse(text)`` classmethod and a ``__str__`` that gives the
text back exactly, so the model is lossless: ``str(FunctionSchema.parse(s)) == s``. Invariants are
checked in ``__post_init__`` and broken ones raise ``ValueError`` saying what is wrong and how to fix
it; the loader prefixes the message with the spec file, line and entry.

    >>> s = FunctionSchema.parse("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    >>> s.kind(), [a.name for a in s.out_arguments], s.flat_kwarg_only[0].default
    (<SchemaKind.out: 'out'>, ['out'], '1')
    >>> str(s.returns[0].annotation)
    'a!'

The grammar, informally::

    schema     := name "(" [argument ("," argument)*] ")" " -> " returns
    name       := base ["_"] ["." overload]          |  "__" ["i"] dunder "__" ["." overload]
    argument   := "*"  |  type name ["=" default]
    returns    := "()"  |  return  |  "(" return ("," return)* ")"
    return     := type [name]
    type       := base_type ["(" annotation ")"] ("?" | "[" [size] "]")*
    annotation := alias ("|" alias)* ["!"] [" -> " (alias ("|" alias)* | "*")]

Keyword-only arguments follow ``*``; those of them with a write annotation (``Tensor(a!) out``) are
the out arguments of an out= variant and must come last.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

# The base types: those PyTorch's native_functions.yaml uses, and the few more torchgen or TorchScript accept.
BASE_TYPES: frozenset[str] = frozenset(
    {
        "Tensor", "int", "SymInt", "SymBool", "float", "bool", "str", "complex", "Scalar", "ScalarType",
        "Layout", "Device", "DeviceIndex", "MemoryFormat", "Generator", "Dimname", "DimVector", "Storage",
        "Stream", "QScheme", "ConstQuantizerPtr", "Any", "GraphModule",
    }
)  # fmt: skip

# Dunder methods ``__i<name>__`` that are the in-place form of ``__<name>__`` (Python's augmented
# assignments); any other dunder is an ordinary operator.
_AUGMENTED_ASSIGNMENTS = frozenset(
    {"add", "sub", "mul", "div", "mod", "pow", "lshift", "rshift", "and", "xor", "or"}
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ALIAS = re.compile(r"[a-z][a-z0-9_]*")


# --------------------------------------------------------------------------------------------------
# Splitting text at top-level separators
# --------------------------------------------------------------------------------------------------

_CLOSING = {"(": ")", "[": "]"}


def _split_top_level(text: str, sep: str, what: str) -> list[str]:
    """Split ``text`` at each ``sep`` outside brackets and string literals.

    Defaults such as ``int[2] stride=[1, 1]`` or ``str a=", "`` and annotations such as
    ``Tensor(a! -> a|b)`` contain separators that must not split. Unbalanced brackets and
    unterminated strings are reported here, since every later step relies on balance.
    """
    pieces: list[str] = []
    stack: list[str] = []
    quote: str | None = None
    start = i = 0
    while i < len(text):
        c = text[i]
        if quote is not None:
            if c == "\\":
                i += 1  # skip the escaped character, which may be the quote itself
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in _CLOSING:
            stack.append(c)
        elif c in ")]":
            if not stack:
                raise ValueError(
                    f"unbalanced brackets in {what}: '{c}' at column {i + 1} closes nothing; "
                    f"remove it or add the matching opening bracket"
                )
            opened = stack.pop()
            if _CLOSING[opened] != c:
                raise ValueError(
                    f"unbalanced brackets in {what}: '{opened}' is closed by '{c}' at column {i + 1}; "
                    f"close it with '{_CLOSING[opened]}'"
                )
        elif not stack and text.startswith(sep, i):
            pieces.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    if quote is not None:
        raise ValueError(f"unterminated string literal in {what}; close it with {quote}")
    if stack:
        raise ValueError(
            f"unbalanced brackets in {what}: '{stack[-1]}' is never closed; add the missing '{_CLOSING[stack[-1]]}'"
        )
    pieces.append(text[start:])
    return pieces


# --------------------------------------------------------------------------------------------------
# Operator names
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperatorName:
    """``add_.Tensor`` is base ``add``, in-place, overload ``Tensor``; ``__iand__`` is base ``and``,
    in-place, dunder; ``_foo.out`` is base ``_foo``, overload ``out``."""

    base: str
    inplace: bool = False
    dunder: bool = False
    overload: str = ""

    @classmethod
    def parse(cls, text: str) -> OperatorName:
        name, dot, overload = text.partition(".")
        if dot and not overload:
            raise ValueError(
                f"operator name {text!r} ends with '.'; write an overload name after it or drop the '.'"
            )
        if len(name) > 4 and name.startswith("__") and name.endswith("__"):
            inner = name[2:-2]
            inplace = inner.startswith("i") and inner[1:] in _AUGMENTED_ASSIGNMENTS
            return cls(base=inner[1:] if inplace else inner, inplace=inplace, dunder=True, overload=overload)
        if name.endswith("_"):
            return cls(base=name[:-1], inplace=True, overload=overload)
        return cls(base=name, overload=overload)

    def __post_init__(self) -> None:
        if not _IDENT.fullmatch(self.base) or (self.dunder and self.base.startswith("_")):
            raise ValueError(
                f"invalid operator name {str(self)!r}; use letters, digits and '_' (e.g. 'add', 'add_', '__and__')"
            )
        # Keep the dunder fields in step with how parse() reads the name back.
        if (
            self.dunder
            and not self.inplace
            and self.base.startswith("i")
            and self.base[1:] in _AUGMENTED_ASSIGNMENTS
        ):
            raise ValueError(
                f"dunder {self.name!r} is in-place; build it with base={self.base[1:]!r}, inplace=True"
            )
        if self.dunder and self.inplace and self.base not in _AUGMENTED_ASSIGNMENTS:
            raise ValueError(
                f"{self.name!r} is not an in-place dunder; only {', '.join(sorted(_AUGMENTED_ASSIGNMENTS))} have one"
            )
        if self.base.endswith("_") and not self.dunder:
            raise ValueError(
                f"operator name {str(self)!r} ends in more than one '_'; an in-place op ends in one"
            )
        if self.base.endswith("_out") and not self.dunder:
            raise ValueError(
                f"operator name {str(self)!r}: the '_out' suffix is reserved; "
                f"use an overload instead, e.g. '{self.base[:-4]}.out'"
            )
        if self.overload and not re.fullmatch(r"[A-Za-z0-9_]+", self.overload):
            raise ValueError(f"invalid overload name {self.overload!r}; use letters, digits and '_'")

    @property
    def name(self) -> str:
        """The name without the overload: ``add_``, ``__iand__``."""
        if self.dunder:
            return f"__{'i' if self.inplace else ''}{self.base}__"
        return f"{self.base}{'_' if self.inplace else ''}"

    def unambiguous_name(self) -> str:
        """``add_.Tensor`` -> ``add__Tensor``: unique among all overloads, usable as an identifier."""
        return f"{self.name}_{self.overload}" if self.overload else self.name

    def __str__(self) -> str:
        return f"{self.name}.{self.overload}" if self.overload else self.name


# --------------------------------------------------------------------------------------------------
# Alias annotations
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Annotation:
    """The ``a!`` of ``Tensor(a!)``: alias sets before and after, and whether it is written to.

    ``a`` aliases set a; ``a!`` aliases a and writes to it; ``a -> *`` (on ``chunk``'s self) means the
    outputs alias a and may alias anything after; ``a|b`` is a union of sets.
    """

    alias_set: tuple[str, ...]
    is_write: bool = False
    alias_set_after: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Annotation:
        before, arrow, after = text.partition(" -> ")
        is_write = before.endswith("!")
        if is_write:
            before = before[:-1]
        return cls(
            alias_set=tuple(before.split("|")),
            is_write=is_write,
            alias_set_after=tuple(after.split("|")) if arrow else (),
        )

    def __post_init__(self) -> None:
        fix = "write an alias annotation as 'a', 'a!', 'a|b' or 'a! -> a|b'"
        if not all(_ALIAS.fullmatch(a) for a in self.alias_set):
            raise ValueError(f"invalid alias annotation ({self}); {fix}")
        if self.alias_set_after != ("*",) and not all(_ALIAS.fullmatch(a) for a in self.alias_set_after):
            raise ValueError(f"invalid alias annotation ({self}); {fix}")
        if self.is_write and len(self.alias_set) > 1:
            raise ValueError(
                f"alias annotation ({self}) writes to a union of alias sets; write to one set, e.g. 'a!'"
            )

    def __str__(self) -> str:
        text = "|".join(self.alias_set) + ("!" if self.is_write else "")
        return f"{text} -> {'|'.join(self.alias_set_after)}" if self.alias_set_after else text


# --------------------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Type:
    """Base of :class:`BaseType`, :class:`OptionalType` and :class:`ListType`."""

    @classmethod
    def parse(cls, text: str) -> Type:
        parsed = _parse_type(text, "")
        if not isinstance(parsed, cls):  # a spec error like any other, hence ValueError
            raise ValueError(f"{text!r} is a {type(parsed).__name__}, not a {cls.__name__}")
        return parsed

    @property
    def base_type(self) -> BaseType:
        """The innermost type: ``Tensor`` for ``Tensor?[]``."""
        raise NotImplementedError

    def is_tensor_like(self) -> bool:
        """True for ``Tensor``, ``Tensor?``, ``Tensor[]``, ``Tensor?[]``."""
        return self.base_type.name == "Tensor"


@dataclass(frozen=True)
class BaseType(Type):
    name: str

    def __post_init__(self) -> None:
        if self.name not in BASE_TYPES:
            raise ValueError(f"unknown type {self.name!r}; use one of {', '.join(sorted(BASE_TYPES))}")

    @property
    def base_type(self) -> BaseType:
        return self

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class OptionalType(Type):
    """``T?``: a T or None."""

    elem: Type

    def __post_init__(self) -> None:
        # Spec errors are ValueErrors, which the loader reports with file and line.
        if isinstance(self.elem, OptionalType):
            raise ValueError(f"type '{self}' is optional twice; write one '?'")

    @property
    def base_type(self) -> BaseType:
        return self.elem.base_type

    def __str__(self) -> str:
        return f"{self.elem}?"


@dataclass(frozen=True)
class ListType(Type):
    """``T[]``, or ``T[N]`` with a fixed size N (a lone int then broadcasts to N copies)."""

    elem: Type
    size: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.elem, ListType):
            raise ValueError(f"type '{self}' is a list of lists, which schemas do not support")
        if self.size is not None and self.size < 1:
            raise ValueError(f"list type '{self}' has size {self.size}; a fixed size must be at least 1")

    @property
    def base_type(self) -> BaseType:
        return self.elem.base_type

    def __str__(self) -> str:
        return f"{self.elem}[{self.size if self.size is not None else ''}]"


def _parse_type(text: str, where: str) -> Type:
    """Parse a type without annotation; ``where`` (e.g. " in argument 'x'") goes into messages."""
    if text.endswith("?"):
        return OptionalType(_parse_type(text[:-1], where))
    m = re.fullmatch(r"(.+)\[([1-9][0-9]*)?\]", text)
    if m is not None:
        return ListType(_parse_type(m.group(1), where), int(m.group(2)) if m.group(2) else None)
    if text.endswith("]") and "[" in text:
        raise ValueError(f"invalid list size in type {text!r}{where}; write 'T[]', or 'T[N]' with N >= 1")
    if text not in BASE_TYPES:
        raise ValueError(f"unknown type {text!r}{where}; use one of {', '.join(sorted(BASE_TYPES))}")
    return BaseType(text)


def _parse_annotated_type(text: str, where: str) -> tuple[Type, Annotation | None]:
    """``Tensor(a!)[]`` -> (``Tensor[]``, ``a!``): the annotation sits right after the base type."""
    m = re.fullmatch(r"(\w+)\(([^()]*)\)(.*)", text)
    if m is not None:
        return _parse_type(m.group(1) + m.group(3), where), Annotation.parse(m.group(2))
    if "(" in text or ")" in text:
        raise ValueError(
            f"malformed type {text!r}{where}; an alias annotation goes right after 'Tensor', "
            f"as in 'Tensor(a!)', 'Tensor(a)?' or 'Tensor(a)[]'"
        )
    return _parse_type(text, where), None


def _format_annotated_type(type_: Type, annotation: Annotation | None) -> str:
    text = str(type_)
    if annotation is None:
        return text
    base = type_.base_type.name
    return f"{base}({annotation}){text[len(base) :]}"


def _check_annotation_target(type_: Type, annotation: Annotation | None, what: str) -> None:
    if annotation is not None and not type_.is_tensor_like():
        raise ValueError(
            f"{what} has alias annotation ({annotation}) on type '{type_}'; only Tensor types alias, "
            f"so remove the annotation"
        )


# --------------------------------------------------------------------------------------------------
# Arguments and returns
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Argument:
    """``Tensor(a!) self``, ``int[2] stride=[1, 1]``: ``default`` is the exact source text."""

    type: Type
    name: str
    default: str | None = None
    annotation: Annotation | None = None

    @classmethod
    def parse(cls, text: str) -> Argument:
        decl, eq, default = text.partition("=")  # a type and a name never contain '='
        type_text, space, name = decl.rpartition(" ")
        if not space or not type_text:
            raise ValueError(f"argument {text!r} needs a type and a name, e.g. 'Tensor self' or 'int dim=0'")
        if eq and not default:
            raise ValueError(
                f"argument {text!r} has an empty default; write a value after '=' or drop the '='"
            )
        type_, annotation = _parse_annotated_type(type_text, f" in argument {name!r}")
        return cls(type=type_, name=name, default=default if eq else None, annotation=annotation)

    def __post_init__(self) -> None:
        if not _IDENT.fullmatch(self.name):
            raise ValueError(f"invalid argument name {self.name!r}; use letters, digits and '_'")
        _check_annotation_target(self.type, self.annotation, f"argument {self.name!r}")

    @property
    def is_write(self) -> bool:
        """True when the argument is mutated: annotated ``(a!)``."""
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        default = f"={self.default}" if self.default is not None else ""
        return f"{_format_annotated_type(self.type, self.annotation)} {self.name}{default}"


@dataclass(frozen=True)
class Return:
    """``Tensor``, ``Tensor(a!)``, ``Tensor values``: a return, with an optional name."""

    type: Type
    name: str | None = None
    annotation: Annotation | None = None

    @classmethod
    def parse(cls, text: str) -> Return:
        type_text, _, name = text.rpartition(" ")
        # The last word is a name unless the space sits inside an annotation, as in 'Tensor(a -> *)'.
        if not type_text or not _IDENT.fullmatch(name) or type_text.count("(") != type_text.count(")"):
            type_text, name = text, ""
        where = f" in return {name!r}" if name else f" in return {text!r}"
        type_, annotation = _parse_annotated_type(type_text, where)
        return cls(type=type_, name=name or None, annotation=annotation)

    def __post_init__(self) -> None:
        if self.name is not None and not _IDENT.fullmatch(self.name):
            raise ValueError(f"invalid return name {self.name!r}; use letters, digits and '_'")
        _check_annotation_target(self.type, self.annotation, f"return {self.name or str(self.type)!r}")

    @property
    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write

    def __str__(self) -> str:
        text = _format_annotated_type(self.type, self.annotation)
        return f"{text} {self.name}" if self.name is not None else text


@dataclass(frozen=True)
class Arguments:
    """An argument list in three parts, printed in this order: ``positional, *, kwarg_only, out``.

    ``out`` holds the keyword-only arguments with a write annotation; they must come after every other
    keyword-only argument.
    """

    positional: tuple[Argument, ...] = ()
    kwarg_only: tuple[Argument, ...] = ()
    out: tuple[Argument, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Arguments:
        if not text.strip():
            return cls()
        positional: list[Argument] = []
        kwarg_only: list[Argument] = []
        out: list[Argument] = []
        section = positional
        pieces = [p.strip() for p in _split_top_level(text, ",", f"arguments '{text}'")]
        for i, piece in enumerate(pieces):
            if not piece:
                raise ValueError(f"empty argument in '{text}'; remove the stray ','")
            if piece == "*":
                if section is not positional:
                    raise ValueError(f"'*' appears twice in '{text}'; keep only the first")
                if i == len(pieces) - 1:
                    raise ValueError(f"'*' ends '{text}'; put keyword-only arguments after it or remove it")
                section = kwarg_only
                continue
            arg = Argument.parse(piece)
            if section is not positional and arg.is_write:
                section = out
            section.append(arg)
        return cls(tuple(positional), tuple(kwarg_only), tuple(out))

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for arg in self.all:
            if arg.name in seen:
                raise ValueError(
                    f"argument name {arg.name!r} is used twice; give each argument a distinct name"
                )
            seen.add(arg.name)
        for arg in self.kwarg_only:
            if arg.is_write:
                raise ValueError(
                    f"keyword-only argument {arg.name!r} is mutable ({arg.annotation}) and so an out argument; "
                    f"pass it in 'out', not 'kwarg_only'"
                )
        for arg in self.out:
            if not arg.is_write:
                raise ValueError(
                    f"argument {arg.name!r} follows the out arguments but is not mutable; move it before the "
                    f"first out argument (out arguments, annotated '(a!)', come last)"
                )

    @property
    def all(self) -> tuple[Argument, ...]:
        """Every argument, in schema order."""
        return self.positional + self.kwarg_only + self.out

    def __str__(self) -> str:
        parts = [str(a) for a in self.positional]
        if self.kwarg_only or self.out:
            parts.append("*")
        parts += [str(a) for a in self.kwarg_only + self.out]
        return ", ".join(parts)


# --------------------------------------------------------------------------------------------------
# Function schemas
# --------------------------------------------------------------------------------------------------


class SchemaKind(StrEnum):
    """How a schema delivers its result (compares equal to its string value)."""

    functional = "functional"  # returns new tensors
    inplace = "inplace"  # ``foo_``: mutates and returns self
    out = "out"  # writes into its keyword-only out arguments
    mutable = "mutable"  # mutates a positional argument other than self, e.g. running stats
    scratch = "scratch"  # an out= variant with ``_scratch_*`` buffers for memory planning


def _parse_returns(text: str) -> tuple[Return, ...]:
    if text == "()":
        return ()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
        pieces = [p.strip() for p in _split_top_level(inner, ",", f"returns '{text}'")]
        if len(pieces) == 1:
            raise ValueError(
                f"returns '{text}' is a one-element tuple; write a single return without parentheses"
            )
        if not all(pieces):
            raise ValueError(f"empty return in '{text}'; remove the stray ','")
        return tuple(Return.parse(p) for p in pieces)
    return (Return.parse(text),)


@dataclass(frozen=True)
class FunctionSchema:
    """``name(arguments) -> returns``, e.g. ``max.dim(Tensor self, int dim, bool keepdim=False) ->
    (Tensor values, Tensor indices)``."""

    name: OperatorName
    arguments: Arguments
    returns: tuple[Return, ...]

    @classmethod
    def parse(cls, text: str, *, require_canonical: bool = True) -> FunctionSchema:
        """Parse ``text``; unless ``require_canonical`` is false, it must be spaced exactly as printed."""
        where = f"schema '{text}'"
        pieces = _split_top_level(text, "->", where)
        if len(pieces) == 1:
            raise ValueError(
                f"{where} has no '->'; write the returns after the arguments, e.g. "
                f"'foo(Tensor self) -> Tensor', or '-> ()' when it returns nothing"
            )
        if len(pieces) > 2:
            raise ValueError(f"{where} has more than one '->' outside brackets; keep one, before the returns")
        head, returns = pieces[0].strip(), pieces[1].strip()
        lparen = head.find("(")
        if lparen <= 0 or not head.endswith(")"):
            raise ValueError(
                f"{where} must start with 'name(arguments)', e.g. 'add.Tensor(Tensor self, Tensor other)'"
            )
        if not returns:
            raise ValueError(
                f"{where} has nothing after '->'; write the returns, or '()' when there are none"
            )
        schema = cls(
            name=OperatorName.parse(head[:lparen]),
            arguments=Arguments.parse(head[lparen + 1 : -1]),
            returns=_parse_returns(returns),
        )
        if require_canonical and str(schema) != text:
            raise ValueError(f"{where} is not written canonically; write it exactly as '{schema}'")
        return schema

    def __post_init__(self) -> None:
        names = [r.name for r in self.returns if r.name is not None]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"return name {name!r} is used twice; give each return a distinct name")
        self._check_aliasing()

    def _check_aliasing(self) -> None:
        # PyTorch's rules for what a mutating schema may return; they are what lets codegen pair an
        # out= or in-place variant with its functional op and chain methods on the result.
        mutable_returns = [r for r in self.returns if r.is_write]
        if mutable_returns and len(mutable_returns) != len(self.returns):
            raise ValueError(
                "returns mix mutable ('Tensor(a!)') and new tensors; return only the mutated inputs "
                "or only new tensors"
            )
        aliasable = [*self.out_arguments, *([self.self_argument] if self.self_argument else [])]
        for ret in mutable_returns:
            if not any(ret.annotation == a.annotation for a in aliasable):
                raise ValueError(
                    f"return '{ret}' is mutable but aliases neither 'self' nor an out argument; "
                    f"did you forget to put the out argument after '*'?"
                )
        out = self.out_arguments
        if out:
            for i, (arg, ret) in enumerate(zip(out, self.returns)):
                if arg.annotation != ret.annotation:
                    raise ValueError(
                        f"return {i} '{ret}' is not out argument {i} '{arg}'; an out= schema returns its "
                        f"out arguments in order, so write '{_format_annotated_type(arg.type, arg.annotation)}'"
                    )
            if any(str(a.type) != "Tensor" for a in out):
                if self.returns:
                    raise ValueError(
                        "an out= schema whose out arguments are not all plain Tensors must return '()'"
                    )
            elif len(self.returns) != len([a for a in out if not a.name.startswith("_scratch_")]):
                raise ValueError(
                    f"an out= schema returns its out arguments: it has {len(out)} but {len(self.returns)} "
                    f"returns; return each out argument, in order"
                )
        if self.name.inplace:
            this = self.self_argument
            if this is None or not this.is_write:
                raise ValueError(
                    f"in-place operator {self.name} needs a mutable 'self', e.g. 'Tensor(a!) self'; "
                    f"or drop the trailing '_' if it is not in-place"
                )
            if out:
                raise ValueError(f"in-place operator {self.name} has out arguments; it cannot be both")
            if str(this.type) == "Tensor":
                if len(self.returns) != 1 or self.returns[0].annotation != this.annotation:
                    raise ValueError(
                        f"in-place operator {self.name} must return self: '-> Tensor({this.annotation})'"
                    )
            elif self.returns:
                raise ValueError(f"in-place operator {self.name} with a non-Tensor self must return '()'")

    # Views of the argument list.

    @property
    def flat_arguments(self) -> tuple[Argument, ...]:
        """Every argument in schema order: positional, keyword-only, out."""
        return self.arguments.all

    def schema_order_arguments(self) -> tuple[Argument, ...]:
        """The same as :attr:`flat_arguments`, under torchgen's name."""
        return self.arguments.all

    @property
    def flat_positional(self) -> tuple[Argument, ...]:
        return self.arguments.positional

    @property
    def flat_kwarg_only(self) -> tuple[Argument, ...]:
        """Keyword-only arguments that are not out arguments."""
        return self.arguments.kwarg_only

    @property
    def out_arguments(self) -> tuple[Argument, ...]:
        return self.arguments.out

    @property
    def self_argument(self) -> Argument | None:
        """The positional argument named ``self`` (methods are bound to it), if any."""
        return next((a for a in self.arguments.positional if a.name == "self"), None)

    def is_out_fn(self) -> bool:
        """True for out= variants: those with mutable keyword-only arguments."""
        return bool(self.arguments.out)

    def kind(self) -> SchemaKind:
        if self.name.inplace:
            return SchemaKind.inplace
        if any(a.name.startswith("_scratch_") for a in self.arguments.out):
            return SchemaKind.scratch
        if self.arguments.out:
            return SchemaKind.out
        if any(a.is_write and a.name != "self" for a in self.arguments.positional):
            return SchemaKind.mutable
        return SchemaKind.functional

    def __str__(self) -> str:
        if len(self.returns) == 1:
            returns = str(self.returns[0])
        else:
            returns = f"({', '.join(str(r) for r in self.returns)})"
        return f"{self.name}({self.arguments}) -> {returns}"
