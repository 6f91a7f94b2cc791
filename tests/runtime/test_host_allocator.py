"""yaten keeps freed host memory for the next training step, unless the user configured glibc's
allocator."""

import os
import platform

import pytest

from yaten import _host_allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the settings are glibc's")
def test_settings_apply_on_glibc(monkeypatch):
    for name in [n for n in os.environ if n.startswith("MALLOC_")]:
        monkeypatch.delenv(name)
    assert _host_allocator.keep_freed_memory() is True


def test_a_users_malloc_variable_wins(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    assert _host_allocator.keep_freed_memory() is False
