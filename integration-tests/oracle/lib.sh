# Shared by selfcheck.sh and compare-jp.sh: the JDK, PASS/FAIL lines, reading folded profiles and the
# paper examples' numbers. Sourced, after setting `suite` (the name on the last line of the output)
# and `root` (the repository).

jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
javac=$jdk/bin/javac
[[ -x $javac ]] || javac=javac
export JAVA=${JAVA:-$jdk/bin/java}
[[ -x $JAVA ]] || JAVA=java

passed=0
failed=0
pass() {
    echo "PASS $*"
    passed=$((passed + 1))
}
fail() {
    echo "FAIL $*"
    failed=$((failed + 1))
}
# finish: the summary line, then exit 1 if anything failed.
finish() {
    echo "$suite: $passed passed, $failed failed"
    ((failed == 0))
    exit $?
}

# all_programs: the names of the programs in integration-tests/programs/demo, one per line.
all_programs() {
    local f
    for f in "$programs_dir"/demo/*.java; do
        f=${f##*/}
        echo "${f%.java}"
    done
}

# folded COMMAND FILE...: reads folded profiles (integration-tests/lib/jptest/folded.py lists the
# commands: jvm-names, nonzero, lower-than, value)
folded() { PYTHONPATH=$root/integration-tests/lib python3 -m jptest.folded "$@"; }

# value <file> <context>: the value on the line of exactly that context, or "missing"
value() { folded value "$1" "$2"; }

check_value() { # <label> <file> <context> <expected>
    local got
    got=$(value "$2" "$3")
    if [[ $got == "$4" ]]; then
        return 0
    fi
    echo "    $1: $3: expected $4, got $got"
    return 1
}

fig4_main='demo.Fig4.main([Ljava/lang/String;)V'
fig4_f='demo.Fig4.f()V' fig4_g='demo.Fig4.g(I)V' fig4_h='demo.Fig4.h()V'
fig5_main='demo.Fig5.main([Ljava/lang/String;)V'
fig5_A='demo.Fig5.A()V' fig5_B='demo.Fig5.B()V' fig5_C='demo.Fig5.C()V' fig5_D='demo.Fig5.D()V'

# check_paper <Program> <folded-prefix> <label>: for Fig4 and Fig5, asserts the paper numbers on
# <folded-prefix>.{calls,bytecodes}.folded; other programs are ignored.
check_paper() {
    local p=$1 out=$2 label=$3 ok=1 total
    case $p in
    Fig4)
        check_value "f" "$out.calls.folded" "$fig4_main;$fig4_f" 1 || ok=0
        check_value "f bytecodes" "$out.bytecodes.folded" "$fig4_main;$fig4_f" 106 || ok=0
        check_value "f.h" "$out.calls.folded" "$fig4_main;$fig4_f;$fig4_h" 10 || ok=0
        check_value "f.g" "$out.calls.folded" "$fig4_main;$fig4_f;$fig4_g" 10 || ok=0
        check_value "f.g.h" "$out.calls.folded" "$fig4_main;$fig4_f;$fig4_g;$fig4_h" 55 || ok=0
        if ((ok)); then
            pass "$label: JP Fig. 4: f = 1 (106 bytecodes), f.h = 10, f.g = 10, f.g.h = 55"
        else
            fail "$label: JP Fig. 4"
        fi
        ;;
    Fig5)
        total=$(awk '{ s += $NF } END { print s + 0 }' "$out.calls.folded")
        if [[ $total != 611 ]]; then
            echo "    total calls: expected 611, got $total"
            ok=0
        fi
        check_value "main.A.B.D" "$out.calls.folded" "$fig5_main;$fig5_A;$fig5_B;$fig5_D" 200 || ok=0
        check_value "main.A.C.D" "$out.calls.folded" "$fig5_main;$fig5_A;$fig5_C;$fig5_D" 100 || ok=0
        if ((ok)); then
            pass "$label: ProfBuilder Fig. 5: 611 calls, main.A.B.D = 200, main.A.C.D = 100"
        else
            fail "$label: ProfBuilder Fig. 5"
        fi
        ;;
    esac
}
