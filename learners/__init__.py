"""Reference learners: the perceptron (plain, averaged, voted, kernel), Winnow, Halving, Weighted
Majority (deterministic and randomized) and Passive-Aggressive, in exact
(rational) and float modes, all speaking one :class:`Trace` vocabulary."""
from .errors import InputError
from .trace import Step, Trace
from .perceptron import run_perceptron, averaged_weights, voted_weights
from .kernel_perceptron import run_kernel_perceptron
from .winnow import run_winnow
from .kernels import Kernel, parse_kernel
from .estimators import Perceptron, AveragedPerceptron, VotedPerceptron, KernelPerceptron, Winnow
from .halving import run_halving
from .weighted_majority import run_weighted_majority
from .randomized_weighted_majority import run_randomized_weighted_majority
from .hedge import run_hedge
from .littlestone import Littlestone, run_soa
from .passive_aggressive import run_passive_aggressive
from .passive_aggressive_estimator import PassiveAggressive
from .passive_aggressive_classifier import PassiveAggressiveClassifier
from .multiclass_perceptron import MulticlassPerceptron
from .estimator_base import sklearn_expected_failed_checks

__all__ = [
    "InputError", "Step", "Trace", "run_perceptron", "run_kernel_perceptron", "run_winnow",
    "averaged_weights", "voted_weights", "Kernel", "parse_kernel",
    "Perceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "Winnow",
    "run_halving", "run_weighted_majority", "run_randomized_weighted_majority", "run_passive_aggressive",
    "PassiveAggressive", "PassiveAggressiveClassifier", "MulticlassPerceptron", "sklearn_expected_failed_checks",
    "run_hedge", "run_soa", "Littlestone",
]
