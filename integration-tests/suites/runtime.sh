#!/usr/bin/env bash
# Runtime suite: the runtime (java-runtime) with programs instrumented by `jp instrument`
# (integration-tests/runtime/):
#   - threads: a Thread subclass that overrides getId() (instrumented) runs; two threads whose
#     uninstrumented class makes getId() return the same value keep trees of their own, with
#     exactly 4,000,000 calls between them;
#   - virtual threads (Temurin 25): 1,000,000 tasks on virtual threads run plain at -Xmx128m and
#     instrumented at -Xmx320m, in bounded time, count exactly 1,000,000 calls, and once they
#     have ended the heap in use (after a full GC) is within 32 MB of the plain run's. The
#     executor queues what the carriers have not run yet; instrumented tasks run slower, so its
#     queue grows larger than in the plain run: the extra heap is for that, not for the profiler;
#   - class reloading: a class loaded 40,000 times by fresh class loaders runs instrumented in the
#     plain run's -Xmx24m, every call counted;
#   - shutdown hooks: a hook's 3,000 calls are in every profile, 6 runs, 3 at a time;
#   - outputs: -Djp.output=/dev/null leaves the device, a FIFO is written into for its reader,
#     and a profile file gets the umask's permissions.
# One PASS/FAIL/SKIP line per check; exits 1 if any failed, 2 if the suite could not run.
# Set TEMURIN25_HOME to a JDK 25 (`none` to skip its checks), JAVA_HOME to a JDK 17.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
programs=$root/integration-tests/runtime
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
jp=$target/release/jp

failed=0
pass() { echo "PASS runtime $*"; }
fail() { echo "FAIL runtime $*"; failed=1; }
skip() { echo "SKIP runtime $*"; }
die() { echo "runtime.sh: $*" >&2; exit 2; }
show() { sed 's/^/    | /' "$1" | tail -n "${2:-15}"; }

# shellcheck source=../lib/jdks.sh
source "$root/integration-tests/lib/jdks.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/jp-runtime.XXXXXX")
trap 'rm -rf "$work"' EXIT

jdk17=$(find_jdk 17 "${JAVA_HOME:-}" /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk-*) ||
    die "no JDK 17 found (set JAVA_HOME to one)"
temurin=$(find_temurin25) || temurin=
java=$jdk17/bin/java

(cd "$root" && cargo build --release --quiet -p jp-cli) >"$work/cargo.log" 2>&1 || { show "$work/cargo.log"; die "cargo build failed"; }
mvn -q -B -f "$root/pom.xml" -pl java-runtime -am package -DskipTests >"$work/mvn.log" 2>&1 ||
    { show "$work/mvn.log" 30; die "the runtime jar did not build"; }
runtime=$(ls "$root"/java-runtime/target/jp-runtime-*.jar | grep -v -e sources -e javadoc | head -n 1)

# The programs: instrumented/ is instrumented, plain/ stays as compiled (on the class path beside).
"$jdk17/bin/javac" --release 8 -nowarn -Xlint:-options -d "$work/plain" "$programs"/plain/*.java &&
    "$jdk17/bin/javac" --release 8 -nowarn -Xlint:-options -cp "$work/plain" -d "$work/classes" "$programs"/instrumented/*.java \
        >"$work/javac.log" 2>&1 || { show "$work/javac.log"; die "javac failed"; }
"$jp" instrument "$work/classes" --out "$work/instrumented" >"$work/instrument.log" 2>&1 ||
    { show "$work/instrument.log"; die "jp instrument failed"; }
cp_instrumented=$work/instrumented:$work/plain:$runtime

# calls PROFILE CONTEXT: the calls of exactly that context (frames joined by ';'), 0 when absent.
calls() {
    "$jp" report "$1" --format folded --metric calls --out "$1.calls" >/dev/null 2>&1 || { echo "unreadable"; return; }
    awk -v ctx="$2" '{ v = $NF; $NF = ""; sub(/ $/, ""); if ($0 == ctx) s += v } END { print s + 0 }' "$1.calls"
}
# total_calls PROFILE SUFFIX: the calls of every context that ends with the frame SUFFIX.
total_calls() {
    "$jp" report "$1" --format folded --metric calls --out "$1.calls" >/dev/null 2>&1 || { echo "unreadable"; return; }
    awk -v f="$2" '{ v = $NF; sub(/ [0-9]+$/, ""); n = split($0, p, ";"); if (p[n] == f) s += v } END { print s + 0 }' "$1.calls"
}

# --- threads ---------------------------------------------------------------------------------
out=$work/getid
if timeout 60 "$java" -Djp.output="$out.jpprof" -cp "$cp_instrumented" GetIdOverride >"$out.out" 2>&1 &&
    [[ $(cat "$out.out") == $'worker ran\ndone' ]] && [[ -s $out.jpprof ]]; then
    pass "threads: a Thread subclass whose instrumented getId() is overridden runs and is profiled"
else
    fail "threads: a Thread subclass whose instrumented getId() is overridden runs and is profiled"; show "$out.out"
fi

out=$work/shared
if timeout 120 "$java" -Djp.output="$out.jpprof" -cp "$cp_instrumented" SharedId >"$out.out" 2>&1; then
    got=$(total_calls "$out.jpprof" 'SharedId.work(int):int')
    loops=$(calls "$out.jpprof" 'SharedId.loop():void')
    if [[ $got == 4000000 && $loops == 2 ]]; then
        pass "threads: two threads with one getId() value count exactly 4,000,000 calls of work, under 2 calls of loop"
    else
        fail "threads: two threads with one getId() value: $got calls of work (want 4000000), $loops of loop (want 2)"
        head -n 10 "$out.jpprof.calls" 2>/dev/null | sed 's/^/    | /'
    fi
else
    fail "threads: SharedId failed"; show "$out.out"
fi

# --- virtual threads -------------------------------------------------------------------------
if [[ -z $temurin ]]; then
    skip "virtual threads: no Temurin 25 (set TEMURIN25_HOME)"
else
    vt=$work/vt
    mkdir -p "$vt"
    if "$temurin/bin/javac" --release 25 -d "$vt/classes" "$programs"/java25/*.java >"$vt/javac.log" 2>&1 &&
        "$jp" instrument "$vt/classes" --out "$vt/instrumented" >"$vt/instrument.log" 2>&1; then
        tasks=1000000
        start=$SECONDS
        timeout 120 "$temurin/bin/java" -Xmx128m -cp "$vt/classes" ManyVirtualThreads $tasks >"$vt/plain.out" 2>"$vt/plain.err"
        plain_status=$? plain_time=$((SECONDS - start))
        start=$SECONDS
        # KILL because a JVM stuck in back-to-back full GCs ignores TERM.
        timeout -s KILL 120 "$temurin/bin/java" -Xmx320m -Djp.output="$vt/vt.jpprof" -cp "$vt/instrumented:$runtime" \
            ManyVirtualThreads $tasks >"$vt/jp.out" 2>"$vt/jp.err"
        jp_status=$? jp_time=$((SECONDS - start))
        got=$(total_calls "$vt/vt.jpprof" 'ManyVirtualThreads.task():void')
        plain_heap=$(sed -n 's/^heap in use MB //p' "$vt/plain.err")
        jp_heap=$(sed -n 's/^heap in use MB //p' "$vt/jp.err")
        if ((plain_status != 0)); then
            fail "virtual threads: the plain run at -Xmx128m failed ($plain_status)"; show "$vt/plain.err"
        elif ((jp_status == 0)) && [[ $(cat "$vt/jp.out") == "tasks $tasks" && $got == "$tasks" ]] &&
            ((jp_heap <= plain_heap + 32)); then
            pass "virtual threads: $tasks tasks instrumented at -Xmx320m in ${jp_time}s (plain at -Xmx128m: ${plain_time}s), exactly $got calls of task; heap in use once they ended: ${jp_heap} MB (plain: ${plain_heap} MB)"
        else
            fail "virtual threads: $tasks tasks instrumented at -Xmx320m: status $jp_status after ${jp_time}s, $got calls of task, heap in use once they ended: ${jp_heap:-?} MB (plain: ${plain_heap} MB, allowed 32 MB more)"
            show "$vt/jp.err"
        fi
    else
        fail "virtual threads: could not compile or instrument"; show "$vt/javac.log"; show "$vt/instrument.log"
    fi
fi

# --- class reloading -------------------------------------------------------------------------
# A plugin class loaded 40,000 times, each time by a new class loader dropped after one call: the
# classes are unloaded, and an instrumented run must keep nothing per load (the runtime has one
# method identifier per method, whatever loader loads its class), so it fits in the plain run's heap.
reload=$work/reload
loads=40000
if "$jdk17/bin/javac" --release 8 -nowarn -Xlint:-options -d "$reload/host" "$programs"/reload/Reload.java \
    >"$reload.javac.log" 2>&1 &&
    "$jdk17/bin/javac" --release 8 -nowarn -Xlint:-options -d "$reload/plugin" "$programs"/reload/Plugin.java \
        >>"$reload.javac.log" 2>&1 &&
    "$jp" instrument "$reload/host" --out "$reload/host-jp" >"$reload.instrument.log" 2>&1 &&
    "$jp" instrument "$reload/plugin" --out "$reload/plugin-jp" >>"$reload.instrument.log" 2>&1; then
    timeout 300 "$java" -Xmx24m -cp "$reload/host" Reload "$reload/plugin" $loads >"$reload/plain.out" 2>&1
    plain_status=$?
    timeout 300 "$java" -Xmx24m -Djp.output="$reload/reload.jpprof" -cp "$reload/host-jp:$runtime" Reload "$reload/plugin-jp" $loads \
        >"$reload/jp.out" 2>&1
    jp_status=$?
    got=$(total_calls "$reload/reload.jpprof" 'Plugin.getAsInt():int')
    if ((plain_status != 0)); then
        fail "class reloading: the plain run at -Xmx24m failed ($plain_status)"; show "$reload/plain.out"
    elif ((jp_status == 0)) && cmp -s "$reload/plain.out" "$reload/jp.out" && [[ $got == "$loads" ]]; then
        pass "class reloading: a class loaded $loads times in fresh class loaders runs instrumented in the plain run's -Xmx24m, exactly $got calls of getAsInt"
    else
        fail "class reloading: instrumented at -Xmx24m: status $jp_status, $got calls of getAsInt (want $loads)"
        show "$reload/jp.out"
    fi
else
    fail "class reloading: could not compile or instrument"; show "$reload.javac.log"; show "$reload.instrument.log"
fi

# --- shutdown hooks --------------------------------------------------------------------------
hook_context='HookWork.hook():void;HookWork.work(int):void'
counts=()
for round in 1 2; do
    for i in 1 2 3; do
        timeout 60 "$java" -Djp.output="$work/hook-$round-$i.jpprof" -cp "$cp_instrumented" HookWork \
            >"$work/hook-$round-$i.out" 2>&1 &
    done
    wait
done
for round in 1 2; do
    for i in 1 2 3; do
        counts+=("$(calls "$work/hook-$round-$i.jpprof" "$hook_context")")
    done
done
if [[ ${counts[*]} == "3000 3000 3000 3000 3000 3000" ]]; then
    pass "shutdown hooks: the hook's 3,000 calls are in every profile (6 runs, 3 at a time)"
else
    fail "shutdown hooks: calls under $hook_context in 6 runs: ${counts[*]} (want 3000 each)"
    show "$work/hook-1-1.out"
fi

# --- outputs ---------------------------------------------------------------------------------
if [[ -c /dev/null ]]; then
    timeout 60 "$java" -Djp.output=/dev/null -cp "$cp_instrumented" Small >"$work/devnull.out" 2>&1
    status=$?
    if [[ -c /dev/null ]] && ((status == 0)) && ! grep -q '^jp: ' "$work/devnull.out"; then
        pass "outputs: -Djp.output=/dev/null writes into the device, which stays a character device"
    else
        fail "outputs: -Djp.output=/dev/null: status $status, /dev/null is now: $(stat -c %F /dev/null)"
        show "$work/devnull.out"
        # Put the device back if the run replaced it (possible as root only).
        if [[ ! -c /dev/null ]] && ((EUID == 0)); then rm -f /dev/null && mknod -m 666 /dev/null c 1 3; fi
    fi
else
    skip "outputs: /dev/null is not a character device here"
fi

if command -v mkfifo >/dev/null; then
    fifo=$work/profile.fifo
    mkfifo "$fifo"
    timeout 60 cat "$fifo" >"$work/fifo.read" &
    reader=$!
    timeout 60 "$java" -Djp.output="$fifo" -cp "$cp_instrumented" Small >"$work/fifo.out" 2>&1
    status=$?
    wait "$reader"
    read_status=$?
    if ((status == 0 && read_status == 0)) && [[ -p $fifo ]] && head -n 1 "$work/fifo.read" | grep -q '^jp-profile ' &&
        [[ $(calls "$work/fifo.read" 'Small.main(java.lang.String[]):void;Small.twice(int):int') == 10 ]]; then
        pass "outputs: a FIFO output is written into, and its reader gets the profile"
    else
        fail "outputs: FIFO: program status $status, reader status $read_status, $(stat -c %F "$fifo")"
        show "$work/fifo.out"
    fi
else
    skip "outputs: no mkfifo"
fi

mode=$( (umask 022 && timeout 60 "$java" -Djp.output="$work/mode.jpprof" -cp "$cp_instrumented" Small >/dev/null 2>&1 &&
    stat -c %a "$work/mode.jpprof") )
if [[ $mode == 644 ]]; then
    pass "outputs: under umask 022 the profile is created 644, as other files"
else
    fail "outputs: under umask 022 the profile is created ${mode:-not at all} (want 644)"
fi

exit "$failed"
