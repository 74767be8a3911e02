"""Where a suite finds the repository, its cache and the `jp` binary, and how it builds them."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from jptest import commands

ROOT = pathlib.Path(__file__).resolve().parents[3]


class SuiteError(Exception):
    """The suite cannot run at all (exit status 2): a build failed, a tool is missing."""


def cache_dir():
    """What the suites download or build once: ${JP_CACHE_DIR:-~/.cache/jp}."""
    return pathlib.Path(os.environ.get("JP_CACHE_DIR") or pathlib.Path.home() / ".cache" / "jp")


def target_dir():
    """Cargo's ${CARGO_TARGET_DIR:-target}, relative to the repository; the benchmarks work under it."""
    return ROOT / os.environ.get("CARGO_TARGET_DIR", "target")


def release_binary(name):
    """The release binary NAME under target_dir()."""
    return target_dir() / "release" / name


def build_binaries(*packages):
    """Builds, in one cargo run (cargo's output passes through), the release binaries of PACKAGES,
    pairs of a cargo package and its binary's name; returns the binaries' paths."""
    args = ["cargo", "build", "--release", "--quiet"]
    for package, _ in packages:
        args += ["-p", package]
    if commands.run_passing(args, cwd=ROOT) != 0:
        raise SuiteError("cargo build failed")
    binaries = [release_binary(name) for _, name in packages]
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            raise SuiteError(f"no binary at {binary} after the build")
    return binaries


def build_binary(package, name):
    """Builds the release binary NAME of the cargo PACKAGE; returns its path."""
    return build_binaries((package, name))[0]


def build_jp():
    """Builds the release `jp`; returns its path."""
    return build_binary("jp-cli", "jp")


def root_version():
    """JP's version: the one the root POM builds."""
    match = re.search(r"<version>([^<]*)</version>", (ROOT / "pom.xml").read_text())
    if not match:
        raise SuiteError(f"no version in {ROOT / 'pom.xml'}")
    return match.group(1)


def fetch_corpus():
    """The directory of the round-trip corpus's jars (integration-tests/corpus), fetched once."""
    out, status = commands.stdout_of(["bash", str(ROOT / "integration-tests" / "corpus" / "fetch.sh")])
    if status != 0:
        raise SuiteError("could not fetch the corpus")
    return pathlib.Path(out.strip())


def made_once(directory, make):
    """DIRECTORY, made by MAKE(partial) in DIRECTORY.partial unless it is there already: the partial
    directory gets the name only once MAKE returned, so a run cut short leaves no DIRECTORY."""
    directory = pathlib.Path(directory)
    if not directory.is_dir():
        partial = pathlib.Path(f"{directory}.partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        make(partial)
        partial.rename(directory)
    return directory


def build_runtime(work, test_classes=True):
    """Packages the runtime jar (Maven's output in WORK/mvn.log); returns its path. Its tests do
    not run; without TEST_CLASSES they are not even compiled."""
    log = pathlib.Path(work) / "mvn.log"
    skip = "-DskipTests" if test_classes else "-Dmaven.test.skip=true"
    args = ["mvn", "-q", "-f", str(ROOT / "pom.xml"), "-pl", "java-runtime", "-am", "package", skip]
    if commands.run_logged(args, log) != 0:
        print(commands.tail(log, 30), flush=True)
        raise SuiteError("the runtime jar did not build")
    jars = sorted(jar for jar in (ROOT / "java-runtime" / "target").glob("jp-runtime-*.jar")
                  if "sources" not in jar.name and "javadoc" not in jar.name)
    if not jars:
        raise SuiteError("the runtime jar did not build")
    return jars[0]


def install_jp(repo, modules, version=None):
    """Lays out JP's MODULES (parent, runtime, engine, gradle-plugin, ...), as packaged, in the
    throwaway local Maven repository REPO as `mvn install` would, with scripts/lib/jp-repo.sh; as
    VERSION when given (the POMs rewritten to it), else as the built version."""
    built = root_version()
    script = 'source scripts/lib/jp-repo.sh && install_jp "$@"'
    env = dict(os.environ, root=str(ROOT), version=built)
    done = subprocess.run(["bash", "-c", script, "jp-repo", str(repo), version or built, *modules], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise SuiteError(f"cannot install into {repo}: {done.stderr.decode(errors='replace').strip()}")


def in_scratch(program, prefix, run, keep=False):
    """Runs RUN(work) in a fresh directory named PREFIX...: removed when RUN returns 0 unless KEEP,
    kept and named on stdout otherwise (for a look at what failed); returns RUN's status."""
    work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    status = 2
    try:
        status = run(work)
        return status
    finally:
        if status == 0 and not keep:
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
