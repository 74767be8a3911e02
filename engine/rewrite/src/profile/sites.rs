//! Call sites (`ProfileOptions::call_sites`, docs/profiling.md, "Call
//! sites"): before each invoke of an original instruction, the caller
//! stores the site in its own context,
//! ```text
//! ic.site(line << 16 | bci, (name + descriptor).hashCode())   // behind if (ic != null)
//! ```
//! and a callee instrumented with call sites (`RC.enterAt`, `RC.leafAt`)
//! keys its context by that site when it is entered with the caller's
//! context current and its own name and descriptor hash to the invoke's
//! target. A site stored before an invoke of uninstrumented code is so
//! never taken by a callback of another name deeper down, nor by a call
//! once the caller returned; a static initializer that the invoke runs
//! first stores its own sites in its own context. The bci is the original
//! instruction's, the one a debugger or the counting oracle reports.

use jp_bytecode::opcode as op;
use jp_bytecode::{Insn, MethodBody, Pc};
use jp_classfile::{mutf8, ConstantLookup, CpIndex, PoolBuilder};

use super::method::{push_int, Guard, Site};
use crate::lines::Lines;
use crate::WarningReason;

/// Inserts the site store before every invoke of `method`'s original code,
/// on the context in the guard's local; `ic_site` is `IC.site`.
pub(super) fn store_before_invokes(
    body: &mut MethodBody<'_>,
    method: &Site<'_, '_>,
    guard: &Guard<'_>,
    ic_site: CpIndex,
    pool: &mut PoolBuilder<'_>,
) -> Result<(), WarningReason> {
    let lines = Lines::of(method.code, &method.class.constant_pool)?;
    let invokes: Vec<(Pc, CpIndex)> = invokes(body).collect();
    let mut calls = Vec::with_capacity(invokes.len());
    for (pc, index) in invokes {
        let (_, name, descriptor) = pool.member_ref(index)?;
        let target = target_hash(name, descriptor)?;
        let line = lines.line_at(pc).unwrap_or(0);
        let code = vec![
            Insn::Local {
                opcode: op::ALOAD,
                index: guard.ic(),
            },
            push_int(site_value(pc, line), pool)?,
            push_int(target as u32, pool)?,
            Insn::Ref {
                opcode: op::INVOKEVIRTUAL,
                index: ic_site,
            },
        ];
        calls.push((pc, code));
    }
    guard.insert_before_each(body, calls)
}

/// The invokes of the original code that get a site store: their pcs and
/// member references, in pc order.
pub(super) fn invokes<'b>(body: &'b MethodBody<'_>) -> impl Iterator<Item = (Pc, CpIndex)> + 'b {
    body.instructions().filter_map(|(pc, insn)| match insn {
        Insn::Ref {
            opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
            index,
        }
        | Insn::InvokeInterface { index, .. } => Some((pc, *index)),
        _ => None,
    })
}

/// `line << 16 | bci`, as `IC.site` takes it: a bci is below 65535 (JVMS
/// §4.7.3), and a line fits 16 bits (JVMS §4.7.12); line 0 is unknown.
pub(super) fn site_value(bci: Pc, line: u16) -> u32 {
    (u32::from(line) << 16) | bci.0
}

/// Java's `(name + descriptor).hashCode()`, over the UTF-16 units the JVM
/// makes of the constants: what `MID` computes for the callee.
pub(super) fn target_hash(name: &[u8], descriptor: &[u8]) -> Result<i32, WarningReason> {
    let mut hash = 0i32;
    for part in [name, descriptor] {
        let units = mutf8::to_utf16(part).map_err(|error| WarningReason::Unsupported {
            what: format!("an invoked method's name or descriptor that is not modified UTF-8 ({error})"),
        })?;
        for unit in units {
            hash = hash.wrapping_mul(31).wrapping_add(i32::from(unit));
        }
    }
    Ok(hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Analysis;
    use crate::injected;
    use crate::profile::{profile_class, ProfileOptions};
    use jp_bytecode::frame::VType;
    use jp_classfile::attributes::{names, AttributeInfo, Code};
    use jp_classfile::{ClassFile, Constant};

    fn with_sites() -> ProfileOptions {
        ProfileOptions {
            analysis: Analysis::Precise,
            call_sites: true,
            ..ProfileOptions::default()
        }
    }

    /// The invokes of a method, in pc order: their pc, name and descriptor.
    fn invokes(class: &ClassFile<'_>, code: &Code<'_>) -> Vec<(Pc, Vec<u8>, Vec<u8>)> {
        jp_bytecode::insn::decode(code.code)
            .unwrap()
            .instructions()
            .filter_map(|(pc, insn)| match insn {
                Insn::Ref {
                    opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
                    index,
                }
                | Insn::InvokeInterface { index, .. } => {
                    let (owner, name, descriptor) = class.constant_pool.member_ref(*index).unwrap();
                    (!owner.starts_with(injected::RUNTIME_PACKAGE.as_bytes()))
                        .then(|| (pc, name.to_vec(), descriptor.to_vec()))
                }
                _ => None,
            })
            .collect()
    }

    fn code<'a>(class: &'a ClassFile<'a>, method: &jp_classfile::Member<'a>) -> Code<'a> {
        Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap()
    }

    /// The value an instruction that `push_int` made pushes.
    fn pushed(class: &ClassFile<'_>, insn: &Insn) -> u32 {
        match insn {
            Insn::Plain(opcode) => u32::from(opcode - op::ICONST_0),
            Insn::Bipush(v) => *v as u32,
            Insn::Sipush(v) => *v as u32,
            Insn::Ldc { index, .. } => match class.constant_pool.get(*index) {
                Some(Constant::Integer(v)) => *v as u32,
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    /// Every original invoke, and only those, comes right after `rc.site`
    /// with its own site and target, whatever the class-file version.
    #[test]
    fn every_invoke_is_preceded_by_its_site_and_target() {
        let mut checked = 0;
        for name in [
            "java8/AllInstructions.class",
            "java17/TryCatchFinally.class",
            "java17/Nested$Inner.class",
            "java25/AllInstructions.class",
        ] {
            let original = jp_testdata::class(name);
            let rewritten = profile_class(&original, &with_sites()).unwrap();
            assert!(rewritten.warnings.is_empty(), "{:?}", rewritten.warnings);
            let bytes = rewritten.bytes.unwrap();
            let (before, after) = (
                ClassFile::parse(&original).unwrap(),
                ClassFile::parse(&bytes).unwrap(),
            );
            for method in before
                .methods
                .iter()
                .filter(|m| m.attribute(names::CODE).is_some())
            {
                let original_code = code(&before, method);
                let lines = Lines::of(&original_code, &before.constant_pool).unwrap();
                let expected: Vec<(u32, i32)> = invokes(&before, &original_code)
                    .into_iter()
                    .map(|(pc, name, descriptor)| {
                        let line = lines.line_at(pc).unwrap_or(0);
                        (site_value(pc, line), target_hash(&name, &descriptor).unwrap())
                    })
                    .collect();
                let rewritten_method = after
                    .methods
                    .iter()
                    .find(|m| m.name == method.name && m.descriptor == method.descriptor)
                    .unwrap();
                let insns: Vec<Insn> = jp_bytecode::insn::decode(code(&after, rewritten_method).code)
                    .unwrap()
                    .insns
                    .into_iter()
                    .filter(|insn| !matches!(insn, Insn::Label(_)))
                    .collect();
                let mut got = Vec::new();
                let mut pending = None;
                for (i, insn) in insns.iter().enumerate() {
                    let (Insn::Ref { index, .. } | Insn::InvokeInterface { index, .. }) = insn else {
                        continue;
                    };
                    let Ok((owner, name, descriptor)) = after.constant_pool.member_ref(*index) else {
                        continue;
                    };
                    if (name, descriptor) == (injected::IC_SITE.0.as_bytes(), injected::IC_SITE.1.as_bytes())
                    {
                        assert!(pending.is_none(), "two sites for one invoke");
                        pending = Some((
                            pushed(&after, &insns[i - 2]),
                            pushed(&after, &insns[i - 1]) as i32,
                        ));
                    } else if matches!(
                        insn,
                        Insn::Ref {
                            opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
                            ..
                        } | Insn::InvokeInterface { .. }
                    ) && !owner.starts_with(injected::RUNTIME_PACKAGE.as_bytes())
                    {
                        got.push(pending.take().expect("a site before every invoke"));
                    }
                }
                let method_name = mutf8::to_str_lossy(method.name);
                assert_eq!(got, expected, "{name} {method_name}");
                checked += got.len();
            }
        }
        assert!(checked > 50, "{checked} invokes checked");
    }

    /// The inserted stores branch around themselves where the runtime is
    /// missing: each needs a frame, and the frames must describe the code.
    #[test]
    fn every_rewritten_method_has_frames_that_describe_its_code() {
        let mut methods = 0;
        for version in ["java8", "java17", "java25"] {
            for (name, original) in jp_testdata::classes(version) {
                let Some(bytes) = profile_class(&original, &with_sites()).unwrap().bytes else {
                    continue;
                };
                let class = ClassFile::parse(&bytes).unwrap();
                for method in class
                    .methods
                    .iter()
                    .filter(|m| m.attribute(names::CODE).is_some())
                {
                    let code = code(&class, method);
                    let body = MethodBody::open(&class, method, &code).unwrap();
                    let frames = body.instruction_frames(&class.constant_pool);
                    let frames = frames.unwrap_or_else(|e| panic!("{version}/{name}: {e}"));
                    // Every instruction is reached from a frame: nothing the verifier cannot type.
                    for (pc, frame) in frames {
                        let frame = frame.unwrap_or_else(|| panic!("{version}/{name}: no frame at {pc}"));
                        assert!(
                            frame.stack.iter().all(|t| *t != VType::Top),
                            "{version}/{name} {pc}"
                        );
                    }
                    methods += 1;
                }
            }
        }
        assert!(methods > 100, "{methods} methods");
    }

    #[test]
    fn without_call_sites_no_site_is_stored_and_entries_are_the_plain_ones() {
        let original = jp_testdata::class("java17/TryCatchFinally.class");
        for (call_sites, present, absent) in [
            (false, injected::RC_ENTER, injected::RC_ENTER_AT),
            (true, injected::RC_ENTER_AT, injected::RC_ENTER),
        ] {
            let options = ProfileOptions {
                call_sites,
                ..with_sites()
            };
            let bytes = profile_class(&original, &options).unwrap().bytes.unwrap();
            let class = ClassFile::parse(&bytes).unwrap();
            let refers = |(name, descriptor): (&str, &str)| {
                class.constant_pool.iter().any(|(index, constant)| {
                    matches!(constant, Constant::Methodref { .. })
                        && class
                            .constant_pool
                            .member_ref(index)
                            .is_ok_and(|(_, n, d)| (n, d) == (name.as_bytes(), descriptor.as_bytes()))
                })
            };
            assert!(refers(present) && !refers(absent), "call sites {call_sites}");
            assert_eq!(refers(injected::IC_SITE), call_sites);
        }
    }

    #[test]
    fn the_target_hash_is_javas_string_hash_of_name_and_descriptor() {
        // "run()V".hashCode() and "é(I)V".hashCode() in Java.
        assert_eq!(target_hash(b"run", b"()V").unwrap(), -919_875_318);
        assert_eq!(target_hash("é".as_bytes(), b"(I)V").unwrap(), 216_443_543);
    }

    /// The runtime makes the contexts of such methods apart, so they get
    /// identifiers of their own: a class instrumented both ways in one JVM
    /// (two class loaders) keeps them apart.
    #[test]
    fn the_identifier_table_marks_the_analysis_with_call_sites() {
        let bytes = jp_testdata::class("java8/Interfaces.class");
        let class = ClassFile::parse(&bytes).unwrap();
        let profiled: Vec<usize> = (0..class.methods.len())
            .filter(|&i| class.methods[i].attribute(names::CODE).is_some())
            .collect();
        let bounds = crate::profile::activation_bounds(&crate::profile::read_codes(&class, &profiled));
        let table = crate::profile::ids::table_string(&class, (&profiled, &bounds), &with_sites()).unwrap();
        assert!(table.starts_with(b"precise+sites.Interfaces."));
    }

    #[test]
    fn a_site_packs_the_line_above_the_bci() {
        assert_eq!(site_value(Pc(7), 12), 12 << 16 | 7);
        assert_eq!(site_value(Pc(65534), 65535), 0xFFFF_FFFE);
    }
}
