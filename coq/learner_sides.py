"""The side conditions of a learner theorem: formula objects, printed by the catalogue's printer and
refused when they restrict more than the catalogue entry's hypotheses.

A learner theorem (``coq.learner_theorems``) quantifies over the learner's inputs (a list of
examples, an expert index, a rational penalty, a visiting order).  Besides the catalogue's
hypotheses read on every example, it may need conditions on those inputs that no catalogue formula
states, because the catalogue speaks of an abstract run.  Each is a :class:`Side`: a formula object
(``proofs.language.formula``) over the catalogue's variables, the learner's inputs and named reads of them
(``adv(i)``: the i-th advice value of a row, ``len_row``: its length, ...), printed with
``coq.export.CoqPrinter`` (the reads bound by ``let``), and one of three justifications:

* ``domain``: the input domain of the Python learner the Coq one is compared with.  Checked on
  small inputs: every input the Python learner accepts (it raises ``InputError`` on the others)
  must satisfy the condition.  "At most 3 examples" is refused: the Python learner runs on 4.
* ``reads <hypothesis>``: a catalogue hypothesis that the learner's run discharges, stated on the
  inputs instead (Halving's consistent hypothesis j for ``target_in_class``, V(M) >= 1).  Checked
  on small inputs: wherever the catalogue's own formula holds on the Python learner's run, the
  condition holds for some value of the theorem's quantified inputs.
* ``renaming``: a condition on an input the learner's run does not read, through which the theorem
  reads the catalogue's variables (Winnow's sigma: the catalogue's variable i is the learner's
  sigma(i)); it speaks of nothing else but the catalogue's variables, so it restricts no example,
  and it must hold for the identity at every small n, r <= n (the catalogue's first r variables).
* ``link``: an equation tying a learner's parameter to the catalogue's variable of the same
  meaning (``Q2R bq = beta``): a variable read from an input equal to a catalogue variable, nothing
  else.

A condition the check refuses makes the theorem's statement not printable: the build reports the
theorem failed with the reason.  The checks are on finitely many small inputs (a few hundred per
learner, deterministic), so a restriction that only bites on large inputs is not seen; what the
theorem *proves* from its conditions is Coq's to decide (``LearnerTheorems.v``).
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction

from proofs.language.formula import Expr
from proofs.language.substitution import free_vars, walk
from coq.export import CoqPrinter, ExportError, _z_indexed

__all__ = ["Side", "Reads", "print_side", "check_sides", "SideDomain", "HEDGE_DOMAIN"]


@dataclass(frozen=True)
class Reads:
    """How a side condition's formula reads the learner's inputs: per member of ``members``
    (``binders``: one member's Coq binders, ``pattern``: the member as a Coq pattern), the formula
    symbols bound by ``let`` to Coq terms (``lets``)."""
    members: str = ""                # "" = the condition is stated once, not per member
    binders: tuple = ()              # ((Coq name, Coq type), ...)
    pattern: str = ""
    lets: tuple = ()                 # ((formula symbol, Coq term), ...)


@dataclass(frozen=True)
class Side:
    formula: Expr
    why: str                         # "domain" | "reads <catalogue hypothesis>" | "link"
    reads: Reads = Reads()


@dataclass(frozen=True)
class SideDomain:
    """The Python learner's side of the check: small inputs, whether the Python learner accepts one,
    and the values of the formula symbols on it (globally and per member)."""
    inputs: object                   # () -> iterable of inputs
    accepts: object                  # input -> bool
    env: object                      # input -> dict (the catalogue's variables, the inputs, global reads)
    members: object                  # input -> list of dicts (the reads of each member)
    python: str = ""
    catalogue: object = None         # (input, catalogue hypothesis name) -> dict to evaluate it on the run
    vary: tuple = ()                 # inputs the theorem quantifies over: (name, input -> values)


def print_side(side: Side) -> str:
    f = side.formula
    pr = CoqPrinter(_z_indexed([f]), [f])
    used = {v.name for v in free_vars(f)} | {n.name for n in walk(f) if n.op == "call"}
    lets = "".join(f"let {n} := {t} in " for n, t in side.reads.lets if n in used)
    body = pr.P(f)
    r = side.reads
    if not r.members:
        return f"({lets}{body})" if lets else body
    bs = " ".join(f"({n} : {t})" for n, t in r.binders)
    return f"(forall {bs}, In {r.pattern} {r.members} -> {lets}{body})"


def _holds(side: Side, env: dict, members: list) -> bool:
    from proofs.printers.exact import NotExact, evaluate
    try:
        if not side.reads.members:
            return bool(evaluate(side.formula, env))
        return all(evaluate(side.formula, {**env, **m}) for m in members)
    except (NotExact, ZeroDivisionError, IndexError, KeyError) as e:
        raise ExportError(f"side condition {print_side(side)} cannot be evaluated on an input ({e})") from None


_CHECKED: dict = {}       # this process's verdicts: the same question is not evaluated again


def check_sides(theorem_id: str, base, sides, domain: SideDomain | None, run_names=(), inputs=(),
                run_text: str = "") -> None:
    """Raise ExportError naming ``theorem_id`` when a side condition restricts more than the
    catalogue entry ``base``'s hypotheses (module docstring).  The checks are deterministic: a
    question asked again in this process (every build prints every learner statement) gets the
    verdict it got, keyed by everything it reads -- the printed conditions and their
    justifications, the entry's hypotheses and conclusion, the Python learner's side."""
    try:
        key = (theorem_id, base.id, repr(base.hypotheses), repr(base.conclusion),
               tuple((print_side(x), x.why, x.reads) for x in sides), domain, tuple(run_names), tuple(inputs), run_text)
        hash(key)
    except (TypeError, ExportError):
        key = None
    if key is not None and key in _CHECKED:
        if _CHECKED[key] is not None:
            raise ExportError(_CHECKED[key])
        return
    try:
        _check_sides(theorem_id, base, sides, domain, run_names, inputs, run_text)
    except ExportError as e:
        if key is not None:
            _CHECKED[key] = str(e)
        raise
    if key is not None:
        _CHECKED[key] = None


def _check_sides(theorem_id, base, sides, domain, run_names, inputs, run_text) -> None:
    hyps = dict(base.hypotheses)
    cat_vars = {v.name for _, f in base.hypotheses for v in free_vars(f)} | {v.name for v in free_vars(base.conclusion)}
    input_names = {n for n, _ in inputs}
    cases = None
    for s in sides:
        text = print_side(s)
        where = f"{theorem_id}: side condition {text}"
        known = cat_vars | input_names | {n for n, _ in s.reads.binders} | {n for n, _ in s.reads.lets}
        loose = sorted({v.name for v in free_vars(s.formula)} - known)
        if loose:
            raise ExportError(f"{where} speaks of {loose[0]}, neither a variable of {base.id} nor a read of the "
                              f"learner's inputs")
        if s.why == "link":
            f = s.formula
            ok = f.op == "eq" and all(a.op == "var" for a in f.args)
            if ok:
                a, b = f.args
                read = {n for n, _ in s.reads.lets}
                ok = (a.name in read and b.name in cat_vars and a.name not in cat_vars) or \
                     (b.name in read and a.name in cat_vars and b.name not in cat_vars)
            if not ok:
                raise ExportError(f"{where} is not an equation between a read of the learner's input and a variable "
                                  f"of {base.id}")
            continue
        if s.why == "renaming":
            import re as _re
            ins = {v.name for v in free_vars(s.formula)} | {n.name for n in walk(s.formula) if n.op == "call"}
            own = (ins & input_names) - cat_vars
            if not own or any(_re.search(rf"(?<![\w.']){_re.escape(n)}(?![\w'])", run_text) for n in own):
                raise ExportError(f"{where} is not a condition on an input the learner's run does not read")
            if (ins - own) - cat_vars or s.reads != Reads():
                raise ExportError(f"{where} speaks of more than the renaming and {base.id}'s variables")
            from proofs.printers.exact import evaluate
            for n_ in range(1, 6):
                for r_ in range(0, n_ + 1):
                    env = {"n": n_, "r": r_, **{m: (lambda v: v) for m in own}}
                    if not evaluate(s.formula, env):
                        raise ExportError(f"{where} excludes the identity renaming at n = {n_}, r = {r_}")
            continue
        if domain is None:
            raise ExportError(f"{where}: the learner has no Python domain to check it against")
        if cases is None:
            cases = [(x, domain.accepts(x)) for x in domain.inputs()]
        if s.why == "domain":
            for x, ok in cases:
                if ok and not _holds(s, domain.env(x), domain.members(x)):
                    raise ExportError(f"{where} is stronger than {base.id}'s hypotheses: {domain.python} accepts "
                                      f"{_show(x)}, which it excludes")
            continue
        if s.why.startswith("reads "):
            h = s.why.split(" ", 1)[1]
            if h not in hyps or h not in run_names:
                raise ExportError(f"{where} reads {h}, which is not a hypothesis of {base.id} the learner discharges")
            if domain.catalogue is None:
                raise ExportError(f"{where}: the learner's run gives no values to evaluate {h} on")
            from proofs.printers.exact import evaluate
            for x, ok in cases:
                if not ok or not evaluate(hyps[h], domain.catalogue(x, h)):
                    continue
                alts = [dict(domain.env(x))]
                for name, values in domain.vary:
                    alts = [{**e, name: v} for e in alts for v in values(x)]
                if not any(_holds(s, e, domain.members(x)) for e in alts):
                    raise ExportError(f"{where} is stronger than {base.id}'s hypothesis {h}: it holds on the run of "
                                      f"{domain.python} on {_show(x)}, the condition does not")
            continue
        raise ExportError(f"{where}: unknown justification {s.why!r}")


def _show(x) -> str:
    s = repr(x)
    return s if len(s) < 160 else s[:157] + "..."


# ------------------------------------------------------------------ the Python learners' domains
def _experts_inputs(with_beta: bool):
    def gen():
        rng = random.Random(20260)
        vals = (1, -1, 1, -1, 0, 2)
        for T in range(0, 6):
            for n in (1, 2, 3):
                for _ in range(16):
                    rows = [[rng.choice(vals) if rng.random() < 0.15 else rng.choice((1, -1))
                             for _ in range(n if rng.random() < 0.9 else rng.choice((n - 1, n + 1)))]
                            for _ in range(T)]
                    labs = [rng.choice((1, -1)) if rng.random() < 0.9 else rng.choice((0, 2)) for _ in range(T)]
                    j = rng.randrange(0, n + 1)
                    if rows and j < n and rng.random() < 0.5 and all(len(r) > j for r in rows):
                        labs = [r[j] for r in rows]          # realizable: expert j right on every example
                    bq = rng.choice((Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(0), Fraction(1))) \
                        if with_beta else None
                    yield (n, j, tuple(map(tuple, rows)), tuple(labs), bq)
        # every +-1 table of 1..2 experts over 1..3 steps, every label
        for n in (1, 2):
            for T in (1, 2, 3):
                for cells in itertools.product((1, -1), repeat=n * T):
                    for labs in itertools.product((1, -1), repeat=T):
                        rows = tuple(tuple(cells[t * n:(t + 1) * n]) for t in range(T))
                        yield (n, 0, rows, labs, Fraction(1, 2) if with_beta else None)
    return gen


def _experts_accepts(beta_default):
    def accepts(x):
        from learners import InputError, run_weighted_majority
        n, j, rows, labs, bq = x
        if not rows or any(len(r) != n for r in rows) or not (0 <= j < n):
            return False             # no Python call has these n and j: the advice table has n columns
        try:
            run_weighted_majority([list(r) for r in rows], list(labs), beta=bq if bq is not None else beta_default)
        except InputError:
            return False
        return True
    return accepts


def _experts_env(experts: str):
    def env(x):
        n, j, rows, labs, bq = x
        out = {experts: n, "j": j, "len_ex": len(rows)}
        if bq is not None:
            out["bq_r"] = bq
        return out
    return env


def _experts_members(x):
    _, _, rows, labs, _ = x
    return [{"adv": (lambda r: lambda i: r[int(i)] if 0 <= i < len(r) else 0)(r), "len_row": len(r), "lab": lab}
            for r, lab in zip(rows, labs)]


def _halving_catalogue(x, h):
    from learners import run_halving
    n, _, rows, labs, _ = x
    tr = run_halving([[r[i] for r in rows] for i in range(n)], list(labs))
    return {"M": tr.mistakes, "V": {tr.mistakes: tr.extras["version_space_sizes"][-1]}, "N": n}


def experts_domain(experts: str, with_beta: bool, halving: bool = False) -> SideDomain:
    return SideDomain(
        inputs=_experts_inputs(with_beta), accepts=_experts_accepts(Fraction(0) if halving else Fraction(1, 2)),
        env=_experts_env(experts), members=_experts_members,
        python="learners.run_halving" if halving else "learners.run_weighted_majority",
        catalogue=_halving_catalogue if halving else None,
        vary=(("j", lambda x: range(x[0])),))


def _kernel_inputs():
    for n in range(1, 6):
        for epochs in (1, 2, 3):
            for shuffle, seed in ((False, None), (True, 0), (True, 7)):
                yield (n, epochs, shuffle, seed)


def _kernel_order(x):
    from learners.core import visiting_order
    n, epochs, shuffle, seed = x
    return [int(i) for i in visiting_order(n, epochs, shuffle, seed).tolist()]


KERNEL_DOMAIN = SideDomain(
    inputs=_kernel_inputs, accepts=lambda x: True, env=lambda x: {"n": x[0]},
    members=lambda x: [{"i": i} for i in _kernel_order(x)],
    python="learners.run_kernel_perceptron (its visiting order, learners.core.visiting_order)")


def _hedge_inputs():
    """Loss tables of 1..3 options over 0..4 steps: losses in [0, 1], some outside it, some ragged."""
    rng = random.Random(20261)
    vals = (Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(-1, 2), Fraction(3, 2), Fraction(2))
    for T in range(0, 5):
        for n in (1, 2, 3):
            for _ in range(24):
                rows = [[rng.choice(vals[:4]) if rng.random() < 0.85 else rng.choice(vals)
                         for _ in range(n if rng.random() < 0.9 else rng.choice((n - 1, n + 1)))]
                        for _ in range(T)]
                yield (n, tuple(map(tuple, rows)))


def _hedge_accepts(x) -> bool:
    from learners import InputError, run_hedge
    n, rows = x
    if not rows or any(len(r) != n for r in rows):
        return False                 # no Python call has this n: the loss table has n columns
    try:
        run_hedge([list(r) for r in rows], beta=Fraction(1, 2), exact=False)
    except InputError:
        return False
    return True


HEDGE_DOMAIN = SideDomain(
    inputs=_hedge_inputs, accepts=_hedge_accepts, env=lambda x: {"n": x[0]},
    members=lambda x: [{"loss": (lambda r: lambda i: r[int(i)] if 0 <= i < len(r) else 0)(r)} for r in x[1]],
    python="learners.run_hedge")

