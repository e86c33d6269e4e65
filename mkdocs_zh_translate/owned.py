"""Paths we own: every file the project writes, moves or removes outside its own scratch space.

Users point the project at directories of their own (``cache_dir: .``, ``docs --out``,
``review_dir``, ``export --out``), and those may hold anything. So nothing here moves or removes
a directory wholesale: a file is moved or removed only when it is *ours* inside a root, proved
by a rule the caller states (diskcache's ``cache.db*`` names in the cache directory, the list a
``docs`` run wrote, ``*.po`` in ``review_dir``), never through a symbolic link, and a directory
only when it is a scratch directory we created or became empty by our own removal.

Writes are atomic (a temporary file in the same directory, then one rename), so a full disk or
an interruption leaves the old file or none, never a truncated one, and the error names the file.
Directory options and output paths are checked here too, by one rule each: outputs never
overwrite an input, the config file or ``docs_dir``; nothing ever goes to the filesystem root
or a system directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath

from .errors import ZhTranslateError

# Never written to, whatever an option says: the root, and the trees the system owns.
SYSTEM_TREES = (
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sbin", "/sys", "/usr",
)
SYSTEM_DIRS = ("/", "/home", "/var", "/run", "/srv", "/opt", "/mnt", "/media")  # these, not what is inside


class PathError(ZhTranslateError):
    """A path refused, or a write / move / removal that failed: one line naming the path."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def system_dir(path: Path) -> bool:
    """True for the filesystem root, a top-level system directory, or anything inside
    ``/etc``, ``/usr``, ``/proc``, ``/sys``, ``/dev`` and the like (checked as given and resolved)."""
    for candidate in {os.path.abspath(path), str(Path(path).resolve())}:
        if candidate in SYSTEM_DIRS or any(candidate == t or candidate.startswith(t + "/") for t in SYSTEM_TREES):
            return True
    return False


def path_kind(path: Path) -> str | None:
    """None for a regular file (or a link to one), else what is there, worded for a message:
    ``no such file``, ``is a directory``, ``is not a regular file (a device, pipe or socket)``."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {_reason(exc)}"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    return "is not a regular file (a device, pipe or socket)"


# -- atomic writes ---------------------------------------------------------------------------


def _replace_with(path: Path, fill: Callable[[int, str], None], mode: int | None, parents: bool = True) -> None:
    """Create ``path`` atomically: ``fill(fd, tmp)`` writes a temporary file beside it, which
    then replaces ``path`` in one rename. Any failure removes the temporary file and raises
    :class:`PathError` naming ``path``."""
    tmp: str | None = None
    try:
        if parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        fill(fd, tmp)
        if mode is None:
            try:
                mode = path.stat().st_mode & 0o777 if not path.is_symlink() else 0o644
            except FileNotFoundError:
                mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise PathError(f"{path}: cannot write: {_reason(exc)}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def atomic_write(
    path: Path, data: bytes, *, mode: int | None = None, parents: bool = True, durable: bool = True
) -> None:
    """Write ``data`` to ``path`` atomically (an existing file keeps its permissions; a new one
    is 0644 unless ``mode``; missing parent directories are created unless ``parents`` is
    false). A link at ``path`` is replaced, never written through.

    ``durable``: the data reaches the disk (fsync) before the rename, so it survives a power
    loss too. ``durable=False`` is for what every build writes again (the site's own files, as
    MkDocs writes its pages, and the build report): still atomic, but an fsync right after a
    build wrote a whole site waits for all of it to reach the disk (0.5 s on a 50-page site)."""

    def fill(fd: int, _tmp: str) -> None:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())

    _replace_with(path, fill, mode, parents)


def write_if_changed(path: Path, data: bytes) -> bool:
    """:func:`atomic_write` unless ``path`` already holds exactly ``data`` (its mtime is kept, so
    watchers and incremental builds see only real changes); True if written."""
    try:
        if path.is_file() and not path.is_symlink() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    atomic_write(path, data)
    return True


def copy_if_changed(src: Path, path: Path) -> bool:
    """Copy ``src`` (bytes, mode and times) to ``path`` atomically unless it already holds the
    same bytes; True if written."""
    try:
        same = (
            path.is_file()
            and not path.is_symlink()
            and path.stat().st_size == src.stat().st_size
            and path.read_bytes() == src.read_bytes()
        )
    except OSError:
        same = False
    if same:
        return False

    def fill(fd: int, tmp: str) -> None:
        os.close(fd)
        shutil.copy2(src, tmp)

    try:
        mode = src.stat().st_mode & 0o777
    except OSError as exc:
        raise PathError(f"{src}: cannot read: {_reason(exc)}") from None
    _replace_with(path, fill, mode)
    return True


# -- moving and removing only what is ours ---------------------------------------------------


class Owned:
    """The files of ours inside one user-chosen directory ``root``: those ``rule`` accepts, by
    their path relative to ``root``. Anything else there is the user's and is never moved or
    removed; neither is a path that goes through a symbolic link below ``root``."""

    def __init__(self, root: Path, rule: Callable[[PurePosixPath], bool], what: str) -> None:
        self.root = Path(os.path.abspath(root))
        self.rule = rule
        self.what = what  # "the translation cache's files", for messages

    def owns(self, path: Path) -> bool:
        rel = os.path.relpath(os.path.abspath(path), self.root)
        parts = PurePosixPath(Path(rel).as_posix()).parts
        if not parts or rel == os.curdir or ".." in parts:
            return False
        current = self.root
        for part in parts[:-1]:
            current = current / part
            if current.is_symlink() or not current.is_dir():
                return False
        return self.rule(PurePosixPath(*parts))

    def _check(self, path: Path) -> None:
        if not self.owns(path):
            raise PathError(f"{path}: not one of {self.what} in {self.root}; refusing to move or remove it")

    def remove(self, path: Path) -> bool:
        """Delete one file of ours (False if it was not there), then the directories that our
        removal left empty, up to ``root``. A file that is not ours raises :class:`PathError`."""
        self._check(path)
        try:
            if path.is_dir() and not path.is_symlink():
                raise PathError(f"{path}: is a directory; only files of {self.what} are removed")
            path.unlink()
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise PathError(f"{path}: cannot remove: {_reason(exc)}") from None
        for parent in path.parents:
            if parent == self.root or self.root not in parent.parents:
                break
            try:
                parent.rmdir()  # only an empty directory goes
            except OSError:
                break
        return True

    def move(self, src: Path, dst: Path) -> None:
        """Rename one file of ours to another name of ours (replacing it)."""
        self._check(src)
        self._check(dst)
        if dst.is_dir() and not dst.is_symlink():
            raise PathError(f"{dst}: is a directory; only files of {self.what} are replaced")
        try:
            os.replace(src, dst)
        except OSError as exc:
            raise PathError(f"{src}: cannot move to {dst}: {_reason(exc)}") from None


def named(names: Iterable[str]) -> Callable[[PurePosixPath], bool]:
    """A rule for :class:`Owned`: exactly these file names at the top of the root."""
    wanted = frozenset(names)
    return lambda rel: len(rel.parts) == 1 and rel.name in wanted


@contextlib.contextmanager
def scratch_dir(prefix: str, parent: Path | None = None) -> Iterator[Path]:
    """A new private directory (0700) that is removed with everything in it afterwards: the
    one kind of directory removed wholesale, because this process created it."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- options that name directories, and output paths ----------------------------------------


def check_dir_option(value: str, base: Path, option: str) -> Path:
    """The absolute directory an option names: a relative value is read from ``base`` (the
    config's directory) and must stay inside it; a directory elsewhere must be written as an
    absolute path (``~`` counts), an explicit choice; the root and system directories are
    refused whatever the spelling. Raises :class:`PathError` naming the option."""
    expanded = os.path.expanduser(value)
    base = Path(os.path.abspath(base))
    if not os.path.isabs(expanded):
        lexical = Path(os.path.normpath(base / expanded))
        if lexical != base and base not in lexical.parents:
            raise PathError(
                f"option '{option}': {value} is outside the project directory {base}; "
                "write an absolute path to use a directory elsewhere"
            )
    path = (base / expanded).resolve()
    if system_dir(path):
        raise PathError(f"option '{option}': {value} is {path}, a system directory; choose a directory of the project")
    return path


def check_output(
    path: Path,
    option: str,
    *,
    inputs: Iterable[Path] = (),
    config: Path | None = None,
    docs_dir: Path | None = None,
    kept: Iterable[Owned] = (),
) -> Path:
    """``path`` as an absolute path, refused (:class:`PathError` naming ``option``) when writing
    it would overwrite what the command reads: an input file, the config file, anything in
    ``docs_dir``, one of the files ``kept`` describes (the project's PO files, glossary and
    cache: ``pipeline.inputs.project_inputs``), existing or not; or when it is the root or a
    system directory."""
    target = Path(os.path.abspath(path))
    real = target.resolve()
    if system_dir(target):
        raise PathError(f"{option} {path}: is {real}, a system directory; choose a path of your own")

    def same(other: Path) -> bool:
        if real == other.resolve():
            return True
        try:
            return os.path.samefile(real, other)  # a hard link to it
        except OSError:
            return False

    for source in inputs:
        if same(source):
            raise PathError(f"{option} {path}: is the input file {source}; write to another file")
    if config is not None and same(config):
        raise PathError(f"{option} {path}: is the config file {config}; write to another file")
    if docs_dir is not None:
        docs = docs_dir.resolve()
        if real == docs or docs in real.parents:
            raise PathError(f"{option} {path}: is inside docs_dir {docs}; write outside the English docs")
    for files in kept:
        if _holds(files, real):
            raise PathError(f"{option} {path}: is one of {files.what} in {files.root}, which the project reads; "
                            "write to another file")
    return target


def _holds(files: Owned, real: Path) -> bool:
    """Whether the resolved path ``real`` is, by name, one of ``files`` (it need not exist yet:
    a Markdown page written as ``site.po`` would break the next build just the same)."""
    root = files.root.resolve()
    if real == root or root not in real.parents:
        return False
    return files.rule(PurePosixPath(real.relative_to(root).as_posix()))


__all__ = [
    "Owned",
    "PathError",
    "atomic_write",
    "check_dir_option",
    "check_output",
    "copy_if_changed",
    "named",
    "path_kind",
    "scratch_dir",
    "system_dir",
    "write_if_changed",
]
