"""Install the project into the Makefile's virtual environment: with uv when it can, pip otherwise.

``pip install -e ".[export,demo,test,...]"`` takes 95-110 s on a fresh 2-core machine (about
200 packages, torch among them, each unpacked and byte-compiled), a sixth of `make test`'s
budget. uv installs the same set in ~11 s. It does not read pip's configuration, though, and a
machine's package sources live there (an index mirror, local wheel folders, a constraints
file): so this reads ``pip config list`` and the ``PIP_*`` variables and passes the same
indexes, links and constraints to uv, with ``--index-strategy unsafe-best-match``, which is
pip's own rule (the best version from any index). Bytecode is not compiled ahead: Python
writes it on first import (the Makefile does not pass on ``PYTHONDONTWRITEBYTECODE``), and the
suite imports a fraction of what is installed.

When uv cannot be installed or fails for any reason, pip installs as before: uv only makes it
faster, it is never needed. ``ZH_TRANSLATE_INSTALLER=pip`` skips uv.

    python -m tools.install SPEC [SPEC...]     # run with the venv's python
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: pip's options that name package sources, with uv's flag for each; list-valued ones may hold
#: several whitespace-separated values, as in pip.
SOURCES = {
    "index-url": ("--index-url", False),
    "extra-index-url": ("--extra-index-url", True),
    "find-links": ("--find-links", True),
    "constraint": ("--constraint", True),
}
#: Where a setting may come from, weakest first (pip's order: the install command's section
#: overrides [global], a PIP_* variable overrides both).
SECTIONS = ("global", "install", ":env:")
#: Every option read: the sources, and the CA bundle pip trusts (uv reads SSL_CERT_FILE).
OPTIONS = (*SOURCES, "cert")


def pip_settings(listed: str, environ: Mapping[str, str]) -> dict[str, str]:
    """pip's effective value of each source option, from ``pip config list`` and the environment."""
    found: dict[tuple[str, str], str] = {}
    for line in listed.splitlines():
        key, sep, value = line.partition("=")
        section, _, option = key.rpartition(".")
        if sep and option in OPTIONS and section in SECTIONS:
            found[section, option] = value.strip().strip("'\"")
    for option in OPTIONS:
        variable = environ.get("PIP_" + option.upper().replace("-", "_"))
        if variable:
            found[":env:", option] = variable
    settings: dict[str, str] = {}
    for section in SECTIONS:
        for (where, option), value in found.items():
            if where == section:
                settings[option] = value
    return settings


def read_pip_settings(python: str = sys.executable) -> dict[str, str]:
    """:func:`pip_settings` of ``python``'s pip (its ``pip config list``) and this environment."""
    try:
        listed = subprocess.run([python, "-m", "pip", "config", "list"], capture_output=True, text=True,
                                timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        listed = ""
    return pip_settings(listed, os.environ)


def uv_arguments(settings: Mapping[str, str]) -> list[str]:
    """The uv flags that make it read the packages from where pip would."""
    args = ["--index-strategy", "unsafe-best-match"]
    for option, (flag, many) in SOURCES.items():
        value = settings.get(option)
        if value:
            for item in shlex.split(value) if many else [value]:
                args += [flag, item]
    return args


def _run(cmd: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    return subprocess.run(list(cmd), env=None if env is None else dict(env)).returncode


def install(specs: Sequence[str], python: str = sys.executable) -> int:
    """Install ``specs`` (pip requirement arguments) into ``python``'s environment."""
    pip = [python, "-m", "pip"]
    if os.environ.get("ZH_TRANSLATE_INSTALLER", "uv") != "pip" and _run([*pip, "install", "-q", "uv"]) == 0:
        settings = read_pip_settings(python)
        uv = Path(python).with_name("uv")
        env = dict(os.environ)
        cert = settings.get("cert")
        if cert and "SSL_CERT_FILE" not in env:
            env["SSL_CERT_FILE"] = cert  # the CA bundle pip was told to trust
        cmd = [str(uv), "pip", "install", "-q", "--python", python, *uv_arguments(settings), *specs]
        if _run(cmd, env) == 0:
            return 0
        print("tools.install: uv could not install the project; installing with pip instead", file=sys.stderr)
    return _run([*pip, "install", "-q", *specs])


def main(argv: Sequence[str] | None = None) -> int:
    specs = list(sys.argv[1:] if argv is None else argv)
    if not specs:
        print("usage: python -m tools.install SPEC [SPEC...]", file=sys.stderr)
        return 2
    return install(specs)


if __name__ == "__main__":
    sys.exit(main())
