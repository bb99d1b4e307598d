"""The Halving algorithm (Littlestone 1988; Blum's 15-859 notes; Shalev-Shwartz 2012, section 1.2):
over a finite class H containing a hypothesis that labels every example correctly, at most
log2 |H| mistakes.

The run restricted to its mistakes: ``V(k)`` is the size of the version space before the k-th
mistake; at that mistake it splits into the ``a(k)`` hypotheses that voted for the learner's (wrong)
label and the ``c(k)`` that voted for the right one; the learner predicted the majority, so
c(k) <= a(k); afterwards only right-voting hypotheses survive, and later steps only remove more,
so V(k+1) <= c(k).  The consistent hypothesis never leaves: V(M) >= 1.  By induction
2^k V(k) <= |H|, so 2^M <= |H|.  (The Littlestone dimension of H is the optimal deterministic
mistake bound; log2 |H| is an upper bound on it -- a remark, not a theorem of this catalogue.)
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import INT, And, Eq, Nat, Seq, forall_below, num
from proofs.language.functions import lg, pow2
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import SHALEV_SHWARTZ

M, k, N = Nat("M"), Nat("k"), Nat("N", tex=r"|H|", text="|H|")
V, a, c = Seq("V", INT), Seq("a", INT), Seq("c", INT)

RUN = [
    ("class_size", Eq(V(0), N)),
    ("vote_split", forall_below(k, M, And(Eq(V(k), a(k) + c(k)), a(k) >= 0, c(k) >= 0))),
    ("majority_was_wrong", forall_below(k, M, c(k) <= a(k))),
    ("wrong_voters_removed", forall_below(k, M, V(k + 1) <= c(k))),
]
REALIZABLE = ("target_in_class", V(M) >= 1)
ENCODING = ("the run restricted to its mistakes: V(k) the version space's size before the k-th mistake, a(k) and "
            "c(k) its hypotheses voting for the wrong and the right label there; |H| the class size")
LOG = "pow2_log2"


def _proof(p):
    P = pow2(k) * V(k) <= N
    base_goal, step_goal = induction_goals(k, P, M)
    base = p.solve("halving_start", [p.hyp("class_size"), p.rule(LOG, "pow2_zero")], base_goal,
                   title="2^0 V(0) = |H|")
    at = [p.inst(p.hyp(h), k) for h in ("vote_split", "majority_was_wrong", "wrong_voters_removed")]
    step = p.solve("halving_step", at + [p.rule(LOG, "pow2_succ", k), p.rule(LOG, "pow2_pos", k)], step_goal,
                   title="2 V(k+1) <= 2 c(k) <= V(k): each mistake at least halves the version space")
    inv = p.inst(p.induction(k, P, base, step, M), M)
    pw = p.solve("two_to_the_M", [inv, p.hyp("target_in_class"), p.rule(LOG, "pow2_pos", M)], pow2(M) <= N,
                 title="2^M <= 2^M V(M) <= |H| as V(M) >= 1")
    return p.solve("halving_mistake_bound", [pw, p.rule(LOG, "lg_pow2", M), p.rule(LOG, "pow2_pos", M),
                                             p.rule(LOG, "lg_strictly_increasing", pow2(M), N)],
                   p.theorem.conclusion, title="lg is increasing and lg 2^M = M")


def _replay(H, y, claim):
    def check():
        from learners import run_halving
        tr = run_halving(H, y)
        return claim(tr), (f"run_halving on |H| = {len(H)}, {len(y)} example(s): {tr.mistakes} mistake(s), "
                           f"{tr.extras['version_space_sizes'][-1]} hypothesis(es) left")
    return check


WHERE = "Shalev-Shwartz 2012, section 1.2 (also Blum, 15-859 notes)"
THEOREMS = [
    Theorem(
        id="halving_bound",
        name="Halving over a finite class containing the target: at most log2 |H| mistakes",
        source=Source(SHALEV_SHWARTZ, WHERE,
                      "In the realizable case the Halving algorithm makes at most log2 |H| mistakes."),
        hypotheses=RUN + [REALIZABLE],
        conclusion=M <= lg(N),
        proof=_proof, encoding=ENCODING, witness_sizes={M: 2},
    ),
    Theorem(
        id="erratum_halving_strict",
        kind="erratum",
        name="Halving makes fewer than log2 |H| mistakes: false (the bound is attained)",
        source=Source("", "a restatement with '<' (strict vs non-strict)",
                      "The Halving algorithm makes fewer than log2 |H| mistakes."),
        hypotheses=RUN + [REALIZABLE],
        conclusion=M < lg(N),
        counterexample={"M": 1, "N": 2, "V": [2, 1], "a": [1], "c": [1]},
        witness_check=_replay([[1], [-1]], [-1], lambda tr: tr.mistakes == 1),
        encoding=ENCODING,
        notes="|H| = 2 with the two hypotheses disagreeing: the tie is predicted +1, the label is -1: one mistake "
              "= log2 2.",
    ),
    Theorem(
        id="erratum_halving_unrealizable",
        kind="erratum",
        name="M <= log2 |H| without a consistent hypothesis in H: false",
        source=Source("", "the bound quoted without the realizability assumption",
                      "The Halving algorithm makes at most log2 |H| mistakes."),
        hypotheses=RUN,
        conclusion=M <= lg(N),
        counterexample={"M": 1, "N": 1, "V": [1, 0], "a": [1], "c": [0]},
        witness_check=_replay([[1]], [-1], lambda tr: tr.mistakes == 1),
        encoding=ENCODING,
        notes="One hypothesis, wrong on the only example: one mistake, while log2 1 = 0.",
    ),
]
_ = num
