"""Tensor-level implementations named by the spec's Composite* dispatch keys."""
