//! A method body opened for editing: its instructions with labels, its
//! exception table, debug tables and frames, all tied to labels so that
//! inserted code moves them correctly; and the encoder that lays the code
//! out again.
//!
//! Inserted code goes *after* the label of the pc it is inserted at, so
//! branches to that pc, handler ranges starting there and frames at that
//! pc all cover the new code. Only [`MethodBody::insert_at_entry`] places
//! code before the first label, so that it runs once even when pc 0 is a
//! loop header.

use std::collections::HashMap;

use jp_classfile::attributes::{
    names, AttributeInfo, Code, LineNumberTable, LocalVariableTable, LocalVariableTypeTable, StackMapTable,
    TargetInfo, TypeAnnotations,
};
use jp_classfile::{access, ByteSink, ClassFile, ConstantLookup, CpIndex, Member, PoolBuilder, RawAttribute};

use crate::error::{BytecodeError, Result};
use crate::frame::{self, Frame, VType};
use crate::insn::{decode, Insn, Label};
use crate::opcode as op;
use crate::simulate;

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
/// hold pcs keep the original ones; they are mapped through
/// `Label(original pc)` when the code is written.
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
    next_label: u32,
    /// Instructions known to be at each original pc, for [`MethodBody::instruction_at`].
    positions: HashMap<u32, usize>,
    handlers: Vec<Handler>,
    /// `None` when the class version has no frames.
    frames: Option<Vec<(Label, Frame)>>,
    initial_frame: Frame,
    stack_map_name: Option<CpIndex>,
    attributes: Vec<CodeAttribute<'a>>,
    entry_code: Vec<Insn>,
    /// Code after the last original instruction.
    appended: Vec<Insn>,
    /// The stack depth the appended code needs.
    appended_stack: u16,
    inserted: HashMap<u32, Vec<Insn>>,
    replaced: HashMap<u32, Vec<Insn>>,
    this_class: &'a [u8],
}

impl<'a> MethodBody<'a> {
    /// Opens `method`'s `Code` for editing.
    ///
    /// # Errors
    /// Malformed code, tables that point between instructions, and
    /// frames that do not parse.
    pub fn open(class: &'a ClassFile<'a>, method: &Member<'a>, code: &Code<'a>) -> Result<Self> {
        let pool = &class.constant_pool;
        let decoded = decode(code.code)?;
        let code_length = code.code.len() as u32;
        let boundary = |pc: u32, item: &'static str| {
            if decoded.is_boundary(pc) {
                Ok(Label(pc))
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
                        frames.push((boundary(pc, "StackMapTable")?, frame));
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
        let positions = decoded
            .insns
            .iter()
            .enumerate()
            .filter_map(|(i, insn)| match insn {
                Insn::Label(label) => Some((label.0, i + 1)),
                _ => None,
            })
            .collect();
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
            inserted: HashMap::new(),
            replaced: HashMap::new(),
            appended: Vec::new(),
            appended_stack: 0,
            this_class: class.this_class_name(),
        })
    }

    /// A fresh label for inserted code.
    pub fn new_label(&mut self) -> Label {
        let label = Label(self.next_label);
        self.next_label += 1;
        label
    }

    /// The internal name of the method's class.
    pub fn this_class(&self) -> &'a [u8] {
        self.this_class
    }

    /// The original instructions, each preceded by `Label(pc)`.
    pub fn instructions(&self) -> &[Insn] {
        &self.insns
    }

    /// The original instruction at `pc`, if an instruction starts there.
    pub fn instruction_at(&self, pc: u32) -> Option<&Insn> {
        self.positions
            .get(&pc)
            .and_then(|&i| self.insns.get(i))
            .filter(|i| !matches!(i, Insn::Label(_)))
    }

    /// The exception table.
    pub fn handlers(&self) -> &[Handler] {
        &self.handlers
    }

    /// Adds an exception-table entry after the existing ones (so existing
    /// handlers take precedence where ranges overlap).
    pub fn add_handler(&mut self, handler: Handler) {
        self.handlers.push(handler);
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
    pub fn add_frame(&mut self, label: Label, frame: Frame) {
        if let Some(frames) = &mut self.frames {
            frames.push((label, frame));
        }
    }

    /// Reserves `slots` new local-variable slots above all existing ones
    /// and returns the first.
    ///
    /// # Errors
    /// When `max_locals` would pass 65535.
    pub fn add_local(&mut self, slots: u16) -> Result<u16> {
        let first = self.max_locals;
        self.max_locals = first.checked_add(slots).ok_or(BytecodeError::TooManyLocals)?;
        Ok(first)
    }

    /// Makes room for a new parameter of type `vtype` at local slot
    /// `slot` (the end of the existing parameters): every local at or above
    /// it moves up by the type's size, in the instructions, the debug
    /// tables and the frames, and the entry frame gains the parameter.
    ///
    /// # Errors
    /// When `max_locals` would pass 65535.
    pub fn add_parameter(&mut self, slot: u16, vtype: VType) -> Result<()> {
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
                shift(index);
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
    pub fn declare_local_in_frames(&mut self, slot: u16, vtype: &VType) {
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
    ///
    /// # Errors
    /// References to constants that are not in `pool`.
    pub fn append(&mut self, code: Vec<Insn>, entry_stack: u16, pool: &impl ConstantLookup) -> Result<()> {
        let need = entry_stack.saturating_add(simulate::max_stack_of(&code, pool)?);
        self.appended_stack = self.appended_stack.max(need);
        self.appended.extend(code);
        Ok(())
    }

    /// Inserts code at `pc`, after its label and after code inserted there
    /// before: every path that reaches the instruction at `pc` runs it.
    ///
    /// # Errors
    /// When `pc` is not an instruction start.
    pub fn insert_before(&mut self, pc: u32, code: Vec<Insn>) -> Result<()> {
        self.check_instruction(pc)?;
        self.inserted.entry(pc).or_default().extend(code);
        Ok(())
    }

    /// Replaces the instruction at `pc` with `code`.
    ///
    /// # Errors
    /// When `pc` is not an instruction start.
    pub fn replace(&mut self, pc: u32, code: Vec<Insn>) -> Result<()> {
        self.check_instruction(pc)?;
        self.replaced.insert(pc, code);
        Ok(())
    }

    fn check_instruction(&self, pc: u32) -> Result<()> {
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
    /// Simulation errors, for example through `jsr`/`ret`.
    pub fn frame_before(&self, pc: u32, pool: &impl ConstantLookup) -> Result<Frame> {
        let mut start = (0u32, self.initial_frame.clone());
        if let Some(frames) = &self.frames {
            for (label, frame) in frames {
                if label.0 <= pc && label.0 >= start.0 && label.0 <= self.code_length {
                    start = (label.0, frame.clone());
                }
            }
        }
        let (from, mut state) = start;
        let first = self.positions.get(&from).copied().unwrap_or(0);
        let last = self.positions.get(&pc).copied().unwrap_or(first);
        let mut at = Label(from);
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
    pub fn instruction_frames(&self, pool: &impl ConstantLookup) -> Result<Vec<(u32, Option<Frame>)>> {
        let by_label: HashMap<Label, &Frame> = self
            .frames
            .iter()
            .flatten()
            .map(|(label, frame)| (*label, frame))
            .collect();
        let mut out = Vec::with_capacity(self.positions.len());
        let mut state = Some(self.initial_frame.clone());
        let mut at = Label(0);
        for insn in &self.insns {
            if let Insn::Label(label) = insn {
                at = *label;
                if let Some(frame) = by_label.get(label) {
                    state = Some((*frame).clone());
                }
                continue;
            }
            out.push((at.0, state.clone()));
            if let Some(current) = state.as_mut() {
                simulate::step(insn, at, current, pool, self.this_class)?;
            }
            if insn.ends_flow() || !self.has_frames() {
                state = None;
            }
        }
        Ok(out)
    }

    /// Lays the edited code out and encodes the `Code` attribute's `info`.
    ///
    /// # Errors
    /// [`BytecodeError::CodeTooLarge`] past 65535 bytes of code; a full
    /// constant pool; frames that cannot be computed for widened branches.
    pub fn encode(&self, pool: &mut PoolBuilder<'_>) -> Result<Vec<u8>> {
        let (insns, original_positions) = self.assemble();
        let mut extra_stack = simulate::max_stack_of(&self.entry_code, pool)?;
        for code in self.inserted.values().chain(self.replaced.values()) {
            extra_stack = extra_stack.max(simulate::max_stack_of(code, pool)?);
        }
        let layout = Layout::compute(&insns, self.next_label)?;
        let code = layout.encode(&insns);
        let offset = |label: Label| layout.offset(label);
        let original = |pc: u16| -> u16 { offset(Label(u32::from(pc))) as u16 };
        // `Uninitialized` names the `new` instruction itself, which code
        // inserted at its pc pushes past the label.
        let new_offset = |label: Label| -> u16 {
            original_positions
                .get(&label)
                .map_or_else(|| offset(label), |&p| layout.offsets[p]) as u16
        };

        let mut out = Vec::with_capacity(code.len() + 64);
        out.put_u2(
            self.max_stack
                .saturating_add(extra_stack)
                .max(self.appended_stack),
        );
        out.put_u2(self.max_locals);
        out.put_u4(code.len() as u32);
        out.put_bytes(&code);
        out.put_u2(u16::try_from(self.handlers.len()).map_err(|_| BytecodeError::TooManyHandlers)?);
        for h in &self.handlers {
            out.put_u2(offset(h.start) as u16);
            out.put_u2(offset(h.end) as u16);
            out.put_u2(offset(h.handler) as u16);
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
                        entry.start_pc = original(entry.start_pc);
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::LocalVariables(name, table) => {
                    let mut table = table.clone();
                    for e in &mut table.entries {
                        (e.start_pc, e.length) = remap_range(e.start_pc, e.length, &original);
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::LocalVariableTypes(name, table) => {
                    let mut table = table.clone();
                    for e in &mut table.entries {
                        (e.start_pc, e.length) = remap_range(e.start_pc, e.length, &original);
                    }
                    table.encode(&mut info);
                    *name
                }
                CodeAttribute::TypeAnnotations(name, table) => {
                    let mut table = table.clone();
                    for annotation in &mut table.annotations {
                        remap_type_annotation_target(&mut annotation.target, &original);
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
    /// instruction with the code inserted at its pc.
    fn assemble(&self) -> (Vec<Insn>, HashMap<Label, usize>) {
        let extra: usize = self
            .inserted
            .values()
            .chain(self.replaced.values())
            .map(Vec::len)
            .sum::<usize>()
            + self.appended.len();
        let mut out = Vec::with_capacity(self.insns.len() + self.entry_code.len() + extra);
        let mut original_positions = HashMap::with_capacity(self.positions.len());
        out.extend(self.entry_code.iter().cloned());
        let mut pc = 0;
        for insn in &self.insns {
            match insn {
                Insn::Label(label) => {
                    pc = label.0;
                    out.push(insn.clone());
                    if let Some(code) = self.inserted.get(&pc) {
                        out.extend(code.iter().cloned());
                    }
                }
                _ => match self.replaced.get(&pc) {
                    Some(code) => out.extend(code.iter().cloned()),
                    None => {
                        original_positions.insert(Label(pc), out.len());
                        out.push(insn.clone());
                    }
                },
            }
        }
        out.extend(self.appended.iter().cloned());
        (out, original_positions)
    }

    /// Every frame of the new code at its offset: the original ones, those
    /// added by the rewrite, and those that widened conditional branches
    /// need after their `goto_w`. `None` for versions without frames.
    fn final_frames(
        &self,
        insns: &[Insn],
        layout: &Layout,
        pool: &impl ConstantLookup,
    ) -> Result<Option<Vec<(u16, Frame)>>> {
        let Some(frames) = &self.frames else {
            return Ok(None);
        };
        let by_label: HashMap<Label, &Frame> = frames.iter().map(|(label, frame)| (*label, frame)).collect();
        // Frames the widened conditionals need after their goto_w. Where an
        // explicit frame already stands at that offset (the next instruction
        // is also a branch target), the explicit one wins: it is the merge of
        // every path, while the simulated one knows only the fall-through.
        let mut simulated = Vec::new();
        if layout.widened_conditionals.iter().any(|&w| w) {
            let mut state: Option<Frame> = Some(self.initial_frame.clone());
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
        let mut placed: Vec<(u16, Frame)> = frames
            .iter()
            .cloned()
            .chain(simulated)
            .filter(|(label, _)| layout.is_placed(*label))
            .map(|(label, frame)| (layout.offset(label) as u16, frame))
            // A frame at the very end of the code would describe no instruction.
            .filter(|(pc, _)| u32::from(*pc) < layout.code_length)
            .collect();
        // Stable: at equal offsets the first (explicit) frame is kept.
        placed.sort_by_key(|(pc, _)| *pc);
        placed.dedup_by_key(|(pc, _)| *pc);
        Ok(Some(placed))
    }
}

fn check_ranges(
    decoded: &crate::insn::Decoded,
    ranges: impl Iterator<Item = (u16, u16)>,
    item: &'static str,
) -> Result<()> {
    for (start, length) in ranges {
        let end = u32::from(start) + u32::from(length);
        for pc in [u32::from(start), end] {
            if !decoded.is_boundary(pc) {
                return Err(BytecodeError::BadPc { item, pc });
            }
        }
    }
    Ok(())
}

fn remap_range(start: u16, length: u16, original: &impl Fn(u16) -> u16) -> (u16, u16) {
    let end = start + length;
    let new_start = original(start);
    (new_start, original(end) - new_start)
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

fn remap_type_annotation_target(target: &mut TargetInfo, original: &impl Fn(u16) -> u16) {
    match target {
        TargetInfo::Localvar { table, .. } => {
            for entry in table {
                (entry.start_pc, entry.length) = remap_range(entry.start_pc, entry.length, original);
            }
        }
        TargetInfo::Offset { offset, .. } | TargetInfo::TypeArgument { offset, .. } => {
            *offset = original(*offset)
        }
        _ => {}
    }
}

/// Offsets of every label and the form of every branch, once stable.
struct Layout {
    /// Offset of each label, `u32::MAX` where the label is not placed.
    label_offsets: Vec<u32>,
    /// Offset of each instruction position.
    offsets: Vec<u32>,
    /// Per instruction position: whether its branch uses the wide form.
    wide: Vec<bool>,
    /// Per instruction position: whether it is a conditional branch
    /// rewritten as `if<!cond> skip; goto_w target`.
    widened_conditionals: Vec<bool>,
    /// For each widened conditional, the label of the instruction after it.
    skip_labels: HashMap<usize, Label>,
    code_length: u32,
}

impl Layout {
    fn compute(insns: &[Insn], label_count: u32) -> Result<Layout> {
        let mut wide = vec![false; insns.len()];
        loop {
            let (label_offsets, offsets, code_length) = Self::place(insns, &wide, label_count);
            if code_length > jp_classfile::attributes::MAX_CODE_LENGTH as u32 {
                return Err(BytecodeError::CodeTooLarge {
                    length: code_length as usize,
                });
            }
            let mut changed = false;
            for (position, insn) in insns.iter().enumerate() {
                if let Insn::Branch { target, .. } = insn {
                    let delta = i64::from(label_offsets[target.0 as usize]) - i64::from(offsets[position]);
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
                let mut skip_labels = HashMap::new();
                for (position, _) in widened_conditionals.iter().enumerate().filter(|(_, &w)| w) {
                    // The skip target is the offset right after the goto_w.
                    let label = Label(label_offsets.len() as u32);
                    label_offsets.push(offsets[position] + 8);
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
    fn place(insns: &[Insn], wide: &[bool], label_count: u32) -> (Vec<u32>, Vec<u32>, u32) {
        let mut label_offsets = vec![u32::MAX; label_count as usize];
        let mut offsets = Vec::with_capacity(insns.len());
        let mut offset = 0u32;
        for (position, insn) in insns.iter().enumerate() {
            offsets.push(offset);
            if let Insn::Label(label) = insn {
                label_offsets[label.0 as usize] = offset;
            }
            offset += size(insn, offset, wide[position]);
        }
        (label_offsets, offsets, offset)
    }

    fn offset(&self, label: Label) -> u32 {
        self.label_offsets[label.0 as usize]
    }

    fn is_placed(&self, label: Label) -> bool {
        self.label_offsets
            .get(label.0 as usize)
            .is_some_and(|&o| o != u32::MAX)
    }

    fn encode(&self, insns: &[Insn]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.code_length as usize);
        for (position, insn) in insns.iter().enumerate() {
            let at = out.len() as u32;
            let relative = |label: &Label| self.offset(*label) as i32 - at as i32;
            match insn {
                Insn::Label(_) => {}
                Insn::Plain(opcode) => out.push(*opcode),
                Insn::Local { opcode, index } => encode_local(&mut out, *opcode, *index),
                Insn::Iinc { index, delta } => {
                    if let (Ok(index), Ok(delta)) = (u8::try_from(*index), i8::try_from(*delta)) {
                        out.extend_from_slice(&[op::IINC, index, delta as u8]);
                    } else {
                        out.extend_from_slice(&[op::WIDE, op::IINC]);
                        out.put_u2(*index);
                        out.put_u2(*delta as u16);
                    }
                }
                Insn::Bipush(value) => out.extend_from_slice(&[op::BIPUSH, *value as u8]),
                Insn::Sipush(value) => {
                    out.push(op::SIPUSH);
                    out.put_u2(*value as u16);
                }
                Insn::Ldc { index, category2 } => {
                    if *category2 {
                        out.push(op::LDC2_W);
                        out.put_u2(index.0);
                    } else if let Ok(small) = u8::try_from(index.0) {
                        out.extend_from_slice(&[op::LDC, small]);
                    } else {
                        out.push(op::LDC_W);
                        out.put_u2(index.0);
                    }
                }
                Insn::Ref { opcode, index } => {
                    out.push(*opcode);
                    out.put_u2(index.0);
                }
                Insn::InvokeInterface { index, count } => {
                    out.push(op::INVOKEINTERFACE);
                    out.put_u2(index.0);
                    out.extend_from_slice(&[*count, 0]);
                }
                Insn::InvokeDynamic { index } => {
                    out.push(op::INVOKEDYNAMIC);
                    out.put_u2(index.0);
                    out.put_u2(0);
                }
                Insn::NewArray(atype) => out.extend_from_slice(&[op::NEWARRAY, *atype]),
                Insn::MultiANewArray { index, dimensions } => {
                    out.push(op::MULTIANEWARRAY);
                    out.put_u2(index.0);
                    out.push(*dimensions);
                }
                Insn::Branch { opcode, target } => {
                    if !self.wide[position] {
                        out.push(*opcode);
                        out.put_u2(relative(target) as i16 as u16);
                    } else if let Some(negated) = op::negate_condition(*opcode) {
                        out.push(negated);
                        out.put_u2(8);
                        out.push(op::GOTO_W);
                        out.put_u4((self.offset(*target) as i32 - (at as i32 + 3)) as u32);
                    } else {
                        out.push(if *opcode == op::JSR { op::JSR_W } else { op::GOTO_W });
                        out.put_u4(relative(target) as u32);
                    }
                }
                Insn::TableSwitch {
                    default,
                    low,
                    targets,
                } => {
                    out.push(op::TABLESWITCH);
                    pad(&mut out);
                    out.put_u4(relative(default) as u32);
                    out.put_u4(*low as u32);
                    out.put_u4((*low as i64 + targets.len() as i64 - 1) as i32 as u32);
                    for target in targets {
                        out.put_u4(relative(target) as u32);
                    }
                }
                Insn::LookupSwitch { default, pairs } => {
                    out.push(op::LOOKUPSWITCH);
                    pad(&mut out);
                    out.put_u4(relative(default) as u32);
                    out.put_u4(pairs.len() as u32);
                    for (key, target) in pairs {
                        out.put_u4(*key as u32);
                        out.put_u4(relative(target) as u32);
                    }
                }
            }
        }
        out
    }
}

fn pad(out: &mut Vec<u8>) {
    while out.len() % 4 != 0 {
        out.push(0);
    }
}

fn encode_local(out: &mut Vec<u8>, opcode: u8, index: u16) {
    let short_base = match opcode {
        op::ILOAD..=op::ALOAD => Some(op::ILOAD_0 + (opcode - op::ILOAD) * 4),
        op::ISTORE..=op::ASTORE => Some(op::ISTORE_0 + (opcode - op::ISTORE) * 4),
        _ => None,
    };
    match (short_base, u8::try_from(index)) {
        (Some(base), Ok(small)) if small <= 3 => out.push(base + small),
        (_, Ok(small)) => out.extend_from_slice(&[opcode, small]),
        (_, Err(_)) => {
            out.extend_from_slice(&[op::WIDE, opcode]);
            out.put_u2(index);
        }
    }
}

/// Encoded size of `insn` at `offset`.
fn size(insn: &Insn, offset: u32, wide: bool) -> u32 {
    let padding = |offset: u32| (4 - (offset + 1) % 4) % 4;
    match insn {
        Insn::Label(_) => 0,
        Insn::Plain(_) => 1,
        Insn::Local { opcode, index } => match *index {
            0..=3 if *opcode != op::RET => 1,
            0..=255 => 2,
            _ => 4,
        },
        Insn::Iinc { index, delta } => {
            if *index <= 255 && i8::try_from(*delta).is_ok() {
                3
            } else {
                6
            }
        }
        Insn::Bipush(_) | Insn::NewArray(_) => 2,
        Insn::Sipush(_) | Insn::Ref { .. } => 3,
        Insn::Ldc { index, category2 } => {
            if !category2 && index.0 <= 255 {
                2
            } else {
                3
            }
        }
        Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. } => 5,
        Insn::MultiANewArray { .. } => 4,
        Insn::Branch { opcode, .. } => match (wide, op::negate_condition(*opcode).is_some()) {
            (false, _) => 3,
            (true, false) => 5,
            (true, true) => 8,
        },
        Insn::TableSwitch { targets, .. } => 1 + padding(offset) + 12 + 4 * targets.len() as u32,
        Insn::LookupSwitch { pairs, .. } => 1 + padding(offset) + 8 + 8 * pairs.len() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::insn::decode;

    /// `class T { static int m(int) }` with the given code and frames,
    /// assembled by hand.
    fn class_with_method(code: &[u8], max_stack: u16, max_locals: u16, frames: Option<&[u8]>) -> Vec<u8> {
        let mut out = Vec::new();
        out.put_u4(0xCAFE_BABE);
        out.put_u2(0);
        out.put_u2(52);
        let strings = ["T", "java/lang/Object", "m", "(I)I", "Code", "StackMapTable"];
        out.put_u2(1 + strings.len() as u16 + 2);
        for s in strings {
            out.put_u1(1);
            out.put_u2(s.len() as u16);
            out.put_bytes(s.as_bytes());
        }
        out.put_bytes(&[7, 0, 1, 7, 0, 2]); // #7 Class T, #8 Class Object
        out.put_u2(0x0021);
        out.put_u2(7);
        out.put_u2(8);
        out.put_u2(0);
        out.put_u2(0);
        out.put_u2(1);
        out.put_u2(0x0008); // static
        out.put_u2(3);
        out.put_u2(4);
        out.put_u2(1);
        let mut info = Vec::new();
        info.put_u2(max_stack);
        info.put_u2(max_locals);
        info.put_u4(code.len() as u32);
        info.put_bytes(code);
        info.put_u2(0);
        match frames {
            Some(table) => {
                info.put_u2(1);
                jp_classfile::encode_attribute(&mut info, CpIndex(6), table);
            }
            None => info.put_u2(0),
        }
        jp_classfile::encode_attribute(&mut out, CpIndex(5), &info);
        out.put_u2(0);
        out
    }

    /// `while (x > 0) x--; return x;` with its two frames.
    const LOOP: &[u8] = &[
        0x1a, // 0: iload_0
        0x9e, 0, 9, // 1: ifle 10
        0x84, 0, 0xff, // 4: iinc 0, -1
        0xa7, 0xff, 0xf9, // 7: goto 0
        0x1a, // 10: iload_0
        0xac, // 11: ireturn
    ];
    const LOOP_FRAMES: &[u8] = &[0, 2, 0, 9];

    fn with_body<T>(bytes: &[u8], f: impl FnOnce(&ClassFile<'_>, MethodBody<'_>) -> T) -> T {
        let class = ClassFile::parse(bytes).unwrap();
        let method = &class.methods[0];
        let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool).unwrap();
        let body = MethodBody::open(&class, method, &code).unwrap();
        f(&class, body)
    }

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
            body.insert_before(4, vec![Insn::Plain(op::NOP); 40_000]).unwrap();
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
            let pcs: Vec<u32> = expanded.iter().map(|(pc, _)| *pc).collect();
            assert_eq!(pcs, [0, 9, exit]);
            assert!(expanded
                .iter()
                .all(|(_, f)| f.locals == [VType::Integer] && f.stack.is_empty()));
        });
    }

    #[test]
    fn a_new_parameter_shifts_locals_and_joins_every_frame() {
        let bytes = class_with_method(LOOP, 1, 1, Some(LOOP_FRAMES));
        with_body(&bytes, |class, mut body| {
            body.add_parameter(0, VType::Long).unwrap();
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
            body.insert_before(4, vec![Insn::Plain(op::NOP); 70_000]).unwrap();
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
            body.insert_before(0, vec![Insn::Plain(op::NOP), Insn::Plain(op::NOP)])
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
                pc: 2
            }
        );
    }
}
