"""Reference learners: the perceptron (plain, averaged, voted, kernel), Winnow, Halving, Weighted
Majority (deterministic and randomized), Passive-Aggressive and the second-order perceptron, in exact
(rational) and float modes, all speaking one :class:`Trace` vocabulary."""
from learners.errors import InputError
from learners.trace import Step, Trace
from learners.perceptron import run_perceptron, averaged_weights, voted_weights
from learners.kernel_perceptron import run_kernel_perceptron
from learners.winnow import run_winnow
from learners.kernels import Kernel, parse_kernel
from learners.estimators import Perceptron, AveragedPerceptron, VotedPerceptron, KernelPerceptron, Winnow
from learners.halving import run_halving
from learners.weighted_majority import run_weighted_majority
from learners.randomized_weighted_majority import run_randomized_weighted_majority
from learners.hedge import run_hedge
from learners.littlestone import Littlestone, run_soa
from learners.passive_aggressive import run_passive_aggressive
from learners.second_order_perceptron import run_second_order_perceptron
from learners.passive_aggressive_estimator import PassiveAggressive
from learners.passive_aggressive_classifier import PassiveAggressiveClassifier
from learners.multiclass_perceptron import MulticlassPerceptron
from learners.estimator_base import sklearn_expected_failed_checks

__all__ = [
    "InputError", "Step", "Trace", "run_perceptron", "run_kernel_perceptron", "run_winnow",
    "averaged_weights", "voted_weights", "Kernel", "parse_kernel",
    "Perceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "Winnow",
    "run_halving", "run_weighted_majority", "run_randomized_weighted_majority", "run_passive_aggressive",
    "PassiveAggressive", "PassiveAggressiveClassifier", "MulticlassPerceptron", "sklearn_expected_failed_checks",
    "run_hedge", "run_soa", "Littlestone", "run_second_order_perceptron",
]
