"""One base exception for the project; each subclass also inherits the built-in it resembles."""


class CompanionError(Exception):
    """Base of every error companion raises on purpose."""


class BadAction(CompanionError, ValueError):
    """An action that is not well formed: unknown type, missing or mistyped fields."""


class BadJSON(BadAction):
    """A body or a line that is not strict JSON (NaN, Infinity, too deep, duplicate keys);
    the message names the field."""


class IllegalAction(CompanionError, ValueError):
    """A well-formed action that the rules forbid now.

    ``reason`` says, in a player's words, which rule forbids it and what is expected instead;
    ``rule`` names the rulebook section when there is one.
    """

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


class DataFileError(CompanionError, ValueError):
    """A component data or config file that cannot be used; the message names file and key."""


class JournalError(CompanionError, RuntimeError):
    """The journal file is missing, corrupt, foreign or from a newer companion."""


class JournalDamage(JournalError):
    """The journal is damaged at entry ``seq`` (None: where is not known, e.g. an unreadable
    file); ``refused``: the entry reads intact but the rules refuse it on replay, so no copy of
    it can be used. Start-up answers it by recovering the longest intact prefix."""

    def __init__(self, message: str, seq: int | None = None, refused: bool = False):
        super().__init__(message)
        self.seq = seq
        self.refused = refused


class Unplayable(CompanionError, RuntimeError):
    """The journal's game in progress, intact, that this companion cannot set up again as it is
    now (its game gone from this version, its component data edited since): not damage, so the
    journal is kept as it is and the service starts without it."""


class NoGame(CompanionError, LookupError):
    """An action arrived while no game is in progress."""


class SetupError(CompanionError, ValueError):
    """Game options that cannot start a game: the message names the option."""


class Conflict(CompanionError, RuntimeError):
    """A change that cannot be made against the state or the parts there are now."""


class Stale(Conflict):
    """An action was made against a state that has since changed (its ``if_seq`` is stale): a
    race the page that made it answers by looking again, news to no other screen."""
