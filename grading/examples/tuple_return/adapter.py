"""The handout's train returns (w, iters, mistakes): the tests compare w."""
import perceptron


def answer(X, y, T):
    w, iters, mistakes = perceptron.train(X, y, T)
    return w
