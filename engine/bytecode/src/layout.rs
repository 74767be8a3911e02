//! Laying edited code out: the offset of every label and the form of every
//! branch. A branch whose target is out of a 16-bit reach takes the wide
//! form, which moves the code after it, which can push other branches out
//! of reach and shifts switch padding; so the placement repeats until no
//! branch changes (a fixpoint: branches only ever widen).

use std::collections::HashMap;

use crate::error::{BytecodeError, Result};
use crate::insn::{self, Insn};
use crate::label::Label;
use crate::opcode as op;
use foldhash::fast::RandomState;

/// Offsets of every label and the form of every branch, once stable.
pub(crate) struct Layout {
    /// Offset of each label, `None` where no `Insn::Label` places it.
    label_offsets: Vec<Option<u32>>,
    /// Offset of each instruction position.
    pub(crate) offsets: Vec<u32>,
    /// Per instruction position: whether its branch uses the wide form.
    wide: Vec<bool>,
    /// Per instruction position: whether it is a conditional branch
    /// rewritten as `if<!cond> skip; goto_w target`.
    pub(crate) widened_conditionals: Vec<bool>,
    /// For each widened conditional, the label of the instruction after it.
    pub(crate) skip_labels: HashMap<usize, Label, RandomState>,
    pub(crate) code_length: u32,
}

impl Layout {
    /// Lays `insns` out, whose labels are all below `label_count`.
    ///
    /// # Errors
    /// [`BytecodeError::CodeTooLarge`] past 65535 bytes; a label at or
    /// past `label_count` ([`BytecodeError::ForeignLabel`]); a branch to a
    /// label that is never placed ([`BytecodeError::UnplacedLabel`]).
    pub(crate) fn compute(insns: &[&Insn], label_count: u32) -> Result<Layout> {
        let mut wide = vec![false; insns.len()];
        loop {
            let (label_offsets, offsets, code_length) = Self::place(insns, &wide, label_count)?;
            if code_length > jp_classfile::attributes::MAX_CODE_LENGTH as u32 {
                return Err(BytecodeError::CodeTooLarge {
                    length: code_length as usize,
                });
            }
            let mut changed = false;
            for (position, insn) in insns.iter().enumerate() {
                if let Insn::Branch { target, .. } = insn {
                    let delta = i64::from(resolve(&label_offsets, *target)?) - i64::from(offsets[position]);
                    if !wide[position] && i16::try_from(delta).is_err() {
                        wide[position] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                let widened_conditionals: Vec<bool> = insns
                    .iter()
                    .zip(&wide)
                    .map(|(insn, &w)| w && matches!(insn, Insn::Branch { opcode, .. } if op::negate_condition(*opcode).is_some()))
                    .collect();
                let mut label_offsets = label_offsets;
                let mut skip_labels = HashMap::default();
                for (position, _) in widened_conditionals.iter().enumerate().filter(|(_, &w)| w) {
                    // The skip target is the offset right after the goto_w.
                    let label = Label(label_offsets.len() as u32);
                    label_offsets.push(Some(offsets[position] + 8));
                    skip_labels.insert(position, label);
                }
                return Ok(Layout {
                    label_offsets,
                    offsets,
                    wide,
                    widened_conditionals,
                    skip_labels,
                    code_length,
                });
            }
        }
    }

    /// Offsets of labels and instructions for the given branch forms.
    fn place(insns: &[&Insn], wide: &[bool], label_count: u32) -> Result<(Vec<Option<u32>>, Vec<u32>, u32)> {
        let mut label_offsets = vec![None; label_count as usize];
        let mut offsets = Vec::with_capacity(insns.len());
        let mut offset = 0u32;
        for (position, insn) in insns.iter().enumerate() {
            offsets.push(offset);
            if let Insn::Label(label) = insn {
                *label_offsets
                    .get_mut(label.0 as usize)
                    .ok_or(BytecodeError::ForeignLabel { label: *label })? = Some(offset);
            }
            offset += insn::size(insn, offset, wide[position]);
        }
        Ok((label_offsets, offsets, offset))
    }

    /// The offset of `label`.
    ///
    /// # Errors
    /// A label the code does not place, or one of another body.
    pub(crate) fn offset(&self, label: Label) -> Result<u32> {
        resolve(&self.label_offsets, label)
    }

    /// The `code` array.
    ///
    /// # Errors
    /// A branch to a label that is not placed.
    pub(crate) fn encode(&self, insns: &[&Insn]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.code_length as usize);
        for (position, insn) in insns.iter().enumerate() {
            insn::encode(&mut out, insn, self.wide[position], |label| self.offset(label))?;
        }
        Ok(out)
    }
}

fn resolve(label_offsets: &[Option<u32>], label: Label) -> Result<u32> {
    match label_offsets.get(label.0 as usize) {
        Some(Some(offset)) => Ok(*offset),
        Some(None) => Err(BytecodeError::UnplacedLabel { label }),
        None => Err(BytecodeError::ForeignLabel { label }),
    }
}
