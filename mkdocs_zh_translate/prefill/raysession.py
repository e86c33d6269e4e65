"""How prefill's driver meets a Ray cluster: loopback only where it can be, and with the token
of a cluster that authenticates, found where Ray itself looks for it.

Facts of Ray 2.5x/2.60 this module answers (see the Ray security docs on token authentication):

- A local cluster (``ray.init(address="local")``, ``ray start --head``) listens on every
  interface, even when told ``--node-ip-address=127.0.0.1``: Ray replaces a loopback address by
  the machine's. Ray's own switch for one-machine clusters, ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
  (the default on macOS and Windows), keeps every Ray process of the node on 127.0.0.1. Every
  Ray process reads it when it imports Ray; the driver's copy (``ray_constants``) is set here too,
  as the driver may have imported Ray before.
- Token authentication: ``ray start`` turns it on when ``RAY_AUTH_MODE`` is unset and a token
  exists (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``: a file any
  earlier local ``ray.init()`` leaves behind), but a driver given an explicit address sends none
  unless ``RAY_AUTH_MODE=token``. It is refused (InvalidAuthToken) and Ray's error names only
  "Failed to connect" and another address. The driver here does what ``ray start`` does: a
  token Ray can read turns token mode on (a cluster without authentication ignores it), and a
  refusal is found before ``ray.init`` and said in one line.

The process is left as it was found: the environment and Ray's settings are restored after the
driver disconnects. Ray's private names are looked up defensively: a Ray without them (older,
no token authentication) runs as before.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..pipeline.lazy import TranslationFailed

LOCAL = "local"  # `--ray local`: a cluster of this machine for this run, started and stopped here
LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
AUTH_MODE_ENV = "RAY_AUTH_MODE"
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
TOKEN_PLACES = "RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token"


def is_loopback(address: str) -> bool:
    """``local``, or ``host:port`` with a loopback host: a cluster of this machine only."""
    if address == LOCAL:
        return True
    host, sep, port = address.rpartition(":")
    return bool(sep) and port.isdigit() and host in _LOOPBACK_HOSTS


def _ray_constants() -> Any:
    try:
        from ray._private import ray_constants
    except ImportError:  # pragma: no cover - a Ray without the module
        return None
    return ray_constants if hasattr(ray_constants, "ENABLE_RAY_CLUSTER") else None


def _raylet(name: str) -> Any:
    """``ray._raylet.<name>``, or None in a Ray without it (older: no token authentication)."""
    try:
        module = importlib.import_module("ray._raylet")
    except ImportError:  # pragma: no cover - Ray is installed when this runs
        return None
    return getattr(module, name, None)


def _token_loader() -> Any:
    loader_type = _raylet("AuthenticationTokenLoader")
    if loader_type is None:
        return None
    loader = loader_type.instance()
    loader.reset_cache()  # read now: HOME or the variables may have changed since Ray cached it
    return loader


def _refresh_auth() -> None:
    """Ray's cached authentication settings re-read from the environment (the config first:
    a token dropped from the cache while the config still says token mode fails Ray's checks)."""
    config, loader_type = _raylet("Config"), _raylet("AuthenticationTokenLoader")
    if config is not None and loader_type is not None:
        config.initialize("")
        loader_type.instance().reset_cache()


def has_token() -> bool:
    """Whether Ray finds a token where it looks for one (whatever ``RAY_AUTH_MODE`` says)."""
    loader = _token_loader()
    return bool(loader is not None and loader.has_token(ignore_auth_mode=True))


@contextmanager
def driver_session(address: str) -> Iterator[None]:
    """The driver's settings from ``ray.init`` to ``ray.shutdown``: loopback only for a local or
    loopback ``address``, token mode when a token is found and ``RAY_AUTH_MODE`` is unset."""
    saved = {name: os.environ.get(name) for name in (LOOPBACK_ENV, AUTH_MODE_ENV)}
    constants = _ray_constants()
    flag = getattr(constants, "ENABLE_RAY_CLUSTER", None)
    try:
        if is_loopback(address):
            os.environ[LOOPBACK_ENV] = "0"  # for the node's processes a local cluster starts
            if constants is not None:
                constants.ENABLE_RAY_CLUSTER = False  # for this process, which imported Ray already
        if address != LOCAL and saved[AUTH_MODE_ENV] is None and has_token():
            os.environ[AUTH_MODE_ENV] = "token"
            _refresh_auth()
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if constants is not None:
            constants.ENABLE_RAY_CLUSTER = flag
        _refresh_auth()  # a local ray.init() turns token mode on for the process: undone


@contextmanager
def _stderr_aside() -> Iterator[None]:
    """Ray's C++ client logs each refused attempt to file descriptor 2; the refusal is said in
    one line instead, so those lines are set aside while the probe runs."""
    try:
        saved = os.dup(2)
    except OSError:  # pragma: no cover - no stderr at all
        yield
        return
    with tempfile.TemporaryFile() as aside:
        os.dup2(aside.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def check_authentication(address: str) -> None:
    """Ask the cluster's GCS at ``address`` for its id, with the token the driver will send;
    TranslationFailed in one line when it refuses. Anything else is left to ``ray.init``."""
    import ray.exceptions

    gcs_client, refused = _raylet("GcsClient"), getattr(ray.exceptions, "AuthenticationError", None)
    if gcs_client is None or refused is None:  # a Ray without token authentication
        return
    try:
        with _stderr_aside():
            gcs_client(address=address)
    except refused:
        sent = os.environ.get(AUTH_MODE_ENV, "").lower() == "token" and has_token()
        why = "refused the token Ray found" if sent else "needs a token and none was found"
        raise TranslationFailed(
            f"cannot connect to the Ray cluster at {address}: its token authentication {why} "
            f"(Ray reads it from {TOKEN_PLACES}; `ray get-auth-token` on the head prints it)"
        ) from None
    except Exception:  # not an authentication problem: ray.init says what it is
        return


def check_loopback_nodes(nodes: list[dict[str, Any]]) -> None:
    """Refuse a local cluster whose node did not start on 127.0.0.1 (a Ray that no longer
    honours its one-machine switch): it would serve every interface."""
    addresses = sorted({str(n.get("NodeManagerAddress")) for n in nodes if n.get("Alive", True)})
    outside = [a for a in addresses if a not in _LOOPBACK_HOSTS]
    if outside:
        raise TranslationFailed(
            f"--ray local: the local Ray cluster listens on {', '.join(outside)}, not on 127.0.0.1 "
            "only; stopped. Start a cluster yourself and give its address"
        )
