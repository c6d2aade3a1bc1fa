"""An inline Python program on the generated Python SDK (sdk/python/crm), run through the
Automation API on the real CLI: a Python program in a folder needs the Python language host,
which the Go module proxy here refuses; an inline program serves the language runtime in its
own process. The twin of ../go-inline, with the same command line and output.

    python inline.py <stack> <up|up-refresh|preview|refresh|drift-check|destroy> [account name ...]

declares a crm.Account per name given (none: a program without resources). pulumi_crm must be
installed (its wheel: the SDK reads its own version from the package's metadata). The CLI is
$PULUMI_ROOT/bin/pulumi; the stack lives in the backend $PULUMI_BACKEND_URL names, its config is
$STACK_CONFIG ({"crm:apiUrl": {"value": "...", "secret": false}, ...}). Prints the operation's
resource changes as JSON (a drift check's: what a refresh would change); exits with the CLI's
exit code where the CLI failed (a drift check's 7 on drift, as `pulumi refresh --preview-only
--expect-no-changes`), 1 on another error.
"""

import json
import os
import re
import sys

import pulumi
import pulumi_crm as crm
from pulumi import automation as auto


def program(names):
    def declare():
        ids = [crm.Account(name, name=name).id for name in names]
        pulumi.export("accountIds", ids)

    return declare


def run(stack_name, command, names):
    cli = auto.PulumiCommand(root=os.environ.get("PULUMI_ROOT"))
    stack = auto.create_or_select_stack(stack_name=stack_name, project_name="python-inline", program=program(names), opts=auto.LocalWorkspaceOptions(pulumi_command=cli))
    config = os.environ.get("STACK_CONFIG")
    if config:
        stack.set_all_config({key: auto.ConfigValue(value=entry["value"], secret=entry.get("secret", False)) for key, entry in json.loads(config).items()})
    if command == "up":
        return stack.up().summary.resource_changes
    if command == "up-refresh":
        return stack.up(refresh=True).summary.resource_changes
    if command == "preview":
        return stack.preview().change_summary
    if command == "refresh":
        return stack.refresh().summary.resource_changes
    if command == "drift-check":
        return stack.preview_refresh(expect_no_changes=True).change_summary
    if command == "destroy":
        return stack.destroy().summary.resource_changes
    raise ValueError(f"unknown command {command!r}: up, up-refresh, preview, refresh, drift-check or destroy")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: inline.py <stack> <up|up-refresh|preview|refresh|drift-check|destroy> [account name ...]")
    try:
        counts = run(sys.argv[1], sys.argv[2], sys.argv[3:])
    except Exception as error:  # the CLI's own output and exit code are in the error's text
        print("{}")
        print(error, file=sys.stderr)
        cli_exit = re.search(r"\bcode: (\d+)", str(error)) if isinstance(error, auto.CommandError) else None
        sys.exit(int(cli_exit.group(1)) if cli_exit else 1)
    print(json.dumps({str(getattr(op, "value", op)): count for op, count in (counts or {}).items()}))
