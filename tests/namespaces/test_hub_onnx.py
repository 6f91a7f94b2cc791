"""yaten.hub (its cache directory as torch's; local hubconf loading; clear errors where torch would go to
the network) and yaten.onnx (importable; export refuses clearly)."""

import pytest
import torch

import yaten


@pytest.fixture
def hub_env(monkeypatch, tmp_path):
    monkeypatch.delenv("TORCH_HUB", raising=False)
    yield tmp_path
    torch.hub._hub_dir = None
    yaten.hub._HUB_DIR[0] = None


def test_get_dir_follows_torchs_environment(hub_env, monkeypatch):
    monkeypatch.delenv("TORCH_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert yaten.hub.get_dir() == torch.hub.get_dir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(hub_env / "xdg"))
    assert yaten.hub.get_dir() == torch.hub.get_dir() == str(hub_env / "xdg" / "torch" / "hub")
    monkeypatch.setenv("TORCH_HOME", str(hub_env / "th"))
    assert yaten.hub.get_dir() == torch.hub.get_dir() == str(hub_env / "th" / "hub")
    for lib in (torch, yaten):
        lib.hub.set_dir(str(hub_env / "set"))
    assert yaten.hub.get_dir() == torch.hub.get_dir() == str(hub_env / "set")


def test_load_from_a_local_hubconf(hub_env):
    repo = hub_env / "repo"
    repo.mkdir()
    (repo / "hubconf.py").write_text(
        "import yaten as torch\ndependencies = ['torch']\n\ndef tiny(out=2):\n    return torch.nn.Linear(3, out)\n"
    )
    model = yaten.hub.load(str(repo), "tiny", source="local", out=4)
    assert isinstance(model, yaten.nn.Linear) and model.out_features == 4
    with pytest.raises(RuntimeError, match="Cannot find callable nope in hubconf"):
        yaten.hub.load(str(repo), "nope", source="local")
    with pytest.raises(ValueError, match='Unknown source: "ftp"'):
        yaten.hub.load(str(repo), "tiny", source="ftp")


@pytest.mark.parametrize(
    "call",
    [
        lambda: yaten.hub.load("pytorch/vision", "resnet18"),
        lambda: yaten.hub.list("pytorch/vision"),
        lambda: yaten.hub.help("pytorch/vision", "resnet18"),
        lambda: yaten.hub.download_url_to_file("https://example.com/w.pt", "/tmp/w.pt"),
        lambda: yaten.hub.load_state_dict_from_url("https://example.com/never_cached_weights.pt"),
    ],
    ids=["load", "list", "help", "download", "load_state_dict_from_url"],
)
def test_network_calls_say_there_is_no_network(call, hub_env):
    yaten.hub.set_dir(str(hub_env / "hub"))
    with pytest.raises(RuntimeError, match="yaten.hub does not download"):
        call()


def test_load_state_dict_from_url_reads_the_cache(hub_env):
    yaten.hub.set_dir(str(hub_env / "hub"))
    cache = hub_env / "hub" / "checkpoints"
    cache.mkdir(parents=True)
    torch.save({"w": torch.arange(3.0)}, cache / "weights-abc.pt")
    state = yaten.hub.load_state_dict_from_url("https://example.com/models/weights-abc.pt")
    assert state["w"].tolist() == [0.0, 1.0, 2.0] and isinstance(state["w"], yaten.Tensor)


def test_onnx_is_importable_and_export_refuses(tmp_path):
    import yaten.onnx

    assert yaten.onnx.is_in_onnx_export() is torch.onnx.is_in_onnx_export() is False
    with pytest.raises(NotImplementedError, match=r"cannot export models to ONNX \(torch.onnx.export\)"):
        yaten.onnx.export(yaten.nn.Linear(1, 1), (yaten.ones(1),), str(tmp_path / "m.onnx"))
    assert not (tmp_path / "m.onnx").exists()
    with pytest.raises(NotImplementedError, match="dynamo_export"):
        yaten.onnx.dynamo_export(yaten.nn.Linear(1, 1), yaten.ones(1))
