//! Writing an edited [`MethodBody`] back as a `Code` attribute (JVMS
//! §4.7.3): the final instruction list, laid out by [`Layout`], then the
//! exception table, the debug tables and the frames with every pc mapped
//! to its new offset.

use std::borrow::Cow;
use std::collections::HashMap;
use std::iter::Peekable;
use std::vec::IntoIter;

use foldhash::fast::RandomState;
use jp_classfile::attributes::{AttributeInfo, TargetInfo};
use jp_classfile::{ByteSink, ConstantLookup, CpIndex, PoolBuilder};

use super::{CodeAttribute, MethodBody, NO_POSITION};
use crate::error::{BytecodeError, Result};
use crate::frame::{self, Frame};
use crate::insn::Insn;
use crate::label::{Label, Pc};
use crate::layout::Layout;
use crate::simulate::{self, StackEffects};

impl MethodBody<'_> {
    /// Lays the edited code out and encodes the `Code` attribute's `info`.
    ///
    /// # Errors
    /// [`BytecodeError::CodeTooLarge`] past 65535 bytes of code; a full
    /// constant pool; frames that cannot be computed for widened branches;
    /// [`BytecodeError::UnplacedLabel`] for a branch target, handler or
    /// frame at a label that no inserted code places.
    pub fn encode(&self, pool: &mut PoolBuilder<'_>) -> Result<Vec<u8>> {
        self.encode_with(pool, &mut StackEffects::default())
    }

    /// [`MethodBody::encode`], reading the stack effects of the inserted
    /// code through `effects`, which the methods of one class can share.
    ///
    /// # Errors
    /// As [`MethodBody::encode`].
    pub fn encode_with(&self, pool: &mut PoolBuilder<'_>, effects: &mut StackEffects) -> Result<Vec<u8>> {
        let (insns, original_positions) = self.assemble();
        let mut extra_stack = effects.max_stack_of(&self.entry_code, pool)?;
        for code in self.inserted.values().chain(self.replaced.values()) {
            extra_stack = extra_stack.max(effects.max_stack_of(code, pool)?);
        }
        let mut appended_stack: u16 = 0;
        for (i, &(start, entry_stack)) in self.appended_pieces.iter().enumerate() {
            let end = self
                .appended_pieces
                .get(i + 1)
                .map_or(self.appended.len(), |&(end, _)| end);
            let need = effects.max_stack_of(&self.appended[start..end], pool)?;
            appended_stack = appended_stack.max(entry_stack.saturating_add(need));
        }
        let layout = Layout::compute(&insns, self.next_label)?;
        let code = layout.encode(&insns)?;
        let offset = |label: Label| -> Result<u16> { Ok(layout.offset(label)? as u16) };
        let original = |pc: u16| offset(Label::original(Pc(u32::from(pc))));
        // `Uninitialized` names the `new` instruction itself, which code
        // inserted at its pc pushes past the label.
        let new_offset = |label: Label| -> Result<u16> {
            match original_positions.get(label.0 as usize) {
                Some(&position) if position != NO_POSITION => Ok(layout.offsets[position as usize] as u16),
                _ => offset(label),
            }
        };

        let mut out = Vec::with_capacity(code.len() + 64);
        out.put_u2(self.max_stack.saturating_add(extra_stack).max(appended_stack));
        out.put_u2(self.max_locals);
        out.put_u4(code.len() as u32);
        out.put_bytes(&code);
        out.put_u2(u16::try_from(self.handlers.len()).map_err(|_| BytecodeError::TooManyHandlers)?);
        for h in &self.handlers {
            let (start, end) = (offset(h.start)?, offset(h.end)?);
            // Ranges over inserted code are only known to run forward now.
            if start >= end {
                return Err(BytecodeError::BadHandlerRange {
                    start: h.start,
                    end: h.end,
                });
            }
            out.put_u2(start);
            out.put_u2(end);
            out.put_u2(offset(h.handler)?);
            out.put_u2(h.catch_type.0);
        }

        let mut nested: Vec<(CpIndex, Vec<u8>)> = Vec::with_capacity(self.attributes.len() + 1);
        let frames = self.final_frames(&insns, &layout, pool)?;
        let mut wrote_frames = false;
        for attribute in &self.attributes {
            let mut info = Vec::new();
            let name = match attribute {
                CodeAttribute::StackMapTable => {
                    wrote_frames = true;
                    match &frames {
                        Some(frames) if !frames.is_empty() => {
                            let table = frame::compress(frames, &self.initial_frame, pool, &new_offset)?;
                            table.encode(&mut info);
                            self.stack_map_name.expect("set with the attribute")
                        }
                        _ => continue,
                    }
                }
                CodeAttribute::LineNumbers(name, table) => {
                    let mut table = table.clone();
                    for entry in &mut table.entries {
                        entry.start_pc = original(entry.start_pc)?;
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::LocalVariables(name, table) => {
                    let mut table = table.clone();
                    for e in &mut table.entries {
                        (e.start_pc, e.length) = remap_range(e.start_pc, e.length, &original)?;
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::LocalVariableTypes(name, table) => {
                    let mut table = table.clone();
                    for e in &mut table.entries {
                        (e.start_pc, e.length) = remap_range(e.start_pc, e.length, &original)?;
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::TypeAnnotations(name, table) => {
                    let mut table = table.clone();
                    for annotation in &mut table.annotations {
                        remap_type_annotation_target(&mut annotation.target, &original)?;
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::Other(raw) => {
                    nested.push((raw.name_index, raw.info.to_vec()));
                    continue;
                }
            };
            nested.push((name, info));
        }
        if !wrote_frames {
            if let Some(frames) = frames.filter(|f| !f.is_empty()) {
                let table = frame::compress(&frames, &self.initial_frame, pool, &new_offset)?;
                let mut info = Vec::new();
                table.encode(&mut info);
                nested.push((pool.add_utf8("StackMapTable")?, info));
            }
        }
        out.put_u2(nested.len() as u16);
        for (name, info) in &nested {
            jp_classfile::encode_attribute(&mut out, *name, info);
        }
        Ok(out)
    }

    /// The final instruction list: entry code, then each original
    /// instruction with the code inserted at its pc; and, indexed by the
    /// original pcs, where each original instruction kept went in that list
    /// (or [`NO_POSITION`]). The instructions are borrowed: the layout and
    /// the encoder only read them, and cloning each cost more than both.
    fn assemble(&self) -> (Vec<&Insn>, Vec<u32>) {
        let extra: usize = self
            .inserted
            .values()
            .chain(self.replaced.values())
            .map(Vec::len)
            .sum::<usize>()
            + self.appended.len();
        let mut out = Vec::with_capacity(self.insns.len() + self.entry_code.len() + extra);
        let mut original_positions = vec![NO_POSITION; self.code_length as usize];
        out.extend(self.entry_code.iter());
        // The edits sorted by pc, each taken when the walk reaches its pc: a
        // sort of the few edits rather than two lookups per instruction.
        let mut inserted = in_pc_order(&self.inserted);
        let mut replaced = in_pc_order(&self.replaced);
        let mut pc = Pc(0);
        for insn in &self.insns {
            match insn {
                Insn::Label(label) => {
                    pc = Pc(label.0);
                    out.push(insn);
                    if let Some((_, code)) = inserted.next_if(|(at, _)| *at == pc) {
                        out.extend(code.iter());
                    }
                }
                _ => match replaced.next_if(|(at, _)| *at == pc) {
                    Some((_, code)) => out.extend(code.iter()),
                    None => {
                        original_positions[pc.0 as usize] = out.len() as u32;
                        out.push(insn);
                    }
                },
            }
        }
        out.extend(self.appended.iter());
        (out, original_positions)
    }

    /// Every frame of the new code at its offset: the original ones, those
    /// added by the rewrite, and those that widened conditional branches
    /// need after their `goto_w`. `None` for versions without frames.
    fn final_frames(
        &self,
        insns: &[&Insn],
        layout: &Layout,
        pool: &impl ConstantLookup,
    ) -> Result<Option<Placed<'_>>> {
        let Some(frames) = &self.frames else {
            return Ok(None);
        };
        // Frames the widened conditionals need after their goto_w. Where an
        // explicit frame already stands at that offset (the next instruction
        // is also a branch target), the explicit one wins: it is the merge of
        // every path, while the simulated one knows only the fall-through.
        let mut simulated = Vec::new();
        if layout.widened_conditionals.iter().any(|&w| w) {
            let by_label: HashMap<Label, &Frame, RandomState> =
                frames.iter().map(|(label, frame)| (*label, frame)).collect();
            let mut state: Option<Frame> = Some(self.initial_frame.clone());
            // Entry code comes before the label of pc 0 and has none of its
            // own: an `Uninitialized` made there resolves to no offset.
            let mut at = Label(u32::MAX);
            for (position, insn) in insns.iter().enumerate() {
                if let Insn::Label(label) = insn {
                    at = *label;
                    if let Some(frame) = by_label.get(label) {
                        state = Some((*frame).clone());
                    }
                    continue;
                }
                let Some(current) = state.as_mut() else {
                    continue;
                };
                simulate::step(insn, at, current, pool, self.this_class)?;
                if layout.widened_conditionals[position] {
                    simulated.push((layout.skip_labels[&position], current.clone()));
                }
                if insn.ends_flow() {
                    state = None;
                }
            }
        }
        let mut placed = Vec::with_capacity(frames.len() + simulated.len());
        let explicit = frames.iter().map(|(label, frame)| (*label, Cow::Borrowed(frame)));
        let simulated = simulated
            .into_iter()
            .map(|(label, frame)| (label, Cow::Owned(frame)));
        for (label, frame) in explicit.chain(simulated) {
            let offset = layout.offset(label)?;
            // A frame at the very end of the code would describe no instruction.
            if offset < layout.code_length {
                placed.push((offset as u16, frame));
            }
        }
        // Stable: at equal offsets the first (explicit) frame is kept.
        placed.sort_by_key(|(pc, _)| *pc);
        placed.dedup_by_key(|(pc, _)| *pc);
        Ok(Some(placed))
    }
}

/// The code of `edits`, keyed by the pcs of original instructions, in pc
/// order: the instruction list visits those pcs in the same order.
fn in_pc_order(edits: &HashMap<Pc, Vec<Insn>, RandomState>) -> Peekable<IntoIter<(Pc, &[Insn])>> {
    let mut sorted: Vec<(Pc, &[Insn])> = edits.iter().map(|(&pc, code)| (pc, code.as_slice())).collect();
    sorted.sort_unstable_by_key(|&(pc, _)| pc);
    sorted.into_iter().peekable()
}

/// Frames at their offsets in the new code, the body's own borrowed.
type Placed<'f> = Vec<(u16, Cow<'f, Frame>)>;

fn remap_range(start: u16, length: u16, original: &impl Fn(u16) -> Result<u16>) -> Result<(u16, u16)> {
    let end = start + length;
    let new_start = original(start)?;
    Ok((new_start, original(end)? - new_start))
}

fn remap_type_annotation_target(
    target: &mut TargetInfo,
    original: &impl Fn(u16) -> Result<u16>,
) -> Result<()> {
    match target {
        TargetInfo::Localvar { table, .. } => {
            for entry in table {
                (entry.start_pc, entry.length) = remap_range(entry.start_pc, entry.length, original)?;
            }
        }
        TargetInfo::Offset { offset, .. } | TargetInfo::TypeArgument { offset, .. } => {
            *offset = original(*offset)?
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use jp_classfile::attributes::{names, AttributeInfo, Code, StackMapTable};
    use jp_classfile::ClassFile;

    use super::*;
    use crate::body::testing::{class_with_method, with_body, LOOP, LOOP_FRAMES};
    use crate::frame::VType;
    use crate::insn::{decode, Slot};
    use crate::opcode as op;

    fn encoded_code(info: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let code_len = u32::from_be_bytes(info[4..8].try_into().unwrap()) as usize;
        let code = info[8..8 + code_len].to_vec();
        // exception table is empty here; then attributes_count and the frames.
        let rest = &info[8 + code_len + 2..];
        let frames = if u16::from_be_bytes([rest[0], rest[1]]) == 1 {
            let len = u32::from_be_bytes(rest[4..8].try_into().unwrap()) as usize;
            rest[8..8 + len].to_vec()
        } else {
            Vec::new()
        };
        (code, frames)
    }

    #[test]
    fn an_unedited_body_encodes_to_the_original_code() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, body| {
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let info = body.encode(&mut pool).unwrap();
            let raw = class.methods[0].attribute(names::CODE).unwrap();
            assert_eq!(info, raw.info);
        });
    }

    #[test]
    fn far_branches_are_widened_and_the_skipped_conditional_gets_a_frame() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            body.insert_before(Pc(4), vec![Insn::Plain(op::NOP); 40_000])
                .unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let (code, frames) = encoded_code(&body.encode(&mut pool).unwrap());
            let decoded = decode(&code).unwrap();
            let real: Vec<&Insn> = decoded
                .insns
                .iter()
                .filter(|i| !matches!(i, Insn::Label(_)))
                .collect();
            // iload_0; ifgt +8 (inverted ifle); goto_w exit; nops...; iinc; goto_w 0; iload_0; ireturn
            assert_eq!(code[1], op::IFGT);
            assert_eq!(code[4], op::GOTO_W);
            assert_eq!(
                real[1],
                &Insn::Branch {
                    opcode: op::IFGT,
                    target: Label(9)
                }
            );
            let exit = code.len() as u32 - 2;
            assert_eq!(
                real[2],
                &Insn::Branch {
                    opcode: op::GOTO,
                    target: Label(exit)
                }
            );
            assert_eq!(code[code.len() - 7], op::GOTO_W);
            assert_eq!(
                real[real.len() - 3],
                &Insn::Branch {
                    opcode: op::GOTO,
                    target: Label(0)
                }
            );
            // Frames at 0, at 9 (after the goto_w: the inverted branch's target) and at the exit.
            let class_pool = &class.constant_pool;
            let table = StackMapTable::parse(&mut jp_classfile::Reader::new(&frames, 0), class_pool).unwrap();
            let initial = Frame::initial(b"T", b"m", b"(I)I", true).unwrap();
            let expanded = frame::expand(&table, &initial, class_pool).unwrap();
            let pcs: Vec<Pc> = expanded.iter().map(|(pc, _)| *pc).collect();
            assert_eq!(pcs, [Pc(0), Pc(9), Pc(exit)]);
            assert!(expanded
                .iter()
                .all(|(_, f)| f.locals == [VType::Integer] && f.stack.is_empty()));
        });
    }

    #[test]
    fn a_new_parameter_shifts_locals_and_joins_every_frame() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            body.add_parameter(Slot(0), VType::Long).unwrap();
            assert_eq!(body.max_locals, 3);
            assert_eq!(body.initial_frame().locals, [VType::Long, VType::Integer]);
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let (code, frames) = encoded_code(&body.encode(&mut pool).unwrap());
            assert_eq!(&code[..2], &[op::ILOAD_0 + 2, op::IFLE]);
            assert_eq!(&code[4..7], &[op::IINC, 2, 0xff]);
            // The frames equal the new entry frame: `same_frame` twice, as before.
            assert_eq!(frames, LOOP_FRAMES);
        });
    }

    #[test]
    fn entry_code_runs_before_a_loop_at_pc_zero() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            body.insert_at_entry(vec![Insn::Plain(op::NOP)]);
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let (code, frames) = encoded_code(&body.encode(&mut pool).unwrap());
            assert_eq!(code[0], op::NOP);
            // The back edge goes to the old pc 0, now 1, past the entry code.
            assert_eq!(&code[8..11], &[op::GOTO, 0xff, 0xf9]);
            assert_eq!(frames, [0, 2, 1, 9]);
        });
    }

    #[test]
    fn code_past_the_limit_is_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            body.insert_before(Pc(4), vec![Insn::Plain(op::NOP); 70_000])
                .unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            assert!(matches!(
                body.encode(&mut pool),
                Err(BytecodeError::CodeTooLarge { .. })
            ));
        });
    }

    #[test]
    fn uninitialized_types_follow_their_new_past_inserted_code() {
        // new #7; goto 6; pop; iconst_0; ireturn, with a frame at the goto's
        // target whose stack holds the uninitialized object.
        let code = [0xbb, 0, 7, 0xa7, 0, 3, 0x57, 0x03, 0xac];
        let frames = [0, 1, 64 + 6, 8, 0, 0]; // same_locals_1_stack_item at 6: Uninitialized(0)
        let bytes = class_with_method(&code, 1, 1, Some(&frames));
        with_body(&bytes, |class, mut body| {
            body.insert_before(Pc(0), vec![Insn::Plain(op::NOP), Insn::Plain(op::NOP)])
                .unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let (code, frames) = encoded_code(&body.encode(&mut pool).unwrap());
            assert_eq!(code[2], 0xbb);
            // The frame moved by 2 and its Uninitialized now names pc 2.
            assert_eq!(frames, [0, 1, 64 + 8, 8, 0, 2]);
        });
    }

    #[test]
    fn tables_that_point_between_instructions_are_refused() {
        let bad_frames = [0, 1, 2]; // a frame at pc 2, inside ifle
        let bytes = class_with_method(LOOP, 1, 1, Some(&bad_frames));
        let class = ClassFile::parse(&bytes).unwrap();
        let method = &class.methods[0];
        let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
        let err = MethodBody::open(&class, method, &code).unwrap_err();
        assert_eq!(
            err,
            BytecodeError::BadPc {
                item: "StackMapTable",
                pc: Pc(2)
            }
        );
    }
}
