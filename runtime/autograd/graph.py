"""``yaten.autograd.graph``: the backward graph's public face (as ``torch.autograd.graph``)."""

from .dot import to_dot
from .node import Node
from .saved_hooks import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks

__all__ = ["Node", "disable_saved_tensors_hooks", "save_on_cpu", "saved_tensors_hooks", "to_dot"]
