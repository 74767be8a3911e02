//! Source lines for per-line counts (docs/profiling.md, "Per-line counts"):
//! which line each pc of a method belongs to, and the basic blocks cut
//! where the line changes, so that every counted block lies within one
//! line and adds its whole size to it.

use jp_bytecode::Pc;
use jp_classfile::attributes::{names, AttributeInfo, Code, LineNumberTable};
use jp_classfile::{ClassFileError, ConstantPool};

use crate::blocks::Block;

/// The lines of a method's pcs, from its `LineNumberTable` (JVMS §4.7.12;
/// several tables of one `Code` read as one, in file order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lines {
    /// `(start pc, line)`, sorted by start pc; entries with the same start
    /// pc keep their file order.
    starts: Vec<(u32, u16)>,
}

impl Lines {
    /// The lines of `code`; none when it has no `LineNumberTable`.
    ///
    /// # Errors
    /// A malformed `LineNumberTable`.
    pub fn of(code: &Code<'_>, pool: &ConstantPool<'_>) -> Result<Lines, ClassFileError> {
        let mut entries = Vec::new();
        for raw in code
            .attributes
            .iter()
            .filter(|a| a.name == names::LINE_NUMBER_TABLE)
        {
            let table = LineNumberTable::from_raw(raw, pool)?;
            entries.extend(
                table
                    .entries
                    .iter()
                    .map(|e| (u32::from(e.start_pc), e.line_number)),
            );
        }
        Ok(Lines::from_entries(entries))
    }

    /// From `(start pc, line)` entries in file order.
    pub fn from_entries(mut entries: Vec<(u32, u16)>) -> Lines {
        // Stable: of entries with the same start pc, the last stays last.
        entries.sort_by_key(|&(pc, _)| pc);
        Lines { starts: entries }
    }

    /// The line of `pc`: that of the entry with the greatest start pc at or
    /// before it, the last such entry if several start there; `None`
    /// before the first entry or without a table.
    pub fn line_at(&self, pc: Pc) -> Option<u16> {
        let after = self.starts.partition_point(|&(start, _)| start <= pc.0);
        after.checked_sub(1).map(|i| self.starts[i].1)
    }
}

/// A counted unit with lines on: a basic block, or the part of one that
/// lies on one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineBlock {
    /// Where it starts and how many instructions it has.
    pub block: Block,
    /// The line of all its instructions; `None` for code on no line.
    pub line: Option<u16>,
}

/// `blocks` cut wherever the line changes. `pcs` are the method's
/// instructions in pc order (those the blocks cover).
pub fn line_blocks(pcs: impl IntoIterator<Item = Pc>, blocks: &[Block], lines: &Lines) -> Vec<LineBlock> {
    let mut out: Vec<LineBlock> = Vec::with_capacity(blocks.len());
    let mut starts = blocks.iter().map(|b| b.start).peekable();
    for pc in pcs {
        let line = lines.line_at(pc);
        let block_starts = starts.next_if_eq(&pc).is_some();
        match out.last_mut() {
            Some(last) if !block_starts && last.line == line => last.block.instructions += 1,
            _ => out.push(LineBlock {
                block: Block {
                    start: pc,
                    instructions: 1,
                },
                line,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(start: u32, instructions: u32) -> Block {
        Block {
            start: Pc(start),
            instructions,
        }
    }

    fn unit(start: u32, instructions: u32, line: Option<u16>) -> LineBlock {
        LineBlock {
            block: block(start, instructions),
            line,
        }
    }

    const PCS: [u32; 6] = [0, 1, 3, 4, 7, 8];

    fn pcs() -> impl Iterator<Item = Pc> {
        PCS.into_iter().map(Pc)
    }

    #[test]
    fn a_block_spanning_two_lines_is_cut_where_the_second_starts() {
        let lines = Lines::from_entries(vec![(0, 10), (4, 11)]);
        let blocks = [block(0, 6)];
        assert_eq!(
            line_blocks(pcs(), &blocks, &lines),
            [unit(0, 3, Some(10)), unit(4, 3, Some(11))]
        );
    }

    #[test]
    fn blocks_stay_apart_on_one_line_and_their_sizes_add_up() {
        let lines = Lines::from_entries(vec![(0, 5)]);
        let blocks = [block(0, 2), block(3, 4)];
        let units = line_blocks(pcs(), &blocks, &lines);
        assert_eq!(units, [unit(0, 2, Some(5)), unit(3, 4, Some(5))]);
        assert_eq!(units.iter().map(|u| u.block.instructions).sum::<u32>(), 6);
    }

    #[test]
    fn a_method_without_a_line_number_table_counts_on_no_line() {
        let blocks = [block(0, 3), block(4, 3)];
        assert_eq!(
            line_blocks(pcs(), &blocks, &Lines::default()),
            [unit(0, 3, None), unit(4, 3, None)]
        );
    }

    #[test]
    fn code_before_the_first_entry_is_on_no_line() {
        let lines = Lines::from_entries(vec![(3, 7)]);
        assert_eq!(
            line_blocks(pcs(), &[block(0, 6)], &lines),
            [unit(0, 2, None), unit(3, 4, Some(7))]
        );
    }

    #[test]
    fn lines_out_of_order_and_repeated_each_count_where_their_pcs_are() {
        // A `finally` copied by javac: line 20 twice, line 30 between.
        let lines = Lines::from_entries(vec![(7, 20), (0, 20), (3, 30)]);
        assert_eq!(
            line_blocks(pcs(), &[block(0, 6)], &lines),
            [unit(0, 2, Some(20)), unit(3, 2, Some(30)), unit(7, 2, Some(20))]
        );
    }

    #[test]
    fn of_entries_with_the_same_start_pc_the_last_one_names_the_line() {
        let lines = Lines::from_entries(vec![(0, 1), (4, 2), (4, 3)]);
        assert_eq!(lines.line_at(Pc(3)), Some(1));
        assert_eq!(lines.line_at(Pc(4)), Some(3));
        assert_eq!(lines.line_at(Pc(100)), Some(3));
    }
}
