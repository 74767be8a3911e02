//! Native methods as contexts, for the load-time agent only (docs/rewriting.md,
//! "Native methods").
//!
//! A native method has no code to rewrite, so each native `m` of the class
//! becomes two methods before the profiling rewrite runs:
//!
//! - `$jp$m`, still native, with `m`'s descriptor and static-ness, private (so
//!   dispatch and overriding stay as they were) and synthetic (reflection can
//!   tell it apart), with no attributes; the JVM binds it to `m`'s JNI
//!   implementation, or to what `RegisterNatives` gave `m`, by stripping the
//!   native method prefix that the agent sets (JVMTI `SetNativeMethodPrefix`);
//! - `m` itself, in `m`'s place, with `m`'s flags but `ACC_NATIVE` and all its
//!   attributes (annotations, signature, exceptions), whose code passes its
//!   arguments on: `[aload_0] xload... invoke $jp$m; xreturn`. A synchronized
//!   `m` keeps `ACC_SYNCHRONIZED` there, so the lock is taken once, by `m`.
//!
//! The profiling rewrite then treats each such `m` as any method with code
//! ([`super::Kind::NativeWrapper`]): it enters `m`'s context and leaves it on
//! every return and exception, and counts no bytecodes, as a native runs none.
//!
//! `jp instrument` never does this: without an agent's prefix, the JVM would
//! look for the JNI function of `$jp$m` and find none.

use jp_bytecode::descriptor::{FieldType, MethodDescriptor};
use jp_bytecode::opcode as op;
use jp_classfile::access::{ACC_INTERFACE, ACC_NATIVE, ACC_STATIC};
use jp_classfile::{tag, AttributeOut, ClassFile, ClassWriter, Constant, Member, MemberOut};

use crate::{injected, WarningReason};

/// A class whose native methods were wrapped.
pub(super) struct Wrapped {
    /// The class file, natives renamed and wrappers in their places.
    pub(super) bytes: Vec<u8>,
    /// The wrappers' indices among its methods.
    pub(super) wrappers: Vec<usize>,
}

/// The class with its native methods wrapped; `None` when it has none (or
/// is an interface, which cannot declare one), so that its bytes stay what
/// they are without natives.
///
/// # Errors
/// A descriptor that does not parse, a `$jp$` name taken already, or a
/// constant pool that overflows: the class is then kept as it was.
pub(super) fn wrap_natives(class: &ClassFile<'_>) -> Result<Option<Wrapped>, WarningReason> {
    let natives: Vec<usize> = class
        .methods
        .iter()
        .enumerate()
        .filter(|(_, m)| m.access_flags & ACC_NATIVE != 0)
        .map(|(i, _)| i)
        .collect();
    if natives.is_empty() || class.access_flags & ACC_INTERFACE != 0 {
        return Ok(None);
    }
    let mut writer = ClassWriter::new(class);
    for &i in &natives {
        let method = &class.methods[i];
        let renamed = renamed(method.name);
        if class
            .methods
            .iter()
            .any(|m| m.name == renamed.as_slice() && m.descriptor == method.descriptor)
        {
            return Err(WarningReason::Unsupported {
                what: format!(
                    "the native method {} cannot be renamed: the class has a method {} already",
                    String::from_utf8_lossy(method.name),
                    String::from_utf8_lossy(&renamed)
                ),
            });
        }
        let pool = &mut writer.constant_pool;
        let name_index = pool.add(Constant::Utf8(&renamed))?;
        let target = pool.add_member_ref(
            tag::METHODREF,
            class.this_class_name(),
            &renamed,
            method.descriptor,
        )?;
        let code = wrapper_code(method, target.0)?;
        let mut attributes: Vec<AttributeOut<'_>> = method
            .attributes
            .iter()
            .map(|a| AttributeOut::Verbatim(*a))
            .collect();
        attributes.push(AttributeOut::Built {
            name_index: pool.add_utf8("Code")?,
            info: code,
        });
        writer.methods[i] = MemberOut::Built {
            access_flags: method.access_flags & !ACC_NATIVE,
            name_index: method.name_index,
            descriptor_index: method.descriptor_index,
            attributes,
        };
        writer.methods.push(MemberOut::Built {
            access_flags: injected::RENAMED_NATIVE_FLAGS | (method.access_flags & ACC_STATIC),
            name_index,
            descriptor_index: method.descriptor_index,
            attributes: Vec::new(),
        });
    }
    Ok(Some(Wrapped {
        bytes: writer.to_bytes()?,
        wrappers: natives,
    }))
}

/// `$jp$name`.
fn renamed(name: &[u8]) -> Vec<u8> {
    let mut renamed = injected::NATIVE_PREFIX.as_bytes().to_vec();
    renamed.extend_from_slice(name);
    renamed
}

/// The `Code` attribute's contents of the wrapper of `native`, which calls
/// the method at constant `target` with its own arguments and returns what
/// it returns. Straight-line code: it needs no stack map frame.
fn wrapper_code(native: &Member<'_>, target: u16) -> Result<Vec<u8>, WarningReason> {
    let descriptor = MethodDescriptor::parse(native.descriptor)?;
    let is_static = native.access_flags & ACC_STATIC != 0;
    let mut code = Vec::new();
    let mut slot: u16 = 0;
    if !is_static {
        code.extend([op::ALOAD, 0]);
        slot = 1;
    }
    for parameter in &descriptor.parameters {
        // At most 255 slots of parameters (JVMS §4.3.3): every index fits a byte.
        code.extend([load_opcode(parameter), slot as u8]);
        slot += parameter.slots();
    }
    let invoke = if is_static {
        op::INVOKESTATIC
    } else {
        op::INVOKESPECIAL
    };
    code.push(invoke);
    code.extend(target.to_be_bytes());
    code.push(return_opcode(descriptor.return_type.as_ref()));
    let returned = descriptor.return_type.as_ref().map_or(0, FieldType::slots);
    let max_stack = slot.max(returned);
    let mut info = Vec::with_capacity(12 + code.len());
    info.extend(max_stack.to_be_bytes());
    info.extend(slot.to_be_bytes()); // max_locals: the arguments
    info.extend((code.len() as u32).to_be_bytes());
    info.extend(code);
    info.extend(0u16.to_be_bytes()); // no exception table
    info.extend(0u16.to_be_bytes()); // no attributes
    Ok(info)
}

fn load_opcode(parameter: &FieldType<'_>) -> u8 {
    match parameter {
        FieldType::Long => op::LLOAD,
        FieldType::Float => op::FLOAD,
        FieldType::Double => op::DLOAD,
        FieldType::Object(_) | FieldType::Array(_) => op::ALOAD,
        FieldType::Byte | FieldType::Char | FieldType::Short | FieldType::Boolean | FieldType::Int => {
            op::ILOAD
        }
    }
}

/// `ireturn`, `lreturn`, `freturn`, `dreturn`, `areturn` follow each other
/// (JVMS §6.5), as the loads do.
fn return_opcode(returned: Option<&FieldType<'_>>) -> u8 {
    match returned {
        None => op::RETURN,
        Some(returned) => op::IRETURN + (load_opcode(returned) - op::ILOAD),
    }
}

#[cfg(test)]
mod tests {
    use jp_bytecode::{Insn, MethodBody};
    use jp_classfile::access::{ACC_PRIVATE, ACC_PUBLIC, ACC_SYNCHRONIZED, ACC_SYNTHETIC};
    use jp_classfile::attributes::{names, AttributeInfo, Code};
    use jp_classfile::{mutf8, ConstantLookup};

    use super::*;
    use crate::blocks::Analysis;
    use crate::profile::{profile_class, ProfileOptions};

    /// Every return type, static and instance, some synchronized, with
    /// arguments of every kind of slot.
    const NATIVES: &[(&str, &str, u16)] = &[
        ("run", "()V", ACC_PUBLIC),
        ("flag", "(Z)Z", ACC_PUBLIC | ACC_STATIC),
        ("octet", "(B)B", ACC_PUBLIC | ACC_SYNCHRONIZED),
        ("letter", "(C)C", ACC_STATIC | ACC_SYNCHRONIZED),
        ("small", "(S)S", 0),
        ("add", "(IJ)I", ACC_PUBLIC | ACC_STATIC),
        ("wide", "(JDI)J", ACC_PUBLIC),
        ("real", "(F)F", ACC_PRIVATE | ACC_STATIC),
        ("twice", "(DLjava/lang/String;)D", ACC_PUBLIC),
        (
            "name",
            "([ILjava/lang/Object;)Ljava/lang/String;",
            ACC_PUBLIC | ACC_STATIC,
        ),
        ("grid", "()[[I", ACC_PUBLIC | ACC_SYNCHRONIZED),
    ];

    /// A class of the test data with [`NATIVES`] added.
    fn with_natives() -> Vec<u8> {
        let original = jp_testdata::class("java17/Nested$StaticNested.class");
        let class = ClassFile::parse(&original).unwrap();
        let mut writer = ClassWriter::new(&class);
        for &(name, descriptor, flags) in NATIVES {
            let method = MemberOut::Built {
                access_flags: flags | ACC_NATIVE,
                name_index: writer.constant_pool.add_utf8(name).unwrap(),
                descriptor_index: writer.constant_pool.add_utf8(descriptor).unwrap(),
                attributes: Vec::new(),
            };
            writer.methods.push(method);
        }
        writer.to_bytes().unwrap()
    }

    fn profiled(bytes: &[u8], natives: bool) -> Option<Vec<u8>> {
        let options = ProfileOptions {
            analysis: Analysis::Precise,
            lines: true,
            call_sites: false,
            natives,
            allocations: false,
            probes: Default::default(),
        };
        let rewritten = profile_class(bytes, &options).unwrap();
        assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
        rewritten.bytes
    }

    fn method<'c>(class: &'c ClassFile<'c>, name: &[u8], descriptor: &str) -> Option<&'c Member<'c>> {
        class
            .methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor.as_bytes())
    }

    fn decoded<'c>(class: &'c ClassFile<'c>, member: &Member<'c>) -> (Code<'c>, Vec<Insn>) {
        let code = Code::from_raw(member.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
        let insns = jp_bytecode::insn::decode(code.code).unwrap().insns;
        (code, insns)
    }

    fn calls_to(class: &ClassFile<'_>, insns: &[Insn], name: &[u8], descriptor: &[u8]) -> Vec<u8> {
        insns
            .iter()
            .filter_map(|insn| match insn {
                Insn::Ref { opcode, index } => class
                    .constant_pool
                    .member_ref(*index)
                    .is_ok_and(|(_, n, d)| n == name && d == descriptor)
                    .then_some(*opcode),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_native_is_renamed_private_and_synthetic_and_a_method_of_its_own_flags_calls_it() {
        let bytes = profiled(&with_natives(), true).expect("rewritten");
        let class = ClassFile::parse(&bytes).unwrap();
        for &(name, descriptor, flags) in NATIVES {
            let wrapper = method(&class, name.as_bytes(), descriptor).expect(name);
            assert_eq!(
                wrapper.access_flags, flags,
                "{name}: the wrapper keeps the native's flags, but native"
            );
            let renamed = renamed(name.as_bytes());
            let native = method(&class, &renamed, descriptor).expect("renamed");
            assert_eq!(
                native.access_flags,
                ACC_PRIVATE | ACC_NATIVE | ACC_SYNTHETIC | (flags & ACC_STATIC),
                "{name}: the lock is the wrapper's"
            );
            assert!(native.attributes.is_empty(), "{name}");
            let (_, insns) = decoded(&class, wrapper);
            let invoke = if flags & ACC_STATIC != 0 {
                op::INVOKESTATIC
            } else {
                op::INVOKESPECIAL
            };
            assert_eq!(
                calls_to(&class, &insns, &renamed, descriptor.as_bytes()),
                [invoke],
                "{name}"
            );
        }
    }

    /// The entry and exit of any method with code, and no bytecode counted:
    /// no `iinc` of the count, no `IC.count`, no `IC.line`.
    #[test]
    fn a_wrapper_enters_its_context_restores_it_on_every_exit_and_counts_no_bytecodes() {
        let bytes = profiled(&with_natives(), true).expect("rewritten");
        let class = ClassFile::parse(&bytes).unwrap();
        let count = |insns: &[Insn], (name, descriptor): (&str, &str)| {
            calls_to(&class, insns, name.as_bytes(), descriptor.as_bytes()).len()
        };
        for &(name, descriptor, _) in NATIVES {
            let (code, insns) = decoded(&class, method(&class, name.as_bytes(), descriptor).unwrap());
            assert_eq!(count(&insns, injected::RC_CURRENT), 1, "{name}");
            assert_eq!(count(&insns, injected::RC_ENTER), 1, "{name}");
            // At the return, and in the catch-all that rethrows.
            assert_eq!(count(&insns, injected::RC_EXIT), 2, "{name}");
            assert_eq!(count(&insns, injected::IC_COUNT), 0, "{name}");
            assert_eq!(count(&insns, injected::IC_LINE), 0, "{name}");
            assert!(!insns.iter().any(|i| matches!(i, Insn::Iinc { .. })), "{name}");
            let catch_all = code.exception_table.last().expect("a catch-all");
            assert_eq!(catch_all.catch_type.0, 0, "{name}");
        }
    }

    /// The verifier's view of each method: every instruction is reached
    /// with a type state that the class's frames give (simulated from
    /// the nearest one), and no state is deeper than `max_stack`.
    #[test]
    fn every_method_of_the_wrapped_class_has_a_frame_for_all_of_its_code() {
        let bytes = profiled(&with_natives(), true).expect("rewritten");
        let class = ClassFile::parse(&bytes).unwrap();
        let mut wrappers = 0;
        for member in class
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let name = mutf8::to_str_lossy(member.name);
            let (code, _) = decoded(&class, member);
            let body = MethodBody::open(&class, member, &code).unwrap();
            for (pc, frame) in body.instruction_frames(&class.constant_pool).unwrap() {
                let frame = frame.unwrap_or_else(|| panic!("{name}: no frame reaches pc {pc}"));
                let depth: usize = frame
                    .stack
                    .iter()
                    .map(|t| if t.is_category2() { 2 } else { 1 })
                    .sum();
                assert!(depth <= usize::from(code.max_stack), "{name} at {pc}");
            }
            wrappers += usize::from(NATIVES.iter().any(|(n, _, _)| n.as_bytes() == member.name));
        }
        assert_eq!(wrappers, NATIVES.len());
    }

    /// `jp instrument` never wraps: the bytes are those of a run without
    /// the option, and a class without natives is the same either way.
    #[test]
    fn without_the_option_or_without_natives_the_bytes_are_unchanged() {
        let natives = with_natives();
        let plain = profiled(&natives, false).expect("rewritten");
        let class = ClassFile::parse(&plain).unwrap();
        for &(name, descriptor, flags) in NATIVES {
            let native = method(&class, name.as_bytes(), descriptor).unwrap();
            assert_eq!(native.access_flags, flags | ACC_NATIVE, "{name}");
            assert!(
                method(&class, &renamed(name.as_bytes()), descriptor).is_none(),
                "{name}"
            );
        }
        let without = jp_testdata::class("java17/Nested$StaticNested.class");
        assert_eq!(profiled(&without, true), profiled(&without, false));
    }

    #[test]
    fn a_taken_name_keeps_the_class_as_it_was_with_a_warning() {
        let original = with_natives();
        let class = ClassFile::parse(&original).unwrap();
        let mut writer = ClassWriter::new(&class);
        let taken = MemberOut::Built {
            access_flags: ACC_PRIVATE | ACC_STATIC | ACC_NATIVE,
            name_index: writer.constant_pool.add_utf8("$jp$run").unwrap(),
            descriptor_index: writer.constant_pool.add_utf8("()V").unwrap(),
            attributes: Vec::new(),
        };
        writer.methods.push(taken);
        let bytes = writer.to_bytes().unwrap();
        let options = ProfileOptions {
            natives: true,
            ..ProfileOptions::default()
        };
        let rewritten = profile_class(&bytes, &options).unwrap();
        assert_eq!(rewritten.bytes, None);
        let [warning] = rewritten.warnings.as_slice() else {
            panic!("{:?}", rewritten.warnings)
        };
        assert!(warning.to_string().contains("$jp$run"), "{warning}");
    }
}
