//! Basic-block analysis: which original pcs start a block.
//!
//! Two variants, chosen by the configuration:
//! - [`Analysis::Default`]: blocks end only at jumps, switches, returns,
//!   `athrow`, `jsr` and `ret`. Counting per block may overcount when an
//!   exception leaves a block early.
//! - [`Analysis::Precise`]: blocks also end after every instruction that
//!   can throw, so a block's instructions either all run or none does.

use std::collections::BTreeSet;

use jp_bytecode::body::MethodBody;
use jp_bytecode::opcode as op;
use jp_bytecode::{Insn, Pc};

/// Which basic-block analysis to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Analysis {
    /// Blocks end at control transfers only.
    #[default]
    Default,
    /// Blocks also end after instructions that can throw.
    Precise,
}

/// One basic block: its first pc and how many original instructions it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The pc of its first instruction.
    pub start: Pc,
    /// How many instructions it holds.
    pub instructions: u32,
}

/// The blocks of `body`, in pc order.
pub fn blocks(body: &MethodBody<'_>, analysis: Analysis) -> Vec<Block> {
    let mut leaders = BTreeSet::new();
    leaders.insert(Pc(0));
    leaders.extend(body.handlers().iter().filter_map(|h| body.pc_of(h.handler)));
    let mut ends_block = false;
    for (pc, insn) in body.instructions() {
        if ends_block {
            leaders.insert(pc);
        }
        leaders.extend(insn.targets().filter_map(|l| body.pc_of(l)));
        ends_block =
            insn.has_targets() || insn.ends_flow() || (analysis == Analysis::Precise && can_throw(insn));
    }
    let mut blocks: Vec<Block> = Vec::with_capacity(leaders.len());
    let mut current: Option<Block> = None;
    for (pc, _) in body.instructions() {
        if leaders.contains(&pc) {
            blocks.extend(current.take());
            current = Some(Block {
                start: pc,
                instructions: 0,
            });
        }
        if let Some(block) = current.as_mut() {
            block.instructions += 1;
        }
    }
    blocks.extend(current);
    blocks
}

/// Pcs that a branch or switch reaches from at or after them: loop
/// headers, in pc order. Every cycle made of branches passes one.
pub fn loop_headers(body: &MethodBody<'_>) -> Vec<Pc> {
    let mut headers = BTreeSet::new();
    for (pc, insn) in body.instructions() {
        headers.extend(
            insn.targets()
                .filter_map(|l| body.pc_of(l))
                .filter(|&target| target <= pc),
        );
    }
    headers.into_iter().collect()
}

/// Whether an instruction may complete abruptly with an exception (JVMS
/// §6.5 lists the run-time exceptions of each; linking errors can come
/// from any instruction that resolves a constant).
pub fn can_throw(insn: &Insn) -> bool {
    let Some(opcode) = insn.opcode() else {
        return false;
    };
    match insn {
        Insn::Ref { .. }
        | Insn::InvokeInterface { .. }
        | Insn::InvokeDynamic { .. }
        | Insn::MultiANewArray { .. } => true,
        Insn::Ldc { .. } => true,
        Insn::NewArray(_) => true,
        Insn::Plain(_) => matches!(
            opcode,
            op::IALOAD..=op::SALOAD
                | op::IASTORE..=op::SASTORE
                | op::IDIV
                | op::LDIV
                | op::IREM
                | op::LREM
                | op::ARRAYLENGTH
                | op::ATHROW
                | op::MONITORENTER
                | op::MONITOREXIT
                | op::IRETURN..=op::RETURN
        ),
        _ => false,
    }
}
