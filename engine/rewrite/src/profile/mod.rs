//! The profiling scheme in its `thread` context-passing mode (docs/architecture.md, "The profiling scheme"):
//! every method with code builds its thread's calling-context tree, with
//! exact invocation and bytecode counts, and nothing about dispatch
//! changes (no descriptor changes, no added methods, call sites untouched).
//!
//! For each method with code it inserts, with `rc`, `ic` and `n` three new
//! locals (`n` the bytecodes counted and not yet added to the context):
//! ```text
//! entry:         rc = RC.current(); ic = rc.enter(MIDS[k]); n = 0   // or enterRoot
//! block start:   n += <instructions in the block>                   // iinc
//! handler start: rc.restore(ic)                                      // top = ic, whoever threw
//! loop header:   rc.poll(ic, n); n = 0                               // adds n; the agent's activation check
//! return:        rc.exit(ic, n); n = 0                               // adds n; top = ic.parent
//! catch-all:     rc.exit(ic, n); n = 0; athrow                       // appended, last in the table
//! ```
//! A leaf method (no calls, no loops, nothing whose resolution could run a
//! class loader or a bootstrap method) only finds its context with its first
//! block counted (`ic = RC.leaf(MIDS[k], size)`, and no `ic` at all when that
//! is its only block) and adds each later block's size with `ic.count(size)`
//! at the block's start: it never becomes the current context, so it needs no
//! exit code and no handler, and no local count to flush.
//! A static initializer is a top-level context (`rc.enterRoot`): it saves
//! `rc.top` in a fourth local, and every exit adds `n` with `ic.count(n)`
//! and restores the saved top. Constructors add `n` before their
//! `super(...)`/`this(...)` call, which no handler can cover, and get a second
//! catch-all for the code before `super(...)`/`this(...)`, whose frame keeps
//! `uninitializedThis` as the verifier requires (see `method::uninitialized_this`).
//!
//! How a method finds its identifier (`MIDS[k]` above) depends on the
//! class-file version: see [`ids`].
//!
//! Where the class loader cannot see the runtime, the identifiers are
//! `null` ([`no_runtime`]): the entry then sets `rc` and `ic` to `null`
//! without calling the runtime, and every later runtime call is skipped
//! behind `if (ic != null)`, so the method runs as the original.
//!
//! With [`ProfileOptions::natives`] (the load-time agent), each native method
//! first gets a Java method in its place that calls it under a new name
//! ([`natives`]), and that method is rewritten as the others are, counting
//! no bytecodes.

mod allocations;
mod ids;
mod method;
mod natives;
mod no_runtime;
mod probes;
mod sites;
#[cfg(test)]
mod testing;

use jp_bytecode::insn::Decoded;
use jp_bytecode::simulate::StackEffects;
use jp_bytecode::MethodBody;
use jp_classfile::access::{ACC_MODULE, ACC_STATIC};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{mutf8, AttributeOut, ClassFile, ClassWriter, CpIndex, Member, PoolBuilder};

use std::sync::Arc;

use crate::blocks::Analysis;
use crate::injected;
use crate::probe::Probe;
use crate::{RewriteError, Rewritten, Warning, WarningReason};
use ids::MethodIds;
use method::{rewrite_method, Refs, Site};

/// Options of the profiling scheme.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileOptions {
    /// The basic-block analysis that places the bytecode counters.
    pub analysis: Analysis,
    /// Whether each counted block also adds its size to its source line
    /// (docs/profiling.md, "Per-line counts").
    pub lines: bool,
    /// Whether native methods become contexts through wrappers
    /// ([`natives`]): only where the JVM binds the renamed natives, under
    /// the load-time agent, which sets the native method prefix.
    pub natives: bool,
    /// Whether a method's contexts are split by the call site it was called
    /// from ([`sites`], docs/profiling.md, "Call sites").
    pub call_sites: bool,
    /// Whether each allocation instruction counts in its method's context,
    /// by type ([`allocations`], docs/profiling.md, "Allocations").
    pub allocations: bool,
    /// User-defined probes ([`crate::probe`], docs/profiling.md, "Probes"):
    /// each counts a named metric, or calls a handler, before the
    /// instructions it chose.
    pub probes: Arc<[Probe]>,
}

/// Rewrites one class with the profiling scheme.
///
/// Classes of JP's runtime and `module-info` are left as they are.
///
/// # Errors
/// When the class does not parse, or was instrumented by JP already.
/// Anything else that cannot be rewritten is kept as it was, with a
/// warning.
pub fn profile_class(bytes: &[u8], options: &ProfileOptions) -> Result<Rewritten, RewriteError> {
    let class = ClassFile::parse(bytes)?;
    if class.attribute(injected::MARKER_ATTRIBUTE.as_bytes()).is_some() {
        return Err(RewriteError::AlreadyInstrumented);
    }
    let kept = |reason| Rewritten {
        bytes: None,
        warnings: vec![Warning {
            class: mutf8::to_str_lossy(class.this_class_name()).into_owned(),
            method: None,
            reason,
        }],
    };
    if !options.natives {
        return Ok(profile_parsed(&class, &[], options).unwrap_or_else(kept));
    }
    match natives::wrap_natives(&class) {
        Ok(Some(wrapped)) => {
            let with_wrappers = ClassFile::parse(&wrapped.bytes)?;
            Ok(profile_parsed(&with_wrappers, &wrapped.wrappers, options).unwrap_or_else(kept))
        }
        Ok(None) => Ok(profile_parsed(&class, &[], options).unwrap_or_else(kept)),
        Err(reason) => Ok(kept(reason)),
    }
}

/// [`profile_class`] of a parsed class whose methods at `wrappers` wrap
/// natives.
fn profile_parsed(
    class: &ClassFile<'_>,
    wrappers: &[usize],
    options: &ProfileOptions,
) -> Result<Rewritten, WarningReason> {
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
    rewrite(class, &profiled, wrappers, options)
}

/// What kind of method is rewritten: each enters and leaves differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Method,
    Constructor,
    ClassInitializer,
    /// The Java method in a native's place ([`natives`]): a context that
    /// counts no bytecodes, as the native runs none.
    NativeWrapper,
}

fn rewrite(
    class: &ClassFile<'_>,
    profiled: &[usize],
    wrappers: &[usize],
    options: &ProfileOptions,
) -> Result<Rewritten, WarningReason> {
    let class_name = mutf8::to_str_lossy(class.this_class_name()).into_owned();
    let mut writer = ClassWriter::new(class);
    // The methods insert the same runtime calls: their stack effects are
    // noted as the references are added, or read once.
    let mut effects = StackEffects::default();
    let refs = Refs::add((&mut writer.constant_pool, &mut effects), options)?;
    // Each method's code is read and decoded once: the identifiers, added
    // to the pool before any method is rewritten, count its instructions,
    // and its rewrite edits them.
    let codes = read_codes(class, profiled);
    let ids = MethodIds::add(
        class,
        (profiled, &activation_bounds(&codes)),
        options,
        (&mut writer.constant_pool, &mut effects),
    )?;
    let initializer = class.methods.iter().position(|m| is_class_initializer(class, m));
    let mut warnings = Vec::new();
    for (k, (&i, code)) in profiled.iter().zip(codes).enumerate() {
        let method = &class.methods[i];
        let kind = if Some(i) == initializer {
            Kind::ClassInitializer
        } else if wrappers.contains(&i) {
            Kind::NativeWrapper
        } else if method.name == b"<init>" {
            Kind::Constructor
        } else {
            Kind::Method
        };
        let result = code.and_then(|(code, decoded)| {
            let body = MethodBody::open_decoded(class, method, &code, decoded)?;
            let site = Site {
                class,
                code: &code,
                index: k,
                kind,
            };
            rewrite_method(
                body,
                &site,
                &ids,
                &refs,
                options.analysis,
                (&mut writer.constant_pool, &mut effects),
            )
        });
        match result {
            Ok(info) => writer.methods[i] = crate::with_code(method, &info),
            // Without its initializer, the methods of a class whose
            // identifiers it sets would find none: keep the whole class.
            Err(reason) if kind == Kind::ClassInitializer => return Err(reason),
            Err(reason) => warnings.push(Warning {
                class: class_name.clone(),
                method: Some(format!(
                    "{}{}",
                    mutf8::to_str_lossy(method.name),
                    mutf8::to_str_lossy(method.descriptor)
                )),
                reason,
            }),
        }
    }
    if warnings.len() == profiled.len() {
        return Ok(Rewritten {
            bytes: None,
            warnings,
        });
    }
    ids.finish(class, (&mut writer, &mut effects), initializer.is_some())?;
    writer.attributes.push(AttributeOut::Built {
        name_index: writer.constant_pool.add_utf8(injected::MARKER_ATTRIBUTE)?,
        info: Vec::new(),
    });
    let bytes = writer.to_bytes()?;
    Ok(Rewritten {
        bytes: Some(bytes),
        warnings,
    })
}

/// Adds a member reference that inserted code uses, and notes its
/// descriptor in `effects`: the stack depth of that code is then found
/// without reading the reference back from the pool.
fn add_member_ref(
    (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
    kind: u8,
    class: &[u8],
    (name, descriptor): (&[u8], &[u8]),
) -> jp_classfile::Result<CpIndex> {
    let index = pool.add_member_ref(kind, class, name, descriptor)?;
    effects.note_member(index, descriptor);
    Ok(index)
}

/// A method's `Code` attribute, read and decoded, or why it could not be.
type ReadCode<'a> = Result<(Code<'a>, Decoded), WarningReason>;

/// The `Code` attribute of each of the `profiled` methods, read and decoded.
fn read_codes<'a>(class: &ClassFile<'a>, profiled: &[usize]) -> Vec<ReadCode<'a>> {
    let read = |method: &Member<'a>| -> ReadCode<'a> {
        let raw = method.attribute(names::CODE).expect("profiled methods have code");
        let code = Code::from_raw(raw, &class.constant_pool)?;
        let decoded = jp_bytecode::insn::decode(code.code)?;
        Ok((code, decoded))
    };
    profiled.iter().map(|&i| read(&class.methods[i])).collect()
}

/// The [`ids::activation_bound`] of each method of `codes`.
fn activation_bounds(codes: &[ReadCode<'_>]) -> Vec<u32> {
    codes
        .iter()
        .map(|code| ids::activation_bound(code.as_ref().ok().map(|(_, decoded)| decoded)))
        .collect()
}

/// `<clinit>` is the initializer when it is static, or in any form before
/// version 51 (JVMS §2.9.2).
fn is_class_initializer(class: &ClassFile<'_>, method: &Member<'_>) -> bool {
    method.name == b"<clinit>"
        && method.descriptor == b"()V"
        && (method.access_flags & ACC_STATIC != 0 || class.major_version < 51)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::{ProbeAction, ProbeSite};
    use crate::suid;
    use jp_bytecode::opcode as op;
    use jp_bytecode::Insn;
    use jp_classfile::attributes::BootstrapMethods;
    use jp_classfile::{Constant, ConstantLookup, CpIndex};
    use jp_testdata::class as testdata;

    fn profile(bytes: &[u8]) -> Vec<u8> {
        let rewritten = profile_class(bytes, &ProfileOptions::default()).unwrap();
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
    fn every_method_with_code_enters_its_context_and_leaves_it_at_every_return_unless_a_leaf() {
        let original = testdata("java8/AllInstructions.class");
        let bytes = profile(&original);
        let class = ClassFile::parse(&bytes).unwrap();
        let before = ClassFile::parse(&original).unwrap();
        let mut leaves = 0;
        for method in before
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let name = mutf8::to_str_lossy(method.name);
            let original_code = |name: &str| code_of(&before, name).0;
            let (_, original_insns) = code_of(&before, &name);
            let (code, insns) = code_of(&class, &name);
            let returns = original_insns
                .iter()
                .filter(|i| matches!(i, Insn::Plain(op::IRETURN..=op::RETURN)))
                .count();
            let exits =
                calls(&class, &insns, injected::RC_EXIT) + calls(&class, &insns, injected::RC_RESTORE);
            if calls(&class, &insns, injected::RC_LEAF) == 1 {
                assert_eq!(calls(&class, &insns, injected::RC_CURRENT), 0, "{name}");
                // A leaf never becomes current: nothing to restore. Its one
                // handler of its own catches the `LinkageError` of building
                // the identifier table early, where the runtime is missing.
                assert_eq!(exits, 0, "{name}");
                let original = original_code(&name).exception_table.len();
                assert_eq!(code.exception_table.len(), original + 1, "{name}");
                let added = &code.exception_table[original];
                assert_eq!(
                    class.constant_pool.class_name(added.catch_type).unwrap(),
                    b"java/lang/LinkageError"
                );
                leaves += 1;
                continue;
            }
            assert_eq!(calls(&class, &insns, injected::RC_CURRENT), 1, "{name}");
            assert!(exits > returns, "{name}: {exits} exits for {returns} returns");
            let catch_all = code.exception_table.last().expect("a catch-all handler");
            assert_eq!(catch_all.catch_type, CpIndex(0), "{name}");
        }
        assert!(leaves > 0, "AllInstructions has leaf methods");
        // The identifier field (and, as the class is serializable and had no
        // initializer, the pinned serialVersionUID), and the marker.
        let added: Vec<&[u8]> = class.fields[before.fields.len()..]
            .iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(
            added,
            [
                injected::MIDS_FIELD.0.as_bytes(),
                injected::NO_RUNTIME_FIELD.0.as_bytes(),
                b"serialVersionUID"
            ]
        );
        assert!(class.attribute(injected::MARKER_ATTRIBUTE.as_bytes()).is_some());
    }

    #[test]
    fn with_lines_every_instruction_on_a_line_is_counted_once_on_its_line() {
        let original = testdata("java17/TryCatchFinally.class");
        let lines_on = ProfileOptions {
            analysis: Analysis::Precise,
            lines: true,
            call_sites: false,
            natives: false,
            allocations: false,
            probes: Default::default(),
        };
        let rewritten = profile_class(&original, &lines_on).unwrap();
        assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
        let bytes = rewritten.bytes.unwrap();
        let (before, after) = (
            ClassFile::parse(&original).unwrap(),
            ClassFile::parse(&bytes).unwrap(),
        );
        let mut counted = 0;
        for method in before
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let name = mutf8::to_str_lossy(method.name);
            let (code, insns) = code_of(&before, &name);
            let lines = crate::lines::Lines::of(&code, &before.constant_pool).unwrap();
            let mut expected = std::collections::BTreeMap::<u16, u32>::new();
            for (pc, _) in jp_bytecode::insn::decode(code.code).unwrap().instructions() {
                if let Some(line) = lines.line_at(pc) {
                    *expected.entry(line).or_default() += 1;
                }
            }
            assert!(!insns.is_empty());
            // Each `ic.line(line, size)` pushes its two constants right before the call.
            let (_, rewritten) = code_of(&after, &name);
            let rewritten: Vec<Insn> = rewritten
                .into_iter()
                .filter(|insn| !matches!(insn, Insn::Label(_)))
                .collect();
            let mut got = std::collections::BTreeMap::<u16, u32>::new();
            for window in rewritten.windows(3) {
                let is_line_call = match &window[2] {
                    Insn::Ref { index, .. } => after
                        .constant_pool
                        .member_ref(*index)
                        .is_ok_and(|(_, n, d)| (n, d) == (b"line".as_slice(), b"(II)V".as_slice())),
                    _ => false,
                };
                if is_line_call {
                    let value = |insn: &Insn| match insn {
                        Insn::Plain(opcode) => u32::from(opcode - op::ICONST_0),
                        Insn::Bipush(v) => *v as u32,
                        Insn::Sipush(v) => *v as u32,
                        other => panic!("{other:?}"),
                    };
                    *got.entry(value(&window[0]) as u16).or_default() += value(&window[1]);
                }
            }
            assert_eq!(got, expected, "{name}");
            counted += got.len();
        }
        assert!(counted > 5, "{counted} lines counted");
    }

    #[test]
    fn without_lines_the_class_has_no_reference_to_the_line_counter() {
        let bytes = profile(&testdata("java17/TryCatchFinally.class"));
        let class = ClassFile::parse(&bytes).unwrap();
        assert!(!class
            .constant_pool
            .iter()
            .any(|(_, c)| matches!(c, Constant::Utf8(text) if *text == b"line")));
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
            profile_class(&once, &ProfileOptions::default()),
            Err(RewriteError::AlreadyInstrumented)
        ));
    }

    #[test]
    fn module_info_is_left_as_it_was() {
        let rewritten = profile_class(
            &testdata("java17/module/module-info.class"),
            &ProfileOptions::default(),
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
        let precise = ProfileOptions {
            analysis: Analysis::Precise,
            ..ProfileOptions::default()
        };
        let bounds = activation_bounds(&read_codes(&class, &profiled));
        let table =
            String::from_utf8(ids::table_string(&class, (&profiled, &bounds), &precise).unwrap()).unwrap();
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
        let (code, _) = code_of(&class, "<init>");
        let (super_call, _) = jp_bytecode::insn::decode(code.code)
            .unwrap()
            .instructions()
            .find(|(_, insn)| {
                matches!(
                    insn,
                    Insn::Ref {
                        opcode: op::INVOKESPECIAL,
                        ..
                    }
                )
            })
            .expect("a super(...) call");
        let super_call = super_call.0 as u16;
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

    /// Methods of a class with a superclass or superinterfaces may run
    /// before its initializer sets the identifier table (while a superclass
    /// initializer runs), so they build the table when it is still `null`;
    /// a class that extends `Object` alone cannot, and its methods only load it.
    #[test]
    fn methods_that_may_run_before_the_initializer_build_the_table_themselves() {
        for (name, may_run_early) in [
            ("java8/AllInstructions.class", true),
            ("java8/Nested$StaticNested.class", false),
        ] {
            let bytes = profile(&testdata(name));
            let class = ClassFile::parse(&bytes).unwrap();
            for method in class
                .methods
                .iter()
                .filter(|m| m.attribute(names::CODE).is_some())
            {
                let method_name = mutf8::to_str_lossy(method.name);
                let (_, insns) = code_of(&class, &method_name);
                let builds = calls(&class, &insns, injected::MID_TABLE);
                let guards = insns
                    .iter()
                    .filter(|insn| {
                        matches!(
                            insn,
                            Insn::Branch {
                                opcode: op::IFNONNULL,
                                ..
                            }
                        )
                    })
                    .count();
                if method.name == b"<clinit>" {
                    assert_eq!(builds, 1, "{name} {method_name}: the initializer sets the table");
                } else {
                    let expected = usize::from(may_run_early);
                    assert_eq!(
                        (builds, guards >= expected),
                        (expected, true),
                        "{name} {method_name}"
                    );
                }
            }
        }
    }

    /// Where the class loader cannot see the runtime, a method has no
    /// context (`ic` null), so every runtime call after the entry must sit
    /// behind `aload <a JP local>; ifnull <past the call>`.
    #[test]
    fn every_runtime_call_after_the_entry_is_skipped_without_a_context() {
        let after_entry = [
            injected::RC_EXIT,
            injected::RC_POLL,
            injected::RC_RESTORE,
            injected::IC_COUNT,
            injected::IC_LINE,
            injected::IC_METRIC,
            injected::IC_PROBE,
        ];
        // Every call, lock and throw probed too, so that probes' calls are checked alike.
        let probes: Arc<[Probe]> = [
            ("monitorenter", ProbeAction::count("locks")),
            ("athrow", ProbeAction::handler("t.H.onThrow")),
        ]
        .into_iter()
        .map(|(kind, action)| Probe {
            site: ProbeSite::Instruction(kind.parse().unwrap()),
            action: action.unwrap(),
        })
        .chain([Probe {
            site: ProbeSite::Call("**.*".parse().unwrap()),
            action: ProbeAction::handler("t.H.onCall").unwrap(),
        }])
        .collect();
        let mut checked = 0;
        for name in [
            "java8/AllInstructions.class",
            "java17/TryCatchFinally.class",
            "java17/Nested$Inner.class",
        ] {
            let original = testdata(name);
            let options = ProfileOptions {
                analysis: Analysis::Precise,
                lines: true,
                call_sites: false,
                natives: false,
                allocations: true,
                probes: probes.clone(),
            };
            let bytes = profile_class(&original, &options).unwrap().bytes.unwrap();
            let (before, class) = (
                ClassFile::parse(&original).unwrap(),
                ClassFile::parse(&bytes).unwrap(),
            );
            for method in class
                .methods
                .iter()
                .filter(|m| m.attribute(names::CODE).is_some())
            {
                let method_name = mutf8::to_str_lossy(method.name);
                let Some(original_locals) = before
                    .methods
                    .iter()
                    .find(|m| m.name == method.name && m.descriptor == method.descriptor)
                    .and_then(|m| m.attribute(names::CODE))
                    .map(|raw| Code::from_raw(raw, &before.constant_pool).unwrap().max_locals)
                else {
                    continue; // the added initializer
                };
                let (_, with_labels) = code_of(&class, &method_name);
                // Each label stands for the index of the instruction after it.
                let mut insns = Vec::new();
                let mut labels = std::collections::HashMap::new();
                for insn in with_labels {
                    match insn {
                        Insn::Label(label) => {
                            labels.insert(label, insns.len());
                        }
                        insn => insns.push(insn),
                    }
                }
                let label_index = |label| labels[&label];
                for (i, insn) in insns.iter().enumerate() {
                    let Insn::Ref { index, .. } = insn else { continue };
                    let Ok((_, n, d)) = class.constant_pool.member_ref(*index) else {
                        continue;
                    };
                    if !after_entry
                        .iter()
                        .any(|(name, descriptor)| (name.as_bytes(), descriptor.as_bytes()) == (n, d))
                    {
                        continue;
                    }
                    let guarded = (1..i).rev().any(|j| match (&insns[j - 1], &insns[j]) {
                        (
                            Insn::Local {
                                opcode: op::ALOAD,
                                index: local,
                            },
                            Insn::Branch {
                                opcode: op::IFNULL,
                                target,
                            },
                        ) => local.0 >= original_locals && label_index(*target) > i,
                        _ => false,
                    });
                    assert!(guarded, "{name} {method_name}: call at {i} unguarded");
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "{checked} calls checked");
    }

    /// Setting a class's table, and looking up an interface method's
    /// identifier, catch the `LinkageError` of a runtime that the class
    /// loader cannot see; the table's field is never set elsewhere.
    #[test]
    fn the_identifiers_are_set_or_looked_up_under_a_handler_of_linkage_errors() {
        let mut seen = 0;
        for (name, original) in every_test_class() {
            let Some(bytes) = profile_class(&original, &ProfileOptions::default())
                .unwrap()
                .bytes
            else {
                continue;
            };
            let class = ClassFile::parse(&bytes).unwrap();
            let is_interface = class.access_flags & jp_classfile::access::ACC_INTERFACE != 0;
            for method in class
                .methods
                .iter()
                .filter(|m| m.attribute(names::CODE).is_some())
            {
                let method_name = mutf8::to_str_lossy(method.name);
                let (code, insns) = code_of(&class, &method_name);
                let catches_linkage_errors = code.exception_table.iter().any(|h| {
                    h.catch_type.0 != 0
                        && class.constant_pool.class_name(h.catch_type).unwrap() == b"java/lang/LinkageError"
                });
                let looks_up = calls(&class, &insns, injected::MID_METHOD) > 0;
                let sets_table = insns.iter().any(|insn| match insn {
                    Insn::Ref {
                        opcode: op::PUTSTATIC,
                        index,
                    } => class
                        .constant_pool
                        .member_ref(*index)
                        .is_ok_and(|(_, n, _)| n == injected::MIDS_FIELD.0.as_bytes()),
                    _ => false,
                });
                assert_eq!(
                    sets_table,
                    method.name == b"<clinit>" && !is_interface,
                    "{name} {method_name}"
                );
                if sets_table || looks_up {
                    assert!(catches_linkage_errors, "{name} {method_name}");
                    seen += 1;
                }
            }
        }
        assert!(seen > 40, "{seen} methods");
    }

    /// Every class file of the test data of every version, with its name.
    fn every_test_class() -> Vec<(String, Vec<u8>)> {
        let classes: Vec<_> = jp_testdata::VERSIONS
            .into_iter()
            .flat_map(|version| {
                jp_testdata::classes(version)
                    .into_iter()
                    .map(move |(name, bytes)| (format!("{version}/{name}"), bytes))
            })
            .collect();
        assert!(classes.len() > 50, "test classes found: {}", classes.len());
        classes
    }

    fn dynamic_constants(class: &ClassFile<'_>) -> usize {
        class
            .constant_pool
            .iter()
            .filter(|(_, c)| matches!(c, Constant::Dynamic { .. }))
            .count()
    }

    /// Tools that read classes with an older ASM API level fail on an
    /// `ldc` of a `CONSTANT_Dynamic` ("This feature requires ASM7"), so
    /// JP adds none, in any class-file version.
    #[test]
    fn no_version_gets_a_dynamic_constant_or_a_bootstrap_method() {
        let bootstraps = |class: &ClassFile<'_>| {
            class.attribute(names::BOOTSTRAP_METHODS).map_or(0, |raw| {
                BootstrapMethods::from_raw(raw, &class.constant_pool)
                    .unwrap()
                    .bootstrap_methods
                    .len()
            })
        };
        let mut rewritten = 0;
        for (name, original) in every_test_class() {
            let Some(bytes) = profile_class(&original, &ProfileOptions::default())
                .unwrap()
                .bytes
            else {
                continue;
            };
            rewritten += 1;
            let (before, after) = (
                ClassFile::parse(&original).unwrap(),
                ClassFile::parse(&bytes).unwrap(),
            );
            assert_eq!(dynamic_constants(&after), dynamic_constants(&before), "{name}");
            assert_eq!(bootstraps(&after), bootstraps(&before), "{name}");
        }
        assert!(rewritten > 40, "{rewritten} classes rewritten");
    }

    /// An interface's fields are public (JVMS §4.5), so a field added to
    /// one shows in `getFields()` of the interface and of every class
    /// implementing it: interfaces get no field and no method, in any
    /// version; their methods look their identifiers up by name.
    #[test]
    fn an_interface_gets_no_member_and_looks_its_identifiers_up() {
        let mut interfaces = 0;
        for (name, original) in every_test_class() {
            let before = ClassFile::parse(&original).unwrap();
            if before.access_flags & jp_classfile::access::ACC_INTERFACE == 0 {
                continue;
            }
            let Some(bytes) = profile_class(&original, &ProfileOptions::default())
                .unwrap()
                .bytes
            else {
                continue;
            };
            interfaces += 1;
            let after = ClassFile::parse(&bytes).unwrap();
            assert_eq!(after.fields.len(), before.fields.len(), "{name}");
            assert_eq!(after.methods.len(), before.methods.len(), "{name}");
            for method in after
                .methods
                .iter()
                .filter(|m| m.attribute(names::CODE).is_some())
            {
                let method_name = mutf8::to_str_lossy(method.name);
                let (_, insns) = code_of(&after, &method_name);
                assert_eq!(
                    calls(&after, &insns, injected::MID_METHOD),
                    1,
                    "{name} {method_name}"
                );
                let key = insns.iter().find_map(|insn| match insn {
                    Insn::Ldc { index, .. } => match after.constant_pool.get(*index) {
                        Some(Constant::String { string }) => match after.constant_pool.get(*string) {
                            Some(Constant::Utf8(text)) if text.starts_with(b"default.") => {
                                Some(text.to_vec())
                            }
                            _ => None,
                        },
                        _ => None,
                    },
                    _ => None,
                });
                let key = String::from_utf8(key.expect("the identifier's key")).unwrap();
                let parts: Vec<&str> = key.split('.').collect();
                assert_eq!(parts[1].as_bytes(), before.this_class_name(), "{key}");
                assert_eq!(parts[2].as_bytes(), method.name, "{key}");
                assert_eq!(parts[3].as_bytes(), method.descriptor, "{key}");
            }
        }
        assert!(interfaces >= 4, "{interfaces} interfaces with code rewritten");
    }

    /// A class's identifier field is private, so `getFields()` never shows
    /// it, and synthetic, so frameworks that walk `getDeclaredFields()`
    /// can skip it.
    #[test]
    fn a_class_gets_one_private_synthetic_identifier_field() {
        use jp_classfile::access::{ACC_PRIVATE, ACC_SYNTHETIC};
        for (name, original) in every_test_class() {
            let before = ClassFile::parse(&original).unwrap();
            let Some(bytes) = profile_class(&original, &ProfileOptions::default())
                .unwrap()
                .bytes
            else {
                continue;
            };
            if before.access_flags & jp_classfile::access::ACC_INTERFACE != 0 {
                continue;
            }
            let after = ClassFile::parse(&bytes).unwrap();
            let added = &after.fields[before.fields.len()..];
            assert!(!added.is_empty(), "{name}");
            for field in added {
                assert_eq!(
                    field.access_flags & (ACC_PRIVATE | ACC_SYNTHETIC),
                    ACC_PRIVATE | ACC_SYNTHETIC,
                    "{name}"
                );
            }
        }
    }
}
