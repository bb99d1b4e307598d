"""The course's adapter: a few lines the instructor writes that call the course's own API the way
the handout does and return the canonical answer.

``[contract] adapter = "adapter.py"`` (a file relative to the spec, or the code itself as a
multi-line string, which travels inside the spec).  The adapter runs **in the sandbox, beside the
student's code**, as the module the tests call: every test, the course's solution as oracle and
the diagnoses' re-runs call its function (``answer(X, y, T)`` unless ``[contract.call]`` says
otherwise) with the test data in the contract's encoding; it imports the student's module, makes
the handout's calls -- a tuple element picked out, a state passed in and out and read through
``predict``, labels packed into the data, d x n arrays -- and returns what ``returns`` says
((w, b) by default), or with ``[contract] answer`` more than weights or none: (w, b, mistakes),
the mistakes alone (a count, or the steps that were mistakes), the predictions alone
(:func:`grading.references.plan.read_answer` reads them; the reference run's own are compared).  Its answer is read and checked like any code's answer: it runs in the
student's process, so nothing it returns is trusted more than the student's own.

The adapter is the course's code: it is checked when the spec is loaded (it compiles, it defines
the function the call names, at most 64 KiB), and its module name in the sandbox is the grader's
(``_course_adapter``): a submission's file of that name is left out.
"""
from __future__ import annotations

import ast
import os

from learners.errors import InputError

__all__ = ["ADAPTER_MODULE", "load_adapter", "worker_files", "inline", "MAX_BYTES"]

ADAPTER_MODULE = "_course_adapter"
MAX_BYTES = 64 << 10


def load_adapter(contract, spec_dir: str, src: str):
    """The contract with the adapter's code read (a path) and checked; InputError, one line."""
    text, where = contract.adapter, "inline"
    if "\n" not in text.strip():
        where = os.path.normpath(os.path.join(spec_dir, text.strip()))
        if not where.endswith(".py"):
            raise InputError(f"{src}: contract.adapter must name a .py file (or hold the adapter's code); got "
                             f"{text!r}")
        try:
            with open(where, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as e:
            raise InputError(f"{src}: contract.adapter: cannot read {text!r} (relative to the spec): "
                             f"{e.strerror}") from None
        if len(data) > MAX_BYTES:
            raise InputError(f"{src}: contract.adapter: {text!r} is over {MAX_BYTES >> 10} KiB")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{src}: contract.adapter: {text!r} is not UTF-8 text") from None
    try:
        tree = ast.parse(text, filename="adapter")
    except SyntaxError as e:
        raise InputError(f"{src}: contract.adapter: line {e.lineno}: {e.msg}") from None
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    want = contract.call.object or contract.call.method
    if want not in names:
        raise InputError(f"{src}: contract.adapter defines no {want!r} (the call the tests make: "
                         f"{contract.call.signature()}); define it, or set [contract.call] method")
    return contract.replace(adapter=text, adapter_src=where)


def worker_files(contract, files: dict, module: str, data: dict | None = None):
    """(files, module) a worker runs: the submission's -- with the course's data files
    (``[assignment] data_files``, ``data``: name -> bytes) beside it, in place of any submitted
    file of the same name --, and with an adapter, the adapter as the module the tests call (any
    file of the submission under that name left out)."""
    if data:
        files = {k: v for k, v in files.items() if k not in data}
        files.update(data)
    if contract is None or not contract.adapter:
        return files, module
    out = {k: v for k, v in files.items() if k.split("/", 1)[0].split(".", 1)[0] != ADAPTER_MODULE}
    out[f"{ADAPTER_MODULE}.py"] = contract.adapter.encode("utf-8")
    return out, ADAPTER_MODULE


def inline(spec_text: str, contract) -> str:
    """The spec's text with ``adapter = "file.py"`` replaced by the adapter's code as a TOML
    multi-line literal, so that the spec travels alone (``grade --init``, an autograder archive).
    Unchanged when the adapter is inline already or its code holds ''' (TOML could not quote it)."""
    import re
    if contract is None or not contract.adapter or contract.adapter_src == "inline" or "'''" in contract.adapter:
        return spec_text
    code = contract.adapter.rstrip("\n")
    return re.sub(r'(?m)^(\s*adapter\s*=\s*)"[^"\n]*"[^\n]*$', lambda m: m.group(1) + "'''\n" + code + "\n'''",
                  spec_text)
