//! The constructor hook: every constructor of a class ends with a call of
//! a static method that receives the new object, `hook(this)`, on each of
//! its normal returns. A library's object can so be handed to code of
//! one's own as soon as it exists, without the library changing (JP's test
//! listeners reach JUnit 4's `RunNotifier` this way; docs/rewriting.md).
//!
//! The call goes right before each `return` of each `<init>`, where `this`
//! is initialised (JVMS §4.10.1.9, `return`: a constructor returns only
//! once `this` is). A constructor that delegates to another with
//! `this(...)` calls the hook too, after the other one did. Every other
//! method is copied byte for byte.

use jp_bytecode::opcode as op;
use jp_bytecode::{BytecodeError, Insn, MethodBody, Pc, Slot};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{mutf8, tag, ClassFile, ClassWriter, Member};

use crate::{with_code, RewriteError};

/// `<init>`, the name of every constructor (JVMS §2.9.1).
const CONSTRUCTOR: &[u8] = b"<init>";

/// The static method that constructors call: `owner.name(L<class>;)V`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticHook {
    /// Internal name of the class that declares it (`org/jpprof/junit/JUnit4Hook`).
    pub owner: String,
    /// The method's name (`attach`).
    pub name: String,
}

impl StaticHook {
    /// The hook's descriptor for objects of `class` (an internal name):
    /// one parameter of that class, no result.
    pub fn descriptor_for(class: &[u8]) -> Vec<u8> {
        let mut descriptor = b"(L".to_vec();
        descriptor.extend_from_slice(class);
        descriptor.extend_from_slice(b";)V");
        descriptor
    }
}

/// Why a class could not get its constructor hook.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    /// The class file does not parse, or cannot be written.
    #[error(transparent)]
    Class(#[from] RewriteError),
    /// The class has no constructor with code (an interface).
    #[error("{class} has no constructor to hook")]
    NoConstructor {
        /// Internal name of the class.
        class: String,
    },
    /// A constructor's code could not be decoded or laid out again.
    #[error("{class}.{method}")]
    Code {
        /// Internal name of the class.
        class: String,
        /// `<init>(descriptor)`.
        method: String,
        /// What went wrong.
        #[source]
        source: BytecodeError,
    },
}

/// `bytes` with every constructor calling `hook(this)` before it returns.
///
/// # Errors
/// A malformed class, a class without constructors, or constructor code
/// that cannot be rewritten (for example, code past 65535 bytes).
pub fn hook_constructors(bytes: &[u8], hook: &StaticHook) -> Result<Vec<u8>, HookError> {
    let class = ClassFile::parse(bytes).map_err(RewriteError::from)?;
    let class_name = class.this_class_name();
    let mut writer = ClassWriter::new(&class);
    let mut hooked = 0;
    for (i, method) in class.methods.iter().enumerate() {
        if method.name != CONSTRUCTOR {
            continue;
        }
        let Some(raw) = method.attribute(names::CODE) else {
            continue;
        };
        let code_error = |source: BytecodeError| HookError::Code {
            class: mutf8::to_str_lossy(class_name).into_owned(),
            method: format!("<init>{}", mutf8::to_str_lossy(method.descriptor)),
            source,
        };
        let code = Code::from_raw(raw, &class.constant_pool)
            .map_err(BytecodeError::from)
            .map_err(code_error)?;
        let info = hooked_body(&class, method, &code, hook, &mut writer).map_err(code_error)?;
        writer.methods[i] = with_code(method, &info);
        hooked += 1;
    }
    if hooked == 0 {
        return Err(HookError::NoConstructor {
            class: mutf8::to_str_lossy(class_name).into_owned(),
        });
    }
    writer
        .to_bytes()
        .map_err(|e| HookError::Class(RewriteError::from(e)))
}

/// The `Code` info of one constructor with the hook's call before each `return`.
fn hooked_body(
    class: &ClassFile<'_>,
    method: &Member<'_>,
    code: &Code<'_>,
    hook: &StaticHook,
    writer: &mut ClassWriter<'_>,
) -> Result<Vec<u8>, BytecodeError> {
    let mut body = MethodBody::open(class, method, code)?;
    let call = writer.constant_pool.add_member_ref(
        tag::METHODREF,
        hook.owner.as_bytes(),
        hook.name.as_bytes(),
        &StaticHook::descriptor_for(class.this_class_name()),
    )?;
    let returns: Vec<Pc> = body
        .instructions()
        .filter(|(_, insn)| **insn == Insn::Plain(op::RETURN))
        .map(|(pc, _)| pc)
        .collect();
    for pc in returns {
        body.insert_before(
            pc,
            vec![
                // stack: this
                Insn::Local {
                    opcode: op::ALOAD,
                    index: Slot(0),
                },
                // stack: (empty)
                Insn::Ref {
                    opcode: op::INVOKESTATIC,
                    index: call,
                },
            ],
        )?;
    }
    body.encode(&mut writer.constant_pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_testdata::class as testdata;

    fn hook() -> StaticHook {
        StaticHook {
            owner: "org/example/Hook".to_owned(),
            name: "attach".to_owned(),
        }
    }

    /// The instructions of each constructor, decoded.
    fn constructors(bytes: &[u8]) -> Vec<Vec<Insn>> {
        let class = ClassFile::parse(bytes).unwrap();
        class
            .methods
            .iter()
            .filter(|m| m.name == CONSTRUCTOR)
            .map(|m| {
                let code = Code::from_raw(m.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
                MethodBody::open(&class, m, &code)
                    .unwrap()
                    .instructions()
                    .map(|(_, insn)| insn.clone())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_return_of_every_constructor_is_preceded_by_the_hook_call() {
        let original = testdata("java8/AllInstructions.class");
        let hooked = hook_constructors(&original, &hook()).unwrap();
        let before = constructors(&original);
        let after = constructors(&hooked);
        assert_eq!(before.len(), after.len());
        for (before, after) in before.iter().zip(&after) {
            let returns = before.iter().filter(|i| **i == Insn::Plain(op::RETURN)).count();
            assert!(returns > 0);
            assert_eq!(after.len(), before.len() + 2 * returns);
            for (i, insn) in after.iter().enumerate() {
                if *insn == Insn::Plain(op::RETURN) {
                    assert!(matches!(
                        after[i - 2],
                        Insn::Local {
                            opcode: op::ALOAD,
                            index: Slot(0)
                        }
                    ));
                    assert!(matches!(
                        after[i - 1],
                        Insn::Ref {
                            opcode: op::INVOKESTATIC,
                            ..
                        }
                    ));
                }
            }
        }
    }

    #[test]
    fn the_call_names_the_hook_with_the_class_as_its_parameter() {
        let hooked = hook_constructors(&testdata("java8/AllInstructions.class"), &hook()).unwrap();
        let class = ClassFile::parse(&hooked).unwrap();
        assert!(class.constant_pool.find_utf8(b"org/example/Hook").is_some());
        assert!(class.constant_pool.find_utf8(b"attach").is_some());
        assert!(class
            .constant_pool
            .find_utf8(&StaticHook::descriptor_for(class.this_class_name()))
            .is_some());
    }

    #[test]
    fn methods_other_than_constructors_are_copied_byte_for_byte() {
        let original = testdata("java8/AllInstructions.class");
        let hooked = hook_constructors(&original, &hook()).unwrap();
        let (before, after) = (
            ClassFile::parse(&original).unwrap(),
            ClassFile::parse(&hooked).unwrap(),
        );
        let others = |class: &ClassFile<'_>| -> Vec<Vec<u8>> {
            class
                .methods
                .iter()
                .filter(|m| m.name != CONSTRUCTOR)
                .map(|m| m.bytes.to_vec())
                .collect()
        };
        assert!(!others(&before).is_empty());
        assert_eq!(others(&before), others(&after));
    }

    #[test]
    fn a_class_without_constructors_is_refused_naming_it() {
        let error = hook_constructors(&testdata("java8/Interfaces.class"), &hook()).unwrap_err();
        assert!(matches!(error, HookError::NoConstructor { .. }), "{error}");
        assert_eq!(error.to_string(), "Interfaces has no constructor to hook");
    }
}
