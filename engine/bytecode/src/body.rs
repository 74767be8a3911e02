//! A method body opened for editing: its instructions with labels, its
//! exception table, debug tables and frames, all tied to labels so that
//! inserted code moves them correctly. Writing the edited body back as a
//! `Code` attribute is the [`code`] submodule's job.
//!
//! Edits name original instructions by [`Pc`]; every label comes from the
//! body, either [`MethodBody::label_at`] an original pc or
//! [`MethodBody::new_label`] for inserted code, and the body refuses
//! labels it did not make.
//!
//! Inserted code goes *after* the label of the pc it is inserted at, so
//! branches to that pc, handler ranges starting there and frames at that
//! pc all cover the new code. Only [`MethodBody::insert_at_entry`] places
//! code before the first label, so that it runs once even when pc 0 is a
//! loop header.

mod code;
#[cfg(test)]
mod testing;

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use foldhash::fast::RandomState;
use jp_classfile::attributes::{
    names, AttributeInfo, Code, LineNumberTable, LocalVariableTable, LocalVariableTypeTable, StackMapTable,
    TargetInfo, TypeAnnotations,
};
use jp_classfile::{access, ClassFile, ConstantLookup, CpIndex, Member, RawAttribute};

use crate::error::{BytecodeError, Result};
use crate::frame::{self, Frame, VType};
use crate::insn::{self, decode, Decoded, Insn, Slot};
use crate::label::{Label, Pc};
use crate::simulate;

/// In [`MethodBody`]'s table of positions: no instruction starts at this pc.
const NO_POSITION: u32 = u32::MAX;

/// An exception-table entry with labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handler {
    /// First covered position.
    pub start: Label,
    /// First position after the covered range.
    pub end: Label,
    /// Where the handler starts.
    pub handler: Label,
    /// The caught class, or 0 for any.
    pub catch_type: CpIndex,
}

/// A nested attribute of `Code`, kept in its original order. Tables that
/// hold pcs keep the original ones; they are mapped through the labels of
/// those pcs when the code is written.
#[derive(Debug, Clone)]
enum CodeAttribute<'a> {
    StackMapTable,
    LineNumbers(CpIndex, LineNumberTable),
    LocalVariables(CpIndex, LocalVariableTable),
    LocalVariableTypes(CpIndex, LocalVariableTypeTable),
    TypeAnnotations(CpIndex, TypeAnnotations),
    /// Not interpreted; copied unchanged (the JVM ignores attributes it
    /// does not know).
    Other(RawAttribute<'a>),
}

/// A method's code, decoded for editing.
#[derive(Debug, Clone)]
pub struct MethodBody<'a> {
    /// `max_stack` of the original code; the encoder adds what inserted
    /// code needs.
    pub max_stack: u16,
    /// `max_locals`; [`MethodBody::add_local`] raises it.
    pub max_locals: u16,
    insns: Vec<Insn>,
    code_length: u32,
    /// The number of the next fresh label: every label below it is this
    /// body's.
    next_label: u32,
    /// Indexed by pc, up to the end of the code: the index in `insns` right
    /// after the label of the instruction starting there, or [`NO_POSITION`].
    /// A table rather than a map, as every edit and frame looks pcs up.
    positions: Vec<u32>,
    handlers: Vec<Handler>,
    /// `None` when the class version has no frames.
    frames: Option<Vec<(Label, Frame)>>,
    initial_frame: Frame,
    stack_map_name: Option<CpIndex>,
    attributes: Vec<CodeAttribute<'a>>,
    entry_code: Vec<Insn>,
    /// Code after the last original instruction.
    appended: Vec<Insn>,
    /// Where each appended piece starts in `appended`, and the stack depth
    /// it starts with; its own need is counted when the code is encoded.
    appended_pieces: Vec<(usize, u16)>,
    inserted: HashMap<Pc, Vec<Insn>, RandomState>,
    replaced: HashMap<Pc, Vec<Insn>, RandomState>,
    this_class: &'a [u8],
}

impl<'a> MethodBody<'a> {
    /// Opens `method`'s `Code` for editing.
    ///
    /// # Errors
    /// Malformed code, tables that point between instructions, and
    /// frames that do not parse.
    pub fn open(class: &'a ClassFile<'a>, method: &Member<'a>, code: &Code<'a>) -> Result<Self> {
        Self::open_decoded(class, method, code, decode(code.code)?)
    }

    /// [`MethodBody::open`] of code already decoded (`decoded` is
    /// `decode(code.code)`).
    ///
    /// # Errors
    /// As [`MethodBody::open`], but for the decoding.
    pub fn open_decoded(
        class: &'a ClassFile<'a>,
        method: &Member<'a>,
        code: &Code<'a>,
        decoded: Decoded,
    ) -> Result<Self> {
        let pool = &class.constant_pool;
        let code_length = code.code.len() as u32;
        let boundary = |pc: u32, item: &'static str| {
            let pc = Pc(pc);
            if decoded.is_boundary(pc) {
                Ok(Label::original(pc))
            } else {
                Err(BytecodeError::BadPc { item, pc })
            }
        };
        let mut handlers = Vec::with_capacity(code.exception_table.len());
        for h in &code.exception_table {
            let item = "exception table";
            handlers.push(Handler {
                start: boundary(u32::from(h.start_pc), item)?,
                end: boundary(u32::from(h.end_pc), item)?,
                handler: boundary(u32::from(h.handler_pc), item)?,
                catch_type: h.catch_type,
            });
        }
        let is_static = method.access_flags & access::ACC_STATIC != 0;
        let initial_frame =
            Frame::initial(class.this_class_name(), method.name, method.descriptor, is_static)?;
        let mut frames = class.has_frames().then(Vec::new);
        let mut stack_map_name = None;
        let mut attributes = Vec::with_capacity(code.attributes.len());
        for raw in &code.attributes {
            attributes.push(match raw.name {
                names::STACK_MAP_TABLE if class.has_frames() => {
                    let table = StackMapTable::from_raw(raw, pool)?;
                    let expanded = frame::expand(&table, &initial_frame, pool)?;
                    let frames = frames.as_mut().expect("created above for versions with frames");
                    for (pc, frame) in expanded {
                        frames.push((boundary(pc.0, "StackMapTable")?, frame));
                    }
                    stack_map_name = Some(raw.name_index);
                    CodeAttribute::StackMapTable
                }
                names::LINE_NUMBER_TABLE => {
                    let table = LineNumberTable::from_raw(raw, pool)?;
                    for entry in &table.entries {
                        boundary(u32::from(entry.start_pc), "LineNumberTable")?;
                    }
                    CodeAttribute::LineNumbers(raw.name_index, table)
                }
                names::LOCAL_VARIABLE_TABLE => {
                    let table = LocalVariableTable::from_raw(raw, pool)?;
                    check_ranges(
                        &decoded,
                        table.entries.iter().map(|e| (e.start_pc, e.length)),
                        "LocalVariableTable",
                    )?;
                    CodeAttribute::LocalVariables(raw.name_index, table)
                }
                names::LOCAL_VARIABLE_TYPE_TABLE => {
                    let table = LocalVariableTypeTable::from_raw(raw, pool)?;
                    let item = "LocalVariableTypeTable";
                    check_ranges(
                        &decoded,
                        table.entries.iter().map(|e| (e.start_pc, e.length)),
                        item,
                    )?;
                    CodeAttribute::LocalVariableTypes(raw.name_index, table)
                }
                names::RUNTIME_VISIBLE_TYPE_ANNOTATIONS | names::RUNTIME_INVISIBLE_TYPE_ANNOTATIONS => {
                    let table = TypeAnnotations::from_raw(raw, pool)?;
                    for annotation in &table.annotations {
                        for (pc, length) in type_annotation_ranges(&annotation.target) {
                            check_ranges(&decoded, std::iter::once((pc, length)), "type annotation")?;
                        }
                    }
                    CodeAttribute::TypeAnnotations(raw.name_index, table)
                }
                _ => CodeAttribute::Other(*raw),
            });
        }
        let mut positions = vec![NO_POSITION; code_length as usize + 1];
        for (i, insn) in decoded.insns.iter().enumerate() {
            if let Insn::Label(label) = insn {
                positions[label.0 as usize] = (i + 1) as u32;
            }
        }
        Ok(MethodBody {
            max_stack: code.max_stack,
            max_locals: code.max_locals,
            insns: decoded.insns,
            code_length,
            next_label: code_length + 1,
            positions,
            handlers,
            frames,
            initial_frame,
            stack_map_name,
            attributes,
            entry_code: Vec::new(),
            inserted: HashMap::default(),
            replaced: HashMap::default(),
            appended: Vec::new(),
            appended_pieces: Vec::new(),
            this_class: class.this_class_name(),
        })
    }

    /// A fresh label for inserted code.
    pub fn new_label(&mut self) -> Label {
        let label = Label(self.next_label);
        self.next_label += 1;
        label
    }

    /// The index in `insns` right after the label of the original
    /// instruction at `pc` (or of the end of the code).
    fn position(&self, pc: Pc) -> Option<usize> {
        match self.positions.get(pc.0 as usize) {
            Some(&position) if position != NO_POSITION => Some(position as usize),
            _ => None,
        }
    }

    /// The internal name of the method's class.
    pub fn this_class(&self) -> &'a [u8] {
        self.this_class
    }

    /// The label of the original instruction at `pc`, or of the end of the
    /// original code: where code inserted at `pc` starts, for branches and
    /// exception ranges.
    ///
    /// # Errors
    /// [`BytecodeError::BadPc`] when no instruction starts at `pc`.
    pub fn label_at(&self, pc: Pc) -> Result<Label> {
        if self.position(pc).is_some() {
            Ok(Label::original(pc))
        } else {
            Err(BytecodeError::BadPc { item: "label", pc })
        }
    }

    /// The original pc `label` stands for; `None` for a label of inserted
    /// code.
    pub fn pc_of(&self, label: Label) -> Option<Pc> {
        label.original_pc(self.code_length)
    }

    /// The original instructions with their pcs, in pc order.
    pub fn instructions(&self) -> impl Iterator<Item = (Pc, &Insn)> + '_ {
        insn::with_pcs(&self.insns)
    }

    /// The original instruction at `pc`, if an instruction starts there.
    pub fn instruction_at(&self, pc: Pc) -> Option<&Insn> {
        self.position(pc)
            .and_then(|i| self.insns.get(i))
            .filter(|i| !matches!(i, Insn::Label(_)))
    }

    /// The exception table.
    pub fn handlers(&self) -> &[Handler] {
        &self.handlers
    }

    /// Adds an exception-table entry after the existing ones (so existing
    /// handlers take precedence where ranges overlap). The covered range
    /// runs over original code (labels from [`MethodBody::label_at`]); the
    /// handler may start anywhere, in appended code for example.
    ///
    /// # Errors
    /// [`BytecodeError::ForeignLabel`] for a label this body did not make;
    /// [`BytecodeError::BadHandlerRange`] when `start` or `end` is not a
    /// label of original code, or `start` is not before `end`.
    pub fn add_handler(&mut self, handler: Handler) -> Result<()> {
        for label in [handler.start, handler.end, handler.handler] {
            self.check_label(label)?;
        }
        match (self.pc_of(handler.start), self.pc_of(handler.end)) {
            (Some(start), Some(end)) if start < end => {
                self.handlers.push(handler);
                Ok(())
            }
            _ => Err(BytecodeError::BadHandlerRange {
                start: handler.start,
                end: handler.end,
            }),
        }
    }

    /// Adds an exception-table entry, after the existing ones, whose range
    /// covers inserted code only: `start` and `end` are new labels that the
    /// inserted code places, `start` first (checked when the code is
    /// encoded). The handler's frame must hold for every instruction in the
    /// range; that is the caller's to ensure.
    ///
    /// # Errors
    /// [`BytecodeError::ForeignLabel`] for a label this body did not make;
    /// [`BytecodeError::BadHandlerRange`] when `start` or `end` is a label
    /// of original code.
    pub fn add_handler_over_inserted(&mut self, handler: Handler) -> Result<()> {
        for label in [handler.start, handler.end, handler.handler] {
            self.check_label(label)?;
        }
        if self.pc_of(handler.start).is_some() || self.pc_of(handler.end).is_some() {
            return Err(BytecodeError::BadHandlerRange {
                start: handler.start,
                end: handler.end,
            });
        }
        self.handlers.push(handler);
        Ok(())
    }

    /// Refuses a label that this body did not make.
    fn check_label(&self, label: Label) -> Result<()> {
        if label.0 < self.next_label {
            Ok(())
        } else {
            Err(BytecodeError::ForeignLabel { label })
        }
    }

    /// Whether this method's class version uses StackMapTable frames.
    pub fn has_frames(&self) -> bool {
        self.frames.is_some()
    }

    /// The implicit frame at entry.
    pub fn initial_frame(&self) -> &Frame {
        &self.initial_frame
    }

    /// Records the frame at a label of inserted code (a branch target the
    /// rewrite adds). Ignored for versions without frames.
    ///
    /// # Errors
    /// [`BytecodeError::ForeignLabel`] for a label this body did not make.
    pub fn add_frame(&mut self, label: Label, frame: Frame) -> Result<()> {
        self.check_label(label)?;
        if let Some(frames) = &mut self.frames {
            frames.push((label, frame));
        }
        Ok(())
    }

    /// Reserves `slots` new local-variable slots above all existing ones
    /// and returns the first.
    ///
    /// # Errors
    /// When `max_locals` would pass 65535.
    pub fn add_local(&mut self, slots: u16) -> Result<Slot> {
        let first = self.max_locals;
        self.max_locals = first.checked_add(slots).ok_or(BytecodeError::TooManyLocals)?;
        Ok(Slot(first))
    }

    /// Makes room for a new parameter of type `vtype` at local slot
    /// `slot` (the end of the existing parameters): every local at or above
    /// it moves up by the type's size, in the instructions, the debug
    /// tables and the frames, and the entry frame gains the parameter.
    ///
    /// # Errors
    /// When `max_locals` would pass 65535.
    pub fn add_parameter(&mut self, slot: Slot, vtype: VType) -> Result<()> {
        let Slot(slot) = slot;
        let size: u16 = if vtype.is_category2() { 2 } else { 1 };
        self.max_locals = self
            .max_locals
            .checked_add(size)
            .ok_or(BytecodeError::TooManyLocals)?;
        let shift = |index: &mut u16| {
            if *index >= slot {
                *index += size;
            }
        };
        for insn in &mut self.insns {
            if let Insn::Local { index, .. } | Insn::Iinc { index, .. } = insn {
                shift(&mut index.0);
            }
        }
        for attribute in &mut self.attributes {
            match attribute {
                CodeAttribute::LocalVariables(_, table) => {
                    table.entries.iter_mut().for_each(|e| shift(&mut e.index))
                }
                CodeAttribute::LocalVariableTypes(_, table) => {
                    table.entries.iter_mut().for_each(|e| shift(&mut e.index))
                }
                CodeAttribute::TypeAnnotations(_, table) => {
                    for annotation in &mut table.annotations {
                        if let TargetInfo::Localvar { table, .. } = &mut annotation.target {
                            table.iter_mut().for_each(|e| shift(&mut e.index));
                        }
                    }
                }
                _ => {}
            }
        }
        // The parameter holds its value for the whole method, so every
        // frame declares it, including frames that list fewer locals.
        let insert = |locals: &mut Vec<VType>| {
            let mut slots = frame::to_slots(locals);
            slots.resize(slots.len().max(usize::from(slot)), VType::Top);
            slots.insert(usize::from(slot), vtype.clone());
            if size == 2 {
                slots.insert(usize::from(slot) + 1, VType::Top);
            }
            *locals = frame::from_slots(&slots);
        };
        insert(&mut self.initial_frame.locals);
        for (_, frame) in self.frames.iter_mut().flatten() {
            insert(&mut frame.locals);
        }
        Ok(())
    }

    /// Declares local `slot` as `vtype` in every frame, for a local that
    /// inserted entry code initialises before anything else runs.
    pub fn declare_local_in_frames(&mut self, slot: Slot, vtype: &VType) {
        for (_, frame) in self.frames.iter_mut().flatten() {
            frame.locals = frame::with_local(&frame.locals, slot, vtype);
        }
    }

    /// Inserts code that runs once when the method is entered, before any
    /// original instruction (and before the label of pc 0).
    pub fn insert_at_entry(&mut self, code: Vec<Insn>) {
        self.entry_code.extend(code);
    }

    /// Appends code after the last original instruction, where only
    /// branches and handlers added by the rewrite reach it. It starts with
    /// `entry_stack` values on the stack (1 for an exception handler); code
    /// appended before comes first and must not fall through into it.
    pub fn append(&mut self, code: Vec<Insn>, entry_stack: u16) {
        self.appended_pieces.push((self.appended.len(), entry_stack));
        self.appended.extend(code);
    }

    /// Inserts code at `pc`, after its label and after code inserted there
    /// before: every path that reaches the instruction at `pc` runs it.
    ///
    /// # Errors
    /// When `pc` is not an instruction start.
    pub fn insert_before(&mut self, pc: Pc, code: Vec<Insn>) -> Result<()> {
        self.check_instruction(pc)?;
        match self.inserted.entry(pc) {
            Entry::Occupied(mut inserted) => inserted.get_mut().extend(code),
            Entry::Vacant(place) => {
                place.insert(code);
            }
        }
        Ok(())
    }

    /// Replaces the instruction at `pc` with `code`.
    ///
    /// # Errors
    /// When `pc` is not an instruction start.
    pub fn replace(&mut self, pc: Pc, code: Vec<Insn>) -> Result<()> {
        self.check_instruction(pc)?;
        self.replaced.insert(pc, code);
        Ok(())
    }

    fn check_instruction(&self, pc: Pc) -> Result<()> {
        if self.instruction_at(pc).is_some() {
            Ok(())
        } else {
            Err(BytecodeError::BadPc { item: "edit", pc })
        }
    }

    /// The type state just before the original instruction at `pc`,
    /// computed by simulating forward from the nearest original frame at or
    /// before it.
    ///
    /// # Errors
    /// [`BytecodeError::BadPc`] when no instruction starts at `pc`;
    /// simulation errors, for example through `jsr`/`ret`.
    pub fn frame_before(&self, pc: Pc, pool: &impl ConstantLookup) -> Result<Frame> {
        self.check_instruction(pc)?;
        let mut start = (Pc(0), self.initial_frame.clone());
        for (label, frame) in self.frames.iter().flatten() {
            if let Some(at) = self.pc_of(*label).filter(|&at| at <= pc && at >= start.0) {
                start = (at, frame.clone());
            }
        }
        let (from, mut state) = start;
        let first = self.position(from).unwrap_or(0);
        let last = self.position(pc).expect("checked above");
        let mut at = Label::original(from);
        for insn in &self.insns[first..last] {
            match insn {
                Insn::Label(label) => at = *label,
                insn => simulate::step(insn, at, &mut state, pool, self.this_class)?,
            }
        }
        Ok(state)
    }

    /// The type state before each original instruction, in pc order, by one
    /// pass that restarts at every original frame. `None` where no frame
    /// describes the code: after an unconditional transfer with no frame
    /// following it, and, in versions without frames (where merges are
    /// unknown), everywhere past the first instruction.
    ///
    /// # Errors
    /// Simulation errors, for example through `jsr`/`ret`.
    pub fn instruction_frames(&self, pool: &impl ConstantLookup) -> Result<Vec<(Pc, Option<Frame>)>> {
        let pcs: Vec<Pc> = self.instructions().map(|(pc, _)| pc).collect();
        self.frames_before(&pcs, pool)
    }

    /// The type state before the original instructions at `pcs` (in
    /// increasing order), as [`MethodBody::instruction_frames`] gives it,
    /// with each pc that starts no instruction left out. Only the code
    /// from the nearest original frame up to each pc is simulated: a rewrite
    /// that needs the frames at a few pcs does not pay for the whole method.
    ///
    /// # Errors
    /// Simulation errors in the code simulated, for example through
    /// `jsr`/`ret`.
    pub fn frames_before(&self, pcs: &[Pc], pool: &impl ConstantLookup) -> Result<Vec<(Pc, Option<Frame>)>> {
        // The recorded frames of original instructions, in pc order (of
        // frames recorded at the same label, the last counts): walked along
        // with the instructions rather than looked up at each.
        let mut recorded: Vec<(Label, &Frame)> = self
            .frames
            .iter()
            .flatten()
            .filter(|(label, _)| self.pc_of(*label).is_some())
            .map(|(label, frame)| (*label, frame))
            .collect();
        recorded.sort_by_key(|&(label, _)| label.0);
        let mut recorded = recorded.into_iter().peekable();
        let mut out = Vec::with_capacity(pcs.len());
        let mut wanted = pcs.iter().copied().peekable();
        // The run of code being walked starts at `insns[base.1]` in state
        // `base.0`; `state` is that state simulated up to `insns[simulated]`,
        // made only once a pc of the run is wanted.
        let mut base = (&self.initial_frame, 0);
        let mut state: Option<Frame> = None;
        let mut simulated = 0;
        let mut described = true;
        let mut at = Label::original(Pc(0));
        let mut pc = Pc(0);
        for (i, insn) in self.insns.iter().enumerate() {
            if let Insn::Label(label) = insn {
                pc = Pc(label.0);
                let mut frame = None;
                while let Some((at, recorded_frame)) = recorded.next_if(|(at, _)| at.0 <= label.0) {
                    if at == *label {
                        frame = Some(recorded_frame);
                    }
                }
                if let Some(frame) = frame {
                    (base, state, described) = ((frame, i), None, true);
                }
                continue;
            }
            while wanted.next_if(|&next| next < pc).is_some() {}
            if wanted.next_if_eq(&pc).is_some() {
                let frame = if described {
                    let current = state.get_or_insert_with(|| {
                        simulated = base.1;
                        base.0.clone()
                    });
                    for insn in &self.insns[simulated..i] {
                        match insn {
                            Insn::Label(label) => at = *label,
                            insn => simulate::step(insn, at, current, pool, self.this_class)?,
                        }
                    }
                    simulated = i;
                    Some(current.clone())
                } else {
                    None
                };
                out.push((pc, frame));
                if wanted.peek().is_none() {
                    break;
                }
            }
            if insn.ends_flow() || !self.has_frames() {
                described = false;
            }
        }
        Ok(out)
    }
}

fn check_ranges(
    decoded: &Decoded,
    ranges: impl Iterator<Item = (u16, u16)>,
    item: &'static str,
) -> Result<()> {
    for (start, length) in ranges {
        let end = u32::from(start) + u32::from(length);
        for pc in [Pc(u32::from(start)), Pc(end)] {
            if !decoded.is_boundary(pc) {
                return Err(BytecodeError::BadPc { item, pc });
            }
        }
    }
    Ok(())
}

/// The pc ranges a type annotation's target refers to (length 0 for a
/// single instruction).
fn type_annotation_ranges(target: &TargetInfo) -> Vec<(u16, u16)> {
    match target {
        TargetInfo::Localvar { table, .. } => table.iter().map(|e| (e.start_pc, e.length)).collect(),
        TargetInfo::Offset { offset, .. } | TargetInfo::TypeArgument { offset, .. } => {
            vec![(*offset, 0)]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use jp_classfile::PoolBuilder;

    use super::testing::{class_with_method, with_body, LOOP, LOOP_FRAMES};
    use super::*;
    use crate::opcode as op;

    fn catch_all(start: Label, end: Label, handler: Label) -> Handler {
        Handler {
            start,
            end,
            handler,
            catch_type: CpIndex(0),
        }
    }

    #[test]
    fn original_pcs_have_labels_and_other_pcs_are_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, body| {
            let label = body.label_at(Pc(4)).unwrap();
            assert_eq!(body.pc_of(label), Some(Pc(4)));
            // The end of the code has a label too, for exception ranges.
            assert!(body.label_at(Pc(12)).is_ok());
            assert_eq!(
                body.label_at(Pc(2)),
                Err(BytecodeError::BadPc {
                    item: "label",
                    pc: Pc(2)
                })
            );
            assert!(body.label_at(Pc(13)).is_err());
        });
    }

    #[test]
    fn a_new_label_stands_for_no_original_pc() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, mut body| {
            let label = body.new_label();
            assert_eq!(body.pc_of(label), None);
        });
    }

    #[test]
    fn instructions_come_with_their_pcs() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, body| {
            let pcs: Vec<Pc> = body.instructions().map(|(pc, _)| pc).collect();
            assert_eq!(pcs, [Pc(0), Pc(1), Pc(4), Pc(7), Pc(10), Pc(11)]);
            assert_eq!(body.instruction_at(Pc(11)), Some(&Insn::Plain(op::IRETURN)));
            assert_eq!(body.instruction_at(Pc(12)), None);
        });
    }

    #[test]
    fn a_handler_over_original_code_is_added() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, mut body| {
            let (start, end) = (body.label_at(Pc(0)).unwrap(), body.label_at(Pc(12)).unwrap());
            let handler = body.new_label();
            body.add_handler(catch_all(start, end, handler)).unwrap();
            assert_eq!(body.handlers(), [catch_all(start, end, handler)]);
        });
    }

    #[test]
    fn a_handler_range_that_does_not_run_forward_is_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, mut body| {
            let (start, end) = (body.label_at(Pc(4)).unwrap(), body.label_at(Pc(1)).unwrap());
            let handler = body.label_at(Pc(10)).unwrap();
            let refused = BytecodeError::BadHandlerRange { start, end };
            assert_eq!(body.add_handler(catch_all(start, end, handler)), Err(refused));
            let empty = catch_all(start, start, handler);
            assert!(matches!(
                body.add_handler(empty),
                Err(BytecodeError::BadHandlerRange { .. })
            ));
            assert!(body.handlers().is_empty());
        });
    }

    #[test]
    fn a_handler_range_over_inserted_code_is_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |_, mut body| {
            let new = body.new_label();
            let end = body.label_at(Pc(12)).unwrap();
            assert!(matches!(
                body.add_handler(catch_all(new, end, new)),
                Err(BytecodeError::BadHandlerRange { .. })
            ));
        });
    }

    #[test]
    fn a_handler_over_inserted_code_covers_that_code_and_must_run_forward() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        let guarded_entry = |forward: bool| {
            with_body(&bytes, |class, mut body| {
                let original = body.label_at(Pc(0)).unwrap();
                let [start, end, handler] = [body.new_label(), body.new_label(), body.new_label()];
                assert!(matches!(
                    body.add_handler_over_inserted(catch_all(original, end, handler)),
                    Err(BytecodeError::BadHandlerRange { .. })
                ));
                let (first, second) = if forward { (start, end) } else { (end, start) };
                body.insert_at_entry(vec![
                    Insn::Label(first),
                    Insn::Plain(op::NOP),
                    Insn::Label(second),
                    Insn::Branch {
                        opcode: op::GOTO,
                        target: original,
                    },
                    Insn::Label(handler),
                    Insn::Plain(op::ATHROW),
                ]);
                body.add_handler_over_inserted(catch_all(start, end, handler))?;
                let mut pool = PoolBuilder::new(&class.constant_pool);
                body.encode(&mut pool)
            })
        };
        let info = guarded_entry(true).unwrap();
        // max_stack, max_locals, code_length, then the code: nop, goto, athrow.
        let code_length = u32::from_be_bytes(info[4..8].try_into().unwrap()) as usize;
        let table = &info[8 + code_length..];
        assert_eq!(&table[..2], &[0, 1], "one handler");
        assert_eq!(
            &table[2..8],
            &[0, 0, 0, 1, 0, 4],
            "covering the nop, handled at the athrow"
        );
        assert!(matches!(
            guarded_entry(false),
            Err(BytecodeError::BadHandlerRange { .. })
        ));
    }

    #[test]
    fn labels_of_another_body_are_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        let foreign = with_body(&bytes, |_, mut other| {
            other.new_label();
            other.new_label()
        });
        with_body(&bytes, |class, mut body| {
            let (start, end) = (body.label_at(Pc(0)).unwrap(), body.label_at(Pc(12)).unwrap());
            assert_eq!(
                body.add_handler(catch_all(start, end, foreign)),
                Err(BytecodeError::ForeignLabel { label: foreign })
            );
            assert_eq!(
                body.add_frame(foreign, Frame::default()),
                Err(BytecodeError::ForeignLabel { label: foreign })
            );
            // A branch to it is refused when the code is laid out.
            let branch = Insn::Branch {
                opcode: op::GOTO,
                target: foreign,
            };
            body.insert_before(Pc(10), vec![branch]).unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            assert_eq!(
                body.encode(&mut pool),
                Err(BytecodeError::ForeignLabel { label: foreign })
            );
        });
    }

    #[test]
    fn a_label_that_is_used_but_never_placed_is_an_error() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            let nowhere = body.new_label();
            let branch = Insn::Branch {
                opcode: op::GOTO,
                target: nowhere,
            };
            body.insert_before(Pc(10), vec![branch]).unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            assert_eq!(
                body.encode(&mut pool),
                Err(BytecodeError::UnplacedLabel { label: nowhere })
            );
        });
        with_body(&bytes, |class, mut body| {
            let (start, end) = (body.label_at(Pc(0)).unwrap(), body.label_at(Pc(12)).unwrap());
            let nowhere = body.new_label();
            body.add_handler(catch_all(start, end, nowhere)).unwrap();
            let mut pool = PoolBuilder::new(&class.constant_pool);
            assert_eq!(
                body.encode(&mut pool),
                Err(BytecodeError::UnplacedLabel { label: nowhere })
            );
        });
    }

    #[test]
    fn edits_and_frames_at_a_pc_inside_an_instruction_are_refused() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            let inside = Pc(2);
            let refused = Err(BytecodeError::BadPc {
                item: "edit",
                pc: inside,
            });
            assert_eq!(body.insert_before(inside, Vec::new()), refused);
            assert_eq!(body.replace(inside, Vec::new()), refused);
            assert_eq!(
                body.frame_before(inside, &class.constant_pool),
                refused.map(|()| Frame::default())
            );
            assert_eq!(
                body.frame_before(Pc(10), &class.constant_pool).unwrap(),
                Frame {
                    locals: vec![VType::Integer],
                    stack: Vec::new()
                }
            );
        });
    }
}
