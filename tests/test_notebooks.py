"""Every notebook runs top to bottom on a small fresh run of its own, and is stored without outputs.

The game and size are set through the notebooks' parameters (NB_GAME, NB_GAMES, NB_RESULTS in the environment);
override the game with NB_TEST_GAME. The first notebook to run pays the game's numba compile (cached after).
"""

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
GAME = os.environ.get("NB_TEST_GAME", "bang_dice")


def test_there_are_notebooks_and_they_are_stored_without_outputs():
    names = {p.stem for p in NOTEBOOKS}
    for required in (
        "01_quick_start",
        "02_first_player_advantage",
        "03_card_and_character_strength",
        "04_strategy_matchups",
        "05_sweep_explorer",
        "06_openspiel_and_pettingzoo",
    ):
        assert required in names
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell.get("outputs") == [] and cell.get("execution_count") is None, path.name
        params = nb["cells"][1]
        assert "parameters" in params["metadata"].get("tags", []), path.name
        src = "".join(params["source"])
        assert "GAME" in src and "N_GAMES" in src, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, tmp_path, monkeypatch):
    monkeypatch.setenv("NB_GAME", GAME)
    monkeypatch.setenv("NB_GAMES", "120")
    monkeypatch.setenv("NB_RESULTS", str(tmp_path / "results"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.get("output_type") == "error"]
    assert not errors
    # the notebook did make its own run, and drew at least one chart
    assert any((tmp_path / "results").iterdir())
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name} drew no chart"
