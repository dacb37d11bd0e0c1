"""Every notebook runs top to bottom without errors (executed copies: reports/notebooks/)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    out = ROOT / "reports" / "notebooks"
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out / path.name)
    errors = [o for cell in nb.cells for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
