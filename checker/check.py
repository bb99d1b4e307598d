"""Checking a certificate: from plain data to "proved", "refuted", "unknown" or "invalid".

:func:`read` parses one certificate (docs/certificates.md) and checks everything that needs no
engine, failing with an error that names the step, the rule and what differed:

* the header (format, version), the declarations (identifiers, sorts), every term (its sort
  computed from the declarations; ill-sorted or ill-formed terms refused);
* the step graph: ids unique, every use an *earlier* step (so the graph is acyclic), every step
  used by the last one, the last step's formula the stated conclusion, and every hypothesis step
  one of the stated hypotheses (by name and formula);
* every step re-derived: a rule instance rebuilt from the fixed table (``checker.schemas``) at
  its recorded arguments, a lemma's statement instantiated (with the guards ``t >= 0`` a natural
  needs), an instantiation of a "for all", a specialization of variables no hypothesis it rests
  on mentions, an induction whose premises have exactly the shape the rule needs -- each compared
  structurally with the formula the step records.

What is left are the *obligations*: each ``solve`` step as an SMT-LIB text printed here
(``checker.smtlib``), which z3 and cvc5 must both answer unsat; each ``identity`` as its
canonical text, which sympy (symbolic dimension) and z3 and cvc5 (coordinates) must prove.
:func:`decide` asks an oracle for verdicts on exactly those texts, resolves lemmas among the
certificates checked together (a lemma is proved only when a certificate of the same statement
is), and gives each theorem its status.  An erratum's counterexample is evaluated exactly here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from checker import schemas
from checker.evaluate import NotExact, evaluate, number, values
from checker.smtlib import problem
from checker.terms import (BOOL, INT, NAT, REAL, SORTS, And, CheckError, ForAll, Implies, Term, add, dump, guarded, le, lit, lt, node, parse,
                    Reading, show, subst, valid_name)

FORMAT = "mistakebound-certificate"
VERSION = 1
PROVED, REFUTED, UNKNOWN, INVALID, ASSUMING = "proved", "refuted", "unknown", "invalid", "proved assuming"
VACUOUS = "vacuous"
VACUOUS_WHY = "vacuous: no assignment satisfies the hypotheses"
KINDS = ("hypothesis", "solve", "identity", "lemma", "rule", "inst", "specialize", "generalize", "induction")


@dataclass
class Obligation:
    """What an engine must decide: ``smt`` (a text z3 and cvc5 must both answer unsat),
    ``identity`` (an equation sympy and the coordinate instances must prove), or ``sat`` (the
    stated hypotheses alone, of which z3 is asked for a model: see :func:`decide`)."""
    kind: str
    step: str
    text: str                       # the SMT-LIB text, or the identity's canonical text
    goal: Term | None = None        # an identity's equation (for the deciding engine)
    symbols: dict | None = None     # an identity's declarations


@dataclass
class Checked:
    theorem: str
    kind: str = "theorem"
    errors: list = field(default_factory=list)
    obligations: list = field(default_factory=list)
    lemmas: dict = field(default_factory=dict)          # lemma id -> its statement (canonical JSON)
    statement: str = ""                                 # this theorem's statement (canonical JSON)
    assumptions: list = field(default_factory=list)     # rules outside the fixed table
    rules: list = field(default_factory=list)           # rules of the fixed table it uses
    refuted_exactly: bool = False                       # an erratum whose counterexample evaluates
    parsed: dict = field(default_factory=dict, repr=False)   # lemma id -> (declarations, statement), while reading
    why: str = ""
    hypotheses: list = field(default_factory=list, repr=False)   # the stated hypotheses, (name, term)
    decls: dict = field(default_factory=dict, repr=False)


@dataclass
class Verdict:
    theorem: str
    status: str
    reasons: list = field(default_factory=list)
    assumptions: list = field(default_factory=list)
    rules: list = field(default_factory=list)
    obligations: int = 0
    # the hypotheses: "sat" (z3's model, evaluated exactly here), "sat-smt" (a model of the SMT-LIB
    # reading, where functions and vectors are uninterpreted), "unsat", "unknown"; "" not asked
    satisfiable: str = ""

    def to_json(self) -> dict:
        return {"theorem": self.theorem, "status": self.status, "reasons": self.reasons,
                "assumptions": self.assumptions, "rules": self.rules, "obligations": self.obligations,
                **({"hypotheses_satisfiable": self.satisfiable} if self.satisfiable else {})}


# ----------------------------------------------------------------------------- declarations
def declarations(data) -> dict:
    if not isinstance(data, dict):
        raise CheckError("'symbols' must be an object")
    out = {}
    for name, d in data.items():
        if not valid_name(name):
            raise CheckError(f"symbol {name!r} is not an identifier the printers keep as it is")
        if isinstance(d, list) and len(d) == 2 and d[0] == "var" and d[1] in SORTS:
            out[name] = ("var", d[1])
        elif (isinstance(d, list) and len(d) == 3 and d[0] == "fun" and isinstance(d[1], list) and d[1]
              and all(s in SORTS for s in d[1]) and d[2] in SORTS):
            out[name] = ("fun", tuple(d[1]), d[2])
        else:
            raise CheckError(f"symbol {name}: declaration {json.dumps(d)[:80]} is not [\"var\", sort] or "
                             f"[\"fun\", [sorts], sort]")
    return out


def _names(t: Term, acc: set) -> set:
    stack = [t]
    while stack:
        n = stack.pop()
        if n.op in ("var", "call"):
            acc.add(n.name)
        stack.extend(n.args)
    return acc


def _bound_names(t: Term) -> set:
    out, stack = set(), [t]
    while stack:
        n = stack.pop()
        if n.op == "forall":
            out |= {v.name for v in n.args[:-1]}
        elif n.op in ("sum", "vsum"):
            out.add(n.args[0].name)
        stack.extend(n.args)
    return out


def _statement(hyps, concl: Term) -> Term:
    fs = [f for _, f in hyps]
    return Implies(And(*fs), concl) if fs else concl


def _canon(symbols: dict, hyps, concl: Term) -> str:
    """A statement as canonical JSON: its declarations (of the symbols it mentions), hypotheses, conclusion."""
    names = set()
    for _, f in hyps:
        _names(f, names)
    _names(concl, names)
    decl = {n: list(d[1:]) if d[0] == "var" else [list(d[1]), d[2]] for n, d in symbols.items() if n in names}
    return json.dumps({"symbols": decl, "hypotheses": [[n, dump(f)] for n, f in hyps], "conclusion": dump(concl)},
                      sort_keys=True, separators=(",", ":"))


def _hypotheses(data, decls):
    if not isinstance(data, list):
        raise CheckError("'hypotheses' must be a list of [name, formula]")
    out, seen = [], set()
    for h in data:
        if not (isinstance(h, list) and len(h) == 2 and valid_name(h[0])) or h[0] in seen:
            raise CheckError(f"hypothesis {str(h)[:60]}: not [name, formula] with a new identifier as name")
        seen.add(h[0])
        f = _formula(h[1], decls, f"hypothesis {h[0]}")
        out.append((h[0], f))
    return out


def _formula(data, decls, where) -> Term:
    try:
        f = parse(data, decls)
    except CheckError as e:
        raise CheckError(f"{where}: {e}") from None
    if f.sort != BOOL:
        raise CheckError(f"{where}: a {f.sort} term where a formula is expected")
    return f


def _term(data, decls, where) -> Term:
    try:
        return parse(data, decls)
    except CheckError as e:
        raise CheckError(f"{where}: {e}") from None


# ----------------------------------------------------------------------------- one certificate
def read(cert) -> Checked:
    """Parse and check one certificate; what needs an engine is left in ``obligations``."""
    tid = cert.get("theorem") if isinstance(cert, dict) else None
    out = Checked(tid if isinstance(tid, str) else "?")
    try:
        with Reading():
            _read(cert, out)
    except CheckError as e:
        out.errors.append(str(e))
    except RecursionError:
        out.errors.append("a term nested too deeply")
    except Exception as e:  # noqa: BLE001 - malformed data of any shape is refused, never proved
        out.errors.append(f"malformed certificate ({type(e).__name__}: {str(e)[:200]})")
    return out


def _read(cert, out: Checked):
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise CheckError(f"not a certificate (the field 'format' must be {FORMAT!r})")
    if cert.get("version") != VERSION:
        raise CheckError(f"certificate version {cert.get('version')!r}; this checker reads version {VERSION}")
    if not valid_name(out.theorem):
        raise CheckError("'theorem' must be an identifier")
    kind = out.kind = cert.get("kind")
    if kind not in ("theorem", "erratum"):
        raise CheckError("'kind' must be 'theorem' or 'erratum'")
    decls = declarations(cert.get("symbols"))
    hyps = _hypotheses(cert.get("hypotheses"), decls)
    concl = _formula(cert.get("conclusion"), decls, "the conclusion")
    out.statement = _canon(decls, hyps, concl)
    out.hypotheses, out.decls = hyps, decls
    if kind == "erratum":
        _erratum(cert, decls, hyps, concl, out)
        return
    lemmas = cert.get("lemmas", {})
    if not isinstance(lemmas, dict):
        raise CheckError("'lemmas' must be an object")
    steps = cert.get("steps")
    if not isinstance(steps, list) or not steps:
        raise CheckError("a theorem's certificate has a non-empty list 'steps'")
    _steps(out, steps, decls, dict(hyps), concl, lemmas)


def _erratum(cert, decls, hyps, concl, out: Checked):
    env = values(cert.get("counterexample"), decls)
    try:
        for name, h in hyps:
            if evaluate(h, env) is not True:
                out.why = f"the counterexample does not satisfy hypothesis {name}"
                return
        if evaluate(concl, env) is not False:
            out.why = "the conclusion holds at the counterexample"
            return
    except NotExact as e:
        out.why = f"the counterexample cannot be evaluated exactly: {e}"
        return
    out.refuted_exactly = True


def _steps(out: Checked, steps, decls, stated: dict, concl: Term, lemmas: dict):
    formulas: dict = {}          # step id -> formula
    rests: dict = {}             # step id -> names of the hypotheses it rests on
    uses_of: dict = {}
    fixed = set().union(*[f.free() for f in stated.values()]) if stated else set()
    rules, assumed = set(), set()
    for n, s in enumerate(steps):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str) or not s["id"]:
            raise CheckError(f"step {n + 1}: not an object with a string 'id'")
        sid, by = s["id"], s.get("by")
        where = f"step {sid}"
        if sid in formulas:
            raise CheckError(f"{where}: a second step with this id")
        if by not in KINDS:
            raise CheckError(f"{where}: unknown kind {by!r} (one of {', '.join(KINDS)})")
        where = f"step {sid} ({by})"
        f = _formula(s.get("formula"), decls, where)
        uses = s.get("uses", [])
        if by == "solve":
            if not isinstance(uses, list) or not all(isinstance(u, list) and len(u) == 2 and isinstance(u[0], str)
                                                     for u in uses):
                raise CheckError(f"{where}: 'uses' must be a list of [label, step id]")
            labels, ids = [u[0] for u in uses], [u[1] for u in uses]
        else:
            if not isinstance(uses, list):
                raise CheckError(f"{where}: 'uses' must be a list of step ids")
            labels, ids = [], uses
        for u in ids:
            if u not in formulas:
                raise CheckError(f"{where}: uses {u!r}, which is not an earlier step")
        want = _derive(by, s, f, ids, formulas, rests, decls, stated, lemmas, fixed, where, out)
        if want is not None and want != f:
            raise CheckError(f"{where}: the step records {show(f)}, but it derives {show(want)}")
        if by == "rule":
            (rules if schemas.known(s.get("rule"), s.get("schema")) else assumed).add(f"{s['rule']}.{s['schema']}")
        if by == "induction":
            rules.add("induction")
        if by == "solve":
            note = s.get("comment", "")
            if not isinstance(note, str):
                raise CheckError(f"{where}: 'comment' must be a string")
            out.obligations.append(Obligation("smt", sid, problem(list(zip(labels, [formulas[u] for u in ids])), f,
                                                                  note=note)))
        if by == "identity":
            rules.add("finite_sum_linearity")      # sympy's normal form in coordinates is linearity of sums
            if f.op != "eq" or ids:
                raise CheckError(f"{where}: an identity is an equation 'lhs = rhs' and uses no step")
            names = _names(f, set())
            sym = {k: d for k, d in decls.items() if k in names}
            out.obligations.append(Obligation("identity", sid, identity_text(f, sym), f, sym))
        formulas[sid] = f
        uses_of[sid] = list(ids)
        rests[sid] = {s["name"]} if by == "hypothesis" else set().union(*[rests[u] for u in ids]) if ids else set()
    last = steps[-1]["id"]
    if formulas[last] != concl:
        raise CheckError(f"step {last} (the last) proves {show(formulas[last])}, but the conclusion is {show(concl)}")
    reached, stack = set(), [last]
    while stack:
        u = stack.pop()
        if u not in reached:
            reached.add(u)
            stack.extend(uses_of[u])
    unused = [s["id"] for s in steps if s["id"] not in reached]
    if unused:
        raise CheckError(f"steps not used by the conclusion: {', '.join(unused)}")
    out.rules, out.assumptions = sorted(rules), sorted(assumed)


def identity_text(goal: Term, symbols: dict) -> str:
    """An identity's canonical text: the equation and the declarations of its symbols."""
    decl = {n: list(d[1:]) if d[0] == "var" else [list(d[1]), d[2]] for n, d in symbols.items()}
    return json.dumps({"identity": dump(goal), "symbols": decl}, sort_keys=True, separators=(",", ":"))


def identity_key(goal_wire, symbols_wire) -> str:
    """The canonical text the checker gives the identity ``goal_wire`` (for a producer that wants
    to hand over verdicts it has on exactly that identity)."""
    decls = declarations(symbols_wire)
    with Reading():
        goal = parse(goal_wire, decls)
    names = _names(goal, set())
    return identity_text(goal, {k: d for k, d in decls.items() if k in names})


def _held(stated, names) -> set:
    """The variables the stated hypotheses ``names`` mention (a step resting on them fixes them)."""
    return set().union(*[stated[h].free() for h in names]) if names else set()


def _mapping(data, decls_of_var, decls, where) -> dict:
    if not isinstance(data, list):
        raise CheckError(f"{where}: a mapping is a list of [variable, term]")
    out = {}
    for pair in data:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise CheckError(f"{where}: a mapping is a list of [variable, term]")
        v = _term(pair[0], decls_of_var, where)
        if v in out:
            raise CheckError(f"{where}: {v.name} mapped twice")
        out[v] = _term(pair[1], decls, where)
    return out


def _derive(by, s, f, ids, formulas, rests, decls, stated, lemmas, fixed, where, out):  # noqa: C901
    """The formula the step must record (None: nothing to re-derive here; an engine decides)."""
    try:
        if by == "hypothesis":
            name = s.get("name")
            if name not in stated:
                raise CheckError(f"{where}: {name!r} is not a stated hypothesis")
            if ids:
                raise CheckError(f"{where}: a hypothesis uses no step")
            return stated[name]
        if by in ("solve", "identity"):
            return None
        if by == "rule":
            rule, schema = s.get("rule"), s.get("schema")
            args = s.get("args")
            if not isinstance(rule, str) or not isinstance(schema, str) or not isinstance(args, list) or ids:
                raise CheckError(f"{where}: a rule step names 'rule', 'schema' and 'args' and uses no step")
            terms = [_term(a, decls, where) for a in args]
            if not schemas.known(rule, schema):
                return None                     # an assumption: reported, never "proved"
            try:
                return schemas.instance(rule, schema, terms)
            except CheckError as e:
                raise CheckError(f"{where}: rule {rule}.{schema}: {e}") from None
        if by == "lemma":
            lid = s.get("lemma")
            st = lemmas.get(lid) if isinstance(lid, str) else None
            if not isinstance(st, dict) or ids:
                raise CheckError(f"{where}: lemma {lid!r} has no statement in 'lemmas' (or the step uses steps)")
            if lid == out.theorem:
                raise CheckError(f"{where}: a theorem cannot be its own lemma")
            if lid not in out.parsed:          # each lemma's statement read once per certificate
                ldecls = declarations(st.get("symbols"))
                lh = _hypotheses(st.get("hypotheses"), ldecls)
                lc = _formula(st.get("conclusion"), ldecls, f"lemma {lid}'s conclusion")
                out.lemmas[lid] = _canon(ldecls, lh, lc)
                out.parsed[lid] = (ldecls, _statement(lh, lc))
            ldecls, stmt = out.parsed[lid]
            m = _mapping(s.get("mapping", []), ldecls, decls, where)
            inst = guarded(stmt, m)
            mapped = {v.name for v in m} - _bound_names(stmt)
            for n in _names(stmt, set()) - mapped:     # the lemma's symbols the instance still mentions
                if decls.get(n) != ldecls[n]:
                    raise CheckError(f"{where}: lemma {lid} declares {n} as {ldecls[n]}, this theorem as "
                                     f"{decls.get(n)}")
            return inst
        if by == "inst":
            if len(ids) != 1 or not isinstance(s.get("terms"), list):
                raise CheckError(f"{where}: inst uses one step and gives 'terms'")
            p = formulas[ids[0]]
            if p.op != "forall":
                raise CheckError(f"{where}: step {ids[0]} is not a 'for all'")
            vs, body = p.args[:-1], p.args[-1]
            terms = [_term(t, decls, where) for t in s["terms"]]
            if len(terms) != len(vs):
                raise CheckError(f"{where}: {len(vs)} term(s) needed, {len(terms)} given")
            return guarded(body, dict(zip(vs, terms)))
        if by == "specialize":
            if len(ids) != 1:
                raise CheckError(f"{where}: specialize uses one step")
            m = _mapping(s.get("mapping", []), decls, decls, where)
            held = _held(stated, rests[ids[0]])
            bad = sorted(v.name for v in m if v.name in held)
            if bad:
                raise CheckError(f"{where}: cannot specialize {', '.join(bad)}: a hypothesis it rests on mentions it")
            return guarded(formulas[ids[0]], m)
        if by == "generalize":
            if len(ids) != 1 or not isinstance(s.get("vars"), list) or not s["vars"]:
                raise CheckError(f"{where}: generalize uses one step and gives 'vars'")
            vs = [_term(v, decls, where) for v in s["vars"]]
            held = _held(stated, rests[ids[0]])
            body = formulas[ids[0]]
            for v in vs:
                if v.op != "var" or v.sort == BOOL:
                    raise CheckError(f"{where}: generalize binds variables")
                if v.name in held or v.name in fixed:
                    raise CheckError(f"{where}: cannot generalize {v.name}: a hypothesis mentions it")
                if v.name not in body.free():
                    raise CheckError(f"{where}: {v.name} is not free in step {ids[0]}")
            if len({v.name for v in vs}) != len(vs):
                raise CheckError(f"{where}: a variable bound twice")
            return node("forall", tuple(vs) + (body,))
        if by == "induction":
            if len(ids) != 2:
                raise CheckError(f"{where}: induction uses the base and the step")
            k = _term(s.get("var"), decls, where)
            P = _formula(s.get("predicate"), decls, where)
            n = _term(s.get("bound"), decls, where)
            if k.op != "var" or k.sort not in ("Int", "Nat") or k.name not in P.free() or k.name in n.free():
                raise CheckError(f"{where}: induction over an integer variable the predicate mentions and the "
                                 f"bound does not")
            base, step = formulas[ids[0]], formulas[ids[1]]
            want_base = subst(P, {k: lit(0)})
            want_step = Implies(And(le(lit(0), k), lt(k, n), P), subst(P, {k: add(k, 1)}))
            if base != want_base:
                raise CheckError(f"{where}: the base is {show(base)}, the rule needs {show(want_base)}")
            if step != want_step:
                raise CheckError(f"{where}: the step is {show(step)}, the rule needs {show(want_step)}")
            held = _held(stated, rests[ids[0]] | rests[ids[1]])
            if k.name in held or k.name in fixed:
                raise CheckError(f"{where}: {k.name} is fixed by a hypothesis; induction needs a fresh variable")
            return ForAll(k, Implies(And(le(lit(0), k), le(k, n)), P))
    except CheckError as e:
        raise CheckError(str(e) if str(e).startswith("step ") else f"{where}: {e}") from None
    return None


# ----------------------------------------------------------------------------- deciding
def decide(checked: list, oracle, vacuity: bool = False) -> dict:
    """Each theorem's :class:`Verdict`.  ``oracle(obligations)`` returns, for each obligation, a
    dict engine -> "proved" / "refuted" / "unknown" (``smt``: "z3" and "cvc5"; ``identity``:
    "sympy" and "instances"); only "proved" from every one of them proves the obligation.

    ``vacuity``: also ask, of every theorem with hypotheses, whether they can hold together (a
    ``sat`` obligation: the hypotheses alone, printed here; the oracle answers
    ``{"z3": "sat" | "unsat" | "unknown", "model": {name: value}}``).  unsat makes the theorem
    "vacuous" -- contradictory hypotheses prove anything, and the SMT-LIB reading only ever
    admits *more* models than the real one, so its unsat is theirs.  sat counts only when the
    model's values make every hypothesis true in exact arithmetic here (:func:`exact_model`);
    a model that cannot be evaluated so (functions, vectors) is "sat-smt", a model of the
    SMT-LIB reading only, and a timeout "unknown" (both reported, the status unchanged)."""
    sats = {}
    if vacuity:
        for c in checked:
            if not c.errors and c.kind == "theorem" and c.hypotheses:
                sats[c.theorem] = Obligation("sat", "hypotheses", problem(
                    c.hypotheses, None, note=f"the hypotheses of {c.theorem}: sat = they hold together"))
    todo = [o for c in checked if not c.errors for o in c.obligations] + list(sats.values())
    answers = oracle(todo) if todo else []
    if len(answers) != len(todo):
        raise CheckError("the oracle answered a different number of obligations")
    got = {id(o): a for o, a in zip(todo, answers)}
    need = {"smt": ("z3", "cvc5"), "identity": ("sympy", "instances")}
    own: dict = {}
    for c in checked:
        v = Verdict(c.theorem, UNKNOWN, rules=list(c.rules), assumptions=list(c.assumptions),
                    obligations=len(c.obligations))
        own[c.theorem] = (c, v)
        if c.errors:
            v.status = INVALID
            v.reasons = list(c.errors)
            continue
        if c.kind == "erratum":
            v.status = REFUTED if c.refuted_exactly else UNKNOWN
            v.reasons = [] if c.refuted_exactly else [c.why]
            continue
        refuted = False
        for o in c.obligations:
            a = got[id(o)]
            engines = need[o.kind]
            if any(a.get(e) == REFUTED for e in engines):
                refuted = True
                v.reasons.append(f"step {o.step}: refuted ({', '.join(e for e in engines if a.get(e) == REFUTED)})")
            elif not all(a.get(e) == PROVED for e in engines):
                v.reasons.append(f"step {o.step}: " + ", ".join(f"{e} {a.get(e, 'no answer')}" for e in engines))
        v.status = REFUTED if refuted else UNKNOWN if v.reasons else PROVED
    # lemmas: proved only by a certificate of the same statement, checked here and proved
    done: dict = {}

    def final(tid, stack=()):
        if tid in done:
            return done[tid]
        c, v = own[tid]
        if v.status == PROVED:
            for lid, st in sorted(c.lemmas.items()):
                why, bad = _lemma(lid, st, tid, stack)
                if why:
                    v.status = bad
                    v.reasons.append(why)
                    continue
                lv = done[lid]
                v.assumptions = sorted(set(v.assumptions) | set(lv.assumptions))
                v.rules = sorted(set(v.rules) | set(lv.rules))
            if v.status == PROVED and v.assumptions:
                v.status = ASSUMING
        done[tid] = v
        return v

    def _lemma(lid, st, tid, stack):
        if lid not in own:
            return f"lemma {lid}: no certificate of it was checked", UNKNOWN
        if own[lid][0].statement != st:
            return f"lemma {lid}: its certificate states another statement", INVALID
        if lid in stack or lid == tid:
            return f"lemma cycle through {lid}", INVALID
        lv = final(lid, stack + (tid,))
        if lv.status not in (PROVED, ASSUMING):
            return f"lemma {lid} is {lv.status}", UNKNOWN
        return "", ""

    out = {tid: final(tid) for tid in own}
    for tid, o in sats.items():          # after the lemmas: a lemma's own vacuity is its own report
        v, a = out[tid], got[id(o)]
        c = own[tid][0]
        if a.get("z3") == "unsat":
            v.satisfiable = "unsat"
            if v.status != INVALID:
                v.status = VACUOUS
                v.reasons.insert(0, VACUOUS_WHY)
        elif a.get("z3") == "sat":
            v.satisfiable = "sat" if exact_model(c.hypotheses, c.decls, a.get("model")) else "sat-smt"
        else:
            v.satisfiable = "unknown"
    for c in checked:
        if vacuity and c.theorem not in sats and not c.errors and c.kind == "theorem":
            out[c.theorem].satisfiable = "sat"          # no hypotheses: nothing to contradict
    return out


def exact_model(hyps, decls: dict, model) -> bool:
    """Do the model's values make every hypothesis true, evaluated exactly (``checker.evaluate``)?
    Only numbers and truth values are read (a symbol the model leaves out is 0, or false); a
    function, a vector or an irrational value cannot be evaluated here, and then the answer is no."""
    if not isinstance(model, dict):
        return False
    env = {}
    for name, d in decls.items():
        if d[0] != "var":
            continue
        x = model.get(name)
        try:
            if d[1] == BOOL:
                env[name] = x == "true"
            elif d[1] in (REAL, INT, NAT):
                v = number(x if isinstance(x, str) else "0")
                if d[1] != REAL and (v.denominator != 1 or (d[1] == NAT and v < 0)):
                    return False
                env[name] = v
        except CheckError:
            return False
    try:
        return all(evaluate(h, env) is True for _, h in hyps)
    except (CheckError, ZeroDivisionError, RecursionError, OverflowError):
        return False
