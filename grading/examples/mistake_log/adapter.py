"""The handout's train returns (w, b, log), log the (epoch, i) of every mistake: the tests compare
w, b and the steps of the mistakes (step = epoch * n + i, counted from 0 over all passes)."""
import perceptron


def answer(X, y, T):
    w, b, log = perceptron.train(X, y, T)
    n = len(X)
    return w, b, [epoch * n + i for epoch, i in log]
