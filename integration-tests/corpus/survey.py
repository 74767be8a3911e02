#!/usr/bin/env python3
"""Survey the round-trip corpus: prints the Markdown table that README.md beside this file shows.

For every jar in the corpus directory it counts the class files (multi-release entries under
META-INF/versions/ included), the range of their major versions, and the methods whose Code uses
jsr, jsr_w or ret (JVMS 6.5; legal only below major 51). The bytecode walk is independent of JP:
it only knows instruction lengths, so it is a cross-check, not a second implementation.

Usage: survey.py [CORPUS_DIR]   (default: ${JP_CORPUS_DIR:-~/.cache/jp/corpus})
"""

import os
import struct
import sys
import zipfile

JSR, RET, JSR_W, WIDE, TABLESWITCH, LOOKUPSWITCH = 0xA8, 0xA9, 0xC9, 0xC4, 0xAA, 0xAB

# Operand byte counts for every opcode of fixed length (JVMS 6.5); switches and wide are special.
OPERANDS = [0] * 256
for ops, n in (
    ((0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3A, 0xA9, 0xBC), 1),
    ((0x11, 0x13, 0x14, 0x84, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xBB, 0xBD, 0xC0, 0xC1), 2),
    (tuple(range(0x99, 0xA9)) + (0xC6, 0xC7), 2),  # if<cond>, if_<cmp>, goto, jsr, ifnull, ifnonnull
    ((0xC5,), 3),  # multianewarray
    ((0xB9, 0xBA, 0xC8, 0xC9), 4),  # invokeinterface, invokedynamic, goto_w, jsr_w
):
    for op in ops:
        OPERANDS[op] = n


def code_uses_jsr(code):
    """True when the bytecode contains jsr, jsr_w or ret (plain or wide)."""
    pc = 0
    while pc < len(code):
        op = code[pc]
        if op in (JSR, RET, JSR_W):
            return True
        if op == WIDE:
            if code[pc + 1] == RET:
                return True
            pc += 6 if code[pc + 1] == 0x84 else 4
        elif op == TABLESWITCH:
            base = pc + 1 + (3 - pc % 4)
            low, high = struct.unpack_from(">ii", code, base + 4)
            pc = base + 12 + 4 * (high - low + 1)
        elif op == LOOKUPSWITCH:
            base = pc + 1 + (3 - pc % 4)
            (npairs,) = struct.unpack_from(">i", code, base + 4)
            pc = base + 8 + 8 * npairs
        else:
            pc += 1 + OPERANDS[op]
    return False


def survey_class(data):
    """Returns (major, number of methods whose Code uses jsr/ret)."""
    major = struct.unpack_from(">H", data, 6)[0]
    count = struct.unpack_from(">H", data, 8)[0]
    pos, index, utf8 = 10, 1, {}
    while index < count:
        tag = data[pos]
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, pos + 1)
            utf8[index] = data[pos + 3 : pos + 3 + length]
            pos += 3 + length
        elif tag in (5, 6):
            pos += 9
            index += 1
        elif tag in (7, 8, 16, 19, 20):
            pos += 3
        elif tag == 15:
            pos += 4
        else:  # 3, 4, 9, 10, 11, 12, 17, 18
            pos += 5
        index += 1
    (interfaces,) = struct.unpack_from(">H", data, pos + 6)
    pos += 8 + 2 * interfaces
    jsr_methods = 0
    for kind in ("field", "method"):
        (members,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(members):
            (attributes,) = struct.unpack_from(">H", data, pos + 6)
            pos += 8
            for _ in range(attributes):
                name, length = struct.unpack_from(">HI", data, pos)
                if kind == "method" and utf8.get(name) == b"Code":
                    (code_length,) = struct.unpack_from(">I", data, pos + 10)
                    if code_uses_jsr(data[pos + 14 : pos + 14 + code_length]):
                        jsr_methods += 1
                pos += 6 + length
    return major, jsr_methods


def main():
    default = os.path.join(os.path.expanduser("~"), ".cache", "jp", "corpus")
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("JP_CORPUS_DIR", default)
    print("| jar | classes | major min–max | majors present | methods with jsr/ret |")
    print("| --- | ---: | --- | --- | ---: |")
    totals = [0, set(), 0]
    jars = sorted(f for f in os.listdir(corpus) if f.endswith(".jar"))
    for jar in jars:
        majors, classes, jsr = set(), 0, 0
        with zipfile.ZipFile(os.path.join(corpus, jar)) as z:
            for entry in z.namelist():
                if entry.endswith(".class"):
                    major, n = survey_class(z.read(entry))
                    majors.add(major)
                    classes += 1
                    jsr += n
        totals[0] += classes
        totals[1] |= majors
        totals[2] += jsr
        present = ", ".join(str(m) for m in sorted(majors))
        print(f"| {jar} | {classes} | {min(majors)}–{max(majors)} | {present} | {jsr or 'no'} |")
    present = ", ".join(str(m) for m in sorted(totals[1]))
    print(f"| **all {len(jars)} jars** | {totals[0]} | "
          f"{min(totals[1])}–{max(totals[1])} | {present} | {totals[2]} |")


if __name__ == "__main__":
    main()
