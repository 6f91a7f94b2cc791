"""An unchanged PyTorch program that imports and uses the namespaces of this part (jit decorators and
Final, compile, backends flags, matmul precision, determinism, fork_rng, DataParallel, accelerator,
hub, onnx, distributed probes) runs under ``yaten.run`` with torch's results."""

import subprocess
import sys
import textwrap

PROGRAM = """
import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.jit
import torch.nn as nn
import torch.onnx
from torch.nn.parallel import DataParallel


class Net(nn.Module):
    scale: torch.jit.Final[float]

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)
        self.scale = 0.5

    @torch.jit.ignore
    def describe(self):
        return "net"

    def forward(self, x):
        if torch.jit.is_scripting() or torch.jit.is_tracing():
            raise RuntimeError("eager only")
        return self.fc2(torch.relu(self.fc1(x))) * self.scale


cudnn.benchmark = True
cudnn.deterministic = True
torch.backends.cuda.matmul.allow_tf32 = False
torch.set_float32_matmul_precision("high")
torch.use_deterministic_algorithms(True, warn_only=True)
assert not dist.is_available() or not dist.is_initialized()
assert torch.onnx.is_in_onnx_export() is False
print("accelerator", torch.accelerator.is_available() == torch.cuda.is_available())

net = Net()
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
model = torch.compile(DataParallel(net), mode="max-autotune-no-cudagraphs")
print("keys", ",".join(model.state_dict()))
print("describe", model._orig_mod.module.describe())
x = torch.linspace(-1, 1, 24).reshape(6, 4)
y = torch.linspace(0, 1, 6).reshape(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print("loss", f"{loss.item():.6f}")
torch.manual_seed(0)
with torch.random.fork_rng():
    torch.rand(3)
print("rng", torch.get_rng_state().shape[0] > 0)
print("precision", torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
"""


def _run(cmd, tmp_path):
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(PROGRAM))
    done = subprocess.run([sys.executable, *cmd, str(program)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_program_runs_unchanged_with_torchs_results(tmp_path):
    want = _run([], tmp_path)
    got = _run(["-m", "yaten.run"], tmp_path)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if g.startswith("loss"):
            assert abs(float(g.split()[1]) - float(w.split()[1])) < 1e-5, (g, w)
        else:
            assert g == w
