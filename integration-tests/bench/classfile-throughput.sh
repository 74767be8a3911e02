#!/usr/bin/env bash
# Throughput benchmark of jp-classfile: parse, parse + lazy write, parse + deep re-encode, on one core
# and on all cores, side by side with ristretto_classfile and cafebabe. See README.md beside this file.
#
# Builds classfile-throughput/ (its own Cargo workspace, release, thin LTO) into ${JP_BENCH_TARGET_DIR:-
# <repo>/target/bench}, so it never touches the main build's target directory, then runs it with this
# script's arguments: [--min-time SECS] [--min-iters N] [PATH...]. Without PATH it reads java.base.jmod
# of the JDK 17 in JAVA_HOME or /usr/lib/jvm/java-17-openjdk-amd64.
# Exits as the benchmark does: 0 done, 1 JP did not give a class back identically, 2 could not run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${JP_BENCH_TARGET_DIR:-$root/target/bench}
case $target in /*) ;; *) target=$PWD/$target ;; esac

printf 'classfile-throughput.sh: building (cargo build --release, target dir %s)\n' "$target" >&2
cargo build --release --quiet \
    --manifest-path "$here/classfile-throughput/Cargo.toml" \
    --target-dir "$target" \
    || { printf 'classfile-throughput.sh: cargo build failed\n' >&2; exit 2; }

exec "$target/release/classfile-throughput" "$@"
