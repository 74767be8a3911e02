//! The verifier's type transfer function over [`Insn`]: what each
//! instruction does to the types of the locals and the operand stack when
//! it falls through ([JVMS §4.10.1.9], the type-checking rules per
//! instruction).
//!
//! A branch that a rewrite adds needs a frame at its target. JP gets it by
//! starting from the nearest preceding known frame and stepping forward
//! through straight-line code with [`step`]. No class hierarchy is needed:
//! straight-line code never merges two types.
//!
//! On the stack a `long` or `double` is *one* entry ([`VType::Long`],
//! [`VType::Double`]), as in a `StackMapTable`; the untyped stack
//! instructions (`pop2`, `dup_x2`, `dup2`, `dup2_x1`, `dup2_x2`) still pick
//! their JVMS form by the categories they find. Locals are updated in slot
//! form (see [`frame::to_slots`]).
//!
//! [`stack_effect`] and [`max_stack_of`] count in *words* instead (a
//! `long` is two), as `max_stack` does.
//!
//! [JVMS §4.10.1.9]: https://docs.oracle.com/javase/specs/jvms/se21/html/jvms-4.html#jvms-4.10.1.9

use std::collections::HashMap;

use foldhash::fast::RandomState;
use jp_classfile::{Constant, ConstantLookup, CpIndex};

use crate::descriptor::{FieldType, MethodDescriptor};
use crate::error::{BytecodeError, Result};
use crate::frame::{self, ClassName, Frame, VType};
use crate::insn::Insn;
use crate::label::Label;
use crate::opcode as op;

/// Updates `frame` to the state after `insn` falls through to the next
/// instruction. `at` is the label of `insn` itself (a `new` pushes
/// `Uninitialized(at)`), and `this_class` the internal name of the class
/// whose method this is (`invokespecial <init>` on `uninitializedThis`
/// makes it an object of that class). A label changes nothing.
///
/// For returns and `athrow` only the popping is done: no state follows
/// them.
///
/// # Errors
/// - [`BytecodeError::StackUnderflow`] when the instruction pops more than
///   the stack holds;
/// - [`BytecodeError::OperandMismatch`] when an operand has the wrong
///   category or kind (a `dup` of a `long`, `aaload` from an `int[]`,
///   `aload` of a local that holds no reference, `<init>` on an
///   initialised object);
/// - [`BytecodeError::WrongConstantKind`] for an `ldc` of a constant that
///   is not loadable with that instruction;
/// - [`BytecodeError::Subroutine`] for `jsr` and `ret`: frames cannot be
///   simulated through subroutines (only class files older than version
///   50, which have no frames, use them);
/// - [`BytecodeError::BadArrayType`] for a `newarray` with an unknown type
///   code, [`BytecodeError::MalformedInsn`] for an opcode in a form it does
///   not take;
/// - [`BytecodeError::BadDescriptor`] and constant-pool errors for member
///   references.
///
/// After an error, `frame` is in an unspecified state.
pub fn step(
    insn: &Insn,
    at: Label,
    frame: &mut Frame,
    pool: &impl ConstantLookup,
    this_class: &[u8],
) -> Result<()> {
    let Some(opcode) = insn.opcode() else {
        return Ok(());
    };
    let mut sim = Sim { frame, at, opcode };
    match insn {
        Insn::Label(_) => {}
        Insn::Plain(_) => sim.plain()?,
        Insn::Local { index, .. } => sim.local(index.0)?,
        Insn::Iinc { .. } => {}
        Insn::Bipush(_) | Insn::Sipush(_) => sim.push(VType::Integer),
        Insn::Ldc { index, category2 } => {
            let loaded = ldc_type(pool, *index, *category2, at, opcode)?;
            sim.push(loaded);
        }
        Insn::Ref { index, .. } => sim.reference(*index, pool, this_class)?,
        Insn::InvokeInterface { index, .. } => sim.invoke(*index, pool, this_class)?,
        Insn::InvokeDynamic { index } => sim.invoke(*index, pool, this_class)?,
        Insn::NewArray(atype) => {
            let class = primitive_array(*atype).ok_or(BytecodeError::BadArrayType { at, atype: *atype })?;
            sim.pop_category(1)?;
            sim.push(VType::Object(class.into()));
        }
        Insn::MultiANewArray { index, dimensions } => {
            let class = pool.class_name_bytes(*index)?;
            for _ in 0..*dimensions {
                sim.pop_category(1)?;
            }
            sim.push(VType::Object(class.into()));
        }
        Insn::Branch { .. } => match opcode {
            op::IFEQ..=op::IFLE | op::IFNULL | op::IFNONNULL => {
                sim.pop_category(1)?;
            }
            op::IF_ICMPEQ..=op::IF_ACMPNE => {
                sim.pop_category(1)?;
                sim.pop_category(1)?;
            }
            op::GOTO => {}
            op::JSR => return Err(BytecodeError::Subroutine { at, opcode }),
            _ => return Err(BytecodeError::MalformedInsn { opcode }),
        },
        Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => {
            sim.pop_category(1)?;
        }
    }
    Ok(())
}

/// The words (a `long` or `double` counts two) that `insn` pops and then
/// pushes, for computing `max_stack`. A label is `(0, 0)`; `jsr` pushes
/// its return address.
///
/// # Errors
/// [`BytecodeError::MalformedInsn`] for an opcode in a form it does not
/// take, [`BytecodeError::BadDescriptor`] and constant-pool errors for
/// member references.
pub fn stack_effect(insn: &Insn, pool: &impl ConstantLookup) -> Result<(u16, u16)> {
    let Some(opcode) = insn.opcode() else {
        return Ok((0, 0));
    };
    if let Some((opcode, index)) = member_operand(insn) {
        return member_words(pool, index, opcode)?.effect(opcode);
    }
    let malformed = BytecodeError::MalformedInsn { opcode };
    Ok(match insn {
        Insn::Label(_) => (0, 0),
        Insn::Plain(_) => shape(opcode).ok_or(malformed)?.words(),
        Insn::Local { .. } => match opcode {
            op::ILOAD | op::FLOAD | op::ALOAD => (0, 1),
            op::LLOAD | op::DLOAD => (0, 2),
            op::ISTORE | op::FSTORE | op::ASTORE => (1, 0),
            op::LSTORE | op::DSTORE => (2, 0),
            op::RET => (0, 0),
            _ => return Err(malformed),
        },
        Insn::Iinc { .. } => (0, 0),
        Insn::Bipush(_) | Insn::Sipush(_) => (0, 1),
        Insn::Ldc { category2, .. } => (0, if *category2 { 2 } else { 1 }),
        Insn::Ref { .. } => match opcode {
            op::NEW => (0, 1),
            op::ANEWARRAY | op::CHECKCAST | op::INSTANCEOF => (1, 1),
            _ => return Err(malformed),
        },
        // Taken by `member_operand` above.
        Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. } => return Err(malformed),
        Insn::NewArray(_) => (1, 1),
        Insn::MultiANewArray { dimensions, .. } => (u16::from(*dimensions), 1),
        Insn::Branch { .. } => match opcode {
            op::IFEQ..=op::IFLE | op::IFNULL | op::IFNONNULL => (1, 0),
            op::IF_ICMPEQ..=op::IF_ACMPNE => (2, 0),
            op::GOTO => (0, 0),
            op::JSR => (0, 1),
            _ => return Err(malformed),
        },
        Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => (1, 0),
    })
}

/// How far `insns`, run straight through, raise the operand stack above
/// its depth at their start, in words. Inserted sequences may consume what
/// the original code pushed (a call site that gains an argument, say), so
/// the depth may dip below the start; only the peak above it counts.
///
/// # Errors
/// Constant-pool and descriptor errors of the instructions.
pub fn max_stack_of(insns: &[Insn], pool: &impl ConstantLookup) -> Result<u16> {
    StackEffects::default().max_stack_of(insns, pool)
}

/// [`max_stack_of`] for many sequences that refer to the same few members
/// (the code a rewrite inserts at every return of every method of a class,
/// say): each reference's descriptor is read once, or not at all when the
/// code that added the reference notes it. One value serves one constant
/// pool, which may grow meanwhile.
#[derive(Debug, Default)]
pub struct StackEffects {
    /// Member reference (or dynamic call site) → the words of its descriptor.
    members: HashMap<CpIndex, MemberWords, RandomState>,
}

impl StackEffects {
    /// As [`max_stack_of`].
    ///
    /// # Errors
    /// Constant-pool and descriptor errors of the instructions.
    pub fn max_stack_of(&mut self, insns: &[Insn], pool: &impl ConstantLookup) -> Result<u16> {
        let mut depth: i64 = 0;
        let mut peak: i64 = 0;
        for insn in insns {
            let (popped, pushed) = self.effect(insn, pool)?;
            depth += i64::from(pushed) - i64::from(popped);
            // A pop happens before the push, but the peak is after the push.
            peak = peak.max(depth);
        }
        Ok(u16::try_from(peak).unwrap_or(u16::MAX))
    }

    /// Notes the descriptor of the member reference at `index`, which the
    /// caller has just added to the pool: the code that uses it then needs
    /// no read of the reference back from the pool's appended entries. A
    /// descriptor that does not parse is not noted (reading it refuses it).
    pub fn note_member(&mut self, index: CpIndex, descriptor: &[u8]) {
        let words = if descriptor.starts_with(b"(") {
            MemberWords::method(descriptor)
        } else {
            MemberWords::field(descriptor)
        };
        if let Ok(words) = words {
            self.members.insert(index, words);
        }
    }

    fn effect(&mut self, insn: &Insn, pool: &impl ConstantLookup) -> Result<(u16, u16)> {
        let Some((opcode, index)) = member_operand(insn) else {
            return stack_effect(insn, pool);
        };
        // Words of the other kind (a field noted, a method invoked) are read
        // again, for the error that reading gives.
        if let Some(effect) = self
            .members
            .get(&index)
            .and_then(|words| words.effect(opcode).ok())
        {
            return Ok(effect);
        }
        let words = member_words(pool, index, opcode)?;
        self.members.insert(index, words);
        words.effect(opcode)
    }
}

/// The words a member's descriptor takes on the operand stack.
#[derive(Debug, Clone, Copy)]
enum MemberWords {
    /// A field's value.
    Field(u16),
    /// A method's parameters (without a receiver) and its result.
    Method { parameters: u16, result: u16 },
}

impl MemberWords {
    fn field(descriptor: &[u8]) -> Result<MemberWords> {
        Ok(MemberWords::Field(FieldType::parse(descriptor)?.slots()))
    }

    fn method(descriptor: &[u8]) -> Result<MemberWords> {
        let (parameters, result) = MethodDescriptor::slots(descriptor)?;
        Ok(MemberWords::Method { parameters, result })
    }

    /// The words that `opcode`, a field access or an invoke, pops and
    /// pushes with this member.
    ///
    /// # Errors
    /// [`BytecodeError::MalformedInsn`] for a member of the other kind.
    fn effect(self, opcode: u8) -> Result<(u16, u16)> {
        Ok(match (self, opcode) {
            (MemberWords::Field(words), op::GETSTATIC) => (0, words),
            (MemberWords::Field(words), op::PUTSTATIC) => (words, 0),
            (MemberWords::Field(words), op::GETFIELD) => (1, words),
            (MemberWords::Field(words), op::PUTFIELD) => (1 + words, 0),
            (MemberWords::Method { parameters, result }, op::INVOKESTATIC | op::INVOKEDYNAMIC) => {
                (parameters, result)
            }
            (
                MemberWords::Method { parameters, result },
                op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKEINTERFACE,
            ) => (parameters.saturating_add(1), result),
            _ => return Err(BytecodeError::MalformedInsn { opcode }),
        })
    }
}

/// The opcode and the member (or dynamic call site) of a field access or an
/// invoke, whose stack effect its descriptor gives.
fn member_operand(insn: &Insn) -> Option<(u8, CpIndex)> {
    match *insn {
        Insn::Ref { opcode, index } if (op::GETSTATIC..=op::INVOKESTATIC).contains(&opcode) => {
            Some((opcode, index))
        }
        Insn::InvokeInterface { index, .. } => Some((op::INVOKEINTERFACE, index)),
        Insn::InvokeDynamic { index } => Some((op::INVOKEDYNAMIC, index)),
        _ => None,
    }
}

/// The words of the member at `index`, its descriptor read as `opcode`
/// (a field access or an invoke) takes it.
fn member_words(pool: &impl ConstantLookup, index: CpIndex, opcode: u8) -> Result<MemberWords> {
    let (_, _, descriptor) = pool.member_ref(index)?;
    if (op::GETSTATIC..=op::PUTFIELD).contains(&opcode) {
        MemberWords::field(descriptor)
    } else {
        MemberWords::method(descriptor)
    }
}

/// What an instruction without operands does to the stack.
#[derive(Debug)]
enum Shape {
    /// Pops entries of these categories (bottom first), then pushes the
    /// type, if any.
    Simple {
        pops: &'static [u8],
        push: Option<VType>,
    },
    /// `aaload`: pops an array and an index, pushes the component.
    ArrayLoadReference,
    /// `pop` (1) and `pop2` (2): discards that many words.
    Pop(u8),
    /// The `dup` family: copies the top `top` words below the `under`
    /// words beneath them.
    Dup { top: u8, under: u8 },
    /// `swap`.
    Swap,
}

impl Shape {
    fn words(&self) -> (u16, u16) {
        match self {
            Shape::Simple { pops, push } => (
                pops.iter().map(|&c| u16::from(c)).sum(),
                push.as_ref().map_or(0, category),
            ),
            Shape::ArrayLoadReference => (2, 1),
            Shape::Pop(words) => (u16::from(*words), 0),
            Shape::Dup { top, under } => {
                let (top, under) = (u16::from(*top), u16::from(*under));
                (top + under, 2 * top + under)
            }
            Shape::Swap => (2, 2),
        }
    }
}

fn category(t: &VType) -> u16 {
    if t.is_category2() {
        2
    } else {
        1
    }
}

/// The shape of each opcode that [`Insn::Plain`] carries, `None` for the
/// others.
fn shape(opcode: u8) -> Option<Shape> {
    use VType::{Double as D, Float as F, Integer as I, Long as J};
    let simple = |pops: &'static [u8], push: Option<VType>| Shape::Simple { pops, push };
    // The operand type of typed families that run i, l, f, d.
    let ilfd = |n: u8| [I, J, F, D][usize::from(n % 4)].clone();
    Some(match opcode {
        op::NOP => simple(&[], None),
        op::ACONST_NULL => simple(&[], Some(VType::Null)),
        0x02..=0x08 => simple(&[], Some(I)), // iconst_m1..iconst_5
        0x09 | 0x0a => simple(&[], Some(J)), // lconst_0, lconst_1
        0x0b..=0x0d => simple(&[], Some(F)), // fconst_0..fconst_2
        0x0e | 0x0f => simple(&[], Some(D)), // dconst_0, dconst_1
        // iaload, laload, faload, daload
        op::IALOAD..=0x31 => simple(&[1, 1], Some(ilfd(opcode - op::IALOAD))),
        0x32 => Shape::ArrayLoadReference,             // aaload
        0x33..=op::SALOAD => simple(&[1, 1], Some(I)), // baload, caload, saload
        // lastore, dastore take a two-word value; the other stores one.
        0x50 | 0x52 => simple(&[1, 1, 2], None),
        op::IASTORE..=op::SASTORE => simple(&[1, 1, 1], None),
        op::POP => Shape::Pop(1),
        0x58 => Shape::Pop(2),                   // pop2
        0x59 => Shape::Dup { top: 1, under: 0 }, // dup
        0x5a => Shape::Dup { top: 1, under: 1 }, // dup_x1
        0x5b => Shape::Dup { top: 1, under: 2 }, // dup_x2
        0x5c => Shape::Dup { top: 2, under: 0 }, // dup2
        0x5d => Shape::Dup { top: 2, under: 1 }, // dup2_x1
        0x5e => Shape::Dup { top: 2, under: 2 }, // dup2_x2
        op::SWAP => Shape::Swap,
        // add, sub, mul, div, rem: two operands of the result's type.
        op::IADD..=0x73 => {
            let t = ilfd(opcode - op::IADD);
            match category(&t) {
                1 => simple(&[1, 1], Some(t)),
                _ => simple(&[2, 2], Some(t)),
            }
        }
        // ineg, lneg, fneg, dneg
        0x74..=0x77 => {
            let t = ilfd(opcode - 0x74);
            match category(&t) {
                1 => simple(&[1], Some(t)),
                _ => simple(&[2], Some(t)),
            }
        }
        // ishl, lshl, ishr, lshr, iushr, lushr: the shift distance is an int.
        0x78..=0x7d if opcode % 2 == 0 => simple(&[1, 1], Some(I)),
        0x78..=0x7d => simple(&[2, 1], Some(J)),
        // iand, land, ior, lor, ixor, lxor
        0x7e..=op::LXOR if opcode % 2 == 0 => simple(&[1, 1], Some(I)),
        0x7e..=op::LXOR => simple(&[2, 2], Some(J)),
        // Conversions, i2l..i2s: from the first letter to the last.
        op::I2L..=0x93 => {
            let (from, to) = match opcode {
                op::I2L => (I, J),
                0x86 => (I, F),
                0x87 => (I, D),
                0x88 => (J, I),
                0x89 => (J, F),
                0x8a => (J, D),
                0x8b => (F, I),
                0x8c => (F, J),
                0x8d => (F, D),
                0x8e => (D, I),
                0x8f => (D, J),
                0x90 => (D, F),
                _ => (I, I), // i2b, i2c, i2s
            };
            match category(&from) {
                1 => simple(&[1], Some(to)),
                _ => simple(&[2], Some(to)),
            }
        }
        0x94 => simple(&[2, 2], Some(I)),             // lcmp
        0x95 | 0x96 => simple(&[1, 1], Some(I)),      // fcmpl, fcmpg
        0x97 | op::DCMPG => simple(&[2, 2], Some(I)), // dcmpl, dcmpg
        // ireturn, lreturn, freturn, dreturn, areturn
        0xad | 0xaf => simple(&[2], None),
        op::IRETURN..=0xb0 => simple(&[1], None),
        op::RETURN => simple(&[], None),
        op::ARRAYLENGTH => simple(&[1], Some(I)),
        op::ATHROW | op::MONITORENTER | op::MONITOREXIT => simple(&[1], None),
        _ => return None,
    })
}

/// The simulation of one instruction on a frame.
struct Sim<'f> {
    frame: &'f mut Frame,
    at: Label,
    opcode: u8,
}

impl Sim<'_> {
    fn underflow(&self) -> BytecodeError {
        BytecodeError::StackUnderflow {
            at: self.at,
            opcode: self.opcode,
        }
    }

    fn mismatch(&self, expected: &'static str) -> BytecodeError {
        BytecodeError::OperandMismatch {
            at: self.at,
            opcode: self.opcode,
            expected,
        }
    }

    fn push(&mut self, t: VType) {
        self.frame.stack.push(t);
    }

    /// Pops one entry of the given category (1 or 2 words).
    fn pop_category(&mut self, words: u16) -> Result<VType> {
        let top = self.frame.stack.pop().ok_or_else(|| self.underflow())?;
        if category(&top) != words {
            return Err(self.mismatch(if words == 2 {
                "a long or double"
            } else {
                "a category-1 value"
            }));
        }
        Ok(top)
    }

    /// Pops entries making up exactly `words` words (1 or 2), bottom first:
    /// the JVMS forms of the untyped stack instructions.
    fn take_words(&mut self, words: u8) -> Result<Vec<VType>> {
        let top = self.frame.stack.pop().ok_or_else(|| self.underflow())?;
        if top.is_category2() {
            return match words {
                2 => Ok(vec![top]),
                _ => Err(self.mismatch("a category-1 value on top")),
            };
        }
        if words == 1 {
            return Ok(vec![top]);
        }
        let below = self.frame.stack.pop().ok_or_else(|| self.underflow())?;
        if below.is_category2() {
            return Err(self.mismatch("two category-1 values or one long or double on top"));
        }
        Ok(vec![below, top])
    }

    fn plain(&mut self) -> Result<()> {
        let opcode = self.opcode;
        match shape(opcode).ok_or(BytecodeError::MalformedInsn { opcode })? {
            Shape::Simple { pops, push } => {
                for &words in pops.iter().rev() {
                    self.pop_category(u16::from(words))?;
                }
                if let Some(t) = push {
                    self.push(t);
                }
            }
            Shape::ArrayLoadReference => {
                self.pop_category(1)?;
                let array = self.pop_category(1)?;
                let component = match array {
                    VType::Null => VType::Null,
                    VType::Object(name) => {
                        reference_component(&name).ok_or_else(|| self.mismatch("an array of references"))?
                    }
                    _ => return Err(self.mismatch("an array of references")),
                };
                self.push(component);
            }
            Shape::Pop(words) => {
                self.take_words(words)?;
            }
            Shape::Dup { top, under } => {
                let copied = self.take_words(top)?;
                let beneath = match under {
                    0 => Vec::new(),
                    _ => self.take_words(under)?,
                };
                let stack = &mut self.frame.stack;
                stack.extend(copied.iter().cloned());
                stack.extend(beneath);
                stack.extend(copied);
            }
            Shape::Swap => {
                let top = self.take_words(1)?;
                let below = self.take_words(1)?;
                self.frame.stack.extend(top);
                self.frame.stack.extend(below);
            }
        }
        Ok(())
    }

    fn local(&mut self, index: u16) -> Result<()> {
        let loaded = match self.opcode {
            op::ILOAD => VType::Integer,
            op::LLOAD => VType::Long,
            op::FLOAD => VType::Float,
            op::DLOAD => VType::Double,
            op::ALOAD => local_at(&self.frame.locals, index)
                .filter(|t| is_reference(t))
                .cloned()
                .ok_or_else(|| self.mismatch("a reference in the local variable"))?,
            op::ISTORE | op::FSTORE | op::ASTORE => {
                let stored = self.pop_category(1)?;
                store(&mut self.frame.locals, index, stored);
                return Ok(());
            }
            op::LSTORE | op::DSTORE => {
                let stored = self.pop_category(2)?;
                store(&mut self.frame.locals, index, stored);
                return Ok(());
            }
            op::RET => {
                return Err(BytecodeError::Subroutine {
                    at: self.at,
                    opcode: self.opcode,
                })
            }
            opcode => return Err(BytecodeError::MalformedInsn { opcode }),
        };
        self.push(loaded);
        Ok(())
    }

    /// The instructions of [`Insn::Ref`].
    fn reference(&mut self, index: CpIndex, pool: &impl ConstantLookup, this_class: &[u8]) -> Result<()> {
        match self.opcode {
            op::GETSTATIC => {
                let field = field_type(pool, index)?;
                self.push(VType::of_field(field));
            }
            op::PUTSTATIC => {
                let field = field_type(pool, index)?;
                self.pop_category(field.slots())?;
            }
            op::GETFIELD => {
                let field = field_type(pool, index)?;
                self.pop_category(1)?;
                self.push(VType::of_field(field));
            }
            op::PUTFIELD => {
                let field = field_type(pool, index)?;
                self.pop_category(field.slots())?;
                self.pop_category(1)?;
            }
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => {
                self.invoke(index, pool, this_class)?;
            }
            op::NEW => self.push(VType::Uninitialized(self.at)),
            op::ANEWARRAY => {
                let component = pool.class_name_bytes(index)?;
                self.pop_category(1)?;
                self.push(VType::Object(array_of(component)));
            }
            op::CHECKCAST => {
                // A class name is either an internal name or already an
                // array descriptor: both are the names `VType` uses.
                let class = pool.class_name_bytes(index)?;
                self.pop_category(1)?;
                self.push(VType::Object(class.into()));
            }
            op::INSTANCEOF => {
                self.pop_category(1)?;
                self.push(VType::Integer);
            }
            opcode => return Err(BytecodeError::MalformedInsn { opcode }),
        }
        Ok(())
    }

    /// Any of the five invokes.
    fn invoke(&mut self, index: CpIndex, pool: &impl ConstantLookup, this_class: &[u8]) -> Result<()> {
        let (class, name, descriptor) = pool.member_ref(index)?;
        let descriptor = MethodDescriptor::parse(descriptor)?;
        for parameter in descriptor.parameters.iter().rev() {
            self.pop_category(parameter.slots())?;
        }
        if !matches!(self.opcode, op::INVOKESTATIC | op::INVOKEDYNAMIC) {
            let receiver = self.pop_category(1)?;
            if self.opcode == op::INVOKESPECIAL && name == b"<init>" {
                let initialised = match receiver {
                    VType::UninitializedThis => VType::Object(this_class.into()),
                    // The class of the `new` is not in sight; in code that
                    // verifies it is the class whose constructor runs.
                    VType::Uninitialized(_) => VType::Object(class.into()),
                    _ => return Err(self.mismatch("an uninitialized object for <init>")),
                };
                let frame = &mut *self.frame;
                for t in frame.locals.iter_mut().chain(frame.stack.iter_mut()) {
                    if *t == receiver {
                        *t = initialised.clone();
                    }
                }
            }
        }
        if let Some(returned) = descriptor.return_type {
            self.push(VType::of_field(returned));
        }
        Ok(())
    }
}

/// The type of the field a `Fieldref` names.
fn field_type(pool: &impl ConstantLookup, index: CpIndex) -> Result<FieldType<'_>> {
    let (_, _, descriptor) = pool.member_ref(index)?;
    FieldType::parse(descriptor)
}

/// The type an `ldc` (`category2` false) or `ldc2_w` (true) of the
/// constant at `index` pushes (JVMS §4.4, loadable constants).
fn ldc_type(
    pool: &impl ConstantLookup,
    index: CpIndex,
    category2: bool,
    at: Label,
    opcode: u8,
) -> Result<VType> {
    let object = |name: &[u8]| VType::Object(name.into());
    let constant = pool.constant(index);
    let wrong = |found: &'static str| BytecodeError::WrongConstantKind {
        at,
        opcode,
        index: index.0,
        found,
        expected: if category2 {
            "a Long, a Double or a Dynamic of type J or D"
        } else {
            "a loadable constant of category 1"
        },
    };
    let loaded = match constant {
        Some(Constant::Integer(_)) => VType::Integer,
        Some(Constant::Float(_)) => VType::Float,
        Some(Constant::Long(_)) => VType::Long,
        Some(Constant::Double(_)) => VType::Double,
        Some(Constant::String { .. }) => object(b"java/lang/String"),
        Some(Constant::Class { .. }) => object(b"java/lang/Class"),
        Some(Constant::MethodType { .. }) => object(b"java/lang/invoke/MethodType"),
        Some(Constant::MethodHandle { .. }) => object(b"java/lang/invoke/MethodHandle"),
        Some(Constant::Dynamic { .. }) => {
            let (_, _, descriptor) = pool.member_ref(index)?;
            VType::of_field(FieldType::parse(descriptor)?)
        }
        Some(other) => return Err(wrong(other.kind_name())),
        None => return Err(wrong("unusable or out of range")),
    };
    if loaded.is_category2() != category2 {
        let found = constant.map_or("unusable or out of range", |c| c.kind_name());
        return Err(wrong(found));
    }
    Ok(loaded)
}

/// The class name of `newarray`'s array for type code `atype` (JVMS
/// §6.5.newarray, Table 6.5.newarray-A).
pub fn primitive_array(atype: u8) -> Option<&'static [u8]> {
    Some(match atype {
        4 => b"[Z",
        5 => b"[C",
        6 => b"[F",
        7 => b"[D",
        8 => b"[B",
        9 => b"[S",
        10 => b"[I",
        11 => b"[J",
        _ => return None,
    })
}

/// The class name of an array of `component` (an internal name or an
/// array descriptor).
fn array_of(component: &[u8]) -> ClassName {
    let mut name = Vec::with_capacity(component.len() + 3);
    name.push(b'[');
    if component.first() == Some(&b'[') {
        name.extend_from_slice(component);
    } else {
        name.push(b'L');
        name.extend_from_slice(component);
        name.push(b';');
    }
    name.into()
}

/// The component type of the reference array named `array` (`[Lx;` gives
/// `x`, `[[I` gives `[I`); `None` for a non-array or a primitive array.
fn reference_component(array: &[u8]) -> Option<VType> {
    let component = array.strip_prefix(b"[")?;
    match component.first()? {
        b'[' => Some(VType::Object(component.into())),
        b'L' => {
            let name = component.strip_prefix(b"L")?.strip_suffix(b";")?;
            Some(VType::Object(name.into()))
        }
        _ => None,
    }
}

fn is_reference(t: &VType) -> bool {
    matches!(
        t,
        VType::Null | VType::UninitializedThis | VType::Object(_) | VType::Uninitialized(_)
    )
}

/// The type in local slot `index` of entry-form `locals`; `None` past the
/// end or for the second slot of a `long` or `double`.
fn local_at(locals: &[VType], index: u16) -> Option<&VType> {
    let index = usize::from(index);
    let mut slot = 0;
    for local in locals {
        if slot == index {
            return Some(local);
        }
        slot += if local.is_category2() { 2 } else { 1 };
        if slot > index {
            return None;
        }
    }
    None
}

/// Stores a value of type `t` into slot `index` of entry-form `locals`
/// (JVMS §4.10.1.7): a wide value also takes slot `index + 1`, and a wide
/// value that one of those slots belonged to becomes unusable.
fn store(locals: &mut Vec<VType>, index: u16, t: VType) {
    let index = usize::from(index);
    let mut slots = frame::to_slots(locals);
    let needed = index + usize::from(category(&t));
    if slots.len() < needed {
        slots.resize(needed, VType::Top);
    }
    if index > 0 && slots[index - 1].is_category2() {
        slots[index - 1] = VType::Top;
    }
    if t.is_category2() {
        slots[index + 1] = VType::Top;
    }
    slots[index] = t;
    *locals = frame::from_slots(&slots);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::Slot;

    /// A constant pool in a vector, with helpers that append entries.
    struct Pool {
        entries: Vec<Constant<'static>>,
    }

    impl Pool {
        fn new() -> Pool {
            Pool {
                entries: vec![Constant::Unusable],
            }
        }

        fn add(&mut self, constant: Constant<'static>) -> CpIndex {
            let index = CpIndex(self.entries.len() as u16);
            self.entries.push(constant);
            if constant.is_wide() {
                self.entries.push(Constant::Unusable);
            }
            index
        }

        fn utf8(&mut self, text: &'static str) -> CpIndex {
            self.add(Constant::Utf8(text.as_bytes()))
        }

        fn class(&mut self, name: &'static str) -> CpIndex {
            let name = self.utf8(name);
            self.add(Constant::Class { name })
        }

        fn name_and_type(&mut self, name: &'static str, descriptor: &'static str) -> CpIndex {
            let name = self.utf8(name);
            let descriptor = self.utf8(descriptor);
            self.add(Constant::NameAndType { name, descriptor })
        }

        fn field(&mut self, class: &'static str, name: &'static str, descriptor: &'static str) -> CpIndex {
            let class = self.class(class);
            let name_and_type = self.name_and_type(name, descriptor);
            self.add(Constant::Fieldref { class, name_and_type })
        }

        fn method(&mut self, class: &'static str, name: &'static str, descriptor: &'static str) -> CpIndex {
            let class = self.class(class);
            let name_and_type = self.name_and_type(name, descriptor);
            self.add(Constant::Methodref { class, name_and_type })
        }

        fn interface_method(
            &mut self,
            class: &'static str,
            name: &'static str,
            descriptor: &'static str,
        ) -> CpIndex {
            let class = self.class(class);
            let name_and_type = self.name_and_type(name, descriptor);
            self.add(Constant::InterfaceMethodref { class, name_and_type })
        }

        fn dynamic(&mut self, name: &'static str, descriptor: &'static str) -> CpIndex {
            let name_and_type = self.name_and_type(name, descriptor);
            self.add(Constant::Dynamic {
                bootstrap_method_attr_index: 0,
                name_and_type,
            })
        }

        fn invoke_dynamic(&mut self, name: &'static str, descriptor: &'static str) -> CpIndex {
            let name_and_type = self.name_and_type(name, descriptor);
            self.add(Constant::InvokeDynamic {
                bootstrap_method_attr_index: 0,
                name_and_type,
            })
        }
    }

    impl ConstantLookup for Pool {
        fn constant(&self, index: CpIndex) -> Option<Constant<'_>> {
            self.entries
                .get(usize::from(index.0))
                .copied()
                .filter(|c| !matches!(c, Constant::Unusable))
        }
    }

    const THIS: &[u8] = b"a/This";

    fn object(name: &str) -> VType {
        VType::Object(name.as_bytes().into())
    }

    fn frame(locals: Vec<VType>, stack: Vec<VType>) -> Frame {
        Frame { locals, stack }
    }

    /// Runs `insns` from `start`, each at a label numbered by its position.
    fn run(insns: &[Insn], start: Frame, pool: &Pool) -> Result<Frame> {
        let mut frame = start;
        for (i, insn) in insns.iter().enumerate() {
            step(insn, Label(i as u32), &mut frame, pool, THIS)?;
        }
        Ok(frame)
    }

    fn plain(opcode: u8) -> Insn {
        Insn::Plain(opcode)
    }

    fn local(opcode: u8, index: u16) -> Insn {
        Insn::Local {
            opcode,
            index: Slot(index),
        }
    }

    fn reference(opcode: u8, index: CpIndex) -> Insn {
        Insn::Ref { opcode, index }
    }

    fn ldc(index: CpIndex) -> Insn {
        Insn::Ldc {
            index,
            category2: false,
        }
    }

    fn ldc2(index: CpIndex) -> Insn {
        Insn::Ldc {
            index,
            category2: true,
        }
    }

    const DUP: u8 = 0x59;
    const LCONST_1: u8 = 0x0a;
    const LADD: u8 = 0x61;
    const ICONST_1: u8 = 0x04;
    const FCONST_1: u8 = 0x0c;
    const DCONST_1: u8 = 0x0f;
    const AALOAD: u8 = 0x32;

    #[test]
    fn ldc_pushes_the_type_of_each_loadable_constant_kind() {
        let mut pool = Pool::new();
        let string = pool.utf8("text");
        let cases = [
            (pool.add(Constant::Integer(1)), false, VType::Integer),
            (pool.add(Constant::Float(0)), false, VType::Float),
            (pool.add(Constant::Long(1)), true, VType::Long),
            (pool.add(Constant::Double(0)), true, VType::Double),
            (
                pool.add(Constant::String { string }),
                false,
                object("java/lang/String"),
            ),
            (pool.class("a/B"), false, object("java/lang/Class")),
            (
                pool.add(Constant::MethodType { descriptor: string }),
                false,
                object("java/lang/invoke/MethodType"),
            ),
            (
                pool.add(Constant::MethodHandle {
                    reference_kind: 6,
                    reference: CpIndex(1),
                }),
                false,
                object("java/lang/invoke/MethodHandle"),
            ),
            (
                pool.dynamic("list", "Ljava/util/List;"),
                false,
                object("java/util/List"),
            ),
            (pool.dynamic("ints", "[I"), false, object("[I")),
            (pool.dynamic("wide", "J"), true, VType::Long),
            (pool.dynamic("flag", "Z"), false, VType::Integer),
        ];
        for (index, category2, expected) in cases {
            let insn = Insn::Ldc { index, category2 };
            let after = run(std::slice::from_ref(&insn), Frame::default(), &pool).unwrap();
            assert_eq!(after.stack, std::slice::from_ref(&expected), "{index}");
            let words = stack_effect(&insn, &pool).unwrap();
            assert_eq!(words, (0, if expected.is_category2() { 2 } else { 1 }));
        }
    }

    #[test]
    fn ldc_of_a_constant_of_the_wrong_kind_is_an_error() {
        let mut pool = Pool::new();
        let long = pool.add(Constant::Long(7));
        let integer = pool.add(Constant::Integer(7));
        let method = pool.method("a/B", "m", "()V");
        let wide_dynamic = pool.dynamic("d", "D");
        for (insn, index, found) in [
            (ldc(long), long, "Long"),
            (ldc2(integer), integer, "Integer"),
            (ldc(method), method, "Methodref"),
            (ldc(wide_dynamic), wide_dynamic, "Dynamic"),
            (ldc(CpIndex(900)), CpIndex(900), "unusable or out of range"),
            (
                ldc(CpIndex(long.0 + 1)),
                CpIndex(long.0 + 1),
                "unusable or out of range",
            ),
        ] {
            let err = run(std::slice::from_ref(&insn), Frame::default(), &pool).unwrap_err();
            assert!(
                matches!(
                    err,
                    BytecodeError::WrongConstantKind { index: i, found: f, at: Label(0), .. }
                        if i == index.0 && f == found
                ),
                "{insn:?}: {err}"
            );
        }
    }

    #[test]
    fn storing_a_long_takes_two_slots_and_invalidates_what_it_overlaps() {
        let pool = Pool::new();
        let ints = vec![VType::Integer; 4];
        // lstore 1 over four ints: slots 1 and 2 become the long.
        let after = run(
            &[plain(LCONST_1), local(op::LSTORE, 1)],
            frame(ints.clone(), vec![]),
            &pool,
        )
        .unwrap();
        assert_eq!(after.locals, [VType::Integer, VType::Long, VType::Integer]);
        assert!(after.stack.is_empty());

        // Storing into the second half of that long kills the long.
        let second_half = run(&[plain(ICONST_1), local(op::ISTORE, 2)], after.clone(), &pool).unwrap();
        assert_eq!(
            second_half.locals,
            [VType::Integer, VType::Top, VType::Integer, VType::Integer]
        );

        // A long stored into slot 0 overlaps the first half of the long at 1.
        let overlapping = run(&[plain(LCONST_1), local(op::LSTORE, 0)], after.clone(), &pool).unwrap();
        assert_eq!(overlapping.locals, [VType::Long, VType::Top, VType::Integer]);

        // A double past the end pads with Top; loading pushes one entry.
        let padded = run(
            &[
                plain(DCONST_1),
                local(op::DSTORE, 6),
                local(op::DLOAD, 6),
                local(op::LLOAD, 1),
            ],
            after,
            &pool,
        )
        .unwrap();
        assert_eq!(
            padded.locals,
            [
                VType::Integer,
                VType::Long,
                VType::Integer,
                VType::Top,
                VType::Top,
                VType::Double
            ]
        );
        assert_eq!(padded.stack, [VType::Double, VType::Long]);

        // An aload must find a reference.
        let err = run(&[local(op::ALOAD, 2)], padded, &pool).unwrap_err();
        assert!(matches!(err, BytecodeError::OperandMismatch { .. }), "{err}");
    }

    #[test]
    fn stack_instructions_follow_the_jvms_form_for_each_category_mix() {
        let pool = Pool::new();
        let (i, f, j, d) = (VType::Integer, VType::Float, VType::Long, VType::Double);
        let a = object("x");
        let cases: [(u8, Vec<VType>, Vec<VType>); 14] = [
            // dup2, forms 1 and 2
            (
                0x5c,
                vec![i.clone(), f.clone()],
                vec![i.clone(), f.clone(), i.clone(), f.clone()],
            ),
            (
                0x5c,
                vec![i.clone(), j.clone()],
                vec![i.clone(), j.clone(), j.clone()],
            ),
            // dup2_x1, forms 1 and 2
            (
                0x5d,
                vec![a.clone(), i.clone(), f.clone()],
                vec![i.clone(), f.clone(), a.clone(), i.clone(), f.clone()],
            ),
            (
                0x5d,
                vec![i.clone(), d.clone()],
                vec![d.clone(), i.clone(), d.clone()],
            ),
            // dup2_x2, forms 1 to 4
            (
                0x5e,
                vec![a.clone(), f.clone(), i.clone(), i.clone()],
                vec![i.clone(), i.clone(), a.clone(), f.clone(), i.clone(), i.clone()],
            ),
            (
                0x5e,
                vec![i.clone(), f.clone(), j.clone()],
                vec![j.clone(), i.clone(), f.clone(), j.clone()],
            ),
            (
                0x5e,
                vec![d.clone(), i.clone(), f.clone()],
                vec![i.clone(), f.clone(), d.clone(), i.clone(), f.clone()],
            ),
            (
                0x5e,
                vec![d.clone(), j.clone()],
                vec![j.clone(), d.clone(), j.clone()],
            ),
            // dup_x2, forms 1 and 2
            (
                0x5b,
                vec![i.clone(), f.clone(), a.clone()],
                vec![a.clone(), i.clone(), f.clone(), a.clone()],
            ),
            (
                0x5b,
                vec![j.clone(), i.clone()],
                vec![i.clone(), j.clone(), i.clone()],
            ),
            // pop2, forms 1 and 2
            (0x58, vec![i.clone(), f.clone(), a.clone()], vec![i.clone()]),
            (0x58, vec![i.clone(), d.clone()], vec![i.clone()]),
            // dup_x1 and swap
            (
                0x5a,
                vec![i.clone(), f.clone()],
                vec![f.clone(), i.clone(), f.clone()],
            ),
            (op::SWAP, vec![i.clone(), a.clone()], vec![a.clone(), i.clone()]),
        ];
        for (opcode, before, expected) in cases {
            let after = run(&[plain(opcode)], frame(vec![], before.clone()), &pool).unwrap();
            assert_eq!(after.stack, expected, "{} on {before:?}", op::mnemonic(opcode));
        }
        // Forms that would split a long are refused.
        for (opcode, before) in [
            (0x5c, vec![j.clone(), i.clone()]),
            (DUP, vec![j.clone()]),
            (0x57, vec![d.clone()]),
            (0x5b, vec![j.clone(), f.clone(), i.clone()]),
            (op::SWAP, vec![i.clone(), j.clone()]),
        ] {
            let err = run(&[plain(opcode)], frame(vec![], before), &pool).unwrap_err();
            assert!(
                matches!(err, BytecodeError::OperandMismatch { opcode: o, .. } if o == opcode),
                "{err}"
            );
        }
    }

    #[test]
    fn field_accesses_and_invokes_pop_and_push_by_descriptor() {
        let mut pool = Pool::new();
        let get = pool.field("a/B", "count", "J");
        let name = pool.field("a/B", "name", "Ljava/lang/String;");
        let virt = pool.method("a/B", "m", "(IJLjava/lang/Object;)[Ljava/lang/String;");
        let stat = pool.method("a/C", "s", "(DF)Z");
        let iface = pool.interface_method("java/util/List", "size", "()I");
        let indy = pool.invoke_dynamic("run", "(Ljava/lang/String;)Ljava/lang/Runnable;");
        let receiver = object("a/B");
        let start = frame(vec![receiver.clone()], vec![]);
        let after = run(
            &[
                local(op::ALOAD, 0),
                reference(op::GETFIELD, get), // stack: long
                local(op::ALOAD, 0),
                plain(ICONST_1),
                plain(LCONST_1),
                plain(op::ACONST_NULL),
                reference(op::INVOKEVIRTUAL, virt), // stack: long, String[]
                plain(DCONST_1),
                plain(FCONST_1),
                reference(op::INVOKESTATIC, stat), // stack: long, String[], int
            ],
            start.clone(),
            &pool,
        )
        .unwrap();
        assert_eq!(
            after.stack,
            [VType::Long, object("[Ljava/lang/String;"), VType::Integer]
        );
        let after = run(
            &[
                local(op::ALOAD, 0),
                Insn::InvokeInterface {
                    index: iface,
                    count: 1,
                },
                local(op::ALOAD, 0),
                reference(op::GETFIELD, name),
                Insn::InvokeDynamic { index: indy },
                reference(op::PUTSTATIC, name),
                reference(op::GETSTATIC, get),
                local(op::ALOAD, 0),
                plain(0x5b), // dup_x2: receiver, long, receiver
                plain(0x57), // pop
                plain(0x5d), // dup2_x1: long, receiver, long
                reference(op::PUTFIELD, get),
            ],
            start,
            &pool,
        )
        .unwrap();
        assert_eq!(after.stack, [VType::Integer, VType::Long]);

        assert_eq!(
            stack_effect(&reference(op::INVOKEVIRTUAL, virt), &pool).unwrap(),
            (5, 1)
        );
        assert_eq!(
            stack_effect(&reference(op::INVOKESTATIC, stat), &pool).unwrap(),
            (3, 1)
        );
        let iface = Insn::InvokeInterface {
            index: iface,
            count: 1,
        };
        assert_eq!(stack_effect(&iface, &pool).unwrap(), (1, 1));
        assert_eq!(
            stack_effect(&Insn::InvokeDynamic { index: indy }, &pool).unwrap(),
            (1, 1)
        );
        assert_eq!(
            stack_effect(&reference(op::PUTFIELD, get), &pool).unwrap(),
            (3, 0)
        );
        assert_eq!(
            stack_effect(&reference(op::GETSTATIC, get), &pool).unwrap(),
            (0, 2)
        );
    }

    #[test]
    fn new_dup_and_init_initialise_every_copy() {
        let mut pool = Pool::new();
        let class = pool.class("a/Made");
        let init = pool.method("a/Made", "<init>", "(I)V");
        let insns = [
            Insn::Label(Label(10)),
            reference(op::NEW, class),
            plain(DUP),
            plain(DUP),
            local(op::ASTORE, 1),
            plain(ICONST_1),
            reference(op::INVOKESPECIAL, init),
        ];
        let mut state = frame(vec![object("a/This")], vec![]);
        for insn in &insns[..2] {
            step(insn, Label(10), &mut state, &pool, THIS).unwrap();
        }
        assert_eq!(state.stack, [VType::Uninitialized(Label(10))]);
        for insn in &insns[2..6] {
            step(insn, Label(11), &mut state, &pool, THIS).unwrap();
        }
        assert_eq!(state.locals, [object("a/This"), VType::Uninitialized(Label(10))]);
        step(&insns[6], Label(12), &mut state, &pool, THIS).unwrap();
        assert_eq!(state.locals, [object("a/This"), object("a/Made")]);
        assert_eq!(state.stack, [object("a/Made")]);

        // Another object's <init> leaves an unrelated uninitialized one.
        let mut state = frame(
            vec![VType::Uninitialized(Label(3))],
            vec![VType::Uninitialized(Label(5)), plain_int()],
        );
        step(
            &reference(op::INVOKESPECIAL, init),
            Label(9),
            &mut state,
            &pool,
            THIS,
        )
        .unwrap();
        assert_eq!(state.locals, [VType::Uninitialized(Label(3))]);
        assert!(state.stack.is_empty());

        // <init> on an initialised object is an error.
        let mut state = frame(vec![], vec![object("a/Made"), plain_int()]);
        let err = step(
            &reference(op::INVOKESPECIAL, init),
            Label(9),
            &mut state,
            &pool,
            THIS,
        )
        .unwrap_err();
        assert!(matches!(err, BytecodeError::OperandMismatch { .. }), "{err}");
    }

    fn plain_int() -> VType {
        VType::Integer
    }

    #[test]
    fn super_init_in_a_constructor_initialises_this() {
        let mut pool = Pool::new();
        let init = pool.method("java/lang/Object", "<init>", "()V");
        let start = Frame::initial(THIS, b"<init>", b"(J)V", false).unwrap();
        assert_eq!(start.locals, [VType::UninitializedThis, VType::Long]);
        let after = run(
            &[
                local(op::ALOAD, 0),
                local(op::ALOAD, 0),
                local(op::ASTORE, 3),
                reference(op::INVOKESPECIAL, init),
            ],
            start,
            &pool,
        )
        .unwrap();
        assert_eq!(after.locals, [object("a/This"), VType::Long, object("a/This")]);
        assert!(after.stack.is_empty());
    }

    #[test]
    fn aaload_gives_the_component_of_the_array_class() {
        let pool = Pool::new();
        let start = frame(
            vec![object("[[I"), object("[[Ljava/lang/String;"), VType::Null],
            vec![],
        );
        let rows = [
            local(op::ALOAD, 0),
            plain(ICONST_1),
            plain(AALOAD),
            local(op::ALOAD, 1),
            plain(ICONST_1),
            plain(AALOAD),
            plain(ICONST_1),
            plain(AALOAD),
            local(op::ALOAD, 2),
            plain(ICONST_1),
            plain(AALOAD),
        ];
        let after = run(&rows, start.clone(), &pool).unwrap();
        assert_eq!(
            after.stack,
            [object("[I"), object("java/lang/String"), VType::Null]
        );
        // An int[] has no reference components.
        let err = run(
            &rows[..3].iter().chain(&rows[1..3]).cloned().collect::<Vec<_>>(),
            start,
            &pool,
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                BytecodeError::OperandMismatch {
                    at: Label(4),
                    opcode: AALOAD,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn checkcast_and_array_creation_name_classes_by_descriptor() {
        let mut pool = Pool::new();
        let string = pool.class("java/lang/String");
        let strings = pool.class("[Ljava/lang/String;");
        let grid = pool.class("[[J");
        let after = run(
            &[
                plain(op::ACONST_NULL),
                reference(op::CHECKCAST, string),
                plain(op::ACONST_NULL),
                reference(op::CHECKCAST, strings),
                plain(ICONST_1),
                reference(op::ANEWARRAY, string),
                plain(ICONST_1),
                reference(op::ANEWARRAY, strings),
                plain(ICONST_1),
                Insn::NewArray(11),
                plain(ICONST_1),
                plain(ICONST_1),
                Insn::MultiANewArray {
                    index: grid,
                    dimensions: 2,
                },
                plain(op::ACONST_NULL),
                reference(op::INSTANCEOF, string),
                plain(op::ACONST_NULL),
                plain(op::ARRAYLENGTH),
            ],
            Frame::default(),
            &pool,
        )
        .unwrap();
        assert_eq!(
            after.stack,
            [
                object("java/lang/String"),
                object("[Ljava/lang/String;"),
                object("[Ljava/lang/String;"),
                object("[[Ljava/lang/String;"),
                object("[J"),
                object("[[J"),
                VType::Integer,
                VType::Integer,
            ]
        );
        let err = run(&[plain(ICONST_1), Insn::NewArray(3)], Frame::default(), &pool).unwrap_err();
        assert!(
            matches!(err, BytecodeError::BadArrayType { atype: 3, .. }),
            "{err}"
        );
    }

    #[test]
    fn popping_more_than_the_stack_holds_is_a_stack_underflow() {
        let pool = Pool::new();
        for insns in [
            vec![plain(op::IADD)],
            vec![plain(ICONST_1), plain(op::IADD)],
            vec![plain(ICONST_1), plain(0x58)],
            vec![plain(ICONST_1), plain(0x5a)],
            vec![plain(op::ARRAYLENGTH)],
        ] {
            let err = run(&insns, Frame::default(), &pool).unwrap_err();
            let last = insns.len() as u32 - 1;
            assert!(
                matches!(err, BytecodeError::StackUnderflow { at, .. } if at == Label(last)),
                "{insns:?}: {err}"
            );
        }
    }

    #[test]
    fn subroutines_cannot_be_simulated() {
        let pool = Pool::new();
        let jsr = Insn::Branch {
            opcode: op::JSR,
            target: Label(0),
        };
        for insn in [jsr, local(op::RET, 1)] {
            let err = run(&[insn], Frame::default(), &pool).unwrap_err();
            assert!(matches!(err, BytecodeError::Subroutine { .. }), "{err}");
        }
    }

    #[test]
    fn branches_switches_and_returns_pop_their_operands() {
        let pool = Pool::new();
        let start = frame(
            vec![],
            vec![
                VType::Long,
                VType::Integer,
                VType::Integer,
                VType::Null,
                VType::Integer,
            ],
        );
        let after = run(
            &[
                Insn::TableSwitch {
                    default: Label(0),
                    low: 0,
                    targets: vec![],
                },
                Insn::Branch {
                    opcode: op::IFNULL,
                    target: Label(0),
                },
                Insn::Branch {
                    opcode: op::IF_ICMPEQ,
                    target: Label(0),
                },
                Insn::Branch {
                    opcode: op::GOTO,
                    target: Label(0),
                },
                Insn::Iinc {
                    index: Slot(0),
                    delta: 1,
                },
                plain(0xad), // lreturn
            ],
            start,
            &pool,
        )
        .unwrap();
        assert!(after.stack.is_empty());
    }

    #[test]
    fn every_plain_opcode_moves_as_many_words_as_its_stack_effect_says() {
        let pool = Pool::new();
        for opcode in 0..=u8::MAX {
            let Some(shape) = shape(opcode) else {
                continue;
            };
            // Operands of the right categories, with spare ints beneath.
            let mut stack = vec![VType::Integer; 4];
            match &shape {
                Shape::Simple { pops, .. } => {
                    stack.extend(
                        pops.iter()
                            .map(|&c| if c == 2 { VType::Long } else { VType::Integer }),
                    )
                }
                Shape::ArrayLoadReference => stack.extend([object("[[I"), VType::Integer]),
                _ => {}
            }
            let words = |s: &[VType]| s.iter().map(category).sum::<u16>();
            let before = words(&stack);
            let after = run(&[plain(opcode)], frame(vec![], stack), &pool)
                .unwrap_or_else(|e| panic!("{}: {e}", op::mnemonic(opcode)));
            let (popped, pushed) = stack_effect(&plain(opcode), &pool).unwrap();
            assert_eq!(
                words(&after.stack),
                before - popped + pushed,
                "{}",
                op::mnemonic(opcode)
            );
        }
        assert!(matches!(
            stack_effect(&plain(op::BIPUSH), &pool),
            Err(BytecodeError::MalformedInsn { opcode: op::BIPUSH })
        ));
    }

    #[test]
    fn max_stack_of_counts_longs_as_two_words() {
        let mut pool = Pool::new();
        let counter = pool.field("a/Counters", "hits", "J");
        let insns = [
            reference(op::GETSTATIC, counter),
            plain(LCONST_1),
            plain(LADD),
            reference(op::PUTSTATIC, counter),
        ];
        assert_eq!(max_stack_of(&insns, &pool).unwrap(), 4);
        assert_eq!(max_stack_of(&[], &pool).unwrap(), 0);
        // lconst_1 raises by 2; ladd then eats into what came before.
        assert_eq!(max_stack_of(&insns[1..], &pool).unwrap(), 2);
        let call_site = [plain(op::ICONST_0), reference(op::PUTSTATIC, counter)];
        assert_eq!(max_stack_of(&call_site, &pool).unwrap(), 1);
    }

    #[test]
    fn noted_members_need_no_pool_and_a_wrong_kind_is_read_for_its_error() {
        let mut pool = Pool::new();
        let counter = pool.field("a/Counters", "hits", "J");
        let mut effects = StackEffects::default();
        // Indices the pool does not have: only the notes describe them.
        let (add, total) = (CpIndex(100), CpIndex(101));
        effects.note_member(add, b"(JI)V");
        effects.note_member(total, b"J");
        let insns = [
            plain(LCONST_1),
            reference(op::GETSTATIC, total),
            reference(op::INVOKESTATIC, add),
        ];
        assert_eq!(effects.max_stack_of(&insns, &pool).unwrap(), 4);
        let virtual_call = [
            plain(op::ACONST_NULL),
            plain(LCONST_1),
            plain(op::ICONST_0),
            reference(op::INVOKEVIRTUAL, add),
        ];
        assert_eq!(effects.max_stack_of(&virtual_call, &pool).unwrap(), 4);
        // A field invoked: read from the pool, which refuses it as `stack_effect` does.
        effects.note_member(counter, b"J");
        let wrong = [reference(op::INVOKESTATIC, counter)];
        assert_eq!(
            format!("{:?}", effects.max_stack_of(&wrong, &pool)),
            format!("{:?}", stack_effect(&wrong[0], &pool))
        );
        assert!(effects.max_stack_of(&wrong, &pool).is_err());
    }
}
