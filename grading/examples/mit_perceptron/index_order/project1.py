"""Project 1 with a typical mistake: the passes visit the examples in index order, not get_order's."""
import random

import numpy as np


def get_order(n_samples):
    """The handout's visiting order: a file <n>.txt when there is one, else a seeded shuffle."""
    try:
        with open(str(n_samples) + ".txt") as fp:
            return list(map(int, fp.readline().split(",")))
    except FileNotFoundError:
        random.seed(1)
        indices = list(range(n_samples))
        random.shuffle(indices)
        return indices


def perceptron_single_step_update(feature_vector, label, current_theta, current_theta_0):
    """One step: update (theta, theta_0) when the example is misclassified (a tie counts)."""
    if label * (np.dot(current_theta, feature_vector) + current_theta_0) <= 0:
        return current_theta + label * feature_vector, current_theta_0 + label
    return current_theta, current_theta_0


def perceptron(feature_matrix, labels, T):
    """T passes over the data in get_order's order; returns (theta, theta_0)."""
    theta = np.zeros(feature_matrix.shape[1])
    theta_0 = 0.0
    for _ in range(T):
        for i in range(feature_matrix.shape[0]):          # the examples in index order
            theta, theta_0 = perceptron_single_step_update(feature_matrix[i], labels[i], theta, theta_0)
    return theta, theta_0
