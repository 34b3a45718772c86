"""Executes a notebook of docs/notebooks/ top to bottom with nbclient (ctest python_notebook,
python_notebook_own_claim), in a temporary directory, with the softcert on PYTHONPATH. Fails on the first
cell that raises, so the notebook cannot go stale. Usage: run_notebook.py NOTEBOOK [FIGURE_DIR]
(the figures are copied there to look at). The notebook's metadata "softcert_figures" is the
number of figures it must draw (default 4, the first notebook's)."""
import os
import shutil
import sys
import tempfile
import time

import nbclient
import nbformat


def main(path, keep=None):
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": work}})
        client.execute()
        figures = sorted(f for f in os.listdir(work) if f.endswith(".png"))
        for f in figures:
            assert os.path.getsize(os.path.join(work, f)) > 5000, f
            if keep:
                shutil.copy(os.path.join(work, f), keep)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("name") == "stdout":
                sys.stdout.write(out["text"])
    print(f"notebook ran in {time.monotonic() - start:.1f} s; figures: {', '.join(figures)}")
    assert len(figures) >= nb.metadata.get("softcert_figures", 4), figures


if __name__ == "__main__":
    main(*sys.argv[1:3])
