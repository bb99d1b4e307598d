"""The trusted base, checked at start: every trusted rule's schema on random exact instances.

No engine checks a trusted rule (``proofs.kernel.rules``): a proof states an instance of its schema and
the solvers take it as a fact.  An off-by-one in a schema, together with a matching sharper
bound, would therefore be "proved"; the test suite and ``verify --coq`` would notice, but a run of
``verify`` would not.  So ``verify`` (and ``check-bound``, whose answers rest on the catalogue)
first evaluates every schema of every rule on random small instances -- exact rational
arithmetic (``proofs.printers.exact.evaluate``) wherever the values are rational, 60-digit arithmetic
(``proofs.printers.approx``) for exp and lg -- and stops with the rule's name when one is false.

The check is cached by a fingerprint of the code it checks: the source files of the formula
objects, the evaluators, the rules and this module, and the compiled code (with its defaults and
closures) of every schema in memory, so that an edit on disk or a schema replaced at run time is
checked again.  A passed check leaves a file ``trusted-base-<fingerprint>`` under
``$XDG_CACHE_HOME/mistakebound``; a failed one is never cached.  The cached path reads a few
files and hashes them (about a millisecond).

The schemas are read through ``proofs.kernel.rules``' public interface (``RULES``, ``schema_formula``,
``BODY_ARGS``), imported once below.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import random
import sys
from fractions import Fraction

from proofs.kernel import rules as rule_source

__all__ = ["TrustedBaseError", "check", "check_here", "start", "check_rules", "fingerprint", "cached", "schema_failures"]

INSTANCES = 64            # random instances per schema
MIN_EVALUATED = 6         # instances that must evaluate (not outside an interpreted function's domain)


class TrustedBaseError(Exception):
    """A trusted rule (or a check-bound table entry) is false: nothing built on it may be reported."""


# --------------------------------------------------------------------------- fingerprints
def _code_bytes(f, depth: int = 0) -> bytes:
    """The compiled code of a function, with its defaults and closure (functions among them
    followed a few levels: a schema wrapped at run time differs from the one on disk)."""
    if depth > 4:
        return b""
    code = getattr(f, "__code__", None)
    if code is None:
        inner = getattr(f, "func", None)          # functools.partial: its function and arguments
        if inner is not None:
            parts = [inner, *getattr(f, "args", ()), *(getattr(f, "keywords", None) or {}).values()]
            return b"\1".join(_code_bytes(v, depth + 1) if callable(v) else repr(v).encode()[:200] for v in parts)
        return repr(type(f)).encode()
    out = [marshal.dumps(code)]
    kw = getattr(f, "__kwdefaults__", None) or {}
    for v in (getattr(f, "__defaults__", None) or ()) + tuple(kw[k] for k in sorted(kw)) + tuple(
            c.cell_contents for c in (getattr(f, "__closure__", None) or ()) if _has_contents(c)):
        out.append(_code_bytes(v, depth + 1) if callable(v) else repr(v).encode()[:200])
    return b"\0".join(out)


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False


def _file_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return b"?" + path.encode()


def fingerprint(modules=(), functions=(), extra: bytes = b"") -> str:
    """sha256 of the source files of ``modules`` (and of the files ``functions`` were compiled
    from), the compiled code of ``functions`` and ``extra``."""
    h = hashlib.sha256(extra)
    files = {os.path.abspath(m.__file__) for m in modules if getattr(m, "__file__", None)}
    files |= {os.path.abspath(f.__code__.co_filename) for f in functions if hasattr(f, "__code__")}
    for path in sorted(files):
        h.update(path.encode() + b"\0" + _file_bytes(path))
    for f in functions:
        h.update(_code_bytes(f))
    return h.hexdigest()[:32]


def _cache_file(kind: str, fp: str) -> str:
    from proofs.engines.cache import directory
    return os.path.join(directory(), f"{kind}-{fp}")


def cached(kind: str, fp: str, run) -> None:
    """Run ``run()`` (a list of failures) unless a pass with this fingerprint is recorded; raise
    :class:`TrustedBaseError` naming the failures; record a pass."""
    failures = _failures_unless_passed(kind, fp, run)
    if failures:
        raise TrustedBaseError(_message(failures))


def _failures_unless_passed(kind: str, fp: str, run) -> list:
    """[] when a pass with this fingerprint is recorded; otherwise ``run()``'s failures, a pass
    recorded when there are none."""
    path = _cache_file(kind, fp)
    if os.path.exists(path):
        return []
    failures = run()
    if not failures:
        _record_pass(path)
    return failures


def _message(failures) -> str:
    return "; ".join(failures[:3]) + (f" (and {len(failures) - 3} more)" if len(failures) > 3 else "")


def _record_pass(path: str) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as fh:
            fh.write("passed\n")
        os.replace(tmp, path)
    except OSError:
        pass                   # an unwritable cache only costs the check next time


# --------------------------------------------------------------------------- random instances
def _small(rnd):
    return rnd.randint(-3, 6)


# every value _frac draws, made once: the same two draws of ``rnd`` pick the same value as
# Fraction(n, d) would (a Fraction is immutable, so the instances may share them)
_FRACS = {(n, d): Fraction(n, d) for n in range(-12, 13) for d in (1, 2, 4)}


def _frac(rnd):
    return _FRACS[rnd.randint(-12, 12), rnd.choice((1, 2, 4))]


def _instance(rnd: random.Random, rule_id: str, name: str):
    """Random arguments for a schema and the environment giving every symbol a value: integer
    bounds and positions, rational coefficients, sequences of rationals or of 2-D vectors for the
    terms of a sum (sometimes all nonnegative, sometimes all 0, so that the premises of the sum
    rules hold and equalities are met where a strict inequality would be claimed)."""
    from proofs.language.formula import INT, REAL, VEC, Int, Nat, Real, Seq, Vec, num
    VAR, NUM = rule_source.VAR, rule_source.NUM
    sorts, _ = rule_source.RULES[rule_id].schemas[name]
    body = rule_source.BODY_ARGS.get(name, ())
    env, args, indices = {}, [], []
    ints: list = []
    index_names = iter("ijkl")
    nat_index = rnd.random() < 0.35
    pos_body = rnd.random() < 0.5
    for k, s in enumerate(sorts):
        if s == VAR:
            v = (Nat if nat_index else Int)(next(index_names))
            indices.append(v)
            args.append(v)
        elif s == INT:
            # an integer near the one before it half of the time: bounds one apart, equal, crossed
            val = rnd.choice(ints) + rnd.randint(-2, 2) if ints and rnd.random() < 0.85 else _small(rnd)
            ints.append(val)
            if k in body and indices and rnd.random() < 0.5:
                args.append(indices[0])                      # the free index itself (sum_term_le at j = i)
                env.setdefault(indices[0].name, val)
            elif rnd.random() < 0.3:
                args.append(num(val))
            else:
                t = Int(f"t{k}")
                env[t.name] = val
                args.append(t)
        elif s in (NUM, REAL) and k in body and indices:
            F = Seq(f"F{k}", REAL)
            vals = {t: _frac(rnd) for t in range(-12, 14)}
            shape = rnd.random()
            if shape < 0.25:
                vals = {t: Fraction(0) for t in vals}
            elif shape < 0.6:                               # alternating signs: cancellations
                vals = {t: Fraction((-1) ** (t % 2)) * (1 + abs(v)) for t, v in vals.items()}
            env[F.name] = {t: abs(v) for t, v in vals.items()} if pos_body else vals
            args.append(F(indices[0]))
        elif s in (NUM, REAL):
            if "sqrt" in name:
                q = _frac(rnd)
                val = q * q if rnd.random() < 0.5 else -q * q           # a square (sqrt exact) or a negative
            elif name.startswith("lg"):
                val = Fraction(rnd.randint(-4, 32), 4)
            elif name.startswith("exp") or "tangent" in name:
                val = Fraction(0) if rnd.random() < 0.4 else _frac(rnd)
            else:
                val = _frac(rnd)
            c = Real(f"c{k}")
            env[c.name] = val
            args.append(c)
        elif s == VEC and k in body and indices:
            X = Seq(f"X{k}", VEC)
            env[X.name] = {t: (_frac(rnd), _frac(rnd)) for t in range(-12, 14)}
            if rnd.random() < 0.5:                          # antipodal points: x(t + 1) = -x(t)
                v = (_frac(rnd), _frac(rnd))
                env[X.name] = {t: v if t % 2 == 0 else (-v[0], -v[1]) for t in range(-12, 14)}
            args.append(X(indices[0]))
        elif s == VEC:
            v = Vec(f"v{k}")
            env[v.name] = (Fraction(0), Fraction(0)) if rnd.random() < 0.2 else (_frac(rnd), _frac(rnd))
            args.append(v)
        else:
            raise TrustedBaseError(f"{rule_id}.{name}: no random values for an argument of sort {s}")
    return args, env


def schema_failures(rule_id: str, name: str, instances: int = INSTANCES, seed: int = 0) -> list[str]:
    """Why the schema ``rule_id.name`` is false on random instances ([] when it held on all)."""
    from proofs.printers.approx import approx
    from proofs.printers.exact import NotExact, evaluate
    from proofs.language.formula import BOOL, Expr, FormulaError
    from proofs.printers.render import text
    rnd = random.Random(f"{seed}:{rule_id}.{name}")
    sorts, _ = rule_source.RULES[rule_id].schemas[name]
    if "Vec" in [s for k, s in enumerate(sorts) if k in rule_source.BODY_ARGS.get(name, ())]:
        instances *= 2          # sums of vectors: a wrong sign shows on fewer configurations
    evaluated = 0
    for _ in range(instances * 8):
        if evaluated >= instances:
            break
        args, env = _instance(rnd, rule_id, name)
        try:
            f = rule_source.schema_formula(rule_id, name, args)
        except (TypeError, KeyError, FormulaError) as e:
            return [f"trusted rule {rule_id}.{name} cannot be instantiated: {e}"]
        if not isinstance(f, Expr) or f.sort != BOOL:
            return [f"trusted rule {rule_id}.{name} does not state a formula"]

        def shown(env=env) -> str:              # only for a failure's message
            return ", ".join(f"{k} = {_show(v)}" for k, v in sorted(env.items()))

        def value(g):
            try:
                return evaluate(g, env) is True            # exact, wherever the values are rational
            except NotExact:
                return bool(approx(g, env, strict=True))   # exp, lg, irrational roots: 60 digits, strict < strict
        try:
            # an instance whose premise is false says nothing: only those where it holds are counted
            if f.op == "implies" and not value(f.args[0]):
                continue
            ok = value(f)
        except (NotExact, ZeroDivisionError, ValueError, TypeError, OverflowError, ArithmeticError) as e:
            # a schema's premises keep every function inside its domain: sqrt or lg of a negative
            # number, or a division by 0, reached on an instance is a schema that lost a premise
            return [f"trusted rule {rule_id}.{name} speaks of a value outside a function's domain at {shown()} "
                    f"({type(e).__name__}: {e}): {text(f)}"]
        evaluated += 1
        if not ok:
            return [f"trusted rule {rule_id}.{name} is false at {shown()}: {text(f)}"]
    if evaluated < MIN_EVALUATED:
        return [f"trusted rule {rule_id}.{name}: only {evaluated} random instances could be evaluated"]
    return []


def _show(v) -> str:
    if isinstance(v, dict):
        return "(" + ", ".join(f"{k}: {_show(x)}" for k, x in list(v.items())[:6]) + ", ...)"
    if isinstance(v, tuple):
        return "(" + ", ".join(_show(x) for x in v) + ")"
    return str(v)


def _schemas():
    return [(r.id, name, build) for r in rule_source.RULES.values() for name, (_, build) in r.schemas.items()]


def check_rules(seed: int = 0) -> list[str]:
    """Every schema of every trusted rule on random instances: the failures ([] when all hold)."""
    out = []
    for rid, name, _ in _schemas():
        out.extend(schema_failures(rid, name, seed=seed))
    return out


def rules_fingerprint() -> str:
    from proofs.printers import approx, exact, printer
    from proofs.language import formula, functions, substitution
    builds = [b for _, _, b in _schemas()]
    names = ",".join(f"{rid}.{name}:{rule_source.RULES[rid].schemas[name][0]}" for rid, name, _ in _schemas())
    return fingerprint((formula, substitution, functions, rule_source, exact, approx, printer, sys.modules[__name__]),
                       builds + [rule_source.schema_instance, rule_source.nat_lo],
                       (names + repr(sorted(rule_source.BODY_ARGS.items()))).encode())


def _loaded_fingerprint() -> str:
    """The rules' fingerprint once the catalogue's modules are loaded (some of them register rules
    of their own)."""
    from proofs.catalogue import registry
    registry.all_theorems()
    return rules_fingerprint()


def check() -> None:
    """The start-up check of the trusted rules (cached; :class:`TrustedBaseError` when one is false)."""
    fp = _loaded_fingerprint()
    cached("trusted-base", fp, lambda: check_rules(seed=int(fp[:8], 16)))


def check_here() -> dict:
    """The check as the child of :func:`start` runs it: this process's fingerprint and the
    failures ([] when every schema held; a pass is recorded under that fingerprint)."""
    fp = _loaded_fingerprint()
    return {"fingerprint": fp,
            "failures": _failures_unless_passed("trusted-base", fp, lambda: check_rules(seed=int(fp[:8], 16)))}


def start():
    """Start the check beside other work; return ``wait()``, which raises :class:`TrustedBaseError`
    when a rule is false.  Cached: ``wait`` has nothing to do.  Otherwise the check runs in a child
    process of its own (``python -c`` :func:`_child_main`), on the core this process leaves idle
    while it builds the proofs, and ``wait`` takes its answer -- only an answer on the same
    fingerprint (the same code) counts; a child that died, failed or read other code leaves the
    check to this process, as :func:`check` does it.  A caller reports nothing built on the rules
    before ``wait`` returned."""
    fp = _loaded_fingerprint()
    if os.path.exists(_cache_file("trusted-base", fp)):
        return lambda: None
    answer = _spawn()

    def wait() -> None:
        res = answer()
        if (not isinstance(res, dict) or res.get("fingerprint") != fp
                or not isinstance(res.get("failures"), list)):
            check()                      # no usable answer: the check runs here
            return
        if res["failures"]:
            raise TrustedBaseError(_message([str(f) for f in res["failures"]]))
    return wait


CHILD_SECONDS = 600       # a check that takes longer is killed, and done in the asking process


def _spawn():
    """Start :func:`_child_main` in a child process; return ``answer()``: its JSON answer, or None."""
    import subprocess
    from proofs.engines.workers import child_env
    try:
        proc = subprocess.Popen([sys.executable, "-c", "from proofs.kernel.trusted_base import _child_main; "
                                 "_child_main()"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=child_env())
    except OSError:
        return lambda: None
    import atexit
    atexit.register(_stop, proc)         # a command that ends early leaves no check running

    def answer():
        import json
        try:
            out, _ = proc.communicate(timeout=CHILD_SECONDS)
            return json.loads(out.decode("utf-8").strip().splitlines()[-1])
        except Exception:  # noqa: BLE001 - killed, timed out, garbled: no answer
            _stop(proc)
            return None
    return answer


def _stop(proc) -> None:
    if proc.poll() is None:
        try:
            proc.kill()
            proc.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass


def _child_main() -> None:
    """The child of :func:`start`: the check, its answer as one JSON line on stdout."""
    import json
    print(json.dumps(check_here()), flush=True)
