"""``mistakebound run``: run a reference learner on a CSV data set."""
from __future__ import annotations

from importlib import resources

import click

from mistakebound.common import emit_json, fail, input_errors_exit_2, write_text_atomic

ALGORITHMS = ("perceptron", "averaged", "voted", "kernel", "winnow")


def example_path(name="separable2d.csv"):
    return str(resources.files("mistakebound") / "examples" / name)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("algorithm", type=click.Choice(ALGORITHMS))
@click.argument("data", required=False, metavar="DATA.csv")
@click.option("--epochs", default=1, show_default=True, type=click.IntRange(min=1), help="Passes over the data.")
@click.option("--bias", is_flag=True, help="Learn a bias b (update b += y); Winnow ignores it.")
@click.option("--exact", is_flag=True, help="Rational arithmetic: numbers printed as p/q, no rounding anywhere.")
@click.option("--normalize", is_flag=True, help="Scale every example to unit length (Blum's notes).")
@click.option("--kernel", "kernel_spec", default="linear", show_default=True,
              help="Kernel for 'kernel': linear, poly:c=1,k=2 or gaussian:c=0.5.")
@click.option("--variant", default="halve", show_default=True, type=click.Choice(["halve", "eliminate", "winnow2"]),
              help="Winnow's demotion rule.")
@click.option("--trace", "trace_file", type=click.Path(dir_okay=False, writable=True), metavar="FILE.jsonl",
              help="Write the step-by-step trace as JSON lines.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--example", is_flag=True, help="Use the small example data set that ships with the package.")
@input_errors_exit_2
def run(algorithm, data, epochs, bias, exact, normalize, kernel_spec, variant, trace_file, as_json, example):
    """Learn from DATA.csv (last column the label, +1/-1; 0/1 for Winnow; a header row allowed)
    and print the number of mistakes and the final weights.

    \b
    Examples:
      mistakebound run perceptron --example --exact
      mistakebound run perceptron data.csv --epochs 5 --bias --json
      mistakebound run kernel data.csv --kernel poly:c=1,k=2 --trace run.jsonl
    """
    from learners import (run_perceptron, run_kernel_perceptron, run_winnow, averaged_weights, voted_weights)
    from learners.io import read_csv
    from learners.numbers import to_json_number, fraction_str
    from learners.validation import check_labels

    if example == (data is not None):
        fail("give exactly one of DATA.csv or --example")
    path = example_path("winnow_disjunction.csv" if algorithm == "winnow" else "separable2d.csv") if example else data
    rows, labels, _ = read_csv(path)
    record = "all" if trace_file else "none"
    extra = {}
    if algorithm == "winnow":
        ys = check_labels(labels, len(rows), kind="01")
        tr = run_winnow(rows, ys, epochs=epochs, variant=variant, exact=exact, record=record)
        weights, b = tr.weights, None
    else:
        ys = check_labels(labels, len(rows), kind="pm1")
        if not exact:
            rows = [[float(v) for v in r] for r in rows]
        if algorithm == "kernel":
            tr = run_kernel_perceptron(rows, ys, kernel_spec, epochs=epochs, bias=bias, exact=exact, record=record)
            weights, b = tr.weights, tr.bias
            extra["kernel"] = tr.params["kernel"]
        else:
            tr = run_perceptron(rows, ys, epochs=epochs, bias=bias, normalize=normalize, exact=exact, record=record,
                                algorithm=algorithm)
            weights, b = tr.weights, tr.bias
            if algorithm == "averaged":
                extra["last_weights"] = [to_json_number(v, exact) for v in weights]
                weights, b = averaged_weights(tr)
            elif algorithm == "voted":
                extra["votes"] = len(voted_weights(tr))
    if trace_file:
        write_text_atomic(trace_file, "\n".join(tr.to_jsonl_lines()) + "\n")
    zero = 0
    out = {
        "algorithm": algorithm, "data": path, "examples": tr.n_examples, "features": tr.n_features,
        "epochs": epochs, "exact": exact, "mistakes": tr.mistakes,
        "weights": [to_json_number(v, exact) for v in weights],
        "bias": to_json_number(b if b is not None else zero, exact),
        **extra,
    }
    if as_json:
        emit_json(out)
        return 0
    fmt = (lambda v: fraction_str(v)) if exact else (lambda v: f"{float(v):g}")
    click.echo(f"{algorithm} on {path}: {tr.n_examples} examples x {tr.n_features} features, {epochs} epoch(s)")
    click.echo(f"mistakes: {tr.mistakes}")
    label = "alpha (dual weights)" if algorithm == "kernel" else ("averaged weights" if algorithm == "averaged" else "weights")
    click.echo(f"{label}: [{', '.join(fmt(v) for v in weights)}]")
    if b is not None:
        click.echo(f"bias: {fmt(b)}")
    for k, v in extra.items():
        if k != "last_weights":
            click.echo(f"{k}: {v}")
    if trace_file:
        click.echo(f"trace: {trace_file} ({len(tr.steps)} steps)")
    return 0
