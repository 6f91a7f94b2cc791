"""``python -m yaten.run PROGRAM.py``: unchanged PyTorch programs run on yaten.

Each program runs in a process of its own: the runner makes ``torch`` mean yaten for the whole
process, and this one keeps the real torch as the other tests' oracle.
"""

import importlib
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from yaten import _torch_alias, run

ROOT = Path(__file__).resolve().parents[2]
MODULE_RUNNER = ("-m", "yaten.run")
# What the yaten-run script does, from the folder it is installed in (which python puts on sys.path).
CONSOLE_SCRIPT = (
    "-c",
    "import os, sys; sys.path[0] = os.path.dirname(sys.executable); from yaten.run import main; sys.exit(main())",
)


def _program(tmp_path, source):
    program = tmp_path / "prog" / "program.py"
    program.parent.mkdir(exist_ok=True)
    program.write_text(textwrap.dedent(source))
    return program


def _run(command, cwd):
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("runner", [MODULE_RUNNER, CONSOLE_SCRIPT], ids=["python-m", "console-script"])
def test_torch_is_yaten_and_the_program_runs_as_main_with_its_argv_and_path(tmp_path, runner):
    program = _program(
        tmp_path,
        """
        import os, sys
        import torch
        import torch.nn as nn
        import torch.nn.functional
        from torch.nn import functional as F
        from torch.utils.data import DataLoader
        import yaten

        assert torch is yaten and nn is yaten.nn and F is yaten.nn.functional, (torch, nn, F)
        assert torch.nn.functional is F and sys.modules["torch.nn"] is yaten.nn
        assert DataLoader is yaten.utils.data.DataLoader
        assert isinstance(nn.Linear(2, 3), torch.nn.Module) and isinstance(torch.ones(1), yaten.Tensor)
        assert torch.nn.__spec__.name == "yaten.nn", torch.nn.__spec__
        marker = "this program"
        assert __name__ == "__main__" and sys.modules["__main__"].marker == "this program"
        assert sys.argv[1:] == ["--lr", "0.5", "x y"] and os.path.samefile(sys.argv[0], __file__), sys.argv
        assert sys.path[0] == os.path.dirname(os.path.realpath(__file__)), sys.path[:2]
        print("ok")
        """,
    )
    done = _run([sys.executable, *runner, str(program), "--lr", "0.5", "x y"], cwd=tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "ok\n")


def test_a_training_script_runs_with_forked_workers_pickling_and_checkpoints(tmp_path):
    program = _program(
        tmp_path,
        """
        import pickle
        import torch
        from torch import nn, optim
        from torch.utils.data import DataLoader, Dataset

        class Line(Dataset):
            def __len__(self):
                return 64

            def __getitem__(self, i):
                x = torch.tensor([i / 64.0])
                return x, 2 * x + 1

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(1, 1)

            def forward(self, x):
                return self.fc(x)

        torch.manual_seed(0)
        model = Net()
        opt = optim.SGD(model.parameters(), lr=0.5)
        losses = []
        for epoch in range(2):  # workers are forked each epoch: they see the same torch
            for x, y in DataLoader(Line(), batch_size=16, shuffle=True, num_workers=2):
                loss = nn.functional.mse_loss(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
        x, y = Line()[7]
        for step in range(100):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        assert loss.item() < losses[0] / 100, (losses[0], loss.item())
        assert type(pickle.loads(pickle.dumps(model))) is Net
        torch.save(model.state_dict(), "net.pt")
        again = Net()
        again.load_state_dict(torch.load("net.pt"))
        assert bool((again.fc.weight == model.fc.weight).all())
        print("trained")
        """,
    )
    done = _run([sys.executable, *MODULE_RUNNER, str(program)], cwd=tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "trained\n")


def test_processes_started_by_spawn_import_the_program_with_torch_as_yaten_too(tmp_path):
    program = _program(
        tmp_path,
        """
        import multiprocessing
        import torch

        def work(queue):
            queue.put((torch.__name__, type(torch.ones(2)).__module__))

        if __name__ == "__main__":
            spawn = multiprocessing.get_context("spawn")
            queue = spawn.Queue()
            worker = spawn.Process(target=work, args=(queue,))
            worker.start()
            print(queue.get(timeout=120))
            worker.join()
            print(worker.exitcode)
        """,
    )
    done = _run([sys.executable, *MODULE_RUNNER, str(program)], cwd=tmp_path)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "('yaten', 'yaten._tensor')\n0\n")


def test_a_piece_yaten_lacks_fails_naming_it_and_feature_probes_see_it_missing(tmp_path):
    program = _program(
        tmp_path,
        """
        import torch
        import torch.export  # a torch module yaten lacks imports; only using it fails

        print(hasattr(torch, "cond"), torch.cuda.is_available())
        try:
            from torch import cond
        except ImportError as error:
            print(error)
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError as error:
            print(error)
        try:
            torch.nn.functional.no_such_function
        except AttributeError as error:
            print(error)
        torch.export.export(torch.nn.Linear(1, 1), (torch.ones(1),))
        """,
    )
    done = _run([sys.executable, *MODULE_RUNNER, str(program)], cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "False False",
        "yaten has no torch.cond yet",
        "yaten.utils.tensorboard (torch.utils.tensorboard) needs the tensorboard package, an optional extra: "
        "pip install 'yaten[tensorboard]' (or pip install tensorboard)",
        "yaten has no torch.nn.functional.no_such_function yet",
    ]
    assert done.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{program}", line 18, in <module>\n'
        "    torch.export.export(torch.nn.Linear(1, 1), (torch.ones(1),))\n"
        "    ^^^^^^^^^^^^^^^^^^^\n"
        "AttributeError: yaten has no torch.export.export yet\n"
    )


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nsys.exit(3)\n",
        "raise SystemExit('stopped: no data')\n",
        "def check(x):\n    raise ValueError(f'bad value {x}')\n\ncheck(2)\n",
        "import sys\nprint('out'); print('err', file=sys.stderr)\n",
    ],
    ids=["exit-code", "exit-message", "traceback", "streams"],
)
def test_exit_codes_output_and_tracebacks_are_the_programs_as_under_python(tmp_path, source):
    program = _program(tmp_path, source)
    under_python = _run([sys.executable, str(program)], cwd=tmp_path)
    for runner in (MODULE_RUNNER, CONSOLE_SCRIPT):
        under_yaten = _run([sys.executable, *runner, str(program)], cwd=tmp_path)
        assert (under_yaten.returncode, under_yaten.stdout, under_yaten.stderr) == (
            under_python.returncode,
            under_python.stdout,
            under_python.stderr,
        ), runner


def test_dash_m_runs_a_module_as_python_m_does(tmp_path):
    package = tmp_path / "tool"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "main.py").write_text(
        textwrap.dedent(
            """
            import os, sys
            import torch, yaten
            from . import helper  # a relative import: the module runs inside its package
            assert torch is yaten and __name__ == "__main__" and __package__ == "tool"
            assert sys.argv[1:] == ["a", "b"] and os.path.samefile(sys.argv[0], __file__), sys.argv
            assert os.path.samefile(sys.path[0], os.getcwd())
            print(helper.NAME)
            """
        )
    )
    (package / "helper.py").write_text("NAME = 'helper'\n")
    for runner in (MODULE_RUNNER, CONSOLE_SCRIPT):
        done = _run([sys.executable, *runner, "-m", "tool.main", "a", "b"], cwd=tmp_path)
        assert (done.returncode, done.stderr, done.stdout) == (0, "", "helper\n"), runner
    for missing in ("tool.absent", "absent.main"):
        under_python = _run([sys.executable, "-m", missing], cwd=tmp_path)
        under_yaten = _run([sys.executable, *MODULE_RUNNER, "-m", missing], cwd=tmp_path)
        assert (under_yaten.returncode, under_yaten.stderr) == (under_python.returncode, under_python.stderr)


def test_the_console_script_is_the_runner():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["yaten-run"].partition(":")
    assert getattr(importlib.import_module(module), function) is run.main


def test_usage_errors_exit_2_as_python_does(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        run.main([])
    assert stopped.value.code == 2 and capsys.readouterr().err.startswith("usage: python -m yaten.run")
    missing = tmp_path / "missing.py"
    with pytest.raises(SystemExit) as stopped:
        run.main([str(missing)])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"can't open file '{missing}': [Errno 2] No such file or directory\n"
    )
    assert not any(isinstance(finder, _torch_alias.TorchFinder) for finder in sys.meta_path)  # not run
