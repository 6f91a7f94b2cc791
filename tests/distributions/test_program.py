"""An unchanged torch program that uses torch.distributions (a REINFORCE policy-gradient loop with
Categorical, a reparameterized Normal and kl_divergence) runs on yaten through ``yaten.run``: the
policy learns as under torch (the streams differ) and the KL, which does not depend on them, is torch's."""

import subprocess
import sys

PROGRAM = """
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal, kl_divergence

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
obs = torch.linspace(-1, 1, 32).reshape(8, 4)
for step in range(20):
    dist = Categorical(logits=policy(obs))
    actions = dist.sample()
    reward = (actions == 2).float()
    loss = -(dist.log_prob(actions) * (reward - reward.mean())).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(Categorical(logits=policy(obs)).probs[:, 2].mean().item())
mu = torch.zeros(5, requires_grad=True)
log_sigma = torch.zeros(5, requires_grad=True)
q = Normal(mu + 0.3, log_sigma.exp() * 0.5)
z = q.rsample((10,))
kl = kl_divergence(q, Normal(torch.ones(5), torch.ones(5))).sum()
(kl + z.pow(2).mean()).backward()
print(kl.item())
print(log_sigma.grad.abs().sum().item() > 0)
"""


def _run(tmp_path, *runner):
    path = tmp_path / "reinforce.py"
    path.write_text(PROGRAM)
    out = subprocess.run([sys.executable, *runner, str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    p_action, kl, has_grad = out.stdout.split()
    return float(p_action), float(kl), has_grad


def test_a_torch_program_with_distributions_runs_unchanged_on_yaten(tmp_path):
    want = _run(tmp_path)
    got = _run(tmp_path, "-m", "yaten.run")
    assert got[0] > 0.6 and want[0] > 0.6  # both policies learned to prefer the rewarded action
    assert abs(got[1] - want[1]) <= 1e-5 * abs(want[1])
    assert got[2] == want[2] == "True"
