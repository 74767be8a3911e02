//! What the profile modules' tests share: a test class rewritten, and
//! a method's instructions before and after.

use jp_bytecode::insn::Insn;
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::ClassFile;

use super::{profile_class, ProfileOptions};

/// The test class `class` (a path under the test data) and its rewrite
/// with `options`, which must warn of nothing.
pub(super) fn rewritten(class: &str, options: &ProfileOptions) -> (Vec<u8>, Vec<u8>) {
    let original = jp_testdata::class(class);
    let rewritten = profile_class(&original, options).unwrap();
    assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
    let bytes = rewritten.bytes.unwrap();
    (original, bytes)
}

/// The instructions of the method `name` `descriptor` of `class`.
pub(super) fn instructions(class: &ClassFile<'_>, name: &[u8], descriptor: &[u8]) -> Vec<Insn> {
    let method = class
        .methods
        .iter()
        .find(|m| m.name == name && m.descriptor == descriptor)
        .unwrap();
    let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
    jp_bytecode::insn::decode(code.code).unwrap().insns
}
