//! The order in which a report lists siblings, fixed so that a report does
//! not depend on the order of the records or of the profiles merged.

use jp_profile::{FrameId, Metric, NodeId, Profile};

use crate::{Totals, Visible};

/// Each frame's position in name order, indexed by frame id.
pub fn frame_ranks(profile: &Profile) -> Vec<u32> {
    let frames = profile.frames();
    let mut order: Vec<u32> = (0..frames.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| frames[a as usize].cmp(&frames[b as usize]));
    let mut rank = vec![0; frames.len()];
    for (position, frame) in order.into_iter().enumerate() {
        rank[frame as usize] = position as u32;
    }
    rank
}

/// The children of `id` into `out` (cleared first), in frame-name order,
/// a method's contexts split by call site by site (the one without first);
/// `rank` is [`frame_ranks`].
pub fn by_name(profile: &Profile, id: NodeId, rank: &[u32], out: &mut Vec<NodeId>) {
    out.clear();
    out.extend(profile.children(id));
    out.sort_unstable_by_key(|&child| (rank[profile.node(child).frame.0 as usize], profile.site(child)));
}

/// The children of `id` into `out` (cleared first), the largest subtree
/// total in `metric` first, ties in frame-name order, then by call site.
pub fn by_total(
    profile: &Profile,
    totals: &Totals,
    metric: Metric,
    id: NodeId,
    rank: &[u32],
    out: &mut Vec<NodeId>,
) {
    out.clear();
    out.extend(profile.children(id));
    out.sort_unstable_by_key(|&child| {
        (
            std::cmp::Reverse(totals.get(child, metric)),
            rank[profile.node(child).frame.0 as usize],
            profile.site(child),
        )
    });
}

/// The frames of the shown contexts, in name order, and each one's
/// position in that order: the frame table of the exports that list each
/// frame once (speedscope, pprof).
pub(crate) struct FrameIndex {
    /// The frames, in name order.
    pub names: Vec<FrameId>,
    /// The position in `names` of each frame, by frame id (meaningless for
    /// a frame of no shown context).
    pub index: Vec<u32>,
    /// [`frame_ranks`].
    pub rank: Vec<u32>,
}

impl FrameIndex {
    pub fn of(profile: &Profile, visible: &Visible) -> FrameIndex {
        let rank = frame_ranks(profile);
        let mut by_rank: Vec<Option<FrameId>> = vec![None; rank.len()];
        for (index, node) in profile.nodes().iter().enumerate().skip(1) {
            if visible.is_shown(NodeId(index as u32)) {
                by_rank[rank[node.frame.0 as usize] as usize] = Some(node.frame);
            }
        }
        let names: Vec<FrameId> = by_rank.into_iter().flatten().collect();
        let mut index = vec![0; rank.len()];
        for (position, frame) in names.iter().enumerate() {
            index[frame.0 as usize] = position as u32;
        }
        FrameIndex { names, index, rank }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn names(profile: &Profile, ids: &[NodeId]) -> Vec<String> {
        ids.iter()
            .map(|&id| profile.frame(profile.node(id).frame).to_string())
            .collect()
    }

    #[test]
    fn siblings_go_by_name_or_by_total_with_ties_by_name() {
        let p = profile(&[
            (&["m", "c"], 1, 5),
            (&["m", "a"], 1, 1),
            (&["m", "b"], 1, 5),
            (&["m"], 1, 0),
        ]);
        let rank = frame_ranks(&p);
        let totals = Totals::of(&p);
        let mut out = Vec::new();
        by_name(&p, NodeId(1), &rank, &mut out);
        assert_eq!(names(&p, &out), ["a", "b", "c"]);
        by_total(&p, &totals, Metric::Bytecodes, NodeId(1), &rank, &mut out);
        assert_eq!(names(&p, &out), ["b", "c", "a"]);
    }
}
