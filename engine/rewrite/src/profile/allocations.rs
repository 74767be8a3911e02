//! Allocation counts (`ProfileOptions::allocations`, docs/profiling.md,
//! "Allocations"): before each `new`, `newarray`, `anewarray` and
//! `multianewarray` of the original code, the method adds one allocation of
//! the instruction's type to its own context,
//! ```text
//! ic.metric("allocations:java.lang.String[]")   // behind if (ic != null)
//! ```
//! so an allocation counts when its instruction starts, as a single-stepping
//! debugger sees it, whether or not it then throws. The type is a string
//! constant of the class: the JVM interns those, so every class that
//! allocates a type passes the same object, and the runtime finds its count
//! by identity, with no table of types in the class.

use jp_bytecode::opcode as op;
use jp_bytecode::simulate::primitive_array;
use jp_bytecode::{Insn, MethodBody, Pc};
use jp_classfile::{ConstantLookup, CpIndex, PoolBuilder};

use super::method::Guard;
use crate::WarningReason;

/// Inserts the count before every allocation of `body`'s original code, on
/// the context in the guard's local; `ic_metric` is `IC.metric`.
pub(super) fn count_before_allocations(
    body: &mut MethodBody<'_>,
    guard: &Guard<'_>,
    ic_metric: CpIndex,
    pool: &mut PoolBuilder<'_>,
) -> Result<(), WarningReason> {
    let allocations: Vec<(Pc, Vec<u8>)> = body
        .instructions()
        .filter_map(|(pc, insn)| allocated_type(insn, pool).map(|name| name.map(|name| (pc, name))))
        .collect::<Result<_, _>>()?;
    let mut calls = Vec::with_capacity(allocations.len());
    for (pc, name) in allocations {
        let mut metric = b"allocations:".to_vec();
        metric.extend_from_slice(&name);
        calls.push((pc, guard.count_metric(&metric, ic_metric, pool)?));
    }
    guard.insert_before_each(body, calls)
}

/// The pcs of `body`'s allocation instructions, where the counting code goes.
pub(super) fn allocation_pcs<'b>(body: &'b MethodBody<'_>) -> impl Iterator<Item = Pc> + 'b {
    body.instructions()
        .filter(|(_, insn)| {
            matches!(
                insn,
                Insn::NewArray(_)
                    | Insn::MultiANewArray { .. }
                    | Insn::Ref {
                        opcode: op::NEW | op::ANEWARRAY,
                        ..
                    }
            )
        })
        .map(|(pc, _)| pc)
}

/// The Java name of the type `insn` allocates, when it is an allocation.
fn allocated_type(insn: &Insn, pool: &impl ConstantLookup) -> Option<Result<Vec<u8>, WarningReason>> {
    let class = |index: &CpIndex| pool.class_name_bytes(*index).map_err(WarningReason::from);
    Some(match insn {
        Insn::Ref {
            opcode: op::NEW,
            index,
        } => class(index).map(java_name),
        Insn::Ref {
            opcode: op::ANEWARRAY,
            index,
        } => class(index).map(|component| {
            let mut name = java_name(component);
            name.extend_from_slice(b"[]");
            name
        }),
        Insn::MultiANewArray { index, .. } => class(index).map(java_name),
        Insn::NewArray(atype) => {
            primitive_array(*atype)
                .map(java_name)
                .ok_or_else(|| WarningReason::Unsupported {
                    what: format!("newarray of atype {atype}"),
                })
        }
        _ => return None,
    })
}

/// `java.lang.String` for `java/lang/String`, `int[][]` for `[[I`,
/// `java.lang.String[]` for `[Ljava/lang/String;`: the name Java source
/// writes for a class's internal name or an array's descriptor.
fn java_name(internal: &[u8]) -> Vec<u8> {
    let dimensions = internal.iter().take_while(|&&b| b == b'[').count();
    let element = &internal[dimensions..];
    let mut name: Vec<u8> = match (dimensions, element) {
        (0, _) => element.to_vec(),
        (_, [code]) => descriptor_primitive(*code).map_or_else(|| element.to_vec(), <[u8]>::to_vec),
        (_, [b'L', class @ .., b';']) => class.to_vec(),
        _ => element.to_vec(),
    };
    for byte in &mut name {
        if *byte == b'/' {
            *byte = b'.';
        }
    }
    for _ in 0..dimensions {
        name.extend_from_slice(b"[]");
    }
    name
}

fn descriptor_primitive(code: u8) -> Option<&'static [u8]> {
    Some(match code {
        b'Z' => b"boolean",
        b'C' => b"char",
        b'F' => b"float",
        b'D' => b"double",
        b'B' => b"byte",
        b'S' => b"short",
        b'I' => b"int",
        b'J' => b"long",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Analysis;
    use crate::injected;
    use crate::profile::{testing, ProfileOptions};
    use jp_classfile::attributes::names;
    use jp_classfile::{mutf8, ClassFile, Constant};

    #[test]
    fn types_are_named_as_java_source_writes_them() {
        for (internal, java) in [
            ("java/lang/String", "java.lang.String"),
            ("[I", "int[]"),
            ("[[Z", "boolean[][]"),
            ("[Ljava/lang/String;", "java.lang.String[]"),
            ("[[[Ljava/util/Map$Entry;", "java.util.Map$Entry[][][]"),
        ] {
            assert_eq!(java_name(internal.as_bytes()), java.as_bytes(), "{internal}");
        }
        let bytes = jp_testdata::class("java8/AllInstructions.class");
        let pool = &ClassFile::parse(&bytes).unwrap().constant_pool;
        assert_eq!(
            allocated_type(&Insn::NewArray(10), pool).unwrap().unwrap(),
            b"int[]"
        );
        assert!(allocated_type(&Insn::NewArray(3), pool).unwrap().is_err());
        assert!(allocated_type(&Insn::Plain(op::NOP), pool).is_none());
    }

    /// A method's name, the types of its original allocations, and the
    /// types it passes to `IC.metric`, both in code order.
    type Allocating = (String, Vec<Vec<u8>>, Vec<Vec<u8>>);

    /// Each method of `class` as [`Allocating`].
    fn allocations_of(class: &str) -> Vec<Allocating> {
        let options = ProfileOptions {
            analysis: Analysis::Precise,
            allocations: true,
            ..ProfileOptions::default()
        };
        let (original, bytes) = testing::rewritten(class, &options);
        let (before, after) = (
            ClassFile::parse(&original).unwrap(),
            ClassFile::parse(&bytes).unwrap(),
        );
        let insns = testing::instructions;
        let mut out = Vec::new();
        for method in before
            .methods
            .iter()
            .filter(|m| m.attribute(names::CODE).is_some())
        {
            let expected = insns(&before, method.name, method.descriptor)
                .iter()
                .filter_map(|insn| allocated_type(insn, &before.constant_pool))
                .map(Result::unwrap)
                .collect();
            let rewritten: Vec<Insn> = insns(&after, method.name, method.descriptor)
                .into_iter()
                .filter(|insn| !matches!(insn, Insn::Label(_)))
                .collect();
            let passed = rewritten
                .windows(2)
                .filter_map(|pair| match pair {
                    [Insn::Ldc { index, .. }, Insn::Ref { index: call, .. }]
                        if after.constant_pool.member_ref(*call).is_ok_and(|(_, n, d)| {
                            (n, d) == (b"metric".as_slice(), injected::IC_METRIC.1.as_bytes())
                        }) =>
                    {
                        match after.constant_pool.get(*index) {
                            Some(Constant::String { string }) => Some(
                                after
                                    .constant_pool
                                    .utf8(*string)
                                    .unwrap()
                                    .strip_prefix(b"allocations:")
                                    .expect("an allocation metric")
                                    .to_vec(),
                            ),
                            other => panic!("{other:?}"),
                        }
                    }
                    _ => None,
                })
                .collect();
            out.push((mutf8::to_str_lossy(method.name).into_owned(), expected, passed));
        }
        out
    }

    #[test]
    fn every_allocation_is_counted_once_with_its_type_before_it_runs() {
        let mut counted = 0;
        for class in [
            "java8/AllInstructions.class",
            "java17/TryCatchFinally.class",
            "java17/Nested$Inner.class",
        ] {
            for (method, expected, passed) in allocations_of(class) {
                assert_eq!(passed, expected, "{class} {method}");
                counted += passed.len();
            }
        }
        assert!(counted > 5, "{counted} allocations");
    }

    #[test]
    fn without_allocations_the_class_has_no_reference_to_the_metric_counter() {
        let (_, bytes) = testing::rewritten("java8/AllInstructions.class", &ProfileOptions::default());
        let class = ClassFile::parse(&bytes).unwrap();
        assert!(!class
            .constant_pool
            .iter()
            .any(|(_, c)| matches!(c, Constant::Utf8(text) if *text == b"metric")));
    }
}
