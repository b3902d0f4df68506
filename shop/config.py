"""Read the environment for settings, failing loudly with one line per problem."""

import os
import secrets
import sys
from pathlib import Path

import environ

env = environ.Env()
_BASE_DIR = Path(__file__).resolve().parent.parent
if (_BASE_DIR / ".env").exists():
    environ.Env.read_env(_BASE_DIR / ".env")


class ConfigError(Exception):
    """A missing or malformed environment value; names the variable."""

    def __init__(self, variable, problem):
        self.variable = variable
        super().__init__(f"Configuration error: {variable} {problem}")


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name, *, default):
    raw = env.str(name, default=None)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(name, f"must be one of 1/0, true/false, yes/no (got {raw!r})")


def env_list(name, *, default):
    raw = env.str(name, default=None)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key(data_dir):
    """Return SECRET_KEY from the environment, or one generated once and kept."""
    value = env.str("SECRET_KEY", default="")
    if value:
        if len(value) < 32:
            raise ConfigError("SECRET_KEY", "must be at least 32 characters long")
        return value
    path = Path(data_dir) / "secret_key"
    if not path.exists():
        # written whole under another name, then linked into place: of processes starting together, the
        # first link wins and every one reads that key (never an empty or half-written file)
        draft = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        write_private(draft, secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def write_private(path, text):
    """Write a new file `path` readable by this user only from its first byte (not chmod-ed after)."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w") as file:
        file.write(text)


_SUPPORTED_ENGINES = {"django.db.backends.sqlite3", "django.db.backends.postgresql"}


def _wrap_environ_errors():
    """Turn django-environ's errors into ConfigError that names the variable."""
    original_get_value = environ.Env.get_value

    def get_value(self, var, *args, **kwargs):
        try:
            return original_get_value(self, var, *args, **kwargs)
        except ConfigError:
            raise
        except Exception as exc:  # bad int, bad URL, missing value …
            raise ConfigError(var, f"is invalid: {exc}") from None

    environ.Env.get_value = get_value

    original_db_url = environ.Env.db_url

    def db_url(self, var="DATABASE_URL", *args, **kwargs):
        try:
            config = original_db_url(self, var, *args, **kwargs)
        except ConfigError:
            raise
        except Exception as exc:
            raise ConfigError(var, f"is invalid: {exc}") from None
        if config.get("ENGINE") not in _SUPPORTED_ENGINES:
            raise ConfigError(var, "must be a sqlite:// or postgres:// URL")
        return config

    environ.Env.db_url = db_url


_wrap_environ_errors()


def run_or_explain(main):
    """Run a process entry point; print a ConfigError as one line and exit 2."""

    try:
        return main()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
