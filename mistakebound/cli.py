"""``mistakebound``: the command line.  Thin: every subcommand lives in its own module and only
wires the parts (learners <- proofs <- adversary <- grading).  Subcommands are imported lazily so
that ``mistakebound verify`` does not pay for numba, and ``--help`` is instant."""
from __future__ import annotations

import importlib
import sys

import click

from mistakebound.common import BadInput, EXIT_BAD_INPUT

EXIT_INTERNAL = 70

# name -> "module:attribute" of a click command
COMMANDS = {
    "run": ("mistakebound.cmd_run:run", "Run a reference learner on a CSV data set."),
    "verify": ("mistakebound.cmd_verify:verify", "Machine-check the theorem catalogue (z3/sympy, re-checked by cvc5)."),
    "check": ("mistakebound.cmd_check:check", "Check proof certificates with the independent checker."),
    "adversary": ("mistakebound.cmd_adversary:adversary", "Search worst-case sequences and certify them exactly."),
    "replay": ("mistakebound.cmd_adversary:replay", "Re-check sequence files exactly."),
    "catalogue": ("mistakebound.cmd_catalogue:catalogue", "Write the catalogue as a static site (statements, proof graphs)."),
    "check-bound": ("mistakebound.cmd_check_bound:check_bound", "Prove or refute a claimed mistake bound."),
    "kernel": ("mistakebound.cmd_kernel:kernel", "Decide whether K(x, y) is a legal (PSD) kernel."),
    "grade": ("mistakebound.cmd_grade:grade", "Grade student submissions in isolation."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return [n for n in COMMANDS if self._available(n)]

    @staticmethod
    def _available(name):
        mod = COMMANDS[name][0].split(":")[0]
        return importlib.util.find_spec(mod) is not None

    def get_command(self, ctx, name):
        if name not in COMMANDS or not self._available(name):
            return None
        mod, attr = COMMANDS[name][0].split(":")
        return getattr(importlib.import_module(mod), attr)

    def format_commands(self, ctx, formatter):
        rows = [(n, COMMANDS[n][1]) for n in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mistakebound")
def cli():
    """mistakebound: mistake bounds of online linear learners, machine-checked.

    Verify the classic theorems (Block-Novikoff, Winnow, kernels), generate worst-case
    sequences certified in exact arithmetic, and grade students' learner code.
    """


def main(argv=None):
    import importlib.util  # noqa: F401  (used by LazyGroup)
    try:
        rv = cli.main(args=argv, prog_name="mistakebound", standalone_mode=False)
    except BadInput as e:
        e.show()
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.ctx.get_help() if e.ctx else str(e))
        sys.exit(EXIT_BAD_INPUT)
    except click.UsageError as e:
        cmd = e.ctx.command_path if e.ctx else "mistakebound"
        click.echo(f"{cmd}: error: {e.format_message()}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.ClickException as e:
        click.echo(f"mistakebound: error: {e.format_message()}", err=True)
        sys.exit(e.exit_code if e.exit_code != 1 else EXIT_BAD_INPUT)
    except click.exceptions.Abort:
        click.echo("mistakebound: aborted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        click.echo("mistakebound: interrupted", err=True)
        sys.exit(130)
    except Exception as e:  # an internal bug: one line, the traceback only on request
        import os
        if os.environ.get("MISTAKEBOUND_DEBUG"):
            raise
        click.echo(f"mistakebound: internal error: {type(e).__name__}: {e} (set MISTAKEBOUND_DEBUG=1 for the traceback)",
                   err=True)
        sys.exit(EXIT_INTERNAL)
    if isinstance(rv, int):
        sys.exit(rv)
    sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
