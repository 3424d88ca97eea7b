"""A made-up paper (the worked example of docs/DESIGN.md, "Add a paper"): NB against A1DE, error rate on
three small data sets, one win/draw/loss claim and one average claim."""

from ..spec import Paper

ALGOS = {"NB": "nb", "A1DE": "a1de"}

DECLARATION = Paper(
    key="toy", seed="900", title="NB against A1DE on three small data sets (a made-up paper, 2024)", short="Toy",
    authors="A. N. Author", year=2024, experiments=("toy_error",), cells=True,
    algorithms=ALGOS, display_names={ours: name for name, ours in ALGOS.items()}, test="sign1", alpha=0.05,
    measures={"error rate": "error"},
    datasets={"Balance": "balance_scale", "Haberman": "haberman", "Contact lenses": "contact_lenses"})
