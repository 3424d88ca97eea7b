"""Code is part of a result's identity: a record stores the fingerprint of the code that made it
(the algorithm's own modules, transitively within its package, and the harness's metric path); a
job whose code differs recomputes the split in place, other algorithms keep their records, and
records from before fingerprints are reused with one notice."""

import json
import logging
import sys
import textwrap
from pathlib import Path

import pytest

from bench import codeid
from bench import store as S
from bench.runner import run_job
from bench.store import load

CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}

SHARED = "SCALE = 1.0\n"
CLF = """
from sklearn.naive_bayes import GaussianNB

from ._shared import SCALE


class {name}(GaussianNB):
    '''Gaussian naive Bayes, as a user's own classifier.'''
"""


@pytest.fixture
def userpkg(tmp_path, monkeypatch):
    """A user's own package ``userclf`` on sys.path: two classifiers and a module both import."""
    root = tmp_path / "src"
    pkg = root / "userclf"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_shared.py").write_text(SHARED)
    (pkg / "clf_a.py").write_text(textwrap.dedent(CLF.format(name="A")))
    (pkg / "clf_b.py").write_text(textwrap.dedent(CLF.format(name="B")))
    monkeypatch.syspath_prepend(str(root))
    codeid._package_dir.cache_clear()
    yield pkg
    codeid._package_dir.cache_clear()
    for m in [m for m in sys.modules if m.split(".")[0] == "userclf"]:
        del sys.modules[m]


def _algo(name):
    return {"name": f"user_{name.lower()}", "estimator": {"_target_": f"userclf.clf_{name.lower()}.{name}"}}


def _run(root, name, **kw):
    return run_job(_algo(name), "sk_iris", CV2, 0, "e", str(root), progress=False, warmup=False, **kw)


def test_the_fingerprint_covers_the_module_and_what_it_imports_within_its_package(userpkg):
    parts = codeid.algorithm_sources(_algo("A"))
    assert set(parts) == {"userclf/__init__.py", "userclf/_shared.py", "userclf/clf_a.py"}
    # a library's class counts as the library's version, not as its files
    lib = codeid.algorithm_sources({"estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}})
    import sklearn

    assert lib == {"sklearn (library)": f"scikit-learn {sklearn.__version__}"}
    # nested targets (preprocessing steps) count too; the harness's metric path is in every fingerprint
    fp, files = codeid.code_identity({"preprocess": [{"_target_": "userclf.clf_b.B"}], **_algo("A")})
    assert {"userclf/clf_b.py", "bench/metrics.py", "bench/runner.py (metric path)"} <= set(files)


def test_relative_and_absolute_imports_are_followed(tmp_path):
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    for f in ("__init__.py", "sub/__init__.py", "sub/k.py", "x.py", "unused.py"):
        (pkg / f).write_text("")
    (pkg / "m.py").write_text("from .sub import k\nimport p.x\nimport numpy\n")
    got = codeid.module_closure(tmp_path, "p.m")
    assert set(got) == {"p", "p.m", "p.sub", "p.sub.k", "p.x"}


def test_an_edited_classifier_is_recomputed_and_another_reused(tmp_path, userpkg, caplog):
    a, b = _run(tmp_path, "A"), _run(tmp_path, "B")
    assert (a.computed, b.computed) == (2, 2)
    paths = sorted(r["path"] for r in a.records)
    fp_a = a.records[0]["code_fingerprint"]
    assert fp_a != b.records[0]["code_fingerprint"]
    assert a.records[0]["code_files"]["userclf/clf_a.py"]

    with (userpkg / "clf_a.py").open("a") as fh:
        fh.write("\n# an edit\n")
    caplog.set_level(logging.WARNING, logger="bench")
    a2 = _run(tmp_path, "A")
    assert (a2.computed, a2.reused) == (2, 0)
    assert "made by other code (changed since: userclf/clf_a.py)" in caplog.text
    assert sorted(r["path"] for r in a2.records) == paths  # same folder: the fingerprint is in no key
    assert a2.records[0]["code_fingerprint"] != fp_a
    b2 = _run(tmp_path, "B")
    assert (b2.computed, b2.reused) == (0, 2)  # the other classifier keeps its records

    (userpkg / "_shared.py").write_text(SHARED + "OTHER = 2\n")  # both import it
    assert _run(tmp_path, "A").computed == 2 and _run(tmp_path, "B").computed == 2
    assert len(load(tmp_path)) == 4


def test_a_change_of_the_metric_path_recomputes(tmp_path, monkeypatch):
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    first = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    real = codeid.harness_sources()
    monkeypatch.setattr(codeid, "harness_sources", lambda: {**real, "bench/metrics.py": "0" * 16})
    again = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    assert first.computed == 2 and (again.computed, again.reused) == (2, 0)


def test_records_from_before_fingerprints_are_reused_with_one_notice(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(S, "_INDEX_SETTLE_S", -1.0)
    algo = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
    first = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    for r in first.records:  # as written before fingerprints (with a valid record checksum)
        p = Path(r["path"])
        raw = json.loads(p.read_text())
        for k in ("code_fingerprint", "code_files", "record_sha256"):
            raw.pop(k)
        p.write_bytes(S.encode_record(raw))
    caplog.set_level(logging.WARNING, logger="bench")
    again = run_job(algo, "sk_iris", CV2, 0, "e", str(tmp_path), progress=False, warmup=False)
    assert (again.computed, again.reused) == (0, 2)
    notices = [r for r in caplog.records if "predate code fingerprints" in r.getMessage()]
    assert len(notices) == 1 and "2 of the 2 records" in notices[0].getMessage()
    assert len(load(tmp_path)) == 2


def _reference_metric_path(text: str) -> str:
    """The metric path's digest as ast.get_source_segment gives each function's source."""
    import ast

    defs = {n.name: ast.get_source_segment(text, n) for n in ast.parse(text).body
            if isinstance(n, ast.FunctionDef) and n.name in codeid.HARNESS_FUNCTIONS}
    return codeid._digest("\n".join(defs[f] for f in codeid.HARNESS_FUNCTIONS).encode())


def test_the_metric_path_digest_is_that_of_the_functions_source():
    text = (Path(codeid.__file__).parent / "runner.py").read_text()
    assert codeid._metric_path_digest(text) == _reference_metric_path(text)
    # line ends of every kind, a form feed, non-ASCII text and one-line functions: the segments are ast's
    odd = "\r\n".join(f"def {f}(x):\r    return 'é\f{f}'  # ü\n" for f in codeid.HARNESS_FUNCTIONS) \
        + "\n\nasync def other():\n    pass\ndef run_split(): return 'last'"
    odd = odd.replace("def run_split(x):\r    return 'é\frun_split'  # ü\n", "x = 1\n")
    assert codeid._metric_path_digest(odd) == _reference_metric_path(odd)
    with pytest.raises(RuntimeError, match="lacks"):
        codeid._metric_path_digest("def run_split():\n    pass\n")


def test_the_metric_path_digest_is_kept_by_the_file_content(monkeypatch):
    """Kept in the user cache by runner.py's content digest: a second process reads it without
    parsing; an entry kept for other content is never read for this one."""
    real_digest = codeid._metric_path_digest
    parsed = []
    monkeypatch.setattr(codeid, "_metric_path_digest", lambda t: parsed.append(1) or real_digest(t))

    def fresh():  # as a new process: nothing kept in memory, the user cache's file read again
        codeid.harness_sources.cache_clear()
        monkeypatch.setattr(codeid, "_IMPORT_CACHE", None)

    fresh()
    first = codeid.harness_sources()
    text = (Path(codeid.__file__).parent / "runner.py").read_text()
    assert first["bench/runner.py (metric path)"] == _reference_metric_path(text) and parsed == [1]
    codeid._save_import_cache()
    fresh()
    assert codeid.harness_sources() == first and parsed == [1]  # read from the cache, not parsed
    # a digest kept under another content's key is not this file's: runner.py's own is computed
    doc = json.loads(codeid._import_cache_path().read_text())
    key = next(k for k in doc["entries"] if k.startswith("metric-path|"))
    doc["entries"] = {key.replace("|", "|0", 1): ["f" * 16]}
    codeid._import_cache_path().write_text(json.dumps(doc))
    fresh()
    assert codeid.harness_sources() == first and parsed == [1, 1]
    codeid.harness_sources.cache_clear()
