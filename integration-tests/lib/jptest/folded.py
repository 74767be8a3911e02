"""Folded profiles (`frame;frame;... VALUE` per line, as `jp report --format folded` and the counting
oracle write them) and the comparison of JP's with the oracle's."""
import re

PRIMITIVES = {"void": "V", "boolean": "Z", "byte": "B", "char": "C", "short": "S", "int": "I",
              "long": "J", "float": "F", "double": "D"}
_SIGNATURE = re.compile(r"\(([^()]*)\):([^():]*)$")
_VALUE = re.compile(r" ([0-9]+)$")
# A context split by call site ends its frame with the site: ` @ line 42` or ` @ bci 7`.
_SITE = re.compile(r" @ (?:line|bci) [0-9]+$")


def split_line(line):
    """A line's context and its value, as written (`a;b 12` is `a;b` and `12`)."""
    match = _VALUE.search(line)
    if not match:
        return line, ""
    return line[:match.start()], match.group(1)


def context_key(line):
    """A line's context as the oracle checks name it: its words but the last, one space apart."""
    return " ".join(line.split()[:-1])


def descriptor(java_type):
    """A Java type as a JVMS field descriptor: `java.lang.String[]` is `[Ljava/lang/String;`."""
    dims = ""
    while java_type.endswith("[]"):
        dims += "["
        java_type = java_type[:-2]
    if java_type in PRIMITIVES:
        return dims + PRIMITIVES[java_type]
    return f"{dims}L{java_type.replace('.', '/')};"


def jvm_frame(frame):
    """A frame whose Java signature (`m(java.lang.String[],int):void`) is written as the JVMS
    descriptor the oracle prints (`m([Ljava/lang/String;I)V`), a call site kept after it; other
    frames as they are."""
    site = _SITE.search(frame)
    method, suffix = (frame[:site.start()], site.group(0)) if site else (frame, "")
    match = _SIGNATURE.search(method)
    if not match:
        return frame
    parameters = "".join(descriptor(p) for p in match.group(1).split(",") if match.group(1))
    return f"{method[:match.start()]}({parameters}){descriptor(match.group(2))}{suffix}"


def jvm_names(line):
    """A folded line of JP's with every frame as the oracle names it (jvm_frame)."""
    stack, value = split_line(line)
    return ";".join(jvm_frame(frame) for frame in stack.split(";")) + " " + value


def nonzero(lines):
    """The lines whose value is not 0, sorted bytewise (the oracle lists contexts of 0, JP does not)."""
    return sorted((line for line in lines if line.split() and int(line.split()[-1]) != 0),
                  key=lambda line: line.encode(errors="surrogateescape"))


def lower_than(jp_lines, oracle_lines):
    """The oracle's contexts where JP's value is lower, or missing, as `context jp=N oracle=M`."""
    jp = {context_key(line): line.split()[-1] for line in jp_lines if line.split()}
    lower = []
    for line in oracle_lines:
        if not line.split():
            continue
        key, value = context_key(line), line.split()[-1]
        if key not in jp or int(jp[key]) < int(value):
            lower.append(f"{key} jp={jp.get(key, 'missing')} oracle={value}")
    return lower


def value(lines, context):
    """The value on the line of exactly CONTEXT, or `missing`."""
    for line in lines:
        if line.split() and context_key(line) == context:
            return line.split()[-1]
    return "missing"


def _number(word):
    return int(word) if word.isdigit() else 0


def total(lines, context=None):
    """The sum of the values of every line, or of the lines of exactly CONTEXT."""
    return sum(_number(line.split()[-1]) for line in lines
               if line.split() and (context is None or context_key(line) == context))


def total_ending_with(lines, frame):
    """The sum of the values of the lines whose context's last frame is FRAME."""
    found = 0
    for line in lines:
        stack, value = split_line(line)
        if value and stack.split(";")[-1] == frame:
            found += int(value)
    return found


def summed(lines):
    """The lines with equal contexts made one, their values added, sorted bytewise: several
    profiles' folded lines as one merged profile of them has them."""
    sums = {}
    for line in lines:
        stack, value = split_line(line)
        if value:
            sums[stack] = sums.get(stack, 0) + int(value)
    return sorted((f"{stack} {value}" for stack, value in sums.items()),
                  key=lambda line: line.encode(errors="surrogateescape"))


def read(path):
    """The lines of the folded file at PATH; none when it is missing."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as file:
            return file.read().splitlines()
    except FileNotFoundError:
        return []
