"""An online perceptron as a state passed in and out."""


def initial_state(d):
    return {"w": [0.0] * d, "b": 0.0}


def predict(state, x):
    return sum(a * b for a, b in zip(state["w"], x)) + state["b"]


def update_state(state, x, y):
    if y * predict(state, x) <= 0:
        return {"w": [a + y * b for a, b in zip(state["w"], x)], "b": state["b"] + y}
    return state
