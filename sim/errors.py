"""One error type for everything a user can get wrong; the CLI prints it as a single line."""
import difflib


class UserError(Exception):
    """Bad input from the user: unknown name, out-of-range value, bad file.  Printed as one line, exit code 2."""


def suggest(name, choices, what):
    """A UserError naming the bad `name`, the closest valid choices, and the full list when it is short."""
    choices = list(choices)
    close = difflib.get_close_matches(str(name), choices, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    listing = f" Valid: {', '.join(choices)}." if len(choices) <= 40 else f" ({len(choices)} valid names; see the listing command.)"
    return UserError(f"unknown {what} '{name}'.{hint}{listing}")
