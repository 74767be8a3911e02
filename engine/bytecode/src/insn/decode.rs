//! Decoding of a `code` array into [`Insn`]s.
//!
//! Decoding names the label of every original instruction by its pc, so
//! any original pc maps to its label without a table (see [`Label`]).

use jp_classfile::CpIndex;

use super::{switch_padding, Insn, Slot};
use crate::error::{BytecodeError, Result};
use crate::label::{Label, Pc};
use crate::opcode::{self as op, Format};

/// A decoded `code` array: the instructions, each preceded by the label of
/// its pc, and the label of `code_length` at the end.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The instruction list.
    pub insns: Vec<Insn>,
    /// `instruction_starts[pc]` is true where an instruction begins.
    pub instruction_starts: Vec<bool>,
}

impl Decoded {
    /// The instructions with their pcs, in pc order.
    pub fn instructions(&self) -> impl Iterator<Item = (Pc, &Insn)> + '_ {
        with_pcs(&self.insns)
    }

    /// How many instructions the code holds, and how many of them are `jsr`s.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for (_, insn) in self.instructions() {
            counts.instructions += 1;
            if matches!(insn, Insn::Branch { opcode: op::JSR, .. }) {
                counts.jsrs += 1;
            }
        }
        counts
    }

    /// Whether `pc` is an instruction start or the end of the code.
    pub fn is_boundary(&self, pc: Pc) -> bool {
        let pc = pc.0 as usize;
        pc == self.instruction_starts.len() || self.instruction_starts.get(pc).copied().unwrap_or(false)
    }
}

/// The instructions of `insns`, original code with the label of its pc
/// before each instruction, paired with those pcs.
pub(crate) fn with_pcs(insns: &[Insn]) -> impl Iterator<Item = (Pc, &Insn)> + '_ {
    let mut pc = Pc(0);
    insns.iter().filter_map(move |insn| match insn {
        Insn::Label(label) => {
            pc = Pc(label.0);
            None
        }
        insn => Some((pc, insn)),
    })
}

/// Decodes a method's code.
///
/// # Errors
/// Truncated instructions, invalid opcodes, branch targets that are not
/// instruction starts, and malformed switches.
pub fn decode(code: &[u8]) -> Result<Decoded> {
    // A label and an instruction per instruction: about one entry per byte of code.
    let mut insns = Vec::with_capacity(code.len());
    let instruction_starts = visit(code, |pc, insn| {
        insns.push(Insn::Label(Label::original(pc)));
        insns.push(insn);
    })?;
    insns.push(Insn::Label(Label::original(Pc(code.len() as u32))));
    Ok(Decoded {
        insns,
        instruction_starts,
    })
}

/// What [`Decoded::counts`] finds in a method's code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Instructions.
    pub instructions: u64,
    /// `jsr` and `jsr_w` instructions.
    pub jsrs: u64,
}

/// Reads every instruction of `code` in pc order, hands it to `each` with
/// its pc, and checks that every branch lands on an instruction start.
/// Gives, by pc, where instructions start.
fn visit(code: &[u8], mut each: impl FnMut(Pc, Insn)) -> Result<Vec<bool>> {
    let mut r = CodeReader { code, pc: 0 };
    let mut instruction_starts = vec![false; code.len()];
    // Every branch target with the pc of its branch: checked once all starts are known.
    let mut targets = Vec::new();
    while r.pc < code.len() {
        let pc = r.pc;
        instruction_starts[pc] = true;
        let insn = r.instruction()?;
        targets.extend(insn.targets().map(|target| (pc, target)));
        each(Pc(pc as u32), insn);
    }
    for (pc, target) in targets {
        let target = Pc(target.0);
        if !instruction_starts
            .get(target.0 as usize)
            .copied()
            .unwrap_or(false)
        {
            return Err(BytecodeError::BadBranchTarget {
                pc: Pc(pc as u32),
                target,
            });
        }
    }
    Ok(instruction_starts)
}

struct CodeReader<'a> {
    code: &'a [u8],
    pc: usize,
}

impl CodeReader<'_> {
    fn take<const N: usize>(&mut self, start: usize) -> Result<[u8; N]> {
        let bytes = self
            .code
            .get(self.pc..self.pc + N)
            .ok_or(BytecodeError::Truncated { pc: Pc(start as u32) })?;
        self.pc += N;
        Ok(bytes.try_into().expect("length checked"))
    }
    fn u1(&mut self, start: usize) -> Result<u8> {
        Ok(self.take::<1>(start)?[0])
    }
    fn u2(&mut self, start: usize) -> Result<u16> {
        Ok(u16::from_be_bytes(self.take(start)?))
    }
    fn i4(&mut self, start: usize) -> Result<i32> {
        Ok(i32::from_be_bytes(self.take(start)?))
    }

    /// A branch target relative to `start`, as a label.
    fn target(&self, start: usize, offset: i32) -> Result<Label> {
        let target = start as i64 + i64::from(offset);
        if target < 0 || target >= self.code.len() as i64 {
            return Err(BytecodeError::BadBranchTarget {
                pc: Pc(start as u32),
                target: Pc(target.clamp(0, u32::MAX as i64) as u32),
            });
        }
        Ok(Label::original(Pc(target as u32)))
    }

    fn instruction(&mut self) -> Result<Insn> {
        let start = self.pc;
        let opcode = self.u1(start)?;
        Ok(match op::format(opcode) {
            Format::None => match opcode {
                op::ILOAD_0..=op::ALOAD_3 => {
                    let n = opcode - op::ILOAD_0;
                    Insn::Local {
                        opcode: op::ILOAD + n / 4,
                        index: Slot(u16::from(n % 4)),
                    }
                }
                op::ISTORE_0..=op::ASTORE_3 => {
                    let n = opcode - op::ISTORE_0;
                    Insn::Local {
                        opcode: op::ISTORE + n / 4,
                        index: Slot(u16::from(n % 4)),
                    }
                }
                _ => Insn::Plain(opcode),
            },
            Format::Byte => Insn::Bipush(self.u1(start)? as i8),
            Format::Short => Insn::Sipush(self.u2(start)? as i16),
            Format::CpIndex1 => Insn::Ldc {
                index: CpIndex(u16::from(self.u1(start)?)),
                category2: false,
            },
            Format::CpIndex2 => {
                let index = CpIndex(self.u2(start)?);
                match opcode {
                    op::LDC_W => Insn::Ldc {
                        index,
                        category2: false,
                    },
                    op::LDC2_W => Insn::Ldc {
                        index,
                        category2: true,
                    },
                    _ => Insn::Ref { opcode, index },
                }
            }
            Format::Local => Insn::Local {
                opcode,
                index: Slot(u16::from(self.u1(start)?)),
            },
            Format::Iinc => Insn::Iinc {
                index: Slot(u16::from(self.u1(start)?)),
                delta: i16::from(self.u1(start)? as i8),
            },
            Format::Branch2 => {
                let offset = i32::from(self.u2(start)? as i16);
                Insn::Branch {
                    opcode,
                    target: self.target(start, offset)?,
                }
            }
            Format::Branch4 => {
                let offset = self.i4(start)?;
                let opcode = if opcode == op::GOTO_W { op::GOTO } else { op::JSR };
                Insn::Branch {
                    opcode,
                    target: self.target(start, offset)?,
                }
            }
            Format::TableSwitch => {
                self.skip_padding(start)?;
                let default = self.i4(start)?;
                let default = self.target(start, default)?;
                let low = self.i4(start)?;
                let high = self.i4(start)?;
                if low > high {
                    return Err(BytecodeError::BadSwitch { pc: Pc(start as u32) });
                }
                let count = (i64::from(high) - i64::from(low) + 1) as usize;
                if count.saturating_mul(4) > self.code.len() - self.pc {
                    return Err(BytecodeError::Truncated { pc: Pc(start as u32) });
                }
                let targets = (0..count)
                    .map(|_| {
                        let offset = self.i4(start)?;
                        self.target(start, offset)
                    })
                    .collect::<Result<_>>()?;
                Insn::TableSwitch {
                    default,
                    low,
                    targets,
                }
            }
            Format::LookupSwitch => {
                self.skip_padding(start)?;
                let default = self.i4(start)?;
                let default = self.target(start, default)?;
                let count = self.i4(start)?;
                if count < 0 {
                    return Err(BytecodeError::BadSwitch { pc: Pc(start as u32) });
                }
                if (count as usize).saturating_mul(8) > self.code.len() - self.pc {
                    return Err(BytecodeError::Truncated { pc: Pc(start as u32) });
                }
                let mut pairs = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    let key = self.i4(start)?;
                    let offset = self.i4(start)?;
                    pairs.push((key, self.target(start, offset)?));
                }
                Insn::LookupSwitch { default, pairs }
            }
            Format::InvokeInterface => {
                let index = CpIndex(self.u2(start)?);
                let count = self.u1(start)?;
                self.u1(start)?;
                Insn::InvokeInterface { index, count }
            }
            Format::InvokeDynamic => {
                let index = CpIndex(self.u2(start)?);
                self.u2(start)?;
                Insn::InvokeDynamic { index }
            }
            Format::NewArray => Insn::NewArray(self.u1(start)?),
            Format::MultiANewArray => {
                let index = CpIndex(self.u2(start)?);
                Insn::MultiANewArray {
                    index,
                    dimensions: self.u1(start)?,
                }
            }
            Format::Wide => {
                let modified = self.u1(start)?;
                match modified {
                    op::IINC => Insn::Iinc {
                        index: Slot(self.u2(start)?),
                        delta: self.u2(start)? as i16,
                    },
                    op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE | op::RET => Insn::Local {
                        opcode: modified,
                        index: Slot(self.u2(start)?),
                    },
                    _ => {
                        return Err(BytecodeError::InvalidOpcode {
                            pc: Pc(start as u32),
                            opcode: modified,
                        })
                    }
                }
            }
            Format::Invalid => {
                return Err(BytecodeError::InvalidOpcode {
                    pc: Pc(start as u32),
                    opcode,
                })
            }
        })
    }

    fn skip_padding(&mut self, start: usize) -> Result<()> {
        for _ in 0..switch_padding(start as u32) {
            self.u1(start)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_are_normalised_and_labels_mark_every_pc() {
        // iload_1; istore 5; goto -4 (back to pc 0)... use pc-relative: goto at pc 3 -> 0
        let decoded = decode(&[0x1b, 0x36, 5, 0xa7, 0xff, 0xfd]).unwrap();
        assert_eq!(
            decoded.insns,
            vec![
                Insn::Label(Label(0)),
                Insn::Local {
                    opcode: op::ILOAD,
                    index: Slot(1)
                },
                Insn::Label(Label(1)),
                Insn::Local {
                    opcode: op::ISTORE,
                    index: Slot(5)
                },
                Insn::Label(Label(3)),
                Insn::Branch {
                    opcode: op::GOTO,
                    target: Label(0)
                },
                Insn::Label(Label(6)),
            ]
        );
    }

    #[test]
    fn wide_forms_decode_to_their_plain_meaning() {
        let decoded = decode(&[0xc4, 0x84, 0x01, 0x00, 0xff, 0x38, 0xc4, 0x15, 0x01, 0x02, 0xb1]).unwrap();
        assert_eq!(
            decoded.insns[1],
            Insn::Iinc {
                index: Slot(256),
                delta: -200
            }
        );
        assert_eq!(
            decoded.insns[3],
            Insn::Local {
                opcode: op::ILOAD,
                index: Slot(258)
            }
        );
    }

    #[test]
    fn switch_padding_depends_on_the_pc() {
        // nop; tableswitch at pc 1 (padding 2), default +19 -> pc 20, low 0 high 0, target +19
        let mut code = vec![0x00, 0xaa, 0, 0];
        code.extend_from_slice(&19i32.to_be_bytes());
        code.extend_from_slice(&0i32.to_be_bytes());
        code.extend_from_slice(&0i32.to_be_bytes());
        code.extend_from_slice(&19i32.to_be_bytes());
        code.push(0xb1);
        let decoded = decode(&code).unwrap();
        assert_eq!(
            decoded.insns[3],
            Insn::TableSwitch {
                default: Label(20),
                low: 0,
                targets: vec![Label(20)]
            }
        );
    }

    #[test]
    fn counts_give_the_instructions_and_the_jsrs() {
        // iload_1; jsr +6 (to pc 7); goto -4 (to pc 0); astore_2; ret 2
        let code = [0x1b, 0xa8, 0, 6, 0xa7, 0xff, 0xfc, 0x4d, 0xa9, 2];
        assert_eq!(
            decode(&code).unwrap().counts(),
            Counts {
                instructions: 5,
                jsrs: 1
            }
        );
    }

    #[test]
    fn a_branch_into_the_middle_of_an_instruction_is_refused() {
        // sipush 1; goto -2 (pc 1, inside sipush)
        let err = decode(&[0x11, 0, 1, 0xa7, 0xff, 0xfe]).unwrap_err();
        assert!(matches!(
            err,
            BytecodeError::BadBranchTarget {
                pc: Pc(3),
                target: Pc(1)
            }
        ));
    }

    #[test]
    fn truncated_and_invalid_code_is_an_error() {
        assert!(matches!(
            decode(&[0x11, 0]),
            Err(BytecodeError::Truncated { pc: Pc(0) })
        ));
        assert!(matches!(
            decode(&[0xfe]),
            Err(BytecodeError::InvalidOpcode {
                pc: Pc(0),
                opcode: 0xfe
            })
        ));
        // A tableswitch from -1 to 0 whose two targets are missing.
        assert!(matches!(
            decode(&[0xaa, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
            Err(BytecodeError::Truncated { pc: Pc(0) })
        ));
    }
}
