"""The benchmark's settings: the command line (`[--quick] [WORKLOAD|SUITE]...`) and the PERF_* variables."""
import dataclasses
import pathlib
import re

from overhead.workloads import BY_NAME, SUITES, SUITES_BY_NAME, WORKLOADS

USAGE = f"usage: run.sh [--quick] [{'|'.join([*BY_NAME, *SUITES_BY_NAME])}]..."
# The counting probes of the `probes` variant.
PROBES = pathlib.Path(__file__).resolve().parent.parent / "probes.toml"
# The two analyses, then the default one with each option that records more turned on: the extra
# metric `allocations`, per-line counts, contexts split by call site and the counting probes of
# PROBES, so that each one's own cost is its variant over `default` (tables.option_tables).
DEFAULT_VARIANTS = ("default=--bba,default precise=--bba,precise allocations=--bba,default,--metrics,allocations "
                    "lines=--bba,default,--lines call-sites=--bba,default,--call-sites "
                    f"probes=--bba,default,--config,{PROBES}")
# The `jp instrument` flags that make a variant record more than calls and bytecodes (a
# configuration file may declare probes).
OPTION_FLAGS = ("--metrics", "--lines", "--call-sites", "--config")
ALTERNATIVES = ("jfr", "async-profiler", "jvmti")
# Names a variant cannot take: the other configurations'.
RESERVED = ("baseline", *ALTERNATIVES)
# A variant whose flags start with this is rewritten by the test-only stress program, not jp.
STRESS = "jp-stress"
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class SettingsError(Exception):
    """The command line or a PERF_* variable is wrong (exit status 2)."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """A JP variant: its NAME, the FLAGS given to its rewriter, whether that is `jp-stress`
    (which has no runtime, so its runs write no profile) rather than `jp instrument`, and the
    RUNTIME jar its runs use and the ENGINE (`jp` binary) that rewrites its classes ("" for the
    ones built from this checkout)."""
    name: str
    flags: tuple
    stress: bool
    runtime: str = ""
    engine: str = ""

    def shown_flags(self):
        """The flags as PERF_VARIANTS gave them, commas made spaces (`jp-stress` included)."""
        return " ".join(((STRESS,) if self.stress else ()) + self.flags)

    def records_options(self):
        """Whether its flags turn on an extra metric, per-line counts or call sites."""
        return any(flag.split("=")[0] in OPTION_FLAGS for flag in self.flags)

    def extends(self, other):
        """Whether it is OTHER (a `jp instrument` variant of the same runtime and engine) with more
        flags after OTHER's: then its time over OTHER's is what those flags cost."""
        return (not self.stress and not other.stress and self.name != other.name
                and (self.runtime, self.engine) == (other.runtime, other.engine)
                and len(self.flags) > len(other.flags) and self.flags[:len(other.flags)] == other.flags)


def extended(variants):
    """Each variant that others extend (Variant.extends), with those others, in VARIANTS' order: a
    variant that extends several is counted against the one with the most flags."""
    groups = {}
    for variant in variants:
        bases = [other for other in variants if variant.extends(other)]
        if bases:
            base = max(bases, key=lambda other: len(other.flags))
            groups.setdefault(base.name, []).append(variant.name)
    return [(variant.name, groups[variant.name]) for variant in variants if variant.name in groups]

@dataclasses.dataclass(frozen=True)
class Settings:
    workloads: tuple
    suites: tuple
    runs: int
    iterations: str  # measured rounds per JVM; "" for each workload's default
    size: str  # the drivers' inputs and the suites' test classes: full or small (--quick)
    variants: tuple
    alternatives: tuple
    tracer_timeout: int
    java_options: tuple
    cpus: str  # taskset's CPU list; "" for none
    keep: bool


def parse_variants(text):
    """The Variants of PERF_VARIANTS' TEXT: space-separated NAME=FLAG,FLAG,..."""
    variants = []
    for spec in text.split():
        name, equals, flags = spec.partition("=")
        if not equals or not _NAME.match(name):
            raise SettingsError(f"bad variant '{spec}' in PERF_VARIANTS (NAME=FLAG,FLAG,...)")
        if name in RESERVED or any(variant.name == name for variant in variants):
            raise SettingsError(f"variant name '{name}' is taken")
        words = tuple(flags.replace(",", " ").split())
        stress = flags.startswith(STRESS)
        if stress:
            words = tuple(flags[len(STRESS):].replace(",", " ").split())
        variants.append(Variant(name, words, stress))
    return tuple(variants)


def with_builds(variants, field, variable, text):
    """VARIANTS with FIELD (runtime or engine) set from the PERF_ variable VARIABLE's TEXT,
    space-separated NAME=PATH: two variants with the same flags and different runtimes or engines
    compare two builds side by side."""
    by_name = {variant.name: variant for variant in variants}
    for spec in text.split():
        name, equals, path = spec.partition("=")
        if not equals or not path:
            raise SettingsError(f"bad {field} '{spec}' in {variable} (NAME=PATH)")
        if name not in by_name or by_name[name].stress:
            raise SettingsError(f"{variable} names '{name}', which is no jp instrument variant")
        by_name[name] = dataclasses.replace(by_name[name], **{field: path})
    return tuple(by_name[variant.name] for variant in variants)


def parse_alternatives(text):
    """The other profilers of PERF_ALTERNATIVES' TEXT, in its order."""
    names = tuple(text.split())
    for name in names:
        if name not in ALTERNATIVES:
            raise SettingsError(f"unknown alternative '{name}' in PERF_ALTERNATIVES ({', '.join(ALTERNATIVES)})")
    return names


def parse(argv, environ):
    """The Settings of the command line ARGV and the environment ENVIRON. --quick (one run, one
    measured round, small inputs, the test suites' quick classes) outranks PERF_RUNS;
    PERF_ITERATIONS and PERF_TRACER_TIMEOUT outrank --quick. Without a workload or suite named,
    every one runs. Raises SettingsError with USAGE for an unknown argument."""
    quick = False
    workloads = []
    suites = []
    for arg in argv:
        if arg == "--quick":
            quick = True
        elif arg in BY_NAME:
            workloads.append(BY_NAME[arg])
        elif arg in SUITES_BY_NAME:
            suites.append(SUITES_BY_NAME[arg])
        else:
            raise SettingsError(USAGE)
    runs = "1" if quick else environ.get("PERF_RUNS") or "3"
    iterations = environ.get("PERF_ITERATIONS") or ("1" if quick else "")
    if not re.fullmatch(r"[1-9][0-9]*", runs):
        raise SettingsError("PERF_RUNS must be a positive number")
    if not re.fullmatch(r"[0-9]*", iterations):
        raise SettingsError("PERF_ITERATIONS must be a number")
    tracer_timeout = environ.get("PERF_TRACER_TIMEOUT") or ("30" if quick else "120")
    if not re.fullmatch(r"[0-9]+", tracer_timeout):
        raise SettingsError("PERF_TRACER_TIMEOUT must be a number of seconds")
    return Settings(
        workloads=tuple(workloads) if workloads or suites else WORKLOADS,
        suites=tuple(suites) if workloads or suites else SUITES,
        runs=int(runs),
        iterations=iterations,
        size="small" if quick else "full",
        variants=with_builds(
            with_builds(parse_variants(environ.get("PERF_VARIANTS", DEFAULT_VARIANTS)),
                        "runtime", "PERF_RUNTIMES", environ.get("PERF_RUNTIMES", "")),
            "engine", "PERF_ENGINES", environ.get("PERF_ENGINES", "")),
        alternatives=parse_alternatives(environ.get("PERF_ALTERNATIVES", " ".join(ALTERNATIVES))),
        tracer_timeout=int(tracer_timeout),
        java_options=tuple(environ.get("PERF_JAVA_OPTS", "").split()),
        cpus=environ.get("PERF_CPUS", ""),
        keep=bool(environ.get("PERF_KEEP")),
    )
