"""Defaults are blamed only for code that answers the same each time it is asked: a shuffle of a
few examples repeats by chance, and code that shuffles is told so, never that its defaults are
wrong.  The submission below makes that chance certain: on each input its first two passes visit
the examples in reverse, the later ones alternate."""
from grading.running.grader import grade_submission
from grading.spec.spec import load_spec

LUCKY_SHUFFLER = '''
SEEN = {}
def train(X, y, epochs=1):
    key = repr((X, y))
    k = SEEN[key] = SEEN.get(key, -1) + 1
    idx = list(range(len(X)))
    if k < 2 or k % 2 == 1:
        idx.reverse()          # the order a shuffle of a few examples gives twice in a row, now and then
    w = [0.0] * len(X[0])
    b = 0.0
    for _ in range(epochs):
        for i in idx:
            x, t = X[i], y[i]
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
    return w, b
'''


def test_code_that_repeats_a_shuffle_by_chance_is_not_told_its_defaults_are_wrong(tmp_path):
    spec = load_spec("perceptron")
    spec.tests = [t for t in spec.tests if t.kind == "default_arguments"]
    assert spec.tests
    sub = tmp_path / "lucky"
    sub.mkdir()
    (sub / "perceptron.py").write_text(LUCKY_SHUFFLER)
    r = grade_submission(spec, str(sub))
    out = r.tests[0].output
    assert not r.tests[0].passed, out
    assert "your defaults are not the handout's" not in out, out
    assert "answers differently on the same input from one call to the next" in out, out
    assert list(r.diagnoses) == ["data shuffled"], r.diagnoses
