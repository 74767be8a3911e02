//! The `stress` scheme: a test-only rewrite that exercises every editing
//! operation of the bytecode layer on every method, while preserving
//! behaviour exactly.
//!
//! For each method with code it:
//! - adds a `long` local, set to 0 at entry, declared in every frame;
//! - adds 1 to it at the start of every basic block;
//! - at every loop header, calls a new synthetic no-op method when the
//!   counter's low bits are zero (a conditional branch with a call, whose
//!   target needs a new frame);
//! - with `pad > 0`, also jumps over `pad` bytes of `nop`s, inside the
//!   first loop's check (or at entry in a method without loops), so that
//!   branches must be widened (`goto_w`, and `if<!cond>` over a `goto_w`,
//!   whose frames are computed by simulation).
//!
//! It also appends an `int` parameter to private methods where no code
//! outside the class can call them (no nestmates, no method handles, not a
//! serialization hook), shifting their locals, and passes 0 at each call
//! site in the class.

use std::collections::HashMap;

use jp_bytecode::body::MethodBody;
use jp_bytecode::descriptor::MethodDescriptor;
use jp_bytecode::opcode as op;
use jp_bytecode::{BytecodeError, Frame, Insn, Pc, Slot, VType};
use jp_classfile::access::{
    ACC_ABSTRACT, ACC_INTERFACE, ACC_MODULE, ACC_NATIVE, ACC_PRIVATE, ACC_STATIC, ACC_VARARGS,
};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{
    mutf8, tag, AttributeOut, ByteSink, ClassFile, ClassWriter, Constant, ConstantLookup, CpIndex, Member,
    MemberOut,
};

use jp_rewrite::blocks::{blocks, loop_headers, Analysis};
use jp_rewrite::injected;
use jp_rewrite::{RewriteError, Rewritten, Warning, WarningReason};

/// Options of the stress scheme.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StressOptions {
    /// Bytes of `nop` padding jumped over at entry and at loop headers.
    pub pad: u16,
}

/// Rewrites one class with the stress scheme.
///
/// # Errors
/// Only when the class does not parse; anything that cannot be rewritten
/// is kept as it was, with a warning.
pub fn stress_class(bytes: &[u8], options: StressOptions) -> Result<Rewritten, RewriteError> {
    let class = ClassFile::parse(bytes)?;
    if class.access_flags & ACC_MODULE != 0
        || class.methods.iter().all(|m| m.attribute(names::CODE).is_none())
    {
        return Ok(Rewritten {
            bytes: None,
            warnings: Vec::new(),
        });
    }
    let mut shifted = shift_candidates(&class);
    loop {
        let attempt = rewrite(&class, &shifted, options);
        match attempt {
            // A method that calls or is a shifted method was kept as it
            // was: its call sites would break, so give up shifting.
            Err(Retry) => shifted.clear(),
            Ok(result) => return Ok(result),
        }
    }
}

/// Signals that the rewrite must be redone without parameter shifts.
struct Retry;

fn rewrite(class: &ClassFile<'_>, shifted: &[usize], options: StressOptions) -> Result<Rewritten, Retry> {
    let class_name = mutf8::to_str_lossy(class.this_class_name()).into_owned();
    let mut writer = ClassWriter::new(class);
    let mut warnings = Vec::new();
    let is_interface = class.access_flags & ACC_INTERFACE != 0;
    let class_warning = |reason| Warning {
        class: class_name.clone(),
        method: None,
        reason,
    };

    // The poll method: private in classes and in interfaces from 53 on,
    // public in older interfaces (from 52), absent before that.
    let poll = if is_interface && class.major_version < 52 {
        None
    } else {
        let kind = if is_interface {
            tag::INTERFACE_METHODREF
        } else {
            tag::METHODREF
        };
        match writer.constant_pool.add_member_ref(
            kind,
            class.this_class_name(),
            injected::STRESS_POLL_NAME.as_bytes(),
            injected::STRESS_POLL_DESCRIPTOR.as_bytes(),
        ) {
            Ok(index) => Some(index),
            Err(e) => return Ok(unchanged(class_warning(WarningReason::Class(e)))),
        }
    };

    // New references for the shifted methods, keyed by old reference.
    let mut new_refs: HashMap<(Vec<u8>, Vec<u8>), CpIndex> = HashMap::new();
    for &i in shifted {
        let method = &class.methods[i];
        let new_descriptor = with_extra_parameter(method.descriptor);
        let kind = if is_interface {
            tag::INTERFACE_METHODREF
        } else {
            tag::METHODREF
        };
        match writer
            .constant_pool
            .add_member_ref(kind, class.this_class_name(), method.name, &new_descriptor)
        {
            Ok(index) => {
                new_refs.insert((method.name.to_vec(), method.descriptor.to_vec()), index);
            }
            Err(e) => return Ok(unchanged(class_warning(WarningReason::Class(e)))),
        }
    }

    for (i, method) in class.methods.iter().enumerate() {
        let is_shifted = shifted.contains(&i);
        let Some(raw) = method.attribute(names::CODE) else {
            continue;
        };
        let method_name = format!(
            "{}{}",
            mutf8::to_str_lossy(method.name),
            mutf8::to_str_lossy(method.descriptor)
        );
        let result = Code::from_raw(raw, &class.constant_pool)
            .map_err(BytecodeError::from)
            .and_then(|code| {
                rewrite_method(
                    class,
                    method,
                    &code,
                    is_shifted,
                    &new_refs,
                    poll,
                    options,
                    &mut writer,
                )
            });
        match result {
            Ok(info) => {
                let descriptor_index = if is_shifted {
                    match writer
                        .constant_pool
                        .add(Constant::Utf8(&with_extra_parameter(method.descriptor)))
                    {
                        Ok(index) => index,
                        Err(e) => return Ok(unchanged(class_warning(WarningReason::Class(e)))),
                    }
                } else {
                    method.descriptor_index
                };
                writer.methods[i] = crate::with_code_and_descriptor(method, &info, descriptor_index);
            }
            Err(error) => {
                if !new_refs.is_empty() {
                    return Err(Retry);
                }
                warnings.push(Warning {
                    class: class_name.clone(),
                    method: Some(method_name),
                    reason: error.into(),
                });
            }
        }
    }

    if poll.is_some() {
        if let Err(e) = add_poll_method(&mut writer, is_interface && class.major_version < 53) {
            return Ok(unchanged(class_warning(WarningReason::Class(e))));
        }
    }
    match writer.to_bytes() {
        Ok(bytes) => Ok(Rewritten {
            bytes: Some(bytes),
            warnings,
        }),
        Err(e) => Ok(unchanged(class_warning(WarningReason::Class(e)))),
    }
}

fn unchanged(warning: Warning) -> Rewritten {
    Rewritten {
        bytes: None,
        warnings: vec![warning],
    }
}

#[allow(clippy::too_many_arguments)]
fn rewrite_method(
    class: &ClassFile<'_>,
    method: &Member<'_>,
    code: &Code<'_>,
    is_shifted: bool,
    new_refs: &HashMap<(Vec<u8>, Vec<u8>), CpIndex>,
    poll: Option<CpIndex>,
    options: StressOptions,
    writer: &mut ClassWriter<'_>,
) -> Result<Vec<u8>, BytecodeError> {
    let pool = &class.constant_pool;
    let mut body = MethodBody::open(class, method, code)?;
    let block_starts: Vec<Pc> = blocks(&body, Analysis::Default).iter().map(|b| b.start).collect();
    let loop_headers = loop_headers(&body);
    let call_sites = call_sites(&body, pool, class.this_class_name(), new_refs);

    if is_shifted {
        let descriptor = MethodDescriptor::parse(method.descriptor)?;
        let this_slot = u16::from(method.access_flags & ACC_STATIC == 0);
        body.add_parameter(Slot(descriptor.parameter_slots() + this_slot), VType::Integer)?;
    }
    for (pc, replacement) in call_sites {
        body.replace(pc, replacement)?;
    }

    let counter = body.add_local(2)?;
    body.declare_local_in_frames(counter, &VType::Long);
    let mut entry = vec![
        Insn::Plain(op::LCONST_0),
        Insn::Local {
            opcode: op::LSTORE,
            index: counter,
        },
    ];
    // The padding goes once per method: into the first loop's check, so
    // that the loop's back edges must widen, or at entry without loops.
    let pad_at_entry = poll.is_none() || loop_headers.is_empty();
    if options.pad > 0 && pad_at_entry {
        let after = body.new_label();
        entry.extend([
            Insn::Plain(op::ICONST_0),
            Insn::Branch {
                opcode: op::IFEQ,
                target: after,
            },
        ]);
        entry.extend(std::iter::repeat_n(
            Insn::Plain(op::NOP),
            usize::from(options.pad),
        ));
        entry.push(Insn::Label(after));
        let locals = jp_bytecode::frame::with_local(&body.initial_frame().locals, counter, &VType::Long);
        body.add_frame(
            after,
            Frame {
                locals,
                stack: Vec::new(),
            },
        )?;
    }
    body.insert_at_entry(entry);

    for start in block_starts {
        body.insert_before(
            start,
            vec![
                Insn::Local {
                    opcode: op::LLOAD,
                    index: counter,
                },
                Insn::Plain(op::LCONST_1),
                Insn::Plain(op::LADD),
                Insn::Local {
                    opcode: op::LSTORE,
                    index: counter,
                },
            ],
        )?;
    }

    if let Some(poll) = poll {
        let mask = writer
            .constant_pool
            .add(Constant::Long(injected::STRESS_POLL_MASK))?;
        for (i, header) in loop_headers.into_iter().enumerate() {
            let skip = body.new_label();
            if body.has_frames() {
                let frame = body.frame_before(header, &writer.constant_pool)?;
                body.add_frame(skip, frame)?;
            }
            let mut check = vec![
                Insn::Local {
                    opcode: op::LLOAD,
                    index: counter,
                },
                Insn::Ldc {
                    index: mask,
                    category2: true,
                },
                Insn::Plain(op::LAND),
                Insn::Plain(op::LCONST_0),
                Insn::Plain(op::LCMP),
                Insn::Branch {
                    opcode: op::IFNE,
                    target: skip,
                },
                Insn::Ref {
                    opcode: op::INVOKESTATIC,
                    index: poll,
                },
            ];
            if i == 0 {
                check.extend(std::iter::repeat_n(
                    Insn::Plain(op::NOP),
                    usize::from(options.pad),
                ));
            }
            check.push(Insn::Label(skip));
            body.insert_before(header, check)?;
        }
    }
    body.encode(&mut writer.constant_pool)
}

/// Calls to shifted methods of this class, with the code that replaces
/// each: push 0 for the new parameter, then call the new descriptor.
fn call_sites(
    body: &MethodBody<'_>,
    pool: &impl ConstantLookup,
    this_class: &[u8],
    new_refs: &HashMap<(Vec<u8>, Vec<u8>), CpIndex>,
) -> Vec<(Pc, Vec<Insn>)> {
    let mut sites = Vec::new();
    if new_refs.is_empty() {
        return sites;
    }
    for (pc, insn) in body.instructions() {
        let (index, replacement) = match insn {
            Insn::Ref {
                opcode: opcode @ (op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC),
                index,
            } => (
                *index,
                Box::new(move |new| Insn::Ref {
                    opcode: *opcode,
                    index: new,
                }) as Box<dyn Fn(CpIndex) -> Insn>,
            ),
            Insn::InvokeInterface { index, count } => {
                let count = count.saturating_add(1);
                (
                    *index,
                    Box::new(move |new| Insn::InvokeInterface { index: new, count })
                        as Box<dyn Fn(CpIndex) -> Insn>,
                )
            }
            _ => continue,
        };
        let Ok((class, name, descriptor)) = pool.member_ref(index) else {
            continue;
        };
        if class != this_class {
            continue;
        }
        if let Some(&new) = new_refs.get(&(name.to_vec(), descriptor.to_vec())) {
            sites.push((pc, vec![Insn::Plain(op::ICONST_0), replacement(new)]));
        }
    }
    sites
}

/// Private methods whose descriptor may change: nothing outside this class
/// can call them (no nestmates, no method handles, no serialization hook),
/// and a parameter after the last would not break their meaning (varargs).
fn shift_candidates(class: &ClassFile<'_>) -> Vec<usize> {
    if class.attribute(names::NEST_HOST).is_some() || class.attribute(names::NEST_MEMBERS).is_some() {
        return Vec::new();
    }
    let pool = &class.constant_pool;
    let this_class = class.this_class_name();
    let handle_targets: Vec<(&[u8], &[u8])> = pool
        .iter()
        .filter_map(|(_, constant)| match constant {
            Constant::MethodHandle { reference, .. } => pool.member_ref(*reference).ok(),
            _ => None,
        })
        .filter(|(class, _, _)| *class == this_class)
        .map(|(_, name, descriptor)| (name, descriptor))
        .collect();
    class
        .methods
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            let new_descriptor = with_extra_parameter(m.descriptor);
            m.access_flags & ACC_PRIVATE != 0
                && m.access_flags & (ACC_NATIVE | ACC_ABSTRACT | ACC_VARARGS) == 0
                && m.name != b"<init>"
                && m.name != b"<clinit>"
                && m.attribute(names::CODE).is_some()
                && !injected::REFLECTIVELY_CALLED
                    .iter()
                    .any(|n| n.as_bytes() == m.name)
                && !handle_targets.contains(&(m.name, m.descriptor))
                && !class
                    .methods
                    .iter()
                    .any(|other| other.name == m.name && other.descriptor == new_descriptor.as_slice())
                && MethodDescriptor::parse(m.descriptor).is_ok_and(|d| d.parameter_slots() < 254)
        })
        .map(|(i, _)| i)
        .collect()
}

/// `(params)ret` with the stress parameter appended: `(paramsI)ret`.
fn with_extra_parameter(descriptor: &[u8]) -> Vec<u8> {
    let close = descriptor
        .iter()
        .position(|&b| b == b')')
        .unwrap_or(descriptor.len());
    let mut out = Vec::with_capacity(descriptor.len() + 1);
    out.extend_from_slice(&descriptor[..close]);
    out.extend_from_slice(injected::STRESS_EXTRA_PARAMETER.as_bytes());
    out.extend_from_slice(&descriptor[close..]);
    out
}

/// Appends `static void $jp$poll() { return; }`.
fn add_poll_method(writer: &mut ClassWriter<'_>, public: bool) -> jp_classfile::Result<()> {
    let name_index = writer.constant_pool.add_utf8(injected::STRESS_POLL_NAME)?;
    let descriptor_index = writer.constant_pool.add_utf8(injected::STRESS_POLL_DESCRIPTOR)?;
    let code_name = writer.constant_pool.add_utf8("Code")?;
    let mut info = Vec::new();
    info.put_u2(0); // max_stack
    info.put_u2(0); // max_locals
    info.put_u4(1);
    info.put_u1(op::RETURN);
    info.put_u2(0); // exception_table_length
    info.put_u2(0); // attributes_count
    let flags = if public {
        injected::STRESS_POLL_INTERFACE_FLAGS
    } else {
        injected::STRESS_POLL_FLAGS
    };
    writer.methods.push(MemberOut::Built {
        access_flags: flags,
        name_index,
        descriptor_index,
        attributes: vec![AttributeOut::Built {
            name_index: code_name,
            info,
        }],
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_testdata::class as testdata;

    fn methods(bytes: &[u8]) -> Vec<(String, String)> {
        let class = ClassFile::parse(bytes).unwrap();
        class
            .methods
            .iter()
            .map(|m| {
                (
                    mutf8::to_str_lossy(m.name).into_owned(),
                    mutf8::to_str_lossy(m.descriptor).into_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn the_extra_parameter_goes_last() {
        assert_eq!(with_extra_parameter(b"(IJ)V"), b"(IJI)V");
        assert_eq!(
            with_extra_parameter(b"()Ljava/lang/String;"),
            b"(I)Ljava/lang/String;"
        );
    }

    #[test]
    fn every_method_is_rewritten_and_a_poll_method_is_added() {
        let original = testdata("java8/AllInstructions.class");
        let rewritten = stress_class(&original, StressOptions::default()).unwrap();
        assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
        let bytes = rewritten.bytes.expect("rewritten");
        let before = methods(&original);
        let after = methods(&bytes);
        assert_eq!(after.len(), before.len() + 1);
        assert_eq!(
            after.last().unwrap(),
            &(injected::STRESS_POLL_NAME.to_owned(), "()V".to_owned())
        );
        // The same input always gives the same bytes.
        assert_eq!(
            stress_class(&original, StressOptions::default())
                .unwrap()
                .bytes
                .unwrap(),
            bytes
        );
    }

    #[test]
    fn a_private_method_gains_a_parameter_and_its_callers_pass_it() {
        let original = testdata("java8/AllInstructions.class");
        let bytes = stress_class(&original, StressOptions::default())
            .unwrap()
            .bytes
            .unwrap();
        let after = methods(&bytes);
        assert!(
            after.contains(&("privateCall".to_owned(), "(I)I".to_owned())),
            "{after:?}"
        );
        assert!(!after.contains(&("privateCall".to_owned(), "()I".to_owned())));
        // No instruction still calls the old descriptor.
        let class = ClassFile::parse(&bytes).unwrap();
        assert_eq!(calls_to(&class, b"privateCall", b"()I"), 0);
    }

    /// How many invoke instructions in the class call `name` `descriptor`.
    fn calls_to(class: &ClassFile<'_>, name: &[u8], descriptor: &[u8]) -> usize {
        let pool = &class.constant_pool;
        class
            .methods
            .iter()
            .filter_map(|m| m.attribute(names::CODE))
            .map(|raw| {
                let code = Code::from_raw(raw, pool).unwrap();
                jp_bytecode::insn::decode(code.code)
                    .unwrap()
                    .insns
                    .iter()
                    .filter(|insn| match insn {
                        Insn::Ref { index, .. } => pool
                            .member_ref(*index)
                            .is_ok_and(|(_, n, d)| n == name && d == descriptor),
                        _ => false,
                    })
                    .count()
            })
            .sum()
    }

    #[test]
    fn lambda_bodies_and_serialization_hooks_keep_their_descriptors() {
        for name in ["java8/AllInstructions.class", "java8/Interfaces.class"] {
            let original = testdata(name);
            let bytes = stress_class(&original, StressOptions::default())
                .unwrap()
                .bytes
                .unwrap();
            for ((name, before), (_, after)) in methods(&original).iter().zip(methods(&bytes).iter()) {
                if name.starts_with("lambda$") || injected::REFLECTIVELY_CALLED.contains(&name.as_str()) {
                    assert_eq!(before, after, "{name}");
                }
            }
        }
    }

    #[test]
    fn padding_past_the_limit_keeps_the_method_with_a_warning() {
        let original = testdata("java8/AllInstructions.class");
        let rewritten = stress_class(&original, StressOptions { pad: 65_000 }).unwrap();
        assert!(rewritten
            .warnings
            .iter()
            .any(|w| matches!(w.reason, WarningReason::MethodTooLarge { length } if length > 65_535)));
        ClassFile::parse(&rewritten.bytes.unwrap()).unwrap();
    }
}
