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
//!
//! Where the class loader cannot see the runtime, setting, building or
//! looking up the identifiers throws a `LinkageError`, which is caught
//! ([`super::no_runtime`]): the table stays `null`, or the lookup gives
//! `null`, and the methods run without a context. A class whose methods may
//! run early also gets a `boolean` field that its initializer sets then, so
//! that those methods stop trying to build the table once the initializer
//! found the runtime missing. An interface has nowhere to keep that: each
//! call of one of its methods tries the lookup again and catches the error.

use jp_bytecode::frame::{Frame, VType};
use jp_bytecode::insn::Decoded;
use jp_bytecode::opcode as op;
use jp_bytecode::simulate::StackEffects;
use jp_bytecode::{Insn, MethodBody};
use jp_classfile::access::{ACC_INTERFACE, ACC_STATIC};
use jp_classfile::attributes::Code;
use jp_classfile::{
    tag, AttributeOut, ClassFile, ClassWriter, Constant, CpIndex, Member, MemberOut, PoolBuilder,
};

use super::no_runtime::NoRuntime;
use super::{add_member_ref, ProfileOptions};
use crate::blocks::Analysis;
use crate::{injected, suid, WarningReason};

/// Where the methods of one class find their identifiers, and what they do
/// where the runtime cannot be reached.
pub(super) struct MethodIds {
    source: Source,
    no_runtime: NoRuntime,
}

/// Where the identifiers are.
enum Source {
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
    /// The class `MID[]`, which the field's `Object[]` is cast to.
    mid_array: CpIndex,
    /// When the class's methods may run before its initializer sets the
    /// table (it has a superclass other than `Object` or a superinterface,
    /// whose initialization comes first): the field that records that the
    /// initializer found the runtime unreachable.
    no_runtime_field: Option<CpIndex>,
}

impl MethodIds {
    /// Adds the constants the identifiers of `profiled` (indices into the
    /// class's methods, with their [`activation_bound`]s in `bounds`) need.
    pub(super) fn add(
        class: &ClassFile<'_>,
        (profiled, bounds): (&[usize], &[u32]),
        options: &ProfileOptions,
        (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
    ) -> Result<MethodIds, WarningReason> {
        let no_runtime = NoRuntime::add(class, (&mut *pool, &mut *effects))?;
        let source = Self::add_source(class, (profiled, bounds), options, (pool, effects))?;
        Ok(MethodIds { source, no_runtime })
    }

    fn add_source(
        class: &ClassFile<'_>,
        (profiled, bounds): (&[usize], &[u32]),
        options: &ProfileOptions,
        (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
    ) -> Result<Source, WarningReason> {
        if class.access_flags & ACC_INTERFACE != 0 {
            let mut keys = Vec::with_capacity(profiled.len());
            for (&i, &bound) in profiled.iter().zip(bounds) {
                let mut key = table_prefix(class, options);
                key.extend_from_slice(&method_entry(class, i, bound)?);
                if key.len() > usize::from(u16::MAX) {
                    return Err(WarningReason::Unsupported {
                        what: "a method identifier longer than a string constant can hold".to_owned(),
                    });
                }
                let string = pool.add(Constant::Utf8(&key))?;
                keys.push(pool.add(Constant::String { string })?);
            }
            let (name, descriptor) = injected::MID_METHOD;
            return Ok(Source::Lookup {
                keys,
                mid_method: add_member_ref(
                    (pool, effects),
                    tag::METHODREF,
                    injected::MID_CLASS.as_bytes(),
                    (name.as_bytes(), descriptor.as_bytes()),
                )?,
            });
        }
        let mut constants = Vec::new();
        for chunk in split_at_dots(
            &table_string(class, (profiled, bounds), options)?,
            usize::from(u16::MAX),
        ) {
            let string = pool.add(Constant::Utf8(chunk))?;
            constants.push(pool.add(Constant::String { string })?);
        }
        let (name, descriptor) = injected::MIDS_FIELD;
        let (table_name, table_descriptor) = injected::MID_TABLE;
        let may_run_early =
            class.super_class_name() != Some(b"java/lang/Object".as_slice()) || !class.interfaces.is_empty();
        let (no_runtime_name, no_runtime_descriptor) = injected::NO_RUNTIME_FIELD;
        Ok(Source::Table(TableField {
            table: constants,
            concat: add_member_ref(
                (&mut *pool, &mut *effects),
                tag::METHODREF,
                b"java/lang/String",
                (b"concat", b"(Ljava/lang/String;)Ljava/lang/String;"),
            )?,
            mid_table: add_member_ref(
                (&mut *pool, &mut *effects),
                tag::METHODREF,
                injected::MID_CLASS.as_bytes(),
                (table_name.as_bytes(), table_descriptor.as_bytes()),
            )?,
            field: add_member_ref(
                (&mut *pool, &mut *effects),
                tag::FIELDREF,
                class.this_class_name(),
                (name.as_bytes(), descriptor.as_bytes()),
            )?,
            mid_array: pool.add_class(injected::MID_ARRAY)?,
            no_runtime_field: if may_run_early {
                Some(add_member_ref(
                    (pool, effects),
                    tag::FIELDREF,
                    class.this_class_name(),
                    (no_runtime_name.as_bytes(), no_runtime_descriptor.as_bytes()),
                )?)
            } else {
                None
            },
        }))
    }

    /// The type of what [`MethodIds::push_source`] pushes.
    pub(super) fn source_type(&self) -> VType {
        match &self.source {
            Source::Table(_) => VType::Object(injected::MIDS_FIELD.1.as_bytes().into()),
            Source::Lookup { .. } => VType::Object(injected::MID_CLASS.as_bytes().into()),
        }
    }

    /// Code, to run where the stack is empty and the locals are `locals`,
    /// that pushes where the `k`-th profiled method finds its identifier
    /// (the class's table, an interface method's identifier itself), or
    /// `null` where the runtime cannot be reached. In the class
    /// initializer (`in_initializer`), after its prologue, the table is as
    /// it will stay.
    pub(super) fn push_source(
        &self,
        k: usize,
        in_initializer: bool,
        body: &mut MethodBody<'_>,
        locals: &[VType],
    ) -> Result<Vec<Insn>, WarningReason> {
        match &self.source {
            Source::Lookup { keys, mid_method } => {
                let tried = vec![
                    Insn::Ldc {
                        index: keys[k],
                        category2: false,
                    },
                    Insn::Ref {
                        opcode: op::INVOKESTATIC,
                        index: *mid_method,
                    },
                ];
                let mut caught = self.no_runtime.warn(body, locals)?;
                caught.push(Insn::Plain(op::ACONST_NULL));
                self.no_runtime
                    .try_or(body, locals, tried, caught, self.source_type())
            }
            Source::Table(table) => {
                let mut code = vec![Insn::Ref {
                    opcode: op::GETSTATIC,
                    index: table.field,
                }];
                if let (Some(no_runtime_field), false) = (table.no_runtime_field, in_initializer) {
                    code.extend(self.build_early(table, no_runtime_field, body, locals)?);
                }
                Ok(code)
            }
        }
    }

    /// With the table on the stack: `mids != null || $jp$noruntime ? mids :
    /// MID.table(...)`, `null` where that throws a `LinkageError`.
    fn build_early(
        &self,
        table: &TableField,
        no_runtime_field: CpIndex,
        body: &mut MethodBody<'_>,
        locals: &[VType],
    ) -> Result<Vec<Insn>, WarningReason> {
        let [set, none, start, end, handler] = [(); 5].map(|()| body.new_label());
        let frame = |stack: Vec<VType>| Frame {
            locals: locals.to_vec(),
            stack,
        };
        body.add_frame(set, frame(vec![self.source_type()]))?;
        body.add_frame(none, frame(Vec::new()))?;
        self.no_runtime.catch(body, [start, end, handler], locals)?;
        let mut code = vec![
            Insn::Plain(op::DUP),
            Insn::Branch {
                opcode: op::IFNONNULL,
                target: set,
            },
            Insn::Plain(op::POP),
            Insn::Ref {
                opcode: op::GETSTATIC,
                index: no_runtime_field,
            },
            Insn::Branch {
                opcode: op::IFNE,
                target: none,
            },
            Insn::Label(start),
        ];
        code.extend(table.table_code());
        code.extend([
            Insn::Label(end),
            Insn::Branch {
                opcode: op::GOTO,
                target: set,
            },
            // The error, then nothing, then `null`: each label where the
            // stack holds what the code before it leaves.
            Insn::Label(handler),
            Insn::Plain(op::POP),
            Insn::Label(none),
            Insn::Plain(op::ACONST_NULL),
            Insn::Label(set),
        ]);
        Ok(code)
    }

    /// Code that takes a non-null source (see [`MethodIds::push_source`])
    /// to the `k`-th profiled method's identifier.
    pub(super) fn resolve(&self, k: usize, pool: &mut PoolBuilder<'_>) -> Result<Vec<Insn>, WarningReason> {
        Ok(match &self.source {
            Source::Lookup { .. } => Vec::new(),
            Source::Table(table) => vec![
                Insn::Ref {
                    opcode: op::CHECKCAST,
                    index: table.mid_array,
                },
                super::method::push_int(k as u32, pool)?,
                Insn::Plain(op::AALOAD),
            ],
        })
    }

    /// Code to run first in a class initializer, where the stack is empty
    /// and the locals are `locals`: sets the table, or, where the runtime
    /// cannot be reached, warns and records that.
    pub(super) fn initializer_prologue(
        &self,
        body: &mut MethodBody<'_>,
        locals: &[VType],
    ) -> Result<Vec<Insn>, WarningReason> {
        let Source::Table(table) = &self.source else {
            return Ok(Vec::new());
        };
        let mut caught = self.no_runtime.warn(body, locals)?;
        if let Some(no_runtime_field) = table.no_runtime_field {
            caught.extend([
                Insn::Plain(op::ICONST_0 + 1),
                Insn::Ref {
                    opcode: op::PUTSTATIC,
                    index: no_runtime_field,
                },
            ]);
        }
        caught.push(Insn::Plain(op::ACONST_NULL));
        let mut code =
            self.no_runtime
                .try_or(body, locals, table.table_code(), caught, self.source_type())?;
        code.push(Insn::Ref {
            opcode: op::PUTSTATIC,
            index: table.field,
        });
        Ok(code)
    }

    /// Adds the members the identifiers live in: for a class, the field(s),
    /// with an initializer (and the pinned `serialVersionUID`) when the
    /// class has none; for an interface, nothing.
    pub(super) fn finish<'a>(
        &self,
        class: &'a ClassFile<'a>,
        (writer, effects): (&mut ClassWriter<'a>, &mut StackEffects),
        has_initializer: bool,
    ) -> Result<(), WarningReason> {
        match &self.source {
            Source::Lookup { .. } => Ok(()),
            Source::Table(table) => self.add_table_fields(class, (writer, effects), has_initializer, table),
        }
    }

    /// Adds the identifier field (and the no-runtime one) and, when the
    /// class has no initializer, one that sets it (with the original
    /// default `serialVersionUID` pinned where that would change it).
    fn add_table_fields<'a>(
        &self,
        class: &'a ClassFile<'a>,
        (writer, effects): (&mut ClassWriter<'a>, &mut StackEffects),
        has_initializer: bool,
        table: &TableField,
    ) -> Result<(), WarningReason> {
        let mut fields = vec![(injected::MIDS_FIELD, injected::MIDS_FIELD_FLAGS)];
        if table.no_runtime_field.is_some() {
            fields.push((injected::NO_RUNTIME_FIELD, injected::NO_RUNTIME_FIELD_FLAGS));
        }
        for ((name, descriptor), access_flags) in fields {
            let field = MemberOut::Built {
                access_flags,
                name_index: writer.constant_pool.add_utf8(name)?,
                descriptor_index: writer.constant_pool.add_utf8(descriptor)?,
                attributes: Vec::new(),
            };
            writer.fields.push(field);
        }
        if has_initializer {
            return Ok(());
        }
        if let Some(uid) = suid::uid_to_keep(class)? {
            let (name, descriptor) = injected::SERIAL_VERSION_UID;
            let value = writer.constant_pool.add(Constant::Long(uid))?;
            let field = MemberOut::Built {
                access_flags: injected::SERIAL_VERSION_UID_FLAGS,
                name_index: writer.constant_pool.add_utf8(name)?,
                descriptor_index: writer.constant_pool.add_utf8(descriptor)?,
                attributes: vec![AttributeOut::Built {
                    name_index: writer.constant_pool.add_utf8("ConstantValue")?,
                    info: value.0.to_be_bytes().to_vec(),
                }],
            };
            writer.fields.push(field);
        }
        // An initializer that only returns, with the prologue inserted.
        let initializer = Member {
            access_flags: ACC_STATIC,
            name_index: CpIndex(0),
            name: b"<clinit>",
            descriptor_index: CpIndex(0),
            descriptor: b"()V",
            attributes: Vec::new(),
            bytes: &[],
            offset: 0,
        };
        let code = Code {
            max_stack: 0,
            max_locals: 0,
            code: &[op::RETURN],
            code_offset: 0,
            exception_table: Vec::new(),
            attributes: Vec::new(),
        };
        let mut body = MethodBody::open(class, &initializer, &code)?;
        let prologue = self.initializer_prologue(&mut body, &[])?;
        body.insert_at_entry(prologue);
        let info = body.encode_with(&mut writer.constant_pool, effects)?;
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
}

/// The analysis as tables name it: `default` or `precise`, followed by
/// `+sites` with call sites, whose methods' contexts the runtime makes
/// apart (and so gives them identifiers of their own), and by `+extra`
/// when contexts count more than calls and bytecodes (lines, allocations,
/// probes): only those contexts get the runtime's fields for them.
fn analysis_name(options: &ProfileOptions) -> String {
    let blocks = match options.analysis {
        Analysis::Default => "default",
        Analysis::Precise => "precise",
    };
    let sites = if options.call_sites { "+sites" } else { "" };
    let counts_more = options.lines || options.allocations || !options.probes.is_empty();
    let extra = if counts_more { "+extra" } else { "" };
    format!("{blocks}{sites}{extra}")
}

/// The argument of `MID.table`: `bba.class.name.descriptor.bound...`.
pub(super) fn table_string(
    class: &ClassFile<'_>,
    (profiled, bounds): (&[usize], &[u32]),
    options: &ProfileOptions,
) -> Result<Vec<u8>, WarningReason> {
    let mut table = table_prefix(class, options);
    for (&i, &bound) in profiled.iter().zip(bounds) {
        table.extend_from_slice(&method_entry(class, i, bound)?);
    }
    Ok(table)
}

/// `bba.class`: what every identifier of a class starts with.
fn table_prefix(class: &ClassFile<'_>, options: &ProfileOptions) -> Vec<u8> {
    let mut prefix = analysis_name(options).into_bytes();
    prefix.push(b'.');
    prefix.extend_from_slice(class.this_class_name());
    prefix
}

/// `.name.descriptor.bound` of the `i`-th method.
fn method_entry(class: &ClassFile<'_>, i: usize, bound: u32) -> Result<Vec<u8>, WarningReason> {
    let method = &class.methods[i];
    if method.name.contains(&b'.') || method.descriptor.contains(&b'.') {
        return Err(WarningReason::Unsupported {
            what: "a method name or descriptor holds '.', which JVMS §4.2.2 forbids".to_owned(),
        });
    }
    let bound = bound.to_string();
    let mut entry = Vec::new();
    for part in [method.name, method.descriptor, bound.as_bytes()] {
        entry.push(b'.');
        entry.extend_from_slice(part);
    }
    Ok(entry)
}

/// An upper bound of the bytecodes a method runs between two activation
/// checks (entry and loop headers): a path without back edges runs each
/// instruction at most once, and once more per `jsr` that re-enters a
/// subroutine. 0 for code that does not decode (`None`: the method is then
/// kept as it was anyway).
pub(super) fn activation_bound(decoded: Option<&Decoded>) -> u32 {
    let Some(counts) = decoded.map(Decoded::counts) else {
        return 0;
    };
    u32::try_from(counts.instructions * (1 + counts.jsrs))
        .unwrap_or(u32::MAX)
        .min(i32::MAX as u32)
}

impl TableField {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_analysis_flags_extra_contexts_only_where_more_than_calls_and_bytecodes_count() {
        let name = |options: ProfileOptions| analysis_name(&options);
        assert_eq!(name(ProfileOptions::default()), "default");
        let precise = ProfileOptions {
            analysis: Analysis::Precise,
            natives: true,
            ..ProfileOptions::default()
        };
        assert_eq!(name(precise.clone()), "precise");
        let lines = ProfileOptions {
            lines: true,
            ..precise.clone()
        };
        assert_eq!(name(lines), "precise+extra");
        let sites_and_allocations = ProfileOptions {
            call_sites: true,
            allocations: true,
            ..precise
        };
        assert_eq!(name(sites_and_allocations), "precise+sites+extra");
    }

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
