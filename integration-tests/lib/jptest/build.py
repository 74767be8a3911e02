"""Where a suite finds the repository, its cache and the `jp` binary, and how it builds them."""
import os
import pathlib
import re
import shutil
import sys
import tempfile

from jptest import commands

ROOT = pathlib.Path(__file__).resolve().parents[3]


class SuiteError(Exception):
    """The suite cannot run at all (exit status 2): a build failed, a tool is missing."""


def cache_dir():
    """What the suites download or build once: ${JP_CACHE_DIR:-~/.cache/jp}."""
    return pathlib.Path(os.environ.get("JP_CACHE_DIR") or pathlib.Path.home() / ".cache" / "jp")


def pom_version(pom_text):
    """The first <version> of a POM's text, the project's own in JP's POMs ("" when it has none)."""
    for line in pom_text.splitlines():
        if "<version>" in line:
            return re.split("[<>]", line)[2]
    return ""


def root_version():
    """JP's version: the root POM's."""
    return pom_version((ROOT / "pom.xml").read_text())


def release_binary(name):
    """The release binary NAME under ${CARGO_TARGET_DIR:-target}, relative to the repository."""
    return ROOT / os.environ.get("CARGO_TARGET_DIR", "target") / "release" / name


def build_binary(package, name):
    """Builds the release binary NAME of the cargo PACKAGE (cargo's output passes through); returns
    its path."""
    if commands.run_passing(["cargo", "build", "--release", "--quiet", "-p", package], cwd=ROOT) != 0:
        raise SuiteError("cargo build failed")
    binary = release_binary(name)
    if not os.access(binary, os.X_OK):
        raise SuiteError(f"no binary at {binary} after the build")
    return binary


def build_jp():
    """Builds the release `jp`; returns its path."""
    return build_binary("jp-cli", "jp")


def build_runtime(work):
    """Packages the runtime jar (Maven's output in WORK/mvn.log); returns its path."""
    log = pathlib.Path(work) / "mvn.log"
    args = ["mvn", "-q", "-f", str(ROOT / "pom.xml"), "-pl", "java-runtime", "-am", "package", "-DskipTests"]
    if commands.run_logged(args, log) != 0:
        print(commands.tail(log, 30), flush=True)
        raise SuiteError("the runtime jar did not build")
    jars = sorted(jar for jar in (ROOT / "java-runtime" / "target").glob("jp-runtime-*.jar")
                  if "sources" not in jar.name and "javadoc" not in jar.name)
    if not jars:
        raise SuiteError("the runtime jar did not build")
    return jars[0]


def in_scratch(program, prefix, run):
    """Runs RUN(work) in a fresh directory named PREFIX...: removed when RUN returns 0, kept and named
    on stdout otherwise (for a look at what failed); returns RUN's status."""
    work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    status = 2
    try:
        status = run(work)
        return status
    finally:
        if status == 0:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"{program}: work files kept in {work}", flush=True)


def main(program, suite):
    """Runs SUITE() as PROGRAM's body: its return value is the exit status, a SuiteError exits 2."""
    try:
        status = suite()
    except SuiteError as error:
        print(f"{program}: {error}", file=sys.stderr, flush=True)
        status = 2
    except KeyboardInterrupt:
        status = 130
    sys.exit(status)
