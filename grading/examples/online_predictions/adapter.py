"""The handout's run returns the learner's predictions, one per example visited: the tests compare them."""
import online


def answer(X, y, T):
    return online.run(X, y, T)
