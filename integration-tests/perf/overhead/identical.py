"""Whether two rewrites of the same inputs wrote the same classes: their output directories compared
file by file, a jar entry by entry, byte for byte."""
import pathlib
import zipfile


def _entries(path):
    """The contents of the file PATH: a jar's entries by name, any other file as itself."""
    if path.suffix == ".jar":
        with zipfile.ZipFile(path) as jar:
            return {name: jar.read(name) for name in jar.namelist()}
    return {"": path.read_bytes()}


def _files(directory):
    return {path.relative_to(directory): path for path in pathlib.Path(directory).rglob("*") if path.is_file()}


def compare(first, second):
    """(how many classes both directories hold, the files and entries that differ or that one of them
    lacks, as `path` or `jar!entry`)."""
    first_files, second_files = _files(first), _files(second)
    differing = sorted(str(path) for path in first_files.keys() ^ second_files.keys())
    classes = 0
    for path in sorted(first_files.keys() & second_files.keys()):
        ours, theirs = _entries(first_files[path]), _entries(second_files[path])
        for name in sorted(ours.keys() | theirs.keys()):
            shown = f"{path}!{name}" if name else str(path)
            if ours.get(name) != theirs.get(name):
                differing.append(shown)
            elif shown.endswith(".class"):
                classes += 1
    return classes, differing
