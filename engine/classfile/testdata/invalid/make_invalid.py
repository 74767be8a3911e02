#!/usr/bin/env python3
"""Writes the broken class files of this folder, one `<defect>.clazz` per defect.

Each starts from the same hand-assembled class, shown below field by field, and breaks exactly one
thing, so the expected message in `<defect>.stderr` can be checked against this listing. Run by
../build.sh; the `.stderr` files are written by `BLESS=1 cargo test -p jp-classfile --test invalid`.
"""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def u1(v):
    return struct.pack(">B", v)


def u2(v):
    return struct.pack(">H", v)


def u4(v):
    return struct.pack(">I", v)


def utf8(s):
    data = s if isinstance(s, bytes) else s.encode()
    return u1(1) + u2(len(data)) + data


# The constant pool of `class Hello { Hello() { super(); } }`, plus a MethodHandle and a Long.
POOL = [
    utf8("Hello"),                      # 1
    u1(7) + u2(1),                      # 2  Class Hello
    utf8("java/lang/Object"),           # 3
    u1(7) + u2(3),                      # 4  Class java/lang/Object
    utf8("<init>"),                     # 5
    utf8("()V"),                        # 6
    u1(12) + u2(5) + u2(6),             # 7  NameAndType <init>:()V
    u1(10) + u2(4) + u2(7),             # 8  Methodref java/lang/Object.<init>:()V
    utf8("Code"),                       # 9
    u1(15) + u1(8) + u2(8),             # 10 MethodHandle REF_newInvokeSpecial #8
    utf8("SourceFile"),                 # 11
    utf8("Hello.java"),                 # 12
    u1(5) + struct.pack(">q", 42),      # 13 Long 42 (and 14, unusable)
]


def pool_count(pool):
    """constant_pool_count: one more than the slots used; a Long or Double takes two."""
    return 1 + sum(2 if entry[0] in (5, 6) else 1 for entry in pool)


def code_attribute(code=b"\x2a\xb7\x00\x08\xb1", max_stack=1, max_locals=1, nested=None):
    """A Code attribute (name #9): aload_0; invokespecial #8; return; with `nested` attributes."""
    nested = nested or []
    info = u2(max_stack) + u2(max_locals) + u4(len(code)) + code + u2(0)
    info += u2(len(nested)) + b"".join(nested)
    return u2(9) + u4(len(info)) + info


def attribute(name_index, info):
    """An attribute_info with the given name and info."""
    return u2(name_index) + u4(len(info)) + info


def with_init(code):
    """A methods table holding just <init>()V with this Code attribute."""
    return u2(1) + u2(0x0001) + u2(5) + u2(6) + u2(1) + code


# Attribute names appended to the pool for the defects inside typed attributes.
TYPED_POOL = POOL + [
    utf8("StackMapTable"),                 # 15
    utf8("RuntimeVisibleAnnotations"),     # 16
    utf8("RuntimeVisibleTypeAnnotations"), # 17
    utf8("LHello;"),                       # 18
]


def assemble(
    magic=0xCAFEBABE,
    minor=0,
    major=52,
    pool=None,
    count=None,
    this_class=2,
    super_class=4,
    interfaces=b"\x00\x00",
    methods=None,
    attributes=None,
):
    """The class file, with any part replaced."""
    pool = POOL if pool is None else pool
    if methods is None:
        # <init>()V, public, with its Code.
        methods = with_init(code_attribute())
    if attributes is None:
        # SourceFile "Hello.java"
        attributes = u2(1) + u2(11) + u4(2) + u2(12)
    return (
        u4(magic)
        + u2(minor)
        + u2(major)
        + u2(pool_count(pool) if count is None else count)
        + b"".join(pool)
        + u2(0x0021)
        + u2(this_class)
        + u2(super_class)
        + interfaces
        + u2(0)  # fields_count
        + methods
        + attributes
    )


def replaced(pool, index, entry):
    """`pool` with the entry at 1-based `index` replaced."""
    pool = list(pool)
    pool[index - 1] = entry
    return pool


VALID = assemble()

DEFECTS = {
    # The header.
    "empty": b"",
    "truncated_magic": VALID[:3],
    "bad_magic": assemble(magic=0xCAFEBABF),
    "future_version_70": assemble(major=70),
    "ancient_version_44": assemble(major=44),
    "truncated_in_constant_pool": VALID[:40],
    "truncated_in_method": VALID[: len(VALID) - 12],
    # The constant pool.
    "zero_constant_pool_count": assemble(count=0),
    "unknown_constant_tag": assemble(pool=replaced(POOL, 3, u1(2) + u2(0))),
    "utf8_length_past_end": assemble(pool=replaced(POOL, 12, u1(1) + u2(0xFFFF) + b"Hello.java")),
    "long_at_last_slot": assemble(count=pool_count(POOL) - 1),
    "class_name_out_of_range": assemble(pool=replaced(POOL, 2, u1(7) + u2(999))),
    "class_name_not_utf8": assemble(pool=replaced(POOL, 2, u1(7) + u2(4))),
    "class_name_in_second_slot_of_long": assemble(pool=replaced(POOL, 2, u1(7) + u2(14))),
    "methodref_to_a_utf8": assemble(pool=replaced(POOL, 8, u1(10) + u2(4) + u2(6))),
    "bad_method_handle_kind": assemble(pool=replaced(POOL, 10, u1(15) + u1(10) + u2(8))),
    "method_handle_kind_zero": assemble(pool=replaced(POOL, 10, u1(15) + u1(0) + u2(8))),
    "method_handle_to_a_class": assemble(pool=replaced(POOL, 10, u1(15) + u1(8) + u2(4))),
    "method_handle_get_field_to_a_methodref": assemble(
        pool=replaced(POOL, 10, u1(15) + u1(1) + u2(8))
    ),
    # After the pool.
    "this_class_out_of_range": assemble(this_class=999),
    "this_class_zero": assemble(this_class=0),
    "this_class_not_a_class": assemble(this_class=1),
    "super_class_is_the_long": assemble(super_class=13),
    "forged_interfaces_count": assemble(interfaces=u2(0x7FFF)),
    "forged_methods_count": assemble(methods=u2(0xFFFF) + u2(0x0001) + u2(5) + u2(6) + u2(0)),
    "method_name_not_utf8": assemble(methods=u2(1) + u2(0x0001) + u2(2) + u2(6) + u2(0)),
    "attribute_name_not_utf8": assemble(attributes=u2(1) + u2(13) + u4(2) + u2(12)),
    "attribute_length_past_end": assemble(attributes=u2(1) + u2(11) + u4(0x10000) + u2(12)),
    "forged_attributes_count": assemble(attributes=u2(0xFFFF) + u2(11) + u4(2) + u2(12)),
    "trailing_bytes": VALID + b"\x00\x00",
    # Inside typed attributes: the structure parses, the attribute's own contents do not.
    "code_length_zero": assemble(methods=with_init(code_attribute(code=b""))),
    "code_length_past_attribute": assemble(
        methods=u2(1)
        + u2(0x0001)
        + u2(5)
        + u2(6)
        + u2(1)
        + u2(9)
        + u4(17)
        + u2(1)
        + u2(1)
        + u4(1000)
        + b"\x2a\xb7\x00\x08\xb1\x00\x00\x00\x00"
    ),
    "source_file_too_long": assemble(attributes=u2(1) + u2(11) + u4(4) + u2(12) + u2(0)),
    "unknown_stack_map_frame_type": assemble(
        pool=TYPED_POOL,
        methods=with_init(code_attribute(nested=[attribute(15, u2(1) + u1(200))])),
    ),
    "unknown_element_value_tag": assemble(
        pool=TYPED_POOL,
        # one annotation of type #18 with one pair, name #5, value tag 'Q'
        attributes=u2(1) + attribute(16, u2(1) + u2(18) + u2(1) + u2(5) + b"Q" + u2(12)),
    ),
    "unknown_type_annotation_target": assemble(
        pool=TYPED_POOL,
        # one type annotation with target_type 0x99
        attributes=u2(1) + attribute(17, u2(1) + u1(0x99) + u1(0) + u2(18) + u2(0)),
    ),
}


def main():
    for old in os.listdir(HERE):
        if old.endswith(".clazz"):
            os.remove(os.path.join(HERE, old))
    for name, data in sorted(DEFECTS.items()):
        with open(os.path.join(HERE, name + ".clazz"), "wb") as f:
            f.write(data)
    # The unbroken class, so the tests can check that it alone is fine.
    with open(os.path.join(HERE, "baseline.class"), "wb") as f:
        f.write(VALID)


if __name__ == "__main__":
    main()
