"""Anytime classifiers of the MC-Tree paper (Kranen et al. 2010): MC-Tree, the Bayes tree and the
anytime nearest neighbour, plus the numeric view their static competitors share."""

from ._common import NumericView
from .anytime_nn import AnytimeNN
from .bayestree import BayesTree
from .mctree import MCTree

__all__ = ["AnytimeNN", "BayesTree", "MCTree", "NumericView"]
