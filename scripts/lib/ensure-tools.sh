# Shared by .ci/run, scripts/demo.sh, integration-tests/run.sh and the benchmarks' launchers
# (integration-tests/perf/run.sh, integration-tests/bench/): installs the tools a command needs when
# they are missing, so that each of them works on a fresh Debian machine.
# shellcheck shell=bash

# ensure_tools TOOL...: makes each TOOL available, installing only what is missing:
#   jdk        a JDK 17 with its jmods (openjdk-17-jdk-headless)
#   maven      mvn
#   gradle     gradle (Debian's 4.4.1, the oldest Gradle the plugin supports)
#   cc         a C compiler and libc headers, for cargo's linker and the oracle's JVMTI agent
#   git        git
#   python3    Python 3, in which the integration suites' logic is written (integration-tests/lib)
#   time       GNU time (/usr/bin/time), for the CPU seconds of the instrument benchmark's runs
#   chromium   Debian's Chromium, driven by the reports suite
#   node       node and npm, for the reports suite's playwright-core and speedscope
#   go         the Go toolchain (golang-go), whose `go tool pprof` reads the reports suite's pprof files
#   cargo      a Rust toolchain: never installed here (rustup's is needed), only found or asked for
#   rustfmt    cargo fmt (a rustup component)
#   clippy     cargo clippy (a rustup component)
#   cross      what cross-builds the engine for every platform (docs/release.md): the rustup
#              targets, and cargo-zigbuild with Zig from PyPI (pinned) in a virtual environment
#              under $JP_CACHE_DIR/cross/venv (default ~/.cache/jp), whose bin/ is exported as
#              JP_CROSS_BIN (not put on PATH: its python3 would shadow the system's)
#   qemu-arm64 qemu-aarch64 and Debian's arm64 C library, to run Linux arm64 programs
#   wine       wine64, to run Windows x86_64 programs
# Debian packages are installed with one `apt-get update` and one `apt-get install`, as root or
# through sudo; without either, it lists the packages to install and fails. Prints nothing when
# nothing is missing. With JP_ENSURE_DRY_RUN=1 it installs nothing: it prints what it would run
# and ends the calling script (exit 0), so that a check can run a command's set-up step alone.
ensure_tools() {
    local tool packages=() components=() sudo=() dry=${JP_ENSURE_DRY_RUN:-0}
    _ensure_cargo_path
    for tool in "$@"; do
        case $tool in
            jdk)
                if ! command -v javac >/dev/null 2>&1 || ! _has_jmods; then packages+=(openjdk-17-jdk-headless); fi ;;
            maven) command -v mvn >/dev/null 2>&1 || packages+=(maven) ;;
            gradle) command -v gradle >/dev/null 2>&1 || packages+=(gradle) ;;
            cc) command -v cc >/dev/null 2>&1 || packages+=(gcc libc6-dev) ;;
            git) command -v git >/dev/null 2>&1 || packages+=(git) ;;
            python3) command -v python3 >/dev/null 2>&1 || packages+=(python3) ;;
            time) [[ -x /usr/bin/time ]] || packages+=(time) ;;
            chromium) command -v chromium >/dev/null 2>&1 || packages+=(chromium) ;;
            go) command -v go >/dev/null 2>&1 || packages+=(golang-go) ;;
            node) if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then packages+=(nodejs npm); fi ;;
            cross) python3 -c 'import ensurepip' >/dev/null 2>&1 || packages+=(python3-venv) ;;
            qemu-arm64)
                command -v qemu-aarch64 >/dev/null 2>&1 || packages+=(qemu-user)
                [[ -f /usr/aarch64-linux-gnu/lib/libc.so.6 ]] || packages+=(libc6-arm64-cross)
                [[ -f /usr/aarch64-linux-gnu/lib/libgcc_s.so.1 ]] || packages+=(libgcc-s1-arm64-cross) ;;
            wine) [[ -x /usr/lib/wine/wine64 ]] || packages+=(wine64) ;;
            cargo | rustfmt | clippy) ;;
            *) echo "ensure_tools: no tool '$tool'" >&2; return 2 ;;
        esac
    done
    if ((${#packages[@]} > 0)); then
        # One package may be asked for twice (a JDK without jmods and no javac at all).
        # mapfile, not read: read fails at the end of its input, which stops a caller under set -e.
        mapfile -t packages < <(printf '%s\n' "${packages[@]}" | awk '!seen[$0]++')
        if ((dry)); then
            echo "ensure_tools: would run: apt-get update && apt-get install -y --no-install-recommends ${packages[*]}"
        else
            if ((EUID != 0)); then
                if ! command -v sudo >/dev/null 2>&1; then
                    echo "ensure_tools: missing, and not root nor sudo to install them: ${packages[*]}" >&2
                    echo "ensure_tools: install them (apt-get install ${packages[*]}) and run this again" >&2
                    return 1
                fi
                sudo=(sudo)
            fi
            echo "ensure_tools: installing ${packages[*]}"
            "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
                "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
                    apt-get install -y -q --no-install-recommends "${packages[@]}" || return
        fi
    fi
    _ensure_rust "$dry" "$@" || return
    _ensure_cross "$dry" "$@" || return
    if ((dry)); then
        echo "ensure_tools: dry run (JP_ENSURE_DRY_RUN=1), nothing installed"
        exit 0
    fi
}

# Whether the JDK that `java` belongs to, or JAVA_HOME, or Debian's JDK 17 has jmods.
_has_jmods() {
    local home
    home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    [[ -f $home/jmods/java.base.jmod || -f ${JAVA_HOME:-/nonexistent}/jmods/java.base.jmod ||
        -f /usr/lib/jvm/java-17-openjdk-amd64/jmods/java.base.jmod ]]
}

# rustup's toolchain may be installed but not on a non-login shell's PATH.
_ensure_cargo_path() {
    local bin
    for bin in "${CARGO_HOME:-$HOME/.cargo}/bin" /usr/local/cargo/bin; do
        if [[ -d $bin && ":$PATH:" != *":$bin:"* ]]; then PATH=$bin:$PATH; fi
    done
    export PATH
}

# The cross-build toolchain's pinned versions and targets; docs/release.md says why these. The
# targets are the released platforms' (`jp-dist released`, which the cross suite compares).
JP_CARGO_ZIGBUILD_VERSION=0.24.0
JP_ZIG_VERSION=0.16.0
JP_CROSS_TARGETS=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-apple-darwin
    aarch64-apple-darwin x86_64-pc-windows-gnu)

# _ensure_cross DRY TOOL...: for `cross`, the rustup targets and a virtual environment holding the
# pinned cargo-zigbuild and Zig; its bin/ is exported as JP_CROSS_BIN.
_ensure_cross() {
    local dry=$1 venv installed target missing=()
    [[ " ${*:2} " == *" cross "* ]] || return 0
    venv=${JP_CACHE_DIR:-$HOME/.cache/jp}/cross/venv
    installed=$(rustup target list --installed 2>/dev/null)
    for target in "${JP_CROSS_TARGETS[@]}"; do
        grep -qx "$target" <<<"$installed" || missing+=("$target")
    done
    if [[ $("$venv/bin/cargo-zigbuild" --version 2>/dev/null) != "cargo-zigbuild $JP_CARGO_ZIGBUILD_VERSION" ||
        $("$venv/bin/python3" -m ziglang version 2>/dev/null) != "$JP_ZIG_VERSION" ]]; then
        if ((dry)); then
            echo "ensure_tools: would install cargo-zigbuild $JP_CARGO_ZIGBUILD_VERSION and ziglang $JP_ZIG_VERSION into $venv"
        else
            echo "ensure_tools: installing cargo-zigbuild $JP_CARGO_ZIGBUILD_VERSION and ziglang $JP_ZIG_VERSION into $venv"
            python3 -m venv --clear "$venv" &&
                "$venv/bin/pip" install -q --disable-pip-version-check \
                    "cargo-zigbuild==$JP_CARGO_ZIGBUILD_VERSION" "ziglang==$JP_ZIG_VERSION" || return
        fi
    fi
    if ((${#missing[@]} > 0)); then
        if ((dry)); then
            echo "ensure_tools: would run: rustup target add ${missing[*]}"
        else
            echo "ensure_tools: adding rustup targets ${missing[*]}"
            rustup target add "${missing[@]}" || return
        fi
    fi
    export JP_CROSS_BIN=$venv/bin
}

# _ensure_rust DRY TOOL...: cargo is needed by every Rust tool; rustfmt and clippy are added as
# rustup components.
_ensure_rust() {
    local dry=$1 tool components=() needs_cargo=0
    shift
    for tool in "$@"; do
        case $tool in
            cargo) needs_cargo=1 ;;
            rustfmt) needs_cargo=1; cargo fmt --version >/dev/null 2>&1 || components+=(rustfmt) ;;
            clippy) needs_cargo=1; cargo clippy --version >/dev/null 2>&1 || components+=(clippy) ;;
        esac
    done
    ((needs_cargo)) || return 0
    if ! command -v cargo >/dev/null 2>&1; then
        echo "ensure_tools: no cargo on PATH; JP needs a Rust toolchain installed with rustup (https://rustup.rs)" >&2
        return 2
    fi
    ((${#components[@]} > 0)) || return 0
    if ((dry)); then
        echo "ensure_tools: would run: rustup component add ${components[*]}"
    else
        echo "ensure_tools: adding rustup components ${components[*]}"
        rustup component add "${components[@]}"
    fi
}
