//! A hand-assembled class with one method, for the tests of the body and
//! its encoding.

use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{ByteSink, ClassFile, CpIndex};

use super::MethodBody;

/// `class T { static int m(int) }` with the given code and frames,
/// assembled by hand.
pub(crate) fn class_with_method(
    code: &[u8],
    max_stack: u16,
    max_locals: u16,
    frames: Option<&[u8]>,
) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u4(0xCAFE_BABE);
    out.put_u2(0);
    out.put_u2(52);
    let strings = ["T", "java/lang/Object", "m", "(I)I", "Code", "StackMapTable"];
    out.put_u2(1 + strings.len() as u16 + 2);
    for s in strings {
        out.put_u1(1);
        out.put_u2(s.len() as u16);
        out.put_bytes(s.as_bytes());
    }
    out.put_bytes(&[7, 0, 1, 7, 0, 2]); // #7 Class T, #8 Class Object
    out.put_u2(0x0021);
    out.put_u2(7);
    out.put_u2(8);
    out.put_u2(0);
    out.put_u2(0);
    out.put_u2(1);
    out.put_u2(0x0008); // static
    out.put_u2(3);
    out.put_u2(4);
    out.put_u2(1);
    let mut info = Vec::new();
    info.put_u2(max_stack);
    info.put_u2(max_locals);
    info.put_u4(code.len() as u32);
    info.put_bytes(code);
    info.put_u2(0);
    match frames {
        Some(table) => {
            info.put_u2(1);
            jp_classfile::encode_attribute(&mut info, CpIndex(6), table);
        }
        None => info.put_u2(0),
    }
    jp_classfile::encode_attribute(&mut out, CpIndex(5), &info);
    out.put_u2(0);
    out
}

/// `while (x > 0) x--; return x;` with its two frames.
pub(crate) const LOOP: &[u8] = &[
    0x1a, // 0: iload_0
    0x9e, 0, 9, // 1: ifle 10
    0x84, 0, 0xff, // 4: iinc 0, -1
    0xa7, 0xff, 0xf9, // 7: goto 0
    0x1a, // 10: iload_0
    0xac, // 11: ireturn
];
pub(crate) const LOOP_FRAMES: &[u8] = &[0, 2, 0, 9];

pub(crate) fn with_body<T>(bytes: &[u8], f: impl FnOnce(&ClassFile<'_>, MethodBody<'_>) -> T) -> T {
    let class = ClassFile::parse(bytes).unwrap();
    let method = &class.methods[0];
    let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
    let body = MethodBody::open(&class, method, &code).unwrap();
    f(&class, body)
}
