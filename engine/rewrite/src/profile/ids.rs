//! Method identifiers: how instrumented code gets the `MID` of its method.
//!
//! No `CONSTANT_Dynamic` is used: tools that read classes at run time with
//! an older ASM API level (Mockito 2's inline mock maker, JMockit,
//! PowerMock, AspectJ before 1.9.8) fail on an `ldc` of one. Instead:
//!
//! - A class gets a private synthetic static array field holding its
//!   identifiers. It is set at the very start of `<clinit>` (one is added
//!   when the class has none). Adding an initializer changes the default
//!   `serialVersionUID`, so the original value is pinned (see [`crate::suid`]).
//!   The class's methods can still run before that: initialising a class
//!   first initialises its superclass and superinterfaces (JVMS §5.5), and
//!   their static initializers, on the same thread, may create an instance
//!   of the class or call its methods while its own `<clinit>` has not
//!   begun (`class S { static S s = new C(); }` with `class C extends S`).
//!   So in a class that has a superclass other than `Object` or any
//!   superinterface, a method that finds the field still `null` builds the
//!   table itself from the same constants (`MID.table` gives the same
//!   identifiers every time), which costs one branch on the usual path.
//! - An interface gets no member at all: its fields would have to be
//!   public (JVMS §4.5), and reflection (`getFields()` of the interface and
//!   of every implementing class) would see them. Each of its methods
//!   instead loads a string constant naming itself and asks the runtime
//!   for the identifier (`MID.method`, a lookup in a map keyed by that
//!   string). Interfaces have few methods with code, so the lookup's cost
//!   stays small.
//!
//! Either way the runtime keeps one identifier per method name, whatever
//! class loader loads the class: reloading a class reuses its identifiers
//! and so its calling contexts.

use jp_bytecode::frame::{Frame, VType};
use jp_bytecode::opcode as op;
use jp_bytecode::{Insn, MethodBody};
use jp_classfile::access::{ACC_INTERFACE, ACC_STATIC};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{tag, AttributeOut, ByteSink, ClassFile, ClassWriter, Constant, CpIndex, MemberOut};

use crate::blocks::Analysis;
use crate::{injected, suid, WarningReason};

/// Where the methods of one class find their identifiers.
pub(super) enum MethodIds {
    /// A class: the array field and the code that sets it.
    Table(TableField),
    /// An interface: per profiled method, the `String` constant that names
    /// it (`bba.class.name.descriptor.bound`), and `MID.method`.
    Lookup { keys: Vec<CpIndex>, mid_method: CpIndex },
}

/// The identifier array field of a class.
pub(super) struct TableField {
    /// The `String` constants whose concatenation is the table (see
    /// [`table_string`]): a constant holds at most 65535 bytes.
    table: Vec<CpIndex>,
    /// `String.concat`, to join them.
    concat: CpIndex,
    /// `MID.table`.
    mid_table: CpIndex,
    /// The field.
    field: CpIndex,
    /// Whether the class's methods may run before its initializer sets
    /// the field: it has a superclass other than `Object` or a
    /// superinterface, whose initialization comes first.
    may_run_early: bool,
}

/// What the frame holds where a method pushes its identifier (before it),
/// for the frame of the branch that skips building the table. `None` where
/// the field is known to be set: in the class initializer, after its
/// prologue.
pub(super) type FrameBefore = Option<Frame>;

impl MethodIds {
    /// Adds the constants the identifiers of `profiled` (indices into the
    /// class's methods) need.
    pub(super) fn add(
        class: &ClassFile<'_>,
        profiled: &[usize],
        analysis: Analysis,
        writer: &mut ClassWriter<'_>,
    ) -> Result<MethodIds, WarningReason> {
        let pool = &mut writer.constant_pool;
        if class.access_flags & ACC_INTERFACE != 0 {
            let mut keys = Vec::with_capacity(profiled.len());
            for &i in profiled {
                let mut key = table_prefix(class, analysis);
                key.extend_from_slice(&method_entry(class, i)?);
                if key.len() > usize::from(u16::MAX) {
                    return Err(WarningReason::Unsupported {
                        what: "a method identifier longer than a string constant can hold".to_owned(),
                    });
                }
                let string = pool.add(Constant::Utf8(&key))?;
                keys.push(pool.add(Constant::String { string })?);
            }
            let (name, descriptor) = injected::MID_METHOD;
            return Ok(MethodIds::Lookup {
                keys,
                mid_method: pool.add_member_ref(
                    tag::METHODREF,
                    injected::MID_CLASS.as_bytes(),
                    name.as_bytes(),
                    descriptor.as_bytes(),
                )?,
            });
        }
        let mut constants = Vec::new();
        for chunk in split_at_dots(&table_string(class, profiled, analysis)?, usize::from(u16::MAX)) {
            let string = pool.add(Constant::Utf8(chunk))?;
            constants.push(pool.add(Constant::String { string })?);
        }
        let (name, descriptor) = injected::MIDS_FIELD;
        let (table_name, table_descriptor) = injected::MID_TABLE;
        Ok(MethodIds::Table(TableField {
            table: constants,
            concat: pool.add_member_ref(
                tag::METHODREF,
                b"java/lang/String",
                b"concat",
                b"(Ljava/lang/String;)Ljava/lang/String;",
            )?,
            mid_table: pool.add_member_ref(
                tag::METHODREF,
                injected::MID_CLASS.as_bytes(),
                table_name.as_bytes(),
                table_descriptor.as_bytes(),
            )?,
            field: pool.add_member_ref(
                tag::FIELDREF,
                class.this_class_name(),
                name.as_bytes(),
                descriptor.as_bytes(),
            )?,
            may_run_early: class.super_class_name() != Some(b"java/lang/Object".as_slice())
                || !class.interfaces.is_empty(),
        }))
    }

    /// Code that pushes the identifier of the `k`-th profiled method, where
    /// the frame is `before` (see [`FrameBefore`]).
    pub(super) fn push(
        &self,
        k: usize,
        before: FrameBefore,
        body: &mut MethodBody<'_>,
        pool: &mut jp_classfile::PoolBuilder<'_>,
    ) -> Result<Vec<Insn>, WarningReason> {
        let index = super::method::push_int(k as u32, pool)?;
        Ok(match self {
            MethodIds::Lookup { keys, mid_method } => vec![
                Insn::Ldc {
                    index: keys[k],
                    category2: false,
                },
                Insn::Ref {
                    opcode: op::INVOKESTATIC,
                    index: *mid_method,
                },
            ],
            MethodIds::Table(table) => {
                let mut code = vec![Insn::Ref {
                    opcode: op::GETSTATIC,
                    index: table.field,
                }];
                if let (true, Some(before)) = (table.may_run_early, before) {
                    // `mids != null ? mids : MID.table(...)`
                    let set = body.new_label();
                    let mut stack = before.stack;
                    stack.push(VType::Object(injected::MIDS_FIELD.1.as_bytes().into()));
                    body.add_frame(
                        set,
                        Frame {
                            locals: before.locals,
                            stack,
                        },
                    )?;
                    code.extend([
                        Insn::Plain(op::DUP),
                        Insn::Branch {
                            opcode: op::IFNONNULL,
                            target: set,
                        },
                        Insn::Plain(op::POP),
                    ]);
                    code.extend(table.table_code());
                    code.push(Insn::Label(set));
                }
                code.extend([index, Insn::Plain(op::AALOAD)]);
                code
            }
        })
    }

    /// Code to run first in an existing static initializer.
    pub(super) fn initializer_prologue(&self) -> Vec<Insn> {
        match self {
            MethodIds::Lookup { .. } => Vec::new(),
            MethodIds::Table(table) => table.initializer_code(),
        }
    }

    /// Adds the members the identifiers live in: for a class, the field,
    /// with an initializer (and the pinned `serialVersionUID`) when the
    /// class has none; for an interface, nothing.
    pub(super) fn finish<'a>(
        self,
        class: &'a ClassFile<'a>,
        writer: &mut ClassWriter<'a>,
        has_initializer: bool,
    ) -> jp_classfile::Result<()> {
        match self {
            MethodIds::Lookup { .. } => Ok(()),
            MethodIds::Table(table) => add_table_field(class, writer, has_initializer, &table),
        }
    }
}

fn analysis_name(analysis: Analysis) -> &'static str {
    match analysis {
        Analysis::Default => "default",
        Analysis::Precise => "precise",
    }
}

/// The argument of `MID.table`: `bba.class.name.descriptor.bound...`.
pub(super) fn table_string(
    class: &ClassFile<'_>,
    profiled: &[usize],
    analysis: Analysis,
) -> Result<Vec<u8>, WarningReason> {
    let mut table = table_prefix(class, analysis);
    for &i in profiled {
        table.extend_from_slice(&method_entry(class, i)?);
    }
    Ok(table)
}

/// `bba.class`: what every identifier of a class starts with.
fn table_prefix(class: &ClassFile<'_>, analysis: Analysis) -> Vec<u8> {
    let mut prefix = analysis_name(analysis).as_bytes().to_vec();
    prefix.push(b'.');
    prefix.extend_from_slice(class.this_class_name());
    prefix
}

/// `.name.descriptor.bound` of the `i`-th method.
fn method_entry(class: &ClassFile<'_>, i: usize) -> Result<Vec<u8>, WarningReason> {
    let method = &class.methods[i];
    if method.name.contains(&b'.') || method.descriptor.contains(&b'.') {
        return Err(WarningReason::Unsupported {
            what: "a method name or descriptor holds '.', which JVMS §4.2.2 forbids".to_owned(),
        });
    }
    let bound = activation_bound_of(class, i).to_string();
    let mut entry = Vec::new();
    for part in [method.name, method.descriptor, bound.as_bytes()] {
        entry.push(b'.');
        entry.extend_from_slice(part);
    }
    Ok(entry)
}

/// An upper bound of the bytecodes the `i`-th method runs between two
/// activation checks (entry and loop headers): a path without back edges
/// runs each instruction at most once, and once more per `jsr` that
/// re-enters a subroutine. 0 for code that does not decode (the method is
/// then kept as it was anyway).
fn activation_bound_of(class: &ClassFile<'_>, i: usize) -> u32 {
    let Some(decoded) = class.methods[i]
        .attribute(names::CODE)
        .and_then(|raw| Code::from_raw(raw, &class.constant_pool).ok())
        .and_then(|code| jp_bytecode::insn::decode(code.code).ok())
    else {
        return 0;
    };
    let instructions = decoded.instructions().count() as u64;
    let jsrs = decoded
        .instructions()
        .filter(|(_, insn)| matches!(insn, Insn::Branch { opcode: op::JSR, .. }))
        .count() as u64;
    u32::try_from(instructions * (1 + jsrs))
        .unwrap_or(u32::MAX)
        .min(i32::MAX as u32)
}

impl TableField {
    /// `MIDS = MID.table("..." + "..." ...)`.
    fn initializer_code(&self) -> Vec<Insn> {
        let mut code = self.table_code();
        code.push(Insn::Ref {
            opcode: op::PUTSTATIC,
            index: self.field,
        });
        code
    }

    /// `MID.table("..." + "..." ...)`: pushes the class's identifiers.
    fn table_code(&self) -> Vec<Insn> {
        let mut code = Vec::with_capacity(2 * self.table.len() + 1);
        for (i, &index) in self.table.iter().enumerate() {
            code.push(Insn::Ldc {
                index,
                category2: false,
            });
            if i > 0 {
                code.push(Insn::Ref {
                    opcode: op::INVOKEVIRTUAL,
                    index: self.concat,
                });
            }
        }
        code.push(Insn::Ref {
            opcode: op::INVOKESTATIC,
            index: self.mid_table,
        });
        code
    }
}

/// Splits `text` into pieces of at most `limit` bytes, cutting only
/// before a `.` (so no modified UTF-8 sequence is cut).
fn split_at_dots(text: &[u8], limit: usize) -> Vec<&[u8]> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while rest.len() > limit {
        let cut = rest[..=limit]
            .iter()
            .rposition(|&b| b == b'.')
            .filter(|&cut| cut > 0)
            .unwrap_or(limit);
        pieces.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    pieces.push(rest);
    pieces
}

/// Adds the identifier field and, when the class has no initializer, one
/// that sets it (with the original default `serialVersionUID` pinned where
/// that would change it).
fn add_table_field<'a>(
    class: &'a ClassFile<'a>,
    writer: &mut ClassWriter<'a>,
    has_initializer: bool,
    table: &TableField,
) -> jp_classfile::Result<()> {
    let (name, descriptor) = injected::MIDS_FIELD;
    let field = MemberOut::Built {
        access_flags: injected::MIDS_FIELD_FLAGS,
        name_index: writer.constant_pool.add_utf8(name)?,
        descriptor_index: writer.constant_pool.add_utf8(descriptor)?,
        attributes: Vec::new(),
    };
    writer.fields.push(field);
    if has_initializer {
        return Ok(());
    }

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
    // The table code, then `return`. Every instruction has a two-byte operand.
    let mut code = Vec::new();
    for insn in table.initializer_code() {
        match insn {
            Insn::Ldc { index, .. } => {
                code.put_u1(op::LDC_W);
                code.put_u2(index.0);
            }
            Insn::Ref { opcode, index } => {
                code.put_u1(opcode);
                code.put_u2(index.0);
            }
            _ => unreachable!("initializer_code emits ldc and member references only"),
        }
    }
    code.put_u1(op::RETURN);
    let mut info = Vec::new();
    info.put_u2(2); // max_stack: two strings to concatenate
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_table_is_split_before_dots_into_pieces_within_the_limit() {
        let table = b"default.a/B.m.()V.1.n.(I)V.22";
        let pieces = split_at_dots(table, 8);
        assert!(pieces.iter().all(|p| p.len() <= 8), "{pieces:?}");
        assert!(pieces[1..].iter().all(|p| p.starts_with(b".")));
        assert_eq!(pieces.concat(), table);
        assert_eq!(split_at_dots(b"short", 8), [b"short"]);
    }
}
