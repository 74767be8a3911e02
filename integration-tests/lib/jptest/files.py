"""Comparing output trees and jars, and the sorted, tab-separated line files the checks write."""
import os
import pathlib
import stat
import zipfile

_TYPES = [(stat.S_ISFIFO, "fifo"), (stat.S_ISCHR, "character special file"), (stat.S_ISBLK, "block special file"),
          (stat.S_ISDIR, "directory"), (stat.S_ISLNK, "symbolic link"), (stat.S_ISSOCK, "socket")]


def files_under(directory):
    """The regular files under DIRECTORY, at any depth, sorted."""
    return sorted(path for path in pathlib.Path(directory).rglob("*") if path.is_file() and not path.is_symlink())


def same_bytes(first, second):
    """Whether the files FIRST and SECOND both exist and hold the same bytes, as `cmp -s` says."""
    try:
        return pathlib.Path(first).read_bytes() == pathlib.Path(second).read_bytes()
    except OSError:
        return False


def file_type(path):
    """What PATH is, in the words of `stat -c %F`: `regular file`, `fifo`, `character special
    file`...; `missing` when there is nothing there."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "missing"
    if stat.S_ISREG(mode):
        return "regular file" if os.path.getsize(path) else "regular empty file"
    return next((name for test, name in _TYPES if test(mode)), "unknown")


def differing_files(first, second):
    """The paths, relative to the two directories, of the files whose bytes differ or that only one has."""
    first, second = pathlib.Path(first), pathlib.Path(second)
    ours = {path.relative_to(first) for path in files_under(first)}
    theirs = {path.relative_to(second) for path in files_under(second)}
    return sorted(path for path in ours | theirs if path not in ours or path not in theirs
                  or (first / path).read_bytes() != (second / path).read_bytes())


def jar_differences(first, second):
    """The entries of two jars whose bytes differ, or that only one has, sorted."""
    with zipfile.ZipFile(first) as ours, zipfile.ZipFile(second) as theirs:
        ours_names, theirs_names = set(ours.namelist()), set(theirs.namelist())
        return sorted(name for name in ours_names | theirs_names if name not in ours_names
                      or name not in theirs_names or ours.read(name) != theirs.read(name))


def remove_entry(jar, entry):
    """Rewrites the jar JAR without its entry ENTRY (as `zip -d` does), through a file beside it that
    replaces it whole."""
    jar = pathlib.Path(jar)
    partial = jar.with_name(f"{jar.name}.partial")
    with zipfile.ZipFile(jar) as source, zipfile.ZipFile(partial, "w") as copy:
        for item in source.infolist():
            if item.filename != entry:
                copy.writestr(item, source.read(item))
    os.replace(partial, jar)


def sorted_lines(text):
    """TEXT's lines sorted bytewise, as `LC_ALL=C sort` sorts them."""
    return sorted(text.splitlines(), key=lambda line: line.encode(errors="surrogateescape"))


def write_lines(path, lines):
    """Writes LINES to PATH, each ended by a newline."""
    with open(path, "w", errors="surrogateescape") as file:
        file.writelines(f"{line}\n" for line in lines)


def join(before, after):
    """The rows of two lists of `key<TAB>value` lines that share a key, as (key, before, after),
    in BEFORE's order: join(1) on the first field."""
    values = {}
    for line in after:
        key, _, value = line.partition("\t")
        values.setdefault(key, value)
    rows = []
    for line in before:
        key, _, value = line.partition("\t")
        if key in values:
            rows.append((key, value, values[key]))
    return rows
