//! Hand-assembled class files for unit tests.

use crate::attributes::AttributeInfo;
use crate::reader::{ByteSink, Reader};
use crate::{ConstantPool, Result};

/// Parses `info` as a whole attribute of type `T` (nothing may be left),
/// reporting offsets as if it stood at 0x200 in a file.
pub(crate) fn parse_info<'a, T: AttributeInfo<'a>>(info: &'a [u8], pool: &ConstantPool<'a>) -> Result<T> {
    let mut r = Reader::new(info, 0x200);
    let parsed = T::parse(&mut r, pool)?;
    r.expect_end("attribute")?;
    Ok(parsed)
}

/// The `info` bytes of `attribute`.
pub(crate) fn encoded<'a, T: AttributeInfo<'a>>(attribute: &T) -> Vec<u8> {
    let mut out = Vec::new();
    attribute.encode(&mut out);
    out
}

/// `class Hello { Hello() { super(); } }` compiled for `major`, with its
/// pool written out by hand so that tests do not depend on the writer.
pub(crate) fn minimal_class(major: u16) -> Vec<u8> {
    let mut out = Vec::new();
    out.put_u4(0xCAFE_BABE);
    out.put_u2(0);
    out.put_u2(major);
    let utf8 = |out: &mut Vec<u8>, s: &str| {
        out.put_u1(1);
        out.put_u2(s.len() as u16);
        out.put_bytes(s.as_bytes());
    };
    out.put_u2(12); // constant_pool_count: #10-#11 is a long
    utf8(&mut out, "Hello"); // #1
    out.put_bytes(&[7, 0, 1]); // #2 Class Hello
    utf8(&mut out, "java/lang/Object"); // #3
    out.put_bytes(&[7, 0, 3]); // #4 Class java/lang/Object
    utf8(&mut out, "<init>"); // #5
    utf8(&mut out, "()V"); // #6
    out.put_bytes(&[12, 0, 5, 0, 6]); // #7 NameAndType <init>:()V
    out.put_bytes(&[10, 0, 4, 0, 7]); // #8 Methodref Object.<init>
    utf8(&mut out, "Code"); // #9
    out.put_bytes(&[5, 0, 0, 0, 0, 0, 0, 0, 42]); // #10 Long 42, #11 unusable
    out.put_u2(0x0021); // ACC_PUBLIC | ACC_SUPER
    out.put_u2(2); // this_class
    out.put_u2(4); // super_class
    out.put_u2(0); // interfaces
    out.put_u2(0); // fields
    out.put_u2(1); // methods
    out.put_u2(0x0001);
    out.put_u2(5);
    out.put_u2(6);
    out.put_u2(1); // attributes_count
    out.put_u2(9); // Code
    let code = [0x2A, 0xB7, 0x00, 0x08, 0xB1]; // aload_0; invokespecial #8; return
    out.put_u4(12 + code.len() as u32);
    out.put_u2(1); // max_stack
    out.put_u2(1); // max_locals
    out.put_u4(code.len() as u32);
    out.put_bytes(&code);
    out.put_u2(0); // exception_table_length
    out.put_u2(0); // attributes_count
    out.put_u2(0); // class attributes_count
    out
}
