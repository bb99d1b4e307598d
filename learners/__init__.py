"""Reference learners: the perceptron (plain, averaged, voted, kernel) and Winnow, in exact
(rational) and float modes, all speaking one :class:`Trace` vocabulary."""
from .errors import InputError
from .trace import Step, Trace
from .perceptron import run_perceptron, averaged_weights, voted_weights
from .kernel_perceptron import run_kernel_perceptron
from .winnow import run_winnow
from .kernels import Kernel, parse_kernel
from .estimators import Perceptron, AveragedPerceptron, VotedPerceptron, KernelPerceptron, Winnow

__all__ = [
    "InputError", "Step", "Trace", "run_perceptron", "run_kernel_perceptron", "run_winnow",
    "averaged_weights", "voted_weights", "Kernel", "parse_kernel",
    "Perceptron", "AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "Winnow",
]
