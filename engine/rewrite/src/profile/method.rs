//! The rewrite of one method body: entry, counters, polls, exits and the
//! catch-all handlers (see the parent module for the overall shape).

use std::collections::BTreeSet;

use jp_bytecode::body::{Handler, MethodBody};
use jp_bytecode::frame::{from_slots, to_slots};
use jp_bytecode::opcode as op;
use jp_bytecode::simulate::StackEffects;
use jp_bytecode::{Frame, Insn, Label, Pc, Slot, VType};
use jp_classfile::attributes::Code;
use jp_classfile::{tag, ClassFile, ClassFileError, Constant, ConstantLookup, CpIndex, PoolBuilder};

use super::ids::MethodIds;
use super::probes::{self, ProbeRefs};
use super::{add_member_ref, allocations, sites, Kind, ProfileOptions};
use crate::blocks::{blocks, loop_headers, Analysis};
use crate::lines::{line_blocks, LineBlock, Lines};
use crate::probe::Probe;
use crate::{injected, WarningReason};

/// The constant-pool entries of the runtime that inserted code refers to.
pub(super) struct Refs {
    rc_current: CpIndex,
    rc_enter: CpIndex,
    rc_leaf: CpIndex,
    rc_enter_root: CpIndex,
    rc_exit: CpIndex,
    rc_restore: CpIndex,
    rc_poll: CpIndex,
    rc_top: CpIndex,
    ic_count: CpIndex,
    /// `IC.line`, with per-line counts on.
    ic_line: Option<CpIndex>,
    /// `IC.site`, with call sites on.
    ic_site: Option<CpIndex>,
    /// `IC.metric`, with allocation counts on.
    ic_alloc: Option<CpIndex>,
    /// The probes, when there are any.
    probes: Option<ProbeRefs>,
}

impl Refs {
    pub(super) fn add(
        (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
        options: &ProfileOptions,
    ) -> jp_classfile::Result<Refs> {
        let mut method = |class: &str, (name, descriptor): (&str, &str)| {
            add_member_ref(
                (&mut *pool, &mut *effects),
                tag::METHODREF,
                class.as_bytes(),
                (name.as_bytes(), descriptor.as_bytes()),
            )
        };
        let rc = injected::RC_CLASS;
        // With call sites, the same entries in the same places, keyed by site.
        let (enter, leaf) = if options.call_sites {
            (injected::RC_ENTER_AT, injected::RC_LEAF_AT)
        } else {
            (injected::RC_ENTER, injected::RC_LEAF)
        };
        let refs = Refs {
            rc_current: method(rc, injected::RC_CURRENT)?,
            rc_enter: method(rc, enter)?,
            rc_leaf: method(rc, leaf)?,
            rc_enter_root: method(rc, injected::RC_ENTER_ROOT)?,
            rc_exit: method(rc, injected::RC_EXIT)?,
            rc_restore: method(rc, injected::RC_RESTORE)?,
            rc_poll: method(rc, injected::RC_POLL)?,
            ic_count: method(injected::IC_CLASS, injected::IC_COUNT)?,
            // Only with lines on: without, the class's bytes stay what they were.
            ic_line: if options.lines {
                Some(method(injected::IC_CLASS, injected::IC_LINE)?)
            } else {
                None
            },
            ic_site: if options.call_sites {
                Some(method(injected::IC_CLASS, injected::IC_SITE)?)
            } else {
                None
            },
            ic_alloc: if options.allocations {
                Some(method(injected::IC_CLASS, injected::IC_METRIC)?)
            } else {
                None
            },
            probes: if options.probes.is_empty() {
                None
            } else {
                Some(ProbeRefs {
                    probes: options.probes.clone(),
                    ic_metric: method(injected::IC_CLASS, injected::IC_METRIC)?,
                    ic_probe: method(injected::IC_CLASS, injected::IC_PROBE)?,
                })
            },
            rc_top: CpIndex(0),
        };
        let (top_name, top_descriptor) = injected::RC_TOP;
        Ok(Refs {
            rc_top: add_member_ref(
                (pool, effects),
                tag::FIELDREF,
                rc.as_bytes(),
                (top_name.as_bytes(), top_descriptor.as_bytes()),
            )?,
            ..refs
        })
    }
}

/// One method to rewrite and where it sits.
pub(super) struct Site<'c, 'a> {
    pub(super) class: &'c ClassFile<'a>,
    pub(super) code: &'c Code<'a>,
    /// Its index among the class's profiled methods.
    pub(super) index: usize,
    pub(super) kind: Kind,
}

/// The rewritten `Code` attribute's contents, from the method's opened `body`.
pub(super) fn rewrite_method(
    mut body: MethodBody<'_>,
    site: &Site<'_, '_>,
    ids: &MethodIds,
    refs: &Refs,
    analysis: Analysis,
    (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
) -> Result<Vec<u8>, WarningReason> {
    let code_length = Pc(site.code.code.len() as u32);
    let blocks = if site.kind == Kind::NativeWrapper {
        Vec::new() // a native's context counts no bytecodes
    } else {
        counted_units(&body, site, refs, analysis)?
    };
    let headers = loop_headers(&body);
    let handler_starts: BTreeSet<Pc> = body
        .handlers()
        .iter()
        .filter_map(|h| body.pc_of(h.handler))
        .collect();
    let returns = returns(&body);
    let probe_sites = match &refs.probes {
        // A native's wrapper has no instruction of the program's.
        Some(probes) if site.kind != Kind::NativeWrapper => probes::probe_sites(&body, &probes.probes, pool)?,
        _ => Vec::new(),
    };
    let leaf = site.kind == Kind::Method
        && headers.is_empty()
        && !probes::calls_handler(&probe_sites)
        && is_leaf(&body, pool);
    let uninitialized = if site.kind == Kind::Constructor && body.has_frames() {
        uninitialized_this(&body, pool)?
    } else {
        Vec::new()
    };

    let rc_type = rc_type();
    let ic_type = ic_type();
    let aload = |index| Insn::Local {
        opcode: op::ALOAD,
        index,
    };
    let astore = |index| Insn::Local {
        opcode: op::ASTORE,
        index,
    };
    let invoke = |opcode, index| Insn::Ref { opcode, index };
    if leaf {
        return rewrite_leaf(body, site, ids, refs, (&blocks, &probe_sites), (pool, effects));
    }
    // Every pc that guarded code is inserted at below.
    let mut guarded: Vec<Pc> = handler_starts
        .iter()
        .chain(&headers)
        .chain(&returns)
        .copied()
        .collect();
    guarded.extend(
        uninitialized
            .iter()
            .filter(|(_, state)| state.is_none())
            .map(|&(pc, _)| pc),
    );
    if refs.ic_line.is_some() {
        guarded.extend(blocks.iter().map(|unit| unit.block.start));
    }
    if refs.ic_site.is_some() {
        guarded.extend(sites::invokes(&body).map(|(pc, _)| pc));
    }
    if refs.ic_alloc.is_some() {
        guarded.extend(allocations::allocation_pcs(&body));
    }
    guarded.extend(probe_sites.iter().map(|(pc, _, _)| *pc));
    guarded.sort_unstable();
    guarded.dedup();
    let frames = Frames::at(&body, &guarded, pool)?;
    let rc = body.add_local(1)?;
    let ic = body.add_local(1)?;
    // The bytecodes counted since the last flush into `ic`: a register
    // while the method runs, added to the context at every exit and loop
    // header.
    let n = body.add_local(1)?;
    body.declare_local_in_frames(rc, &rc_type);
    body.declare_local_in_frames(ic, &ic_type);
    body.declare_local_in_frames(n, &VType::Integer);
    let saved = if site.kind == Kind::ClassInitializer {
        let saved = body.add_local(1)?;
        body.declare_local_in_frames(saved, &ic_type);
        Some(saved)
    } else {
        None
    };

    // `ic = source != null ? rc.enter(mid) : null`, with `rc` (and a static
    // initializer's saved `top`) set alike; see `no_runtime`.
    let initial = body.initial_frame().locals.clone();
    let mut entry = if site.kind == Kind::ClassInitializer {
        ids.initializer_prologue(&mut body, &initial)?
    } else {
        Vec::new()
    };
    entry.extend(ids.push_source(
        site.index,
        site.kind == Kind::ClassInitializer,
        &mut body,
        &initial,
    )?);
    let (none, entered) = (body.new_label(), body.new_label());
    let mut set = vec![(rc, rc_type.clone())];
    set.extend(saved.map(|saved| (saved, ic_type.clone())));
    body.add_frame(
        none,
        Frame {
            locals: initial.clone(),
            stack: vec![ids.source_type()],
        },
    )?;
    body.add_frame(
        entered,
        Frame {
            locals: locals_with(&initial, &set),
            stack: vec![ic_type.clone()],
        },
    )?;
    entry.extend([
        Insn::Plain(op::DUP),
        Insn::Branch {
            opcode: op::IFNULL,
            target: none,
        },
    ]);
    entry.extend(ids.resolve(site.index, pool)?);
    entry.extend([
        invoke(op::INVOKESTATIC, refs.rc_current),
        Insn::Plain(op::DUP),
        astore(rc),
    ]);
    let enter = match saved {
        Some(saved) => {
            entry.extend([
                Insn::Plain(op::DUP),
                invoke(op::GETFIELD, refs.rc_top),
                astore(saved),
            ]);
            refs.rc_enter_root
        }
        None => refs.rc_enter,
    };
    entry.extend([
        Insn::Plain(op::SWAP),
        invoke(op::INVOKEVIRTUAL, enter),
        Insn::Branch {
            opcode: op::GOTO,
            target: entered,
        },
        Insn::Label(none),
        Insn::Plain(op::POP),
    ]);
    for &(slot, _) in &set {
        entry.extend([Insn::Plain(op::ACONST_NULL), astore(slot)]);
    }
    entry.extend([
        Insn::Plain(op::ACONST_NULL),
        Insn::Label(entered),
        astore(ic),
        Insn::Plain(op::ICONST_0),
        Insn::Local {
            opcode: op::ISTORE,
            index: n,
        },
    ]);
    body.insert_at_entry(entry);

    let mut declared = vec![(rc, rc_type.clone()), (ic, ic_type.clone()), (n, VType::Integer)];
    declared.extend(saved.map(|saved| (saved, ic_type.clone())));
    let guard = Guard {
        ic,
        frames: &frames,
        declared: &declared,
    };
    for unit in &blocks {
        let mut code = add_to_local(n, unit.block.instructions);
        let line = count_line(ic, unit, refs, pool)?;
        if !line.is_empty() {
            code.extend(guard.at(&mut body, unit.block.start, line)?);
        }
        body.insert_before(unit.block.start, code)?;
    }
    if let Some(ic_site) = refs.ic_site {
        sites::store_before_invokes(&mut body, site, &guard, ic_site, pool)?;
    }
    if let Some(ic_alloc) = refs.ic_alloc {
        allocations::count_before_allocations(&mut body, &guard, ic_alloc, pool)?;
    }
    if let Some(probes) = &refs.probes {
        probes::insert_probes(
            &mut body,
            &guard,
            &probe_sites,
            probes,
            site.class.major_version,
            pool,
        )?;
    }
    for &start in &handler_starts {
        let restore = vec![aload(rc), aload(ic), invoke(op::INVOKEVIRTUAL, refs.rc_restore)];
        let code = guard.at(&mut body, start, restore)?;
        body.insert_before(start, code)?;
    }
    let iload_n = Insn::Local {
        opcode: op::ILOAD,
        index: n,
    };
    // Zeroed once flushed, so that a flush that runs twice (a return that
    // throws, then the catch-all) adds nothing the second time.
    let zero_n = [
        Insn::Plain(op::ICONST_0),
        Insn::Local {
            opcode: op::ISTORE,
            index: n,
        },
    ];
    // `ic.count(n); n = 0`
    let mut flush = vec![
        aload(ic),
        iload_n.clone(),
        invoke(op::INVOKEVIRTUAL, refs.ic_count),
    ];
    flush.extend(zero_n.clone());
    // No handler can cover the `super(...)`/`this(...)` call (see
    // `uninitialized_this`), so the bytecodes counted before it are flushed
    // into the context first: a superclass constructor that throws loses
    // none of them.
    for &(pc, _) in uninitialized.iter().filter(|(_, state)| state.is_none()) {
        let code = guard.at(&mut body, pc, flush.clone())?;
        body.insert_before(pc, code)?;
    }
    for &header in &headers {
        let mut poll = vec![
            aload(rc),
            aload(ic),
            iload_n.clone(),
            invoke(op::INVOKEVIRTUAL, refs.rc_poll),
        ];
        poll.extend(zero_n.clone());
        let code = guard.at(&mut body, header, poll)?;
        body.insert_before(header, code)?;
    }
    let exit = match saved {
        Some(saved) => {
            let mut exit = flush;
            exit.extend([
                aload(rc),
                aload(saved),
                invoke(op::INVOKEVIRTUAL, refs.rc_restore),
            ]);
            exit
        }
        None => {
            let mut exit = vec![
                aload(rc),
                aload(ic),
                iload_n.clone(),
                invoke(op::INVOKEVIRTUAL, refs.rc_exit),
            ];
            exit.extend(zero_n);
            exit
        }
    };
    for &pc in &returns {
        let code = guard.at(&mut body, pc, exit.clone())?;
        body.insert_before(pc, code)?;
    }

    // The catch-all handlers, one per run of instructions with the same
    // state of `this`, appended after the original code.
    let mut locals = vec![VType::Top; usize::from(rc.0)];
    locals.extend([rc_type, ic_type.clone(), VType::Integer]);
    if saved.is_some() {
        locals.push(ic_type);
    }
    let handler_for = |this_uninitialized: bool, body: &mut MethodBody<'_>| -> Result<Label, WarningReason> {
        let label = body.new_label();
        let mut slots = locals.clone();
        if this_uninitialized {
            slots[0] = VType::UninitializedThis;
        }
        let frame = Frame {
            locals: from_slots(&slots),
            stack: vec![VType::Object(b"java/lang/Throwable".as_slice().into())],
        };
        body.add_frame(label, frame.clone())?;
        let mut code = vec![Insn::Label(label)];
        code.extend(guard.with_frame(body, frame, exit.clone())?);
        code.push(Insn::Plain(op::ATHROW));
        body.append(code, 1);
        Ok(label)
    };
    let mut labels: [Option<Label>; 2] = [None, None];
    for (start, end, this_uninitialized) in handler_ranges(&uninitialized, code_length) {
        let slot = usize::from(this_uninitialized);
        let handler = match labels[slot] {
            Some(label) => label,
            None => *labels[slot].insert(handler_for(this_uninitialized, &mut body)?),
        };
        body.add_handler(Handler {
            start: body.label_at(start)?,
            end: body.label_at(end)?,
            handler,
            catch_type: CpIndex(0),
        })?;
    }
    Ok(body.encode_with(pool, effects)?)
}

fn rc_type() -> VType {
    VType::Object(injected::RC_CLASS.as_bytes().into())
}

fn ic_type() -> VType {
    VType::Object(injected::IC_CLASS.as_bytes().into())
}

/// The type state before the original instructions that guarded code is
/// inserted at, for the frames of the guards; empty in versions without
/// frames.
struct Frames(Vec<(Pc, Frame)>);

impl Frames {
    /// The frames before the instructions at `pcs`, in increasing order.
    fn at(body: &MethodBody<'_>, pcs: &[Pc], pool: &PoolBuilder<'_>) -> Result<Frames, WarningReason> {
        if !body.has_frames() {
            return Ok(Frames(Vec::new()));
        }
        Ok(Frames(
            body.frames_before(pcs, pool)?
                .into_iter()
                .filter_map(|(pc, frame)| frame.map(|frame| (pc, frame)))
                .collect(),
        ))
    }

    fn get(&self, pc: Pc) -> Option<&Frame> {
        let i = self.0.binary_search_by_key(&pc, |(at, _)| *at).ok()?;
        Some(&self.0[i].1)
    }
}

/// `if (ic != null) { ... }` around the runtime calls after the entry:
/// where the runtime could not be reached, the method has no context, and
/// runs as the original. Every local keeps the type of the runtime's
/// parameter it is passed to, so the verifier never loads a runtime class
/// to compare two types.
pub(super) struct Guard<'g> {
    ic: Slot,
    frames: &'g Frames,
    /// The locals the entry code sets, declared in every frame.
    declared: &'g [(Slot, VType)],
}

/// `ldc` of the string constant whose text is `mutf8` (modified UTF-8).
pub(super) fn ldc_string(mutf8: &[u8], pool: &mut PoolBuilder<'_>) -> Result<Insn, WarningReason> {
    let text = pool.add(Constant::Utf8(mutf8))?;
    Ok(Insn::Ldc {
        index: pool.add(Constant::String { string: text })?,
        category2: false,
    })
}

impl Guard<'_> {
    /// The local that holds the context.
    pub(super) fn ic(&self) -> Slot {
        self.ic
    }

    /// `code` guarded, to insert before the original instruction at `pc`.
    pub(super) fn at(
        &self,
        body: &mut MethodBody<'_>,
        pc: Pc,
        code: Vec<Insn>,
    ) -> Result<Vec<Insn>, WarningReason> {
        let frame = match self.frames.get(pc) {
            Some(frame) => Frame {
                locals: locals_with(&frame.locals, self.declared),
                stack: frame.stack.clone(),
            },
            None if !body.has_frames() => Frame {
                locals: locals_with(&[], self.declared),
                stack: Vec::new(),
            },
            None => {
                return Err(WarningReason::Unsupported {
                    what: format!("code that no stack map frame describes at pc {pc}"),
                })
            }
        };
        self.with_frame(body, frame, code)
    }

    /// `IC.metric(name)` on the guarded context: one more in the exact
    /// metric `name` (modified UTF-8), a string constant of the class.
    /// Allocation counts and counting probes both add to a metric this way.
    pub(super) fn count_metric(
        &self,
        name: &[u8],
        ic_metric: CpIndex,
        pool: &mut PoolBuilder<'_>,
    ) -> Result<Vec<Insn>, WarningReason> {
        Ok(vec![
            Insn::Local {
                opcode: op::ALOAD,
                index: self.ic,
            },
            ldc_string(name, pool)?,
            Insn::Ref {
                opcode: op::INVOKEVIRTUAL,
                index: ic_metric,
            },
        ])
    }

    /// Inserts each `(pc, code)` guarded before the original instruction at
    /// `pc`: the runtime calls that count at chosen instructions (call
    /// sites, allocations, probes) all take this shape.
    pub(super) fn insert_before_each(
        &self,
        body: &mut MethodBody<'_>,
        calls: Vec<(Pc, Vec<Insn>)>,
    ) -> Result<(), WarningReason> {
        for (pc, code) in calls {
            let guarded = self.at(body, pc, code)?;
            body.insert_before(pc, guarded)?;
        }
        Ok(())
    }

    /// `code` guarded, where the state is `frame` (the entry code's locals declared).
    fn with_frame(
        &self,
        body: &mut MethodBody<'_>,
        frame: Frame,
        code: Vec<Insn>,
    ) -> Result<Vec<Insn>, WarningReason> {
        let skip = body.new_label();
        body.add_frame(skip, frame)?;
        let mut guarded = vec![
            Insn::Local {
                opcode: op::ALOAD,
                index: self.ic,
            },
            Insn::Branch {
                opcode: op::IFNULL,
                target: skip,
            },
        ];
        guarded.extend(code);
        guarded.push(Insn::Label(skip));
        Ok(guarded)
    }
}

/// `locals` with `set` (slot and type) stored, as a frame's
/// compressed list.
fn locals_with(locals: &[VType], set: &[(Slot, VType)]) -> Vec<VType> {
    let mut slots = to_slots(locals);
    for (slot, vtype) in set {
        let at = usize::from(slot.0);
        slots.resize(slots.len().max(at + 1), VType::Top);
        slots[at] = vtype.clone();
    }
    from_slots(&slots)
}

/// The blocks to count: with per-line counts on, cut where the line
/// changes, each with its line.
fn counted_units(
    body: &MethodBody<'_>,
    site: &Site<'_, '_>,
    refs: &Refs,
    analysis: Analysis,
) -> Result<Vec<LineBlock>, WarningReason> {
    let blocks = blocks(body, analysis);
    if refs.ic_line.is_none() {
        return Ok(blocks
            .into_iter()
            .map(|block| LineBlock { block, line: None })
            .collect());
    }
    let lines = Lines::of(site.code, &site.class.constant_pool)?;
    Ok(line_blocks(
        body.instructions().map(|(pc, _)| pc),
        &blocks,
        &lines,
    ))
}

/// `ic.line(line, size)` for a unit on a line, with lines on; nothing otherwise.
fn count_line(
    ic: Slot,
    unit: &LineBlock,
    refs: &Refs,
    pool: &mut PoolBuilder<'_>,
) -> Result<Vec<Insn>, WarningReason> {
    let (Some(ic_line), Some(line)) = (refs.ic_line, unit.line) else {
        return Ok(Vec::new());
    };
    Ok(vec![
        Insn::Local {
            opcode: op::ALOAD,
            index: ic,
        },
        push_int(u32::from(line), pool)?,
        push_int(unit.block.instructions, pool)?,
        Insn::Ref {
            opcode: op::INVOKEVIRTUAL,
            index: ic_line,
        },
    ])
}

/// `iinc n, count`, split where the count passes an `iinc`'s reach.
fn add_to_local(n: Slot, count: u32) -> Vec<Insn> {
    let mut code = Vec::new();
    let mut left = count;
    while left > 0 {
        let step = left.min(i16::MAX as u32);
        code.push(Insn::Iinc {
            index: n,
            delta: step as i16,
        });
        left -= step;
    }
    code
}

/// Adds each block's size to the context in local `ic` at the block's
/// start (in leaf methods, which have no exit code to flush a local count),
/// and its line's count with lines on; `first_counted` says whether the
/// first block's size was added on entry already.
fn count_blocks(
    body: &mut MethodBody<'_>,
    guard: &Guard<'_>,
    blocks: &[LineBlock],
    first_counted: bool,
    refs: &Refs,
    pool: &mut PoolBuilder<'_>,
) -> Result<(), WarningReason> {
    let ic = guard.ic;
    for (i, unit) in blocks.iter().enumerate() {
        let block = &unit.block;
        let mut count = Vec::new();
        if i > 0 || !first_counted {
            count.extend([
                Insn::Local {
                    opcode: op::ALOAD,
                    index: ic,
                },
                push_int(block.instructions, pool)?,
                Insn::Ref {
                    opcode: op::INVOKEVIRTUAL,
                    index: refs.ic_count,
                },
            ]);
        }
        count.extend(count_line(ic, unit, refs, pool)?);
        if count.is_empty() {
            continue;
        }
        let code = guard.at(body, block.start, count)?;
        body.insert_before(block.start, code)?;
    }
    Ok(())
}

/// A leaf method finds its context and counts its blocks, and that is all:
/// it never becomes the thread's current context, as nothing it does can
/// run other code of the thread, so there is nothing to restore on exit.
/// Its entry counts the first block too, so that a method of one block
/// (most getters and setters) costs one runtime call, in few enough bytes
/// that the JIT still inlines it as it did the original.
fn rewrite_leaf(
    mut body: MethodBody<'_>,
    site: &Site<'_, '_>,
    ids: &MethodIds,
    refs: &Refs,
    (blocks, probe_sites): (&[LineBlock], &[(Pc, Insn, &Probe)]),
    (pool, effects): (&mut PoolBuilder<'_>, &mut StackEffects),
) -> Result<Vec<u8>, WarningReason> {
    // The first block starts at pc 0; counted on entry unless a handler
    // can run it again (no branch can: that would be a loop).
    let first_counted = !body
        .handlers()
        .iter()
        .any(|h| body.pc_of(h.handler) == Some(Pc(0)));
    let first_size = match blocks.first() {
        Some(unit) if first_counted => unit.block.instructions,
        _ => 0,
    };
    let lines_counted = refs.ic_line.is_some() && blocks.iter().any(|unit| unit.line.is_some());
    let allocation_pcs: Vec<Pc> = if refs.ic_alloc.is_some() {
        allocations::allocation_pcs(&body).collect()
    } else {
        Vec::new()
    };
    let allocates = !allocation_pcs.is_empty();
    let needs_ic =
        blocks.len() > 1 || !first_counted || lines_counted || allocates || !probe_sites.is_empty();
    // Declared before the entry is built: the entry's own frames (an
    // interface's lookup handler) come before `ic` is set.
    let ic_and_frames = if needs_ic {
        // The frames where guarded code goes: block starts, allocations and probes.
        let mut starts: Vec<Pc> = blocks.iter().map(|unit| unit.block.start).collect();
        starts.extend(&allocation_pcs);
        starts.extend(probe_sites.iter().map(|(pc, _, _)| *pc));
        starts.sort_unstable();
        starts.dedup();
        let frames = Frames::at(&body, &starts, pool)?;
        let ic = body.add_local(1)?;
        body.declare_local_in_frames(ic, &ic_type());
        Some((ic, frames))
    } else {
        None
    };
    // `ic = source != null ? RC.leaf(mid, first_size) : null`, or without
    // `ic` when nothing else needs it.
    let initial = body.initial_frame().locals.clone();
    let mut entry = ids.push_source(site.index, false, &mut body, &initial)?;
    let (none, entered) = (body.new_label(), body.new_label());
    let frame = |stack| Frame {
        locals: initial.clone(),
        stack,
    };
    entry.extend([
        Insn::Plain(op::DUP),
        Insn::Branch {
            opcode: op::IFNULL,
            target: none,
        },
    ]);
    entry.extend(ids.resolve(site.index, pool)?);
    entry.extend([
        push_int(first_size, pool)?,
        Insn::Ref {
            opcode: op::INVOKESTATIC,
            index: refs.rc_leaf,
        },
    ]);
    let Some((ic, frames)) = ic_and_frames else {
        // Both ways reach `none` with one reference: the context, or the
        // null source. Typed as Object, which loads no runtime class.
        body.add_frame(
            none,
            frame(vec![VType::Object(b"java/lang/Object".as_slice().into())]),
        )?;
        entry.extend([Insn::Label(none), Insn::Plain(op::POP)]);
        body.insert_at_entry(entry);
        return Ok(body.encode_with(pool, effects)?);
    };
    body.add_frame(none, frame(vec![ids.source_type()]))?;
    body.add_frame(entered, frame(vec![ic_type()]))?;
    entry.extend([
        Insn::Branch {
            opcode: op::GOTO,
            target: entered,
        },
        Insn::Label(none),
        Insn::Plain(op::POP),
        Insn::Plain(op::ACONST_NULL),
        Insn::Label(entered),
        Insn::Local {
            opcode: op::ASTORE,
            index: ic,
        },
    ]);
    body.insert_at_entry(entry);
    let declared = [(ic, ic_type())];
    let guard = Guard {
        ic,
        frames: &frames,
        declared: &declared,
    };
    count_blocks(&mut body, &guard, blocks, first_counted, refs, pool)?;
    if let Some(ic_alloc) = refs.ic_alloc {
        allocations::count_before_allocations(&mut body, &guard, ic_alloc, pool)?;
    }
    if let Some(probes) = &refs.probes {
        probes::insert_probes(
            &mut body,
            &guard,
            probe_sites,
            probes,
            site.class.major_version,
            pool,
        )?;
    }
    Ok(body.encode_with(pool, effects)?)
}

/// The pcs of the return instructions.
fn returns(body: &MethodBody<'_>) -> Vec<Pc> {
    body.instructions()
        .filter(|(_, insn)| matches!(insn, Insn::Plain(op::IRETURN..=op::RETURN)))
        .map(|(pc, _)| pc)
        .collect()
}

/// Whether no instruction of the method (which has no loops) can run
/// other code of the thread: no calls, and nothing whose resolution could
/// run a class loader or a bootstrap method (new, type checks, class
/// constants, fields of other classes). Such a method need not become the
/// current context.
fn is_leaf(body: &MethodBody<'_>, pool: &impl ConstantLookup) -> bool {
    let this_class = body.this_class();
    body.instructions().all(|(_, insn)| match insn {
        Insn::Ref {
            opcode: op::GETSTATIC..=op::PUTFIELD,
            index,
        } => pool
            .member_ref(*index)
            .is_ok_and(|(class, _, _)| class == this_class),
        Insn::Ref { .. }
        | Insn::InvokeInterface { .. }
        | Insn::InvokeDynamic { .. }
        | Insn::MultiANewArray { .. } => false,
        Insn::Ldc { index, .. } => matches!(
            pool.constant(*index),
            Some(
                Constant::Integer(_)
                    | Constant::Float(_)
                    | Constant::Long(_)
                    | Constant::Double(_)
                    | Constant::String { .. }
            )
        ),
        _ => true,
    })
}

/// For each original instruction of a constructor, its pc and the state
/// of `this` the catch-all that covers it must declare: `Some(true)` while
/// `this` is uninitialised, `Some(false)` once it is, and `None` for the
/// `super(...)`/`this(...)` call itself, which no handler can cover: HotSpot
/// checks the handlers of that call against both its state before
/// (`uninitializedThis`, flagged) and after (`this` initialised, still
/// flagged), and no frame accepts both. An exception thrown by the
/// superclass constructor therefore leaves `rc.top` at this constructor's
/// context until an instrumented frame handles or passes it on.
///
/// # Errors
/// Code no frame describes, or `this` moved out of local 0 while
/// uninitialised: the handler's frame could not be written.
fn uninitialized_this(
    body: &MethodBody<'_>,
    pool: &PoolBuilder<'_>,
) -> Result<Vec<(Pc, Option<bool>)>, WarningReason> {
    let unsupported = |pc: Pc, what: &str| WarningReason::Unsupported {
        what: format!("{what} at pc {pc} of a constructor"),
    };
    let mut out = Vec::new();
    // Both list every original instruction in pc order.
    for ((pc, insn), (_, frame)) in body.instructions().zip(body.instruction_frames(pool)?) {
        let mut frame = frame.ok_or_else(|| unsupported(pc, "code that no stack map frame describes"))?;
        let before = frame.locals.contains(&VType::UninitializedThis);
        jp_bytecode::simulate::step(insn, body.label_at(pc)?, &mut frame, pool, body.this_class())?;
        let after = frame.locals.contains(&VType::UninitializedThis);
        if after && frame.locals.first() != Some(&VType::UninitializedThis) {
            return Err(unsupported(pc, "an uninitialised `this` outside local 0"));
        }
        out.push((pc, (before == after).then_some(after)));
    }
    Ok(out)
}

/// The catch-all ranges `(start, end, this uninitialised)` covering the
/// original code but the instructions marked `None`: one per run of
/// instructions alike. Without marks, one range covers everything.
fn handler_ranges(uninitialized: &[(Pc, Option<bool>)], code_length: Pc) -> Vec<(Pc, Pc, bool)> {
    if uninitialized.is_empty() {
        return vec![(Pc(0), code_length, false)];
    }
    let mut ranges: Vec<(Pc, Pc, bool)> = Vec::new();
    let mut open: Option<(Pc, bool)> = None;
    for &(pc, state) in uninitialized {
        if open.map(|(_, s)| Some(s)) != Some(state) {
            if let Some((start, s)) = open.take() {
                ranges.push((start, pc, s));
            }
            open = state.map(|s| (pc, s));
        }
    }
    ranges.extend(open.map(|(start, s)| (start, code_length, s)));
    ranges
}

/// The shortest instruction that pushes `value`.
pub(super) fn push_int(value: u32, pool: &mut PoolBuilder<'_>) -> Result<Insn, ClassFileError> {
    Ok(match value {
        0..=5 => Insn::Plain(op::ICONST_0 + value as u8),
        6..=127 => Insn::Bipush(value as i8),
        128..=32767 => Insn::Sipush(value as i16),
        _ => Insn::Ldc {
            index: pool.add(Constant::Integer(value as i32))?,
            category2: false,
        },
    })
}
