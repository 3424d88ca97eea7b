"""Data loading is bounded: a file that decompresses beyond ``data_max_gb`` is
refused before it is parsed, and the parse runs under the memory limit, whose MemoryError becomes
a DataError naming it."""

import gzip
import sys

import numpy as np
import pytest

from bench.data import DataError
from bench.data.readers import check_size, decompressed_size, size_limit
from bench.resources import data_mb
from bench.runner import run_job

ALGO = {"name": "gnb", "estimator": {"_target_": "sklearn.naive_bayes.GaussianNB"}}
CV2 = {"name": "cv2", "kind": "kfold", "n_splits": 2}


def _csv_gz(path, rows, members=1):
    body = "a,b,class\n" + "".join(f"{i % 97}.5,{i % 13},{'xy'[i % 2]}\n" for i in range(rows))
    with open(path, "wb") as fh:
        per = len(body) // members + 1
        for k in range(members):  # several gzip members: the trailer then gives only the last one's size
            fh.write(gzip.compress(body[k * per:(k + 1) * per].encode()))
    return len(body)


def test_decompressed_size_is_measured_without_keeping_the_data(tmp_path):
    p = tmp_path / "t.csv.gz"
    n = _csv_gz(p, 20000, members=3)
    assert decompressed_size(p) == n
    assert decompressed_size(p, cap=1000) > 1000
    with pytest.raises(DataError, match=r"more than 0\.00 GiB .*data_max_gb=.*raise the cap"):
        check_size(p, 10_000)
    check_size(p, n)  # at the cap: fine
    plain = tmp_path / "t.csv"
    plain.write_text("a,class\n1,x\n")
    assert decompressed_size(plain) == plain.stat().st_size


def test_a_job_refuses_a_file_over_data_max_gb_before_parsing_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_DATA_DIR", str(tmp_path))
    n = _csv_gz(tmp_path / "t.csv.gz", 20000, members=2)
    cfg = {"name": "t", "sources": [{"file": "t.csv.gz"}]}
    with pytest.raises(DataError, match="data_max_gb"):
        run_job(ALGO, cfg, CV2, 0, "e", str(tmp_path / "r"), progress=False, warmup=False,
                data_max_gb=(n - 1) / 2**30)
    res = run_job(ALGO, cfg, CV2, 0, "e", str(tmp_path / "r"), progress=False, warmup=False,
                  data_max_gb=(n + 1) / 2**30)
    assert res.computed == 2
    with size_limit(None):  # no cap
        check_size(tmp_path / "t.csv.gz")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA is Linux's")
def test_a_parse_over_the_memory_limit_is_a_data_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCH_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BENCH_DATA_BUILT_CACHE", "0")
    rng = np.random.default_rng(0)
    rows = "\n".join(",".join(f"{v:.6f}" for v in r) + ",c" for r in rng.random((60000, 40)))
    (tmp_path / "big.csv.gz").write_bytes(gzip.compress(("," .join(f"x{j}" for j in range(40)) + ",class\n" + rows)
                                                        .encode(), compresslevel=1))
    cfg = {"name": "big", "sources": [{"file": "big.csv.gz"}]}
    # the parse runs under the machine guard (the larger of mem_limit_gb and auto): make auto small
    from bench import resources
    from bench.resources import physical_memory_bytes

    monkeypatch.setattr(resources, "AUTO_MEM_FRACTION", (data_mb() + 20) * 2**20 / physical_memory_bytes())
    with pytest.raises(DataError, match=r"loading dataset 'big' needed more memory than the limit of .* GiB "
                                        r"\(the larger of mem_limit_gb=0.01 and mem_limit_gb=auto"):
        run_job(ALGO, cfg, CV2, 0, "e", str(tmp_path / "r"), progress=False, warmup=False, mem_limit_gb=0.01)
