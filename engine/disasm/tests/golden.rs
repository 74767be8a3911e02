//! The dump of a small class assembled here, against
//! `tests/golden/<name>.txt`. `BLESS=1 cargo test -p jp-disasm` rewrites
//! the expected files.

use std::fs;
use std::path::Path;

use jp_classfile::{ByteSink, ClassFile};
use jp_disasm::{class_text, Options};

/// `public class Hello { static final int ANSWER = 42; public Hello() { super(); } }`
/// from `Hello.java`, its constant pool written out by hand.
fn hello() -> Vec<u8> {
    let mut out = Vec::new();
    let utf8 = |out: &mut Vec<u8>, s: &str| {
        out.put_u1(1);
        out.put_u2(s.len() as u16);
        out.put_bytes(s.as_bytes());
    };
    out.put_u4(0xCAFE_BABE);
    out.put_u2(0); // minor_version
    out.put_u2(52); // major_version
    out.put_u2(17); // constant_pool_count
    utf8(&mut out, "Hello"); // #1
    out.put_bytes(&[7, 0, 1]); // #2 Class Hello
    utf8(&mut out, "java/lang/Object"); // #3
    out.put_bytes(&[7, 0, 3]); // #4 Class java/lang/Object
    utf8(&mut out, "<init>"); // #5
    utf8(&mut out, "()V"); // #6
    out.put_bytes(&[12, 0, 5, 0, 6]); // #7 NameAndType <init>:()V
    out.put_bytes(&[10, 0, 4, 0, 7]); // #8 Methodref java/lang/Object.<init>:()V
    utf8(&mut out, "Code"); // #9
    utf8(&mut out, "ANSWER"); // #10
    utf8(&mut out, "I"); // #11
    utf8(&mut out, "ConstantValue"); // #12
    out.put_bytes(&[3, 0, 0, 0, 42]); // #13 Integer 42
    utf8(&mut out, "SourceFile"); // #14
    utf8(&mut out, "Hello.java"); // #15
    utf8(&mut out, "Unknown"); // #16
    out.put_u2(0x0021); // ACC_PUBLIC | ACC_SUPER
    out.put_u2(2); // this_class
    out.put_u2(4); // super_class
    out.put_u2(0); // interfaces_count
    out.put_u2(1); // fields_count
    out.put_u2(0x0018); // ACC_STATIC | ACC_FINAL
    out.put_u2(10);
    out.put_u2(11);
    out.put_u2(1); // attributes_count
    out.put_u2(12); // ConstantValue
    out.put_u4(2);
    out.put_u2(13);
    out.put_u2(1); // methods_count
    out.put_u2(0x0001); // ACC_PUBLIC
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
    out.put_u2(2); // attributes_count
    out.put_u2(14); // SourceFile
    out.put_u4(2);
    out.put_u2(15);
    out.put_u2(16); // an attribute JP does not know, shown by name and size only
    out.put_u4(3);
    out.put_bytes(&[1, 2, 3]);
    out
}

/// Compares `actual` with `tests/golden/<name>.txt`, or writes it there with `BLESS=1`.
fn check_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.txt"));
    if std::env::var_os("BLESS").is_some() {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        actual,
        expected,
        "{} differs (BLESS=1 rewrites it)",
        path.display()
    );
}

#[test]
fn a_small_class_dumps_its_header_pool_members_and_attributes() {
    let bytes = hello();
    let class = ClassFile::parse(&bytes).unwrap();
    check_golden("hello", &class_text(&class, Options { constants: true }));
}

#[test]
fn without_constants_the_pool_is_one_line() {
    let bytes = hello();
    let class = ClassFile::parse(&bytes).unwrap();
    check_golden("hello-no-constants", &class_text(&class, Options::default()));
}
