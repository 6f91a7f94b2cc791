"""Functions the tests run in child processes (spawned children import them from here)."""

import os

import yaten


def add_one(t):
    t.add_(1)


def hogwild_step(model, steps):
    # The Hogwild pattern: each child updates the shared weights in place.
    opt = yaten.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        model(yaten.ones(1, 2)).sum().backward()
        opt.step()


def double_from_queue(inbox, outbox, received):
    t = inbox.get()
    t.mul_(2)
    outbox.put((t, t[1:], os.getpid()))
    # As with torch: the sender stays alive until the receiver has the memory (fds are handed over live).
    received.wait(120)


def spawn_add(i, t):
    t[i] += i + 1


def spawn_raise(i):
    if i == 1:
        raise ValueError("child 1 failed on purpose")


def spawn_exit(i, code):
    if i == 0:
        os._exit(code)
