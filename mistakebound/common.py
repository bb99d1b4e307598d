"""Shared plumbing for the subcommands: one-line errors with exit code 2, JSON output."""
from __future__ import annotations

import json
import sys

import click


def write_text_atomic(path, text: str) -> None:
    """``learners.io.write_text_atomic`` (imported when first used: ``learners`` imports numpy, which
    a command that writes nothing, such as a warm ``verify``, need not load)."""
    from learners.io import write_text_atomic as write
    write(path, text)


EXIT_BAD_INPUT = 2


class BadInput(click.ClickException):
    """Raised by a subcommand for bad input: one line on stderr, exit code 2."""
    exit_code = EXIT_BAD_INPUT

    def show(self, file=None):  # one line, no usage block
        click.echo(f"mistakebound: error: {self.format_message()}", err=True)


def fail(message: str):
    raise BadInput(message)


def emit_json(obj, path=None) -> None:
    """Write ``obj`` as JSON to stdout, or atomically to ``path`` (no half-written files)."""
    text = json.dumps(obj, indent=2, default=str)
    if path in (None, "-"):
        click.echo(text)
        return
    write_text_atomic(path, text + "\n")


def input_errors_exit_2(fn):
    """Decorator: turn InputError (and ValueError from parsing) into one line + exit 2."""
    import functools

    @functools.wraps(fn)
    def wrapper(*a, **k):
        try:
            return fn(*a, **k)
        except ValueError as e:
            from learners.errors import InputError
            if not isinstance(e, InputError):
                raise
            raise BadInput(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    return wrapper


def trusted_base_refused(bounds: bool = False) -> bool:
    """The start-up check of the trusted base (``proofs.kernel.trusted_base``: every trusted rule's schema
    on random exact instances; with ``bounds``, ``refutation.bound_table``: check-bound's table
    against its theorems' conclusions).  Cached by the fingerprint of the code it checks.  When a
    rule or an entry is false: one line naming it on stderr, and True (the command exits 1)."""
    from proofs.kernel.trusted_base import TrustedBaseError, check
    try:
        check()
        if bounds:
            from refutation.bound_table import check as check_table
            check_table()
    except TrustedBaseError as e:
        click.echo(f"mistakebound: error: the trusted base is wrong, nothing is checked: {e}", err=True)
        return True
    return False


def trusted_base_started():
    """The same check started beside the work that follows it (``proofs.kernel.trusted_base.start``:
    in a child process when it is not cached); returns ``refused()``, which waits for it
    and says as :func:`trusted_base_refused` does.  The caller reports nothing before it returned
    False."""
    from proofs.kernel.trusted_base import TrustedBaseError, start
    try:
        wait = start()
    except TrustedBaseError as e:
        wait = _raise(e)

    def refused() -> bool:
        try:
            wait()
        except TrustedBaseError as e:
            click.echo(f"mistakebound: error: the trusted base is wrong, nothing is checked: {e}", err=True)
            return True
        return False
    return refused


def _raise(e):
    def wait():
        raise e
    return wait
