//! Probes (`ProfileOptions::probes`, [`crate::probe`], docs/profiling.md,
//! "Probes"): before each original instruction a probe chose, the method
//! counts in its own context or calls the probe's handler through the
//! runtime,
//! ```text
//! ic.metric("sql-statements")                                          // count
//! ic.probe(receiver, new Object[] {args...}, "com.acme.P.on", This.class) // handler
//! ```
//! each behind `if (ic != null)`, as allocations are counted: when the
//! instruction starts, as a single-stepping debugger sees it. A handler of
//! a call gets the receiver (`null` for a static call or a constructor,
//! whose receiver is no object yet) and the arguments, boxed; the arguments
//! are taken off the stack into locals for that and put back. A handler of
//! `monitorenter` or `athrow` gets the lock or the exception as receiver,
//! one of an array instruction nothing.

use std::sync::Arc;

use jp_bytecode::descriptor::{FieldType, MethodDescriptor};
use jp_bytecode::opcode as op;
use jp_bytecode::{Insn, MethodBody, Pc, Slot};
use jp_classfile::{mutf8, tag, ConstantLookup, CpIndex, PoolBuilder};

use super::method::{ldc_string, push_int, Guard};
use crate::probe::{Probe, ProbeAction, ProbeSite};
use crate::WarningReason;

/// The original instructions of `body` that `probes` chose, in pc order,
/// each with its probe (an instruction chosen by two probes comes twice).
pub(super) fn probe_sites<'p>(
    body: &MethodBody<'_>,
    probes: &'p [Probe],
    pool: &impl ConstantLookup,
) -> Result<Vec<(Pc, Insn, &'p Probe)>, WarningReason> {
    let mut sites = Vec::new();
    if probes.is_empty() {
        return Ok(sites);
    }
    for (pc, insn) in body.instructions() {
        let call = match insn {
            Insn::Ref {
                opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
                index,
            }
            | Insn::InvokeInterface { index, .. } => {
                let (owner, name, _) = pool.member_ref(*index)?;
                Some((owner, name))
            }
            _ => None,
        };
        for probe in probes {
            let chosen = match (&probe.site, call) {
                (ProbeSite::Instruction(kind), _) => opcode(insn).is_some_and(|o| kind.has_opcode(o)),
                (site, Some((owner, name))) => site.matches_call(owner, name),
                (ProbeSite::Call(_), None) => false,
            };
            if chosen {
                sites.push((pc, insn.clone(), probe));
            }
        }
    }
    Ok(sites)
}

/// The opcode of an instruction without operands.
fn opcode(insn: &Insn) -> Option<u8> {
    match insn {
        Insn::Plain(opcode) => Some(*opcode),
        _ => None,
    }
}

/// Whether a probe at `sites` calls a handler: the handler runs code of the
/// thread, so the method cannot be a leaf.
pub(super) fn calls_handler(sites: &[(Pc, Insn, &Probe)]) -> bool {
    sites
        .iter()
        .any(|(_, _, probe)| matches!(probe.action, ProbeAction::Handler { .. }))
}

/// The probes of a rewrite, and the runtime entries they call.
pub(super) struct ProbeRefs {
    pub(super) probes: Arc<[Probe]>,
    /// `IC.metric`.
    pub(super) ic_metric: CpIndex,
    /// `IC.probe`.
    pub(super) ic_probe: CpIndex,
}

/// Inserts each probe of `sites` before its instruction, on the context in
/// the guard's local; `major_version` is the class's, whose own `Class`
/// constant a handler is given.
pub(super) fn insert_probes(
    body: &mut MethodBody<'_>,
    guard: &Guard<'_>,
    sites: &[(Pc, Insn, &Probe)],
    refs: &ProbeRefs,
    major_version: u16,
    pool: &mut PoolBuilder<'_>,
) -> Result<(), WarningReason> {
    // The locals a handler's call arguments pass through: as wide as the widest.
    let mut widest = 0;
    for (_, insn, probe) in sites {
        if let (ProbeAction::Handler { .. }, Some(index)) = (&probe.action, invoked(insn)) {
            let (_, _, descriptor) = pool.member_ref(index)?;
            widest = widest.max(MethodDescriptor::slots(descriptor)?.0);
        }
    }
    let spill = if widest > 0 {
        Some(body.add_local(widest)?)
    } else {
        None
    };
    let mut calls = Vec::with_capacity(sites.len());
    for (pc, insn, probe) in sites {
        let code = match &probe.action {
            ProbeAction::Count(metric) => {
                guard.count_metric(&mutf8::from_str(metric), refs.ic_metric, pool)?
            }
            ProbeAction::Handler { class, method } => {
                if major_version < 49 {
                    return Err(WarningReason::Unsupported {
                        what: format!("a handler probe in a class file of version {major_version} (before 49, no class constants)"),
                    });
                }
                let caller = pool.add_class_raw(body.this_class())?;
                let ic = Insn::Local {
                    opcode: op::ALOAD,
                    index: guard.ic(),
                };
                let (mut code, restore) = match invoked(insn) {
                    Some(index) => call_operands(insn, index, spill, ic, pool)?,
                    None => (instruction_operands(insn, ic, pool)?, Vec::new()),
                };
                code.extend([
                    ldc_string(&mutf8::from_str(&format!("{class}.{method}")), pool)?,
                    Insn::Ldc {
                        index: caller,
                        category2: false,
                    },
                    Insn::Ref {
                        opcode: op::INVOKEVIRTUAL,
                        index: refs.ic_probe,
                    },
                ]);
                code.extend(restore);
                code
            }
        };
        calls.push((*pc, code));
    }
    guard.insert_before_each(body, calls)
}

/// The member reference of an invoke.
fn invoked(insn: &Insn) -> Option<CpIndex> {
    match insn {
        Insn::Ref {
            opcode: op::INVOKEVIRTUAL..=op::INVOKESTATIC,
            index,
        }
        | Insn::InvokeInterface { index, .. } => Some(*index),
        _ => None,
    }
}

/// For `monitorenter` and `athrow`, the object they take as receiver;
/// nothing for the others: `ic, receiver, new Object[0]` on the stack.
fn instruction_operands(
    insn: &Insn,
    ic: Insn,
    pool: &mut PoolBuilder<'_>,
) -> Result<Vec<Insn>, WarningReason> {
    let mut code = match opcode(insn) {
        // stack: ..., object -> ..., object, ic, object
        Some(op::MONITORENTER | op::ATHROW) => vec![Insn::Plain(op::DUP), ic, Insn::Plain(op::SWAP)],
        _ => vec![ic, Insn::Plain(op::ACONST_NULL)],
    };
    code.extend([
        Insn::Plain(op::ICONST_0),
        Insn::Ref {
            opcode: op::ANEWARRAY,
            index: pool.add_class_raw(b"java/lang/Object")?,
        },
    ]);
    Ok(code)
}

/// For an invoke: the code that takes its arguments into the locals from
/// `spill` and pushes `ic, receiver, arguments` (boxed, in an `Object[]`),
/// and the code that puts the arguments back afterwards.
fn call_operands(
    insn: &Insn,
    index: CpIndex,
    spill: Option<Slot>,
    ic: Insn,
    pool: &mut PoolBuilder<'_>,
) -> Result<(Vec<Insn>, Vec<Insn>), WarningReason> {
    let (_, name, descriptor) = pool.member_ref(index)?;
    let name_is_init = name == b"<init>";
    let descriptor = descriptor.to_vec();
    let parameters = MethodDescriptor::parse(&descriptor)?.parameters;
    // Each parameter's local, in order.
    let mut slots = Vec::with_capacity(parameters.len());
    let mut next = spill.map_or(0, |slot| slot.0);
    for parameter in &parameters {
        slots.push(Slot(next));
        next += parameter.slots();
    }
    let mut code = Vec::new();
    // stack: ..., [receiver,] a1 .. an -> ..., [receiver]
    for (parameter, slot) in parameters.iter().zip(&slots).rev() {
        code.push(Insn::Local {
            opcode: op::ISTORE + kind_offset(parameter),
            index: *slot,
        });
    }
    let has_receiver = !matches!(
        insn,
        Insn::Ref {
            opcode: op::INVOKESTATIC,
            ..
        }
    ) && !name_is_init;
    if has_receiver {
        // stack: ..., receiver, ic, receiver
        code.extend([Insn::Plain(op::DUP), ic, Insn::Plain(op::SWAP)]);
    } else {
        code.extend([ic, Insn::Plain(op::ACONST_NULL)]);
    }
    code.extend([
        push_int(parameters.len() as u32, pool)?,
        Insn::Ref {
            opcode: op::ANEWARRAY,
            index: pool.add_class_raw(b"java/lang/Object")?,
        },
    ]);
    for (i, (parameter, slot)) in parameters.iter().zip(&slots).enumerate() {
        code.extend([
            Insn::Plain(op::DUP),
            push_int(i as u32, pool)?,
            load(parameter, *slot),
        ]);
        code.extend(boxed(parameter, pool)?);
        code.push(Insn::Plain(op::AASTORE));
    }
    let restore = parameters
        .iter()
        .zip(&slots)
        .map(|(parameter, slot)| load(parameter, *slot))
        .collect();
    Ok((code, restore))
}

/// How far a type's load or store opcode is from `iload`'s or `istore`'s.
fn kind_offset(field: &FieldType<'_>) -> u8 {
    match field {
        FieldType::Long => 1,
        FieldType::Float => 2,
        FieldType::Double => 3,
        FieldType::Object(_) | FieldType::Array(_) => 4,
        _ => 0,
    }
}

fn load(field: &FieldType<'_>, slot: Slot) -> Insn {
    Insn::Local {
        opcode: op::ILOAD + kind_offset(field),
        index: slot,
    }
}

/// `Integer.valueOf(int)` and the like for a primitive; nothing for a reference.
fn boxed(field: &FieldType<'_>, pool: &mut PoolBuilder<'_>) -> Result<Option<Insn>, WarningReason> {
    let (class, code) = match field {
        FieldType::Boolean => ("java/lang/Boolean", "Z"),
        FieldType::Byte => ("java/lang/Byte", "B"),
        FieldType::Char => ("java/lang/Character", "C"),
        FieldType::Short => ("java/lang/Short", "S"),
        FieldType::Int => ("java/lang/Integer", "I"),
        FieldType::Long => ("java/lang/Long", "J"),
        FieldType::Float => ("java/lang/Float", "F"),
        FieldType::Double => ("java/lang/Double", "D"),
        FieldType::Object(_) | FieldType::Array(_) => return Ok(None),
    };
    let descriptor = format!("({code})L{class};");
    let index = pool.add_member_ref(
        tag::METHODREF,
        class.as_bytes(),
        b"valueOf",
        descriptor.as_bytes(),
    )?;
    Ok(Some(Insn::Ref {
        opcode: op::INVOKESTATIC,
        index,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Analysis;
    use crate::injected;
    use crate::probe::InstructionKind;
    use crate::profile::{testing, ProfileOptions};
    use jp_classfile::attributes::{names, AttributeInfo, Code};
    use jp_classfile::{ClassFile, Constant};

    fn probe(site: ProbeSite, action: ProbeAction) -> Probe {
        Probe { site, action }
    }

    fn probes() -> Vec<Probe> {
        vec![
            probe(
                ProbeSite::Instruction(InstructionKind::MonitorEnter),
                ProbeAction::count("locks").unwrap(),
            ),
            probe(
                ProbeSite::Instruction(InstructionKind::ArrayLoad),
                ProbeAction::count("reads").unwrap(),
            ),
            probe(
                ProbeSite::Instruction(InstructionKind::Athrow),
                ProbeAction::handler("t.H.onThrow").unwrap(),
            ),
            probe(
                ProbeSite::Call("AllInstructions.staticCall".parse().unwrap()),
                ProbeAction::handler("t.H.onCall").unwrap(),
            ),
            probe(
                ProbeSite::Call("java.lang.String.len*".parse().unwrap()),
                ProbeAction::count("lengths").unwrap(),
            ),
        ]
    }

    /// Per method: how many original instructions each probe chose, and the
    /// metric strings and handler names the rewritten code passes, in order.
    #[test]
    fn every_chosen_instruction_gets_its_probe_once() {
        let options = ProfileOptions {
            analysis: Analysis::Precise,
            probes: probes().into(),
            ..ProfileOptions::default()
        };
        let (original, bytes) = testing::rewritten("java8/AllInstructions.class", &options);
        let (before, after) = (
            ClassFile::parse(&original).unwrap(),
            ClassFile::parse(&bytes).unwrap(),
        );
        let insns = testing::instructions;
        let mut total = 0;
        for method in before
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let original = insns(&before, method.name, method.descriptor);
            let mut expected = Vec::new();
            for insn in &original {
                for probe in probes() {
                    let call = invoked(insn).map(|index| before.constant_pool.member_ref(index).unwrap());
                    let chosen = match (&probe.site, call) {
                        (ProbeSite::Instruction(kind), _) => opcode(insn).is_some_and(|o| kind.has_opcode(o)),
                        (site, Some((owner, name, _))) => site.matches_call(owner, name),
                        _ => false,
                    };
                    if chosen {
                        expected.push(match probe.action {
                            ProbeAction::Count(metric) => metric,
                            ProbeAction::Handler { class, method } => format!("{class}.{method}"),
                        });
                    }
                }
            }
            let rewritten = insns(&after, method.name, method.descriptor);
            let strings = |index: CpIndex| match after.constant_pool.get(index) {
                Some(Constant::String { string }) => {
                    Some(String::from_utf8(after.constant_pool.utf8(*string).unwrap().to_vec()).unwrap())
                }
                _ => None,
            };
            let is_call = |insn: &Insn, target: (&str, &str)| match insn {
                Insn::Ref { index, .. } => after
                    .constant_pool
                    .member_ref(*index)
                    .is_ok_and(|(_, n, d)| (n, d) == (target.0.as_bytes(), target.1.as_bytes())),
                _ => false,
            };
            // The string each runtime call of a probe passes: the `ldc` right
            // before `IC.metric`, the one two before `IC.probe` (the class after it).
            let mut passed = Vec::new();
            let code: Vec<&Insn> = rewritten
                .iter()
                .filter(|i| !matches!(i, Insn::Label(_)))
                .collect();
            for (i, insn) in code.iter().enumerate() {
                let back = if is_call(insn, injected::IC_METRIC) {
                    1
                } else if is_call(insn, injected::IC_PROBE) {
                    2
                } else {
                    continue;
                };
                match code[i - back] {
                    Insn::Ldc { index, .. } => passed.push(strings(*index).unwrap()),
                    other => panic!("{other:?}"),
                }
            }
            total += expected.len();
            assert_eq!(passed, expected, "{}", mutf8::to_str_lossy(method.name));
        }
        assert!(total >= 6, "{total} probed instructions");
    }

    /// A handler of a call gets its arguments boxed, and the call gets them
    /// back as they were: `staticCall(int)` passes through an `int` local.
    #[test]
    fn a_call_handler_passes_the_arguments_through_locals_and_back() {
        let options = ProfileOptions {
            probes: vec![probe(
                ProbeSite::Call("AllInstructions.staticCall".parse().unwrap()),
                ProbeAction::handler("t.H.onCall").unwrap(),
            )]
            .into(),
            ..ProfileOptions::default()
        };
        let (_, bytes) = testing::rewritten("java8/AllInstructions.class", &options);
        let class = ClassFile::parse(&bytes).unwrap();
        let mut seen = 0;
        for method in class
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
            let insns: Vec<Insn> = jp_bytecode::insn::decode(code.code)
                .unwrap()
                .insns
                .into_iter()
                .filter(|i| !matches!(i, Insn::Label(_)))
                .collect();
            for window in insns.windows(4) {
                let [Insn::Local {
                    opcode: op::ISTORE,
                    index: stored,
                }, Insn::Local {
                    opcode: op::ALOAD, ..
                }, Insn::Plain(op::ACONST_NULL), Insn::Plain(one)] = window
                else {
                    continue;
                };
                if *one != op::ICONST_0 + 1 {
                    continue;
                }
                // then anewarray, dup, iconst_0, iload, Integer.valueOf, aastore, ldc, ldc, IC.probe, iload
                let at = insns.iter().position(|i| std::ptr::eq(i, &window[0])).unwrap();
                assert!(
                    matches!(insns[at + 7], Insn::Local { opcode: op::ILOAD, index } if index == *stored),
                    "{:?}",
                    &insns[at..at + 14]
                );
                assert!(
                    matches!(insns[at + 13], Insn::Local { opcode: op::ILOAD, index } if index == *stored),
                    "{:?}",
                    &insns[at..at + 14]
                );
                assert!(stored.0 >= code.max_locals - 1, "a local of its own");
                seen += 1;
            }
        }
        assert!(seen >= 1, "staticCall is called");
    }

    #[test]
    fn without_probes_the_class_has_no_reference_to_the_probe_entry() {
        let (_, bytes) = testing::rewritten("java8/AllInstructions.class", &ProfileOptions::default());
        let class = ClassFile::parse(&bytes).unwrap();
        assert!(!class
            .constant_pool
            .iter()
            .any(|(_, c)| matches!(c, Constant::Utf8(text) if *text == b"probe")));
    }
}
