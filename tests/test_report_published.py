"""The published numbers shipped in bench/published/ and the mapping of the papers' dataset names."""

import pytest
import yaml

from bench import published
from bench.data.registry import conf_dir
from bench.papers import PAPERS


def test_every_published_file_belongs_to_a_declared_paper():
    """The published tables are ``<paper>_table<n>_<what>.csv`` of the declared papers, each with one data set
    table; every claim row names a declared paper and a unique id."""
    for path in published.files():
        assert any(path.name.startswith(f"{k}_table") for k in PAPERS), f"{path.name}: no paper {path.name.split('_table')[0]!r}"
    for key in PAPERS:
        assert published.dataset_table_path(key).name in {f"{s}.csv" for s in PAPERS[key].published}
    claims = published.claims()
    assert claims["claim_id"].is_unique and set(claims["paper"]) <= set(PAPERS)


def test_a_paper_without_a_data_set_table_is_named_with_the_fix():
    with pytest.raises(published.PublishedError, match=r"no published data set table: add bench/published/toy_table<n>_datasets.csv"):
        published.datasets("toy")


def test_loaders():
    t4 = published.wdl("ande_sr", 4)
    assert len(t4) == 180 and set(t4["subset"]) == {"all", "large", "medium", "small"}
    row = t4[(t4["row_algorithm"] == "RF10") & (t4["col_algorithm"] == "A2DE-SW") & (t4["subset"] == "large")]
    assert (int(row["wins"].iloc[0]), int(row["draws"].iloc[0]), int(row["losses"].iloc[0])) == (5, 1, 6)
    t9 = published.values("eskdb", 9)
    assert t9.loc[(t9["algorithm"] == "NB") & (t9["measure"] == "RMSE"), "value"].iloc[0] == "0.2753"
    assert t9["value_num"].notna().all()
    assert published.table("massbayes", 3)["value"].iloc[0] == "94.00"      # printed strings kept
    assert published.settings()["ande_sr"]["settings"][0]["id"] == "weka_cv"
    assert len(published.claims("ande_sr")) == 15
    with pytest.raises(published.PublishedError, match="no published Table 12"):
        published.table("ande_sr", 12)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_papers_name_in_conf_data_exists_in_the_papers_dataset_table(paper):
    names = set(published.datasets(paper)["dataset"])
    for p in sorted((conf_dir() / "data").glob("*.yaml")):
        given = ((yaml.safe_load(p.read_text()) or {}).get("papers") or {}).get(paper)
        if given:
            assert given in names, f"{p.name}: papers.{paper} = {given!r} is not in the paper's dataset table"


def test_dataset_map_of_the_a2de_paper():
    m = published.dataset_map("ande_sr")
    assert m["Letter Recognition"] == "letter" and m["German"] == "german" and len(m) == 66
    unmapped = set(published.datasets("ande_sr").query("ours == ''")["dataset"])
    assert unmapped == {"Census-Income (KDD)", "Localization", "Nettalk(Phoneme)", "Poker-hand", "Volcanoes"}
