"""One name, one model: a run whose config differs from its named config shows how (the console
summary, the sweep summary, ``bench compare``), and ``load()``'s ``config`` column tells every
configuration apart."""

from __future__ import annotations

import pandas as pd

from bench.runner import LABEL_MAX_CHARS, algo_identity, config_label, run_job
from bench.store import config_column, load
from bench.summary import job_summary_dict, job_table, sweep_table

NAMED = {"name": "rec", "description": "frequencies",
         "estimator": {"_target_": "tests.helpers.RecordingClassifier", "fail_on_fold": None},
         "preprocess": [{"_target_": "x.Disc", "bins": 5}]}
CV4 = {"name": "cv4", "kind": "kfold", "n_splits": 4, "n_repeats": 1}


def _with(**changes) -> dict:
    cfg = {**NAMED, "estimator": {**NAMED["estimator"]}}
    for k, v in changes.items():
        cfg["estimator"][k] = v
    return cfg


def test_the_named_config_keeps_its_name_even_with_other_descriptive_keys():
    assert config_label(NAMED, NAMED) == "rec"
    assert config_label({**NAMED, "description": "edited words"}, NAMED) == "rec"


def test_an_override_is_spelled_out_by_its_last_key():
    assert config_label(_with(fail_on_fold=3), NAMED) == "rec[fail_on_fold=3]"
    assert config_label(_with(fail_on_fold=3, random_state=7), NAMED) == "rec[fail_on_fold=3,random_state=7]"
    # a key removed from the named config, and a list-valued one
    cfg = {k: v for k, v in NAMED.items() if k != "preprocess"}
    assert config_label(cfg, NAMED) == "rec[~preprocess]"


def test_keys_sharing_a_last_part_get_as_many_parts_as_tell_them_apart():
    named = {"name": "p", "a": {"k": 1}, "b": {"k": 1}}
    assert config_label({"name": "p", "a": {"k": 2}, "b": {"k": 3}}, named) == "p[a.k=2,b.k=3]"


def test_a_long_difference_or_no_named_config_gives_the_hash():
    cfg = _with(fail_on_fold="x" * (LABEL_MAX_CHARS + 1))
    assert config_label(cfg, NAMED) == f"rec@{algo_identity(cfg)[1]}"
    assert config_label(NAMED, None) == f"rec@{algo_identity(NAMED)[1]}"


def test_config_column_never_pools_two_hashes():
    df = pd.DataFrame({"algo": ["a", "a", "a", "b", "b"],
                       "algo_hash": ["h1", "h1", "h2", "h3", "h3"],
                       "config_label": ["a", "a", "a[k=2]", None, None]})
    assert config_column(df).tolist() == ["a", "a", "a[k=2]", "b", "b"]
    # the same label on two hashes (a YAML edited between runs; records without a label)
    df = pd.DataFrame({"algo": ["a", "a", "b"], "algo_hash": ["h1", "h2", "h3"]})
    assert config_column(df).tolist() == ["a@h1", "a@h2", "b"]
    for frame in (df, df.assign(config_label=["a", "a", "b"])):
        col = config_column(frame)
        assert frame.groupby(col)["algo_hash"].nunique().max() == 1


def test_an_overridden_run_is_shown_stored_and_grouped_apart(tmp_path):
    algo = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier"}}
    over = {"name": "rec", "estimator": {"_target_": "tests.helpers.RecordingClassifier", "random_state": 5}}
    plain = run_job(algo, "sk_iris", CV4, 0, "e", str(tmp_path), progress=False, warmup=False, named_config=algo)
    other = run_job(over, "sk_iris", CV4, 0, "e", str(tmp_path), progress=False, warmup=False, named_config=algo)
    assert plain.display == "rec" and other.display == "rec[random_state=5]"
    assert job_table(other).startswith("rec[random_state=5] on sk_iris")
    summaries = [job_summary_dict(plain), job_summary_dict(other)]
    lines = sweep_table(summaries).splitlines()
    assert any(ln.split()[1] == "rec[random_state=5]" for ln in lines[2:])
    assert any(ln.split()[1] == "rec" for ln in lines[2:])
    df = load(tmp_path)
    assert set(df["algo"]) == {"rec"}  # the name alone pools the two
    assert df.groupby("config").size().to_dict() == {"rec": 4, "rec[random_state=5]": 4}
    assert df.groupby("config")["algo_hash"].nunique().max() == 1
    assert load(tmp_path, use_index=False).groupby("config").size().to_dict() == {"rec": 4, "rec[random_state=5]": 4}


def test_compare_shows_a_swept_baseline_by_its_setting():
    # the shipped evidence of MassBayes' psi sweep: the runs under the name massbayes are psi variants
    from bench.compare.runs import Plan, display_names, evidence_baselines
    from bench.experiment_plan import algo_config

    rec, plan, _ = evidence_baselines("massbayes_fig4_psi")
    p = Plan("x", ["massbayes"], plan["datasets"], plan["protocol"], plan["seeds"], "massbayes")
    out, p2, notes = display_names(rec, p)
    psi = {c["estimator"]["psi"] for c in rec["algo_config"]}
    assert len(psi) == 1 and psi != {algo_config("massbayes")["estimator"]["psi"]}
    assert p2.algos == [f"massbayes[psi={psi.pop()}]"] and p2.baseline == p2.algos[0] and not notes
    assert set(out["algo"]) == set(p2.algos)
    # a name run as its YAML composes it keeps its name
    named = rec.assign(algo_config=[algo_config("massbayes")] * len(rec))
    assert display_names(named, p)[1].algos == ["massbayes"]
