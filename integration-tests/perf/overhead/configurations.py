"""The configurations a workload runs in: the baseline, each JP variant and each other profiler,
as data: what each adds to the JVM's command line, how long a run may take, and what it must leave."""
import dataclasses
import typing

# How long one run may take (seconds), unless its configuration says otherwise.
TIME_LIMIT = 1800


@dataclasses.dataclass(frozen=True)
class Configuration:
    name: str
    classpath: str
    # The JVM options of run N of workload W: options(W, N).
    options: typing.Callable = lambda workload, run: []
    time_limit: int = TIME_LIMIT
    # Where run N of workload W must write a non-empty profile, or None: profile(W, N).
    profile: typing.Optional[typing.Callable] = None
    # Too slow to repeat: one run, in the last round; a run past its time limit is a lower bound
    # of the time, not a failure.
    once_with_bound: bool = False
    # What the benchmark's header says about it, if anything.
    header_note: str = ""

    def runs_in_round(self, round_index, rounds):
        return not self.once_with_bound or round_index == rounds - 1


def baseline(classpath):
    """The uninstrumented drivers and libraries on CLASSPATH."""
    return Configuration("baseline", classpath)


def jp_variant(variant, out, runtime, uninstrumented=""):
    """VARIANT's instrumented drivers and jars in the directory OUT, the RUNTIME jar, then the class
    path UNINSTRUMENTED (a test suite's tests and what they need); its runs write their profiles
    into OUT (a `jp-stress` variant has no runtime: none is required)."""
    jars = sorted(str(jar) for jar in out.glob("*.jar"))
    profile = None if variant.stress else (lambda workload, run: out / f"{workload}-{run}.jpprof")
    return Configuration(variant.name, ":".join(filter(None, [str(out), *jars, str(runtime), uninstrumented])),
                         options=lambda workload, run: [f"-Djp.output={out / f'{workload}-{run}.jpprof'}"],
                         profile=profile)


def jfr(classpath, work):
    """JDK Flight Recorder's default profile, written into WORK at exit."""
    return Configuration("jfr", classpath, options=lambda workload, run: [
        f"-XX:StartFlightRecording=filename={work / f'{workload}-{run}.jfr'},settings=default"])


def async_profiler(classpath, work, library, event):
    """async-profiler's agent LIBRARY sampling EVENT, its collapsed stacks written into WORK."""
    return Configuration("async-profiler", classpath, options=lambda workload, run: [
        f"-agentpath:{library}=start,event={event},file={work / f'{workload}-{run}.collapsed'}"],
        header_note=f"async-profiler: event={event}, default interval")


def jvmti(classpath, library, time_limit):
    """The JVMTI method entry/exit tracer LIBRARY: one run per workload, at most TIME_LIMIT seconds."""
    return Configuration("jvmti", classpath, options=lambda workload, run: [f"-agentpath:{library}"],
                         time_limit=time_limit, once_with_bound=True,
                         header_note=f"jvmti: one run per workload, at most {time_limit}s")
