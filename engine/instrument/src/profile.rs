//! The profiling scheme in its `thread` context-passing mode (DESIGN §4):
//! every method with code builds its thread's calling-context tree, with
//! exact invocation and bytecode counts, and nothing about dispatch
//! changes (no descriptor changes, no added methods, call sites untouched).
//!
//! For each method with code it inserts, with `rc` and `ic` two new locals:
//! ```text
//! entry:         rc = RC.current(); ic = rc.enter(MIDS[k])    // or enterLeaf / enterRoot
//! block start:   ic.count(<instructions in the block>)
//! handler start: rc.restore(ic)                                // top = ic, whoever threw
//! loop header:   rc.poll(ic)                                   // the agent's activation check
//! return:        rc.exit(ic)                                   // top = ic.parent
//! catch-all:     rc.exit(ic); athrow                           // appended, last in the table
//! ```
//! A static initializer is a top-level context: it saves `rc.top` in a
//! third local and restores it on every exit. Constructors get a second
//! catch-all for the code before `super(...)`/`this(...)`, whose frame keeps
//! `uninitializedThis` as the verifier requires (see [`uninitialized_this`]).
//!
//! The method identifiers live in a synthetic static array field set at the
//! very start of `<clinit>` (one is added when the class has none), so they
//! exist before any method of the class can run.

use std::collections::BTreeSet;

use jp_bytecode::body::{Handler, MethodBody};
use jp_bytecode::frame::from_slots;
use jp_bytecode::opcode as op;
use jp_bytecode::{Frame, Insn, Label, VType};
use jp_classfile::access::{ACC_INTERFACE, ACC_MODULE, ACC_STATIC};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{
    mutf8, tag, AttributeOut, ByteSink, ClassFile, ClassFileError, ClassWriter, Constant, CpIndex, Member,
    MemberOut, PoolBuilder,
};

use crate::blocks::{blocks, loop_headers, Analysis};
use crate::{injected, suid};
use crate::{InstrumentError, Rewritten, Warning, WarningReason};

/// Options of the profiling scheme.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProfileOptions {
    /// The basic-block analysis that places the bytecode counters.
    pub analysis: Analysis,
}

/// Rewrites one class with the profiling scheme.
///
/// Classes of JP's runtime and `module-info` are left as they are.
///
/// # Errors
/// When the class does not parse, or was instrumented by JP already.
/// Anything else that cannot be rewritten is kept as it was, with a
/// warning.
pub fn profile_class(bytes: &[u8], options: ProfileOptions) -> Result<Rewritten, InstrumentError> {
    let class = ClassFile::parse(bytes)?;
    if class.attribute(injected::MARKER_ATTRIBUTE.as_bytes()).is_some() {
        return Err(InstrumentError::AlreadyInstrumented);
    }
    let profiled: Vec<usize> = class
        .methods
        .iter()
        .enumerate()
        .filter(|(_, m)| m.attribute(names::CODE).is_some())
        .map(|(i, _)| i)
        .collect();
    if class.access_flags & ACC_MODULE != 0
        || class
            .this_class_name()
            .starts_with(injected::RUNTIME_PACKAGE.as_bytes())
        || profiled.is_empty()
    {
        return Ok(Rewritten {
            bytes: None,
            warnings: Vec::new(),
        });
    }
    Ok(
        rewrite(&class, &profiled, options).unwrap_or_else(|reason| Rewritten {
            bytes: None,
            warnings: vec![Warning {
                class: mutf8::to_str_lossy(class.this_class_name()).into_owned(),
                method: None,
                reason,
            }],
        }),
    )
}

/// What kind of method is rewritten: each enters and leaves differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Method,
    Constructor,
    ClassInitializer,
}

/// The constant-pool entries inserted code refers to.
struct Refs {
    rc_current: CpIndex,
    rc_enter: CpIndex,
    rc_enter_leaf: CpIndex,
    rc_enter_root: CpIndex,
    rc_exit: CpIndex,
    rc_restore: CpIndex,
    rc_poll: CpIndex,
    rc_top: CpIndex,
    ic_count: CpIndex,
    mids: CpIndex,
}

impl Refs {
    fn add(pool: &mut PoolBuilder<'_>, this_class: &[u8]) -> jp_classfile::Result<Refs> {
        let mut method = |class: &str, (name, descriptor): (&str, &str)| {
            pool.add_member_ref(
                tag::METHODREF,
                class.as_bytes(),
                name.as_bytes(),
                descriptor.as_bytes(),
            )
        };
        let rc = injected::RC_CLASS;
        let refs = Refs {
            rc_current: method(rc, injected::RC_CURRENT)?,
            rc_enter: method(rc, injected::RC_ENTER)?,
            rc_enter_leaf: method(rc, injected::RC_ENTER_LEAF)?,
            rc_enter_root: method(rc, injected::RC_ENTER_ROOT)?,
            rc_exit: method(rc, injected::RC_EXIT)?,
            rc_restore: method(rc, injected::RC_RESTORE)?,
            rc_poll: method(rc, injected::RC_POLL)?,
            ic_count: method(injected::IC_CLASS, injected::IC_COUNT)?,
            rc_top: CpIndex(0),
            mids: CpIndex(0),
        };
        let (top_name, top_descriptor) = injected::RC_TOP;
        let (mids_name, mids_descriptor) = injected::MIDS_FIELD;
        Ok(Refs {
            rc_top: pool.add_member_ref(
                tag::FIELDREF,
                rc.as_bytes(),
                top_name.as_bytes(),
                top_descriptor.as_bytes(),
            )?,
            mids: pool.add_member_ref(
                tag::FIELDREF,
                this_class,
                mids_name.as_bytes(),
                mids_descriptor.as_bytes(),
            )?,
            ..refs
        })
    }
}

fn rewrite(
    class: &ClassFile<'_>,
    profiled: &[usize],
    options: ProfileOptions,
) -> Result<Rewritten, WarningReason> {
    let class_name = mutf8::to_str_lossy(class.this_class_name()).into_owned();
    let mut writer = ClassWriter::new(class);
    let refs = Refs::add(&mut writer.constant_pool, class.this_class_name())?;
    let table = mid_table(class, profiled, options.analysis)?;
    let string = writer.constant_pool.add(Constant::Utf8(&table))?;
    let table = writer.constant_pool.add(Constant::String { string })?;
    let (table_name, table_descriptor) = injected::MID_TABLE;
    let mid_table = writer.constant_pool.add_member_ref(
        tag::METHODREF,
        injected::MID_CLASS.as_bytes(),
        table_name.as_bytes(),
        table_descriptor.as_bytes(),
    )?;
    let set_mids = SetMids {
        table,
        mid_table,
        field: refs.mids,
    };

    let initializer = class.methods.iter().position(|m| is_class_initializer(class, m));
    let mut warnings = Vec::new();
    for (k, &i) in profiled.iter().enumerate() {
        let method = &class.methods[i];
        let kind = if Some(i) == initializer {
            Kind::ClassInitializer
        } else if method.name == b"<init>" {
            Kind::Constructor
        } else {
            Kind::Method
        };
        let raw = method.attribute(names::CODE).expect("profiled methods have code");
        let result = Code::from_raw(raw, &class.constant_pool)
            .map_err(WarningReason::from)
            .and_then(|code| {
                let prologue = if kind == Kind::ClassInitializer {
                    set_mids.insns()
                } else {
                    Vec::new()
                };
                let site = Site {
                    class,
                    method,
                    code: &code,
                    index: k,
                    kind,
                };
                rewrite_method(
                    &site,
                    prologue,
                    &refs,
                    options.analysis,
                    &mut writer.constant_pool,
                )
            });
        match result {
            Ok(info) => {
                writer.methods[i] = crate::with_code(method, &info);
            }
            Err(reason) => {
                // Without its initializer, no method of the class would
                // find its identifier: keep the whole class.
                if kind == Kind::ClassInitializer {
                    return Err(reason);
                }
                warnings.push(Warning {
                    class: class_name.clone(),
                    method: Some(format!(
                        "{}{}",
                        mutf8::to_str_lossy(method.name),
                        mutf8::to_str_lossy(method.descriptor)
                    )),
                    reason,
                });
            }
        }
    }
    if warnings.len() == profiled.len() {
        return Ok(Rewritten {
            bytes: None,
            warnings,
        });
    }
    add_members(class, &mut writer, initializer.is_none(), &set_mids)?;
    let bytes = writer.to_bytes()?;
    Ok(Rewritten {
        bytes: Some(bytes),
        warnings,
    })
}

/// `<clinit>` is the initializer when it is static, or in any form before
/// version 51 (JVMS §2.9.2).
fn is_class_initializer(class: &ClassFile<'_>, method: &Member<'_>) -> bool {
    method.name == b"<clinit>"
        && method.descriptor == b"()V"
        && (method.access_flags & ACC_STATIC != 0 || class.major_version < 51)
}

/// The argument of `MID.table`: `bba.class.name.descriptor.bound...`.
fn mid_table(
    class: &ClassFile<'_>,
    profiled: &[usize],
    analysis: Analysis,
) -> Result<Vec<u8>, WarningReason> {
    let mut table = match analysis {
        Analysis::Default => b"default".to_vec(),
        Analysis::Precise => b"precise".to_vec(),
    };
    table.push(b'.');
    table.extend_from_slice(class.this_class_name());
    for &i in profiled {
        let method = &class.methods[i];
        if method.name.contains(&b'.') || method.descriptor.contains(&b'.') {
            return Err(WarningReason::Unsupported {
                what: "a method name or descriptor holds '.', which JVMS §4.2.2 forbids".to_owned(),
            });
        }
        let bound = method
            .attribute(names::CODE)
            .and_then(|raw| Code::from_raw(raw, &class.constant_pool).ok())
            .and_then(|code| jp_bytecode::insn::decode(code.code).ok())
            .map_or(0, |decoded| activation_bound(&decoded.insns));
        for part in [method.name, method.descriptor, bound.to_string().as_bytes()] {
            table.push(b'.');
            table.extend_from_slice(part);
        }
    }
    Ok(table)
}

/// An upper bound of the bytecodes a method runs between two activation
/// checks (entry and loop headers): a path without back edges runs each
/// instruction at most once, and once more per `jsr` that re-enters a
/// subroutine.
fn activation_bound(insns: &[Insn]) -> u32 {
    let instructions = insns.iter().filter(|i| !matches!(i, Insn::Label(_))).count() as u64;
    let jsrs = insns
        .iter()
        .filter(|i| matches!(i, Insn::Branch { opcode: op::JSR, .. }))
        .count() as u64;
    u32::try_from(instructions * (1 + jsrs))
        .unwrap_or(u32::MAX)
        .min(i32::MAX as u32)
}

/// One method to rewrite and where it sits.
struct Site<'c, 'a> {
    class: &'c ClassFile<'a>,
    method: &'c Member<'a>,
    code: &'c Code<'a>,
    /// Its index in the class's identifier table.
    index: usize,
    kind: Kind,
}

fn rewrite_method(
    site: &Site<'_, '_>,
    prologue: Vec<Insn>,
    refs: &Refs,
    analysis: Analysis,
    pool: &mut PoolBuilder<'_>,
) -> Result<Vec<u8>, WarningReason> {
    let mut body = MethodBody::open(site.class, site.method, site.code)?;
    let code_length = site.code.code.len() as u32;
    let blocks = blocks(&body, analysis);
    let headers = loop_headers(&body);
    let handler_starts: BTreeSet<u32> = body.handlers().iter().map(|h| h.handler.0).collect();
    let (returns, calls) = returns_and_calls(&body);
    let uninitialized = if site.kind == Kind::Constructor && body.has_frames() {
        uninitialized_this(&body, pool)?
    } else {
        Vec::new()
    };

    let rc_type = VType::Object(injected::RC_CLASS.as_bytes().into());
    let ic_type = VType::Object(injected::IC_CLASS.as_bytes().into());
    let rc = body.add_local(1)?;
    let ic = body.add_local(1)?;
    body.declare_local_in_frames(rc, &rc_type);
    body.declare_local_in_frames(ic, &ic_type);
    let saved = if site.kind == Kind::ClassInitializer {
        let saved = body.add_local(1)?;
        body.declare_local_in_frames(saved, &ic_type);
        Some(saved)
    } else {
        None
    };
    let aload = |index| Insn::Local {
        opcode: op::ALOAD,
        index,
    };
    let astore = |index| Insn::Local {
        opcode: op::ASTORE,
        index,
    };
    let invoke = |opcode, index| Insn::Ref { opcode, index };

    let mut entry = prologue;
    entry.extend([
        invoke(op::INVOKESTATIC, refs.rc_current),
        Insn::Plain(op::DUP),
        astore(rc),
    ]);
    let enter = match saved {
        Some(saved) => {
            entry.extend([
                Insn::Plain(op::DUP),
                invoke(op::GETFIELD, refs.rc_top),
                astore(saved),
            ]);
            refs.rc_enter_root
        }
        None if !calls && headers.is_empty() => refs.rc_enter_leaf,
        None => refs.rc_enter,
    };
    entry.extend([
        invoke(op::GETSTATIC, refs.mids),
        push_int(site.index as u32, pool)?,
        Insn::Plain(op::AALOAD),
        invoke(op::INVOKEVIRTUAL, enter),
        astore(ic),
    ]);
    body.insert_at_entry(entry);

    for block in &blocks {
        let count = vec![
            aload(ic),
            push_int(block.instructions, pool)?,
            invoke(op::INVOKEVIRTUAL, refs.ic_count),
        ];
        body.insert_before(block.start, count)?;
    }
    for &start in &handler_starts {
        body.insert_before(
            start,
            vec![aload(rc), aload(ic), invoke(op::INVOKEVIRTUAL, refs.rc_restore)],
        )?;
    }
    for &header in &headers {
        body.insert_before(
            header,
            vec![aload(rc), aload(ic), invoke(op::INVOKEVIRTUAL, refs.rc_poll)],
        )?;
    }
    let exit = match saved {
        Some(saved) => vec![
            aload(rc),
            aload(saved),
            invoke(op::INVOKEVIRTUAL, refs.rc_restore),
        ],
        None => vec![aload(rc), aload(ic), invoke(op::INVOKEVIRTUAL, refs.rc_exit)],
    };
    for &pc in &returns {
        body.insert_before(pc, exit.clone())?;
    }

    // The catch-all handlers, one per run of instructions with the same
    // state of `this`, appended after the original code.
    let mut locals = vec![VType::Top; usize::from(rc)];
    locals.extend([rc_type, ic_type.clone()]);
    if saved.is_some() {
        locals.push(ic_type);
    }
    let mut rethrow = exit;
    rethrow.push(Insn::Plain(op::ATHROW));
    let handler_for = |this_uninitialized: bool, body: &mut MethodBody<'_>| -> Result<Label, WarningReason> {
        let label = body.new_label();
        let mut slots = locals.clone();
        if this_uninitialized {
            slots[0] = VType::UninitializedThis;
        }
        body.add_frame(
            label,
            Frame {
                locals: from_slots(&slots),
                stack: vec![VType::Object(b"java/lang/Throwable".as_slice().into())],
            },
        );
        let mut code = vec![Insn::Label(label)];
        code.extend(rethrow.iter().cloned());
        body.append(code, 1, pool)?;
        Ok(label)
    };
    let mut labels: [Option<Label>; 2] = [None, None];
    for (start, end, this_uninitialized) in handler_ranges(&uninitialized, code_length) {
        let slot = usize::from(this_uninitialized);
        let handler = match labels[slot] {
            Some(label) => label,
            None => *labels[slot].insert(handler_for(this_uninitialized, &mut body)?),
        };
        body.add_handler(Handler {
            start: Label(start),
            end: Label(end),
            handler,
            catch_type: CpIndex(0),
        });
    }
    Ok(body.encode(pool)?)
}

/// The pcs of return instructions, and whether the method calls anything.
fn returns_and_calls(body: &MethodBody<'_>) -> (Vec<u32>, bool) {
    let mut returns = Vec::new();
    let mut calls = false;
    let mut pc = 0;
    for insn in body.instructions() {
        match insn {
            Insn::Label(label) => pc = label.0,
            Insn::Plain(op::IRETURN..=op::RETURN) => returns.push(pc),
            Insn::Ref {
                opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
                ..
            }
            | Insn::InvokeInterface { .. }
            | Insn::InvokeDynamic { .. } => calls = true,
            _ => {}
        }
    }
    (returns, calls)
}

/// For each original instruction of a constructor, its pc and the state
/// of `this` the catch-all that covers it must declare: `Some(true)` while
/// `this` is uninitialised, `Some(false)` once it is, and `None` for the
/// `super(...)`/`this(...)` call itself, which no handler can cover: HotSpot
/// checks the handlers of that call against both its state before
/// (`uninitializedThis`, flagged) and after (`this` initialised, still
/// flagged), and no frame accepts both. An exception thrown by the
/// superclass constructor therefore leaves `rc.top` at this constructor's
/// context until an instrumented frame handles or passes it on.
///
/// # Errors
/// Code no frame describes, or `this` moved out of local 0 while
/// uninitialised: the handler's frame could not be written.
fn uninitialized_this(
    body: &MethodBody<'_>,
    pool: &PoolBuilder<'_>,
) -> Result<Vec<(u32, Option<bool>)>, WarningReason> {
    let unsupported = |pc: u32, what: &str| WarningReason::Unsupported {
        what: format!("{what} at pc {pc} of a constructor"),
    };
    let mut out = Vec::new();
    for (pc, frame) in body.instruction_frames(pool)? {
        let mut frame = frame.ok_or_else(|| unsupported(pc, "code that no stack map frame describes"))?;
        let before = frame.locals.contains(&VType::UninitializedThis);
        let insn = body
            .instruction_at(pc)
            .expect("instruction_frames lists instruction starts");
        jp_bytecode::simulate::step(insn, Label(pc), &mut frame, pool, body.this_class())?;
        let after = frame.locals.contains(&VType::UninitializedThis);
        if after && frame.locals.first() != Some(&VType::UninitializedThis) {
            return Err(unsupported(pc, "an uninitialised `this` outside local 0"));
        }
        out.push((pc, (before == after).then_some(after)));
    }
    Ok(out)
}

/// The catch-all ranges `(start, end, this uninitialised)` covering the
/// original code but the instructions marked `None`: one per run of
/// instructions alike. Without marks, one range covers everything.
fn handler_ranges(uninitialized: &[(u32, Option<bool>)], code_length: u32) -> Vec<(u32, u32, bool)> {
    if uninitialized.is_empty() {
        return vec![(0, code_length, false)];
    }
    let mut ranges: Vec<(u32, u32, bool)> = Vec::new();
    let mut open: Option<(u32, bool)> = None;
    for &(pc, state) in uninitialized {
        if open.map(|(_, s)| Some(s)) != Some(state) {
            if let Some((start, s)) = open.take() {
                ranges.push((start, pc, s));
            }
            open = state.map(|s| (pc, s));
        }
    }
    ranges.extend(open.map(|(start, s)| (start, code_length, s)));
    ranges
}

/// The shortest instruction that pushes `value`.
fn push_int(value: u32, pool: &mut PoolBuilder<'_>) -> Result<Insn, ClassFileError> {
    Ok(match value {
        0..=5 => Insn::Plain(op::ICONST_0 + value as u8),
        6..=127 => Insn::Bipush(value as i8),
        128..=32767 => Insn::Sipush(value as i16),
        _ => Insn::Ldc {
            index: pool.add(Constant::Integer(value as i32))?,
            category2: false,
        },
    })
}

/// Adds the identifier field, a `<clinit>` that sets it when the class has
/// none (with the original default `serialVersionUID` kept where that
/// changes it), and the marker.
fn add_members<'a>(
    class: &'a ClassFile<'a>,
    writer: &mut ClassWriter<'a>,
    add_initializer: bool,
    set_mids: &SetMids,
) -> jp_classfile::Result<()> {
    let is_interface = class.access_flags & ACC_INTERFACE != 0;
    let (name, descriptor) = injected::MIDS_FIELD;
    let field = MemberOut::Built {
        access_flags: if is_interface {
            injected::MIDS_FIELD_INTERFACE_FLAGS
        } else {
            injected::MIDS_FIELD_FLAGS
        },
        name_index: writer.constant_pool.add_utf8(name)?,
        descriptor_index: writer.constant_pool.add_utf8(descriptor)?,
        attributes: Vec::new(),
    };
    writer.fields.push(field);

    if add_initializer {
        if let Some(uid) = suid::uid_to_keep(class)? {
            let (name, descriptor) = injected::SERIAL_VERSION_UID;
            let value = writer.constant_pool.add(Constant::Long(uid))?;
            let mut info = Vec::new();
            info.put_u2(value.0);
            let field = MemberOut::Built {
                access_flags: injected::SERIAL_VERSION_UID_FLAGS,
                name_index: writer.constant_pool.add_utf8(name)?,
                descriptor_index: writer.constant_pool.add_utf8(descriptor)?,
                attributes: vec![AttributeOut::Built {
                    name_index: writer.constant_pool.add_utf8("ConstantValue")?,
                    info,
                }],
            };
            writer.fields.push(field);
        }
        let code = set_mids.initializer_code();
        let mut info = Vec::new();
        info.put_u2(1); // max_stack
        info.put_u2(0); // max_locals
        info.put_u4(code.len() as u32);
        info.put_bytes(&code);
        info.put_u2(0); // exception_table_length
        info.put_u2(0); // attributes_count
        writer.methods.push(MemberOut::Built {
            access_flags: ACC_STATIC,
            name_index: writer.constant_pool.add_utf8("<clinit>")?,
            descriptor_index: writer.constant_pool.add_utf8("()V")?,
            attributes: vec![AttributeOut::Built {
                name_index: writer.constant_pool.add_utf8("Code")?,
                info,
            }],
        });
    }

    writer.attributes.push(AttributeOut::Built {
        name_index: writer.constant_pool.add_utf8(injected::MARKER_ATTRIBUTE)?,
        info: Vec::new(),
    });
    Ok(())
}

/// The code that sets the identifier field: `MIDS = MID.table("...")`.
struct SetMids {
    /// The `String` constant of the table.
    table: CpIndex,
    /// `MID.table`.
    mid_table: CpIndex,
    /// The field.
    field: CpIndex,
}

impl SetMids {
    /// As instructions, to insert at the start of an existing `<clinit>`.
    fn insns(&self) -> Vec<Insn> {
        vec![
            Insn::Ldc {
                index: self.table,
                category2: false,
            },
            Insn::Ref {
                opcode: op::INVOKESTATIC,
                index: self.mid_table,
            },
            Insn::Ref {
                opcode: op::PUTSTATIC,
                index: self.field,
            },
        ]
    }

    /// As the whole code of a new `<clinit>`.
    fn initializer_code(&self) -> Vec<u8> {
        let mut code = Vec::with_capacity(10);
        code.put_u1(op::LDC_W);
        code.put_u2(self.table.0);
        code.put_u1(op::INVOKESTATIC);
        code.put_u2(self.mid_table.0);
        code.put_u1(op::PUTSTATIC);
        code.put_u2(self.field.0);
        code.put_u1(op::RETURN);
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_classfile::ConstantLookup;

    fn testdata(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../classfile/testdata")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn profile(bytes: &[u8]) -> Vec<u8> {
        let rewritten = profile_class(bytes, ProfileOptions::default()).unwrap();
        assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
        rewritten.bytes.expect("rewritten")
    }

    /// The instructions of `method`'s code.
    fn code_of<'a>(class: &'a ClassFile<'a>, name: &str) -> (Code<'a>, Vec<Insn>) {
        let method = class
            .methods
            .iter()
            .find(|m| m.name == name.as_bytes())
            .unwrap_or_else(|| panic!("no method {name}"));
        let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
        let insns = jp_bytecode::insn::decode(code.code).unwrap().insns;
        (code, insns)
    }

    fn calls(class: &ClassFile<'_>, insns: &[Insn], target: (&str, &str)) -> usize {
        insns
            .iter()
            .filter(|insn| match insn {
                Insn::Ref { index, .. } => class
                    .constant_pool
                    .member_ref(*index)
                    .is_ok_and(|(_, n, d)| n == target.0.as_bytes() && d == target.1.as_bytes()),
                _ => false,
            })
            .count()
    }

    #[test]
    fn every_method_with_code_enters_its_context_and_leaves_it_at_every_return() {
        let original = testdata("java8/AllInstructions.class");
        let bytes = profile(&original);
        let class = ClassFile::parse(&bytes).unwrap();
        let before = ClassFile::parse(&original).unwrap();
        for method in before
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let name = mutf8::to_str_lossy(method.name);
            let (_, original_insns) = code_of(&before, &name);
            let (code, insns) = code_of(&class, &name);
            let returns = original_insns
                .iter()
                .filter(|i| matches!(i, Insn::Plain(op::IRETURN..=op::RETURN)))
                .count();
            assert_eq!(calls(&class, &insns, injected::RC_CURRENT), 1, "{name}");
            let exits =
                calls(&class, &insns, injected::RC_EXIT) + calls(&class, &insns, injected::RC_RESTORE);
            assert!(exits > returns, "{name}: {exits} exits for {returns} returns");
            let catch_all = code.exception_table.last().expect("a catch-all handler");
            assert_eq!(catch_all.catch_type, CpIndex(0), "{name}");
        }
        // The identifier field (and, as the class is serializable and had no
        // initializer, the pinned serialVersionUID), and the marker.
        let added: Vec<&[u8]> = class.fields[before.fields.len()..]
            .iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(added, [injected::MIDS_FIELD.0.as_bytes(), b"serialVersionUID"]);
        assert!(class.attribute(injected::MARKER_ATTRIBUTE.as_bytes()).is_some());
    }

    #[test]
    fn the_same_input_gives_the_same_bytes() {
        let original = testdata("java17/TryCatchFinally.class");
        assert_eq!(profile(&original), profile(&original));
    }

    #[test]
    fn an_instrumented_class_is_refused() {
        let once = profile(&testdata("java17/Records.class"));
        assert!(matches!(
            profile_class(&once, ProfileOptions::default()),
            Err(InstrumentError::AlreadyInstrumented)
        ));
    }

    #[test]
    fn module_info_is_left_as_it_was() {
        let rewritten = profile_class(
            &testdata("java17/module/module-info.class"),
            ProfileOptions::default(),
        )
        .unwrap();
        assert_eq!(
            rewritten,
            Rewritten {
                bytes: None,
                warnings: Vec::new()
            }
        );
    }

    #[test]
    fn the_identifier_table_names_the_analysis_the_class_and_each_method_with_its_bound() {
        let original = testdata("java8/Interfaces.class");
        let class = ClassFile::parse(&original).unwrap();
        let profiled: Vec<usize> = (0..class.methods.len())
            .filter(|&i| class.methods[i].attribute(names::CODE).is_some())
            .collect();
        let table = String::from_utf8(mid_table(&class, &profiled, Analysis::Precise).unwrap()).unwrap();
        let parts: Vec<&str> = table.split('.').collect();
        assert_eq!(parts[0], "precise");
        assert_eq!(parts[1], "Interfaces");
        assert_eq!(parts.len(), 2 + 3 * profiled.len());
        for (chunk, &i) in parts[2..].chunks(3).zip(&profiled) {
            assert_eq!(chunk[0].as_bytes(), class.methods[i].name);
            assert_eq!(chunk[1].as_bytes(), class.methods[i].descriptor);
            assert!(chunk[2].parse::<u32>().unwrap() > 0);
        }
    }

    #[test]
    fn no_handler_covers_the_super_call_of_a_constructor() {
        let bytes = profile(&testdata("java17/Nested$Inner.class"));
        let class = ClassFile::parse(&bytes).unwrap();
        let (code, insns) = code_of(&class, "<init>");
        let mut pc = 0;
        let mut super_call = None;
        for insn in &insns {
            match insn {
                Insn::Label(label) => pc = label.0,
                Insn::Ref {
                    opcode: op::INVOKESPECIAL,
                    ..
                } if super_call.is_none() => super_call = Some(pc),
                _ => {}
            }
        }
        let super_call = super_call.expect("a super(...) call") as u16;
        let catch_alls: Vec<_> = code
            .exception_table
            .iter()
            .filter(|h| h.catch_type.is_none())
            .collect();
        assert_eq!(catch_alls.len(), 2, "one before the call, one after");
        assert!(catch_alls
            .iter()
            .all(|h| !(h.start_pc..h.end_pc).contains(&super_call)));
    }

    #[test]
    fn a_class_without_an_initializer_gets_one_and_keeps_its_serial_version_uid() {
        let original = testdata("java8/Generics$Named.class");
        let before = ClassFile::parse(&original).unwrap();
        assert!(!before.methods.iter().any(|m| m.name == b"<clinit>"));
        let uid = suid::default_uid(&before).unwrap();
        let bytes = profile(&original);
        let after = ClassFile::parse(&bytes).unwrap();
        assert!(after.methods.iter().any(|m| m.name == b"<clinit>"));
        let field = after
            .fields
            .iter()
            .find(|f| f.name == b"serialVersionUID")
            .expect("serialVersionUID added");
        let value = field.attribute(b"ConstantValue").unwrap();
        let index = CpIndex(u16::from_be_bytes([value.info[0], value.info[1]]));
        assert_eq!(after.constant_pool.get(index), Some(&Constant::Long(uid)));
    }
}
