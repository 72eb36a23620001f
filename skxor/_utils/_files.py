"""Output folders (created and probed for writing before any work starts), study tables,
and files kept aside when they cannot be used."""

import contextlib
import datetime
import os
import tempfile
import warnings
from pathlib import Path

from ._warnings import SkxorRuntimeWarning


def read_table(path):
    """A study table written as CSV (plain or gzipped), read in one piece.

    pandas infers each column's type chunk by chunk by default, so a long
    column whose first rows are empty (e.g. a k_sparse flag that only
    steps rows carry) can come back as text in one chunk and booleans in
    another; reading the whole file at once gives every column one type.

    Examples
    --------
    >>> import io
    >>> from skxor._utils._files import read_table
    >>> read_table(io.StringIO("d,success\\n10,True\\n20,\\n")).dtypes.tolist()
    [dtype('int64'), dtype('O')]
    """
    import pandas as pd

    return pd.read_csv(path, low_memory=False)


def new_file_mode():
    """The mode ``open()`` gives a new file: ``0o666`` less the process's umask.

    ``tempfile.mkstemp`` creates its files private (0600) whatever the
    umask; a file written through one and renamed into place gets this mode
    instead, so that results are as shared as the user's other files.

    Examples
    --------
    >>> import os
    >>> from skxor._utils._files import new_file_mode
    >>> mask = os.umask(0o027)
    >>> oct(new_file_mode())
    '0o640'
    >>> _ = os.umask(mask)
    """
    try:  # Linux states it without changing it (no race with other threads)
        with open("/proc/self/status") as fh:
            mask = next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def prepare_out_dir(out_dir, name="out_dir"):
    """Create ``out_dir`` if needed and check that files can be written there.

    Raises
    ------
    ValueError
        ``out_dir`` is an existing file, or the folder cannot be created or
        written (the message names ``name``, the option that gave it).

    Examples
    --------
    >>> import tempfile
    >>> from skxor._utils._files import prepare_out_dir
    >>> folder = prepare_out_dir(tempfile.mkdtemp())
    >>> folder.is_dir()
    True
    """
    if not str(out_dir).strip():
        # Path("") is the current folder: an empty option is a mistake, not ".".
        raise ValueError(f"{name} is empty; give a folder (created if missing).")
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(
            f"{name} {str(path)!r} is an existing file; give a folder (created if missing)."
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(
            f"{name} {str(path)!r}: cannot create or write this folder "
            f"({exc.strerror or exc}); give a writable folder."
        ) from exc
    return path


def set_aside(path, why, stacklevel=3):
    """Rename a file that cannot be used so that it is kept (``<stem>.<UTC stamp><suffix>``),
    and warn naming both paths; returns the new path."""
    path = Path(path)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S%f")
    kept = path.with_name(f"{path.stem}.{stamp}{path.suffix}")
    os.replace(path, kept)
    warnings.warn(f"{path} {why}; kept it as {kept}.", SkxorRuntimeWarning, stacklevel=stacklevel)
    return kept


@contextlib.contextmanager
def naming_the_table(study, path):
    """Re-raise what a table's content makes fail (an edited value, a missing column)
    as a ValueError naming the file, so that the command line says which one."""
    try:
        yield
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"{path} cannot be summarized as a {study} table: {exc}") from exc
    except (AttributeError, IndexError) as exc:
        # A row read by attribute (itertuples) that lacks a column.
        raise ValueError(f"{path} cannot be summarized as a {study} table (a column it "
                         f"needs is missing or of another kind): {exc}") from exc
