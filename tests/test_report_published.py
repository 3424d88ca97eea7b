"""The published numbers shipped in bench/published/ and the mapping of the papers' dataset names."""

import filecmp
from pathlib import Path

import pytest
import yaml

from bench import published
from bench.data.registry import conf_dir

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "paper"
SHARED = SHARED if SHARED.exists() else Path("/work/shared/paper")


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/paper is not next to this checkout")
def test_copies_equal_the_shared_originals():
    originals = sorted(SHARED.glob("*.csv")) + [SHARED / "settings.yaml"]
    assert len(originals) == 26
    for src in originals:
        if src.suffix == ".yaml":  # the same content; its header comment names no machine's folder here
            import yaml

            assert yaml.safe_load(src.read_text()) == yaml.safe_load((published.DIR / src.name).read_text()), src.name
            continue
        assert filecmp.cmp(src, published.DIR / src.name, shallow=False), src.name


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


@pytest.mark.parametrize("paper", ["massbayes", "ecocnb", "eskdb", "ande_sr", "mctree"])
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
