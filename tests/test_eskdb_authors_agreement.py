"""scripts/eskdb_authors_agreement.py: skips cleanly without the reference build; its ARFF copies keep the
doubles and the codes (the Java side must read the same rows)."""

import importlib.util
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "eskdb_authors_agreement.py"


def _module():
    spec = importlib.util.spec_from_file_location("eskdb_authors_agreement", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_skips_without_the_reference_build(tmp_path, capsys):
    mod = _module()
    assert mod.main(["--datasets", "iris", "--classes", str(tmp_path / "absent")]) == 0
    out = capsys.readouterr().out
    assert "skipped" in out and "ESKDBMHarness.class" in out
    assert "dataset" not in out  # no table: nothing was fitted


def test_arff_keeps_doubles_and_codes(tmp_path):
    mod = _module()
    X = np.array([[0.1, 2.0, 1e-300], [1 / 3, 0.0, -7.25]])
    path = tmp_path / "t.arff"
    mod.write_arff(path, X, np.array([2, 0]), np.array([False, True, False]), np.array([0, 3, 0]), 3)
    lines = path.read_text().splitlines()
    assert lines[2] == "@attribute a1 {0,1,2}" and lines[4] == "@attribute class {0,1,2}"
    rows = [line.split(",") for line in lines[lines.index("@data") + 1:]]
    assert [float(r[0]) for r in rows] == [0.1, 1 / 3] and [float(r[2]) for r in rows] == [1e-300, -7.25]
    assert [r[1] for r in rows] == ["2", "0"] and [r[3] for r in rows] == ["2", "0"]
