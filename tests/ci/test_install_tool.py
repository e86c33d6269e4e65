"""`make`'s installer (tools/install.py): uv reads the packages from where pip would, or pip installs."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from typing import Any

import pytest

from tools import install

LISTED = """\
:env:.cert='/etc/ssl/certs/env.crt'
:env:.find-links='/opt/wheels'
global.cert='/etc/ssl/certs/global.crt'
global.constraint='/etc/xdg/pip/constraints.txt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/srv/global-wheels'
global.timeout='60'
install.index-url='https://mirror.example/simple'
"""


def test_pips_sources_in_pips_order() -> None:
    settings = install.pip_settings(LISTED, {"PIP_CONSTRAINT": "/tmp/pins.txt"})
    assert settings == {
        "cert": "/etc/ssl/certs/env.crt",  # :env: beats [global]
        "constraint": "/tmp/pins.txt",  # a PIP_* variable beats the files
        "extra-index-url": "file:///opt/pypi/simple file:///opt/pypi-more/simple",
        "find-links": "/opt/wheels",
        "index-url": "https://mirror.example/simple",  # [install] beats [global]
    }
    assert install.uv_arguments(settings) == [
        "--index-strategy", "unsafe-best-match",
        "--index-url", "https://mirror.example/simple",
        "--extra-index-url", "file:///opt/pypi/simple", "--extra-index-url", "file:///opt/pypi-more/simple",
        "--find-links", "/opt/wheels",
        "--constraint", "/tmp/pins.txt",
    ]


def test_no_configuration_leaves_uv_its_defaults() -> None:
    assert install.uv_arguments(install.pip_settings("", {})) == ["--index-strategy", "unsafe-best-match"]


class _Runs:
    """Records the commands; ``fails`` lists the programs that exit non-zero."""

    def __init__(self, fails: Sequence[str] = ()) -> None:
        self.fails = fails
        self.cmds: list[list[str]] = []
        self.envs: list[dict[str, str] | None] = []

    def __call__(self, cmd: Sequence[str], env: dict[str, str] | None = None, **kwargs: Any) -> Any:
        self.cmds.append(list(cmd))
        self.envs.append(env)
        failed = any(f in " ".join(cmd) for f in self.fails)
        out = LISTED if cmd[-2:] == ["config", "list"] else ""
        return subprocess.CompletedProcess(cmd, 1 if failed else 0, out, "")


def test_uv_installs_with_pips_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("PIP_")]:
        monkeypatch.delenv(name)  # the machine's own PIP_* variables would win over LISTED
    runs = _Runs()
    monkeypatch.setattr(install.subprocess, "run", runs)
    monkeypatch.delenv("ZH_TRANSLATE_INSTALLER", raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    assert install.install(["-e", ".[test]"], python="/v/bin/python") == 0
    uv = runs.cmds[-1]
    assert uv[:6] == ["/v/bin/uv", "pip", "install", "-q", "--python", "/v/bin/python"]
    assert uv[-2:] == ["-e", ".[test]"] and "file:///opt/pypi-more/simple" in uv
    assert runs.envs[-1] is not None and runs.envs[-1]["SSL_CERT_FILE"] == "/etc/ssl/certs/env.crt"
    assert not any(c[1:4] == ["-m", "pip", "install"] and c[-1] == ".[test]" for c in runs.cmds)


@pytest.mark.parametrize("fails", [["install -q uv"], ["/v/bin/uv"]], ids=["uv not installable", "uv fails"])
def test_pip_installs_when_uv_cannot(monkeypatch: pytest.MonkeyPatch, fails: list[str],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    runs = _Runs(fails)
    monkeypatch.setattr(install.subprocess, "run", runs)
    monkeypatch.delenv("ZH_TRANSLATE_INSTALLER", raising=False)
    assert install.install(["-e", ".[test]"], python="/v/bin/python") == 0
    assert runs.cmds[-1] == ["/v/bin/python", "-m", "pip", "install", "-q", "-e", ".[test]"]


def test_pip_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _Runs()
    monkeypatch.setattr(install.subprocess, "run", runs)
    monkeypatch.setenv("ZH_TRANSLATE_INSTALLER", "pip")
    assert install.install(["-e", "."], python="/v/bin/python") == 0
    assert runs.cmds == [["/v/bin/python", "-m", "pip", "install", "-q", "-e", "."]]
