//! The calling-context tree: an arena of nodes under one root (the thread
//! roots of every profile merged into one), with frames interned as strings.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::hash::IntHash;
use crate::metrics::{MetricColumn, MetricId};
use crate::sites::CallSite;
use crate::threads::ThreadGroup;

/// A context's position in the arena. [`NodeId::ROOT`] is the root, which
/// stands for the thread roots and has no frame or counts of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root: the parent of every top-level context.
    pub const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// An interned frame name, an index into [`Profile::frames`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FrameId(pub u32);

/// Which count a report shows; `calls` or `bytecodes` in requests (an
/// extra metric is named on the command line, see [`Profile::metric`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Invocations.
    Calls,
    /// Bytecodes executed.
    Bytecodes,
    /// One of the profile's extra metrics ([`Profile::extra_metrics`]).
    #[serde(skip)]
    Extra(MetricId),
}

/// One calling context: a method called along one path of frames.
///
/// Children are linked through the nodes (first child, next sibling), so
/// that a tree of millions of contexts needs no allocation per node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The enclosing context; [`NodeId::ROOT`] for a top-level context (and for the root itself).
    pub parent: NodeId,
    /// The method; meaningless for the root.
    pub frame: FrameId,
    /// How often the method was invoked in this context.
    pub calls: u64,
    /// How many of its own bytecodes the method executed in this context
    /// (its callees' are in their own contexts).
    pub bytecodes: u64,
    first_child: Option<NodeId>,
    next_sibling: Option<NodeId>,
}

impl Node {
    fn new(parent: NodeId, frame: FrameId) -> Node {
        Node {
            parent,
            frame,
            calls: 0,
            bytecodes: 0,
            first_child: None,
            next_sibling: None,
        }
    }
}

/// A profile: one calling-context tree, its frames and its metadata, and
/// the thread groups whose counts add up to it ([`Profile::thread_groups`]).
///
/// Invariants: a node's parent comes before it in [`Profile::nodes`], and no
/// two children of a node have the same frame and call site. The mutators
/// ([`Profile::add`], [`Profile::add_path`], [`Profile::child_or_insert`])
/// change the merged tree alone: they are for building a profile without
/// groups; [`Profile::merge`] keeps the groups.
#[derive(Debug, Clone)]
pub struct Profile {
    /// The `meta` records (`agent`, `jvm`, `bba`, `threads`, ...), by key.
    /// After a merge, `threads` is the sum, `bba` is `mixed` when the files
    /// disagree, and any other key keeps the first value seen.
    pub meta: BTreeMap<String, String>,
    /// How many profile files this one was read or merged from.
    pub files: u64,
    frames: Vec<Box<str>>,
    frame_ids: HashMap<Box<str>, FrameId>,
    nodes: Vec<Node>,
    /// `(parent << 32 | frame)` to the child without a call site.
    child_index: HashMap<u64, NodeId, IntHash>,
    /// The call sites of the contexts that have one ([`crate::sites`]);
    /// empty, and costing nothing, in profiles without.
    sites: HashMap<NodeId, CallSite, IntHash>,
    /// `(parent << 32 | frame, site)` to the child with that call site.
    site_index: HashMap<(u64, CallSite), NodeId, IntHash>,
    /// Bytecodes per (frame, source line), merged over the frame's contexts.
    lines: BTreeMap<(FrameId, u32), u64>,
    /// The thread groups ([`crate::threads`]); empty, or adding up to the tree.
    pub(crate) threads: Vec<ThreadGroup>,
    /// The extra metrics ([`crate::metrics`]), indexed by [`MetricId`].
    pub(crate) metrics: Vec<MetricColumn>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            meta: BTreeMap::new(),
            files: 0,
            frames: Vec::new(),
            frame_ids: HashMap::new(),
            nodes: vec![Node::new(NodeId::ROOT, FrameId(0))],
            child_index: HashMap::default(),
            sites: HashMap::default(),
            site_index: HashMap::default(),
            lines: BTreeMap::new(),
            threads: Vec::new(),
            metrics: Vec::new(),
        }
    }
}

impl Profile {
    /// An empty profile: the root alone, no frames, no metadata.
    pub fn new() -> Profile {
        Profile::default()
    }

    /// The frame names, `binary.class.Name.method(Descriptor)`, indexed by [`FrameId`].
    pub fn frames(&self) -> &[Box<str>] {
        &self.frames
    }

    /// The name of `frame`.
    ///
    /// # Panics
    /// If `frame` is not of this profile.
    pub fn frame(&self, frame: FrameId) -> &str {
        &self.frames[frame.0 as usize]
    }

    /// Every node, indexed by [`NodeId`]; the root first, each parent before its children.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`.
    ///
    /// # Panics
    /// If `id` is not of this profile.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The number of contexts, the root left out.
    pub fn context_count(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The id of the frame named `name`, added if new.
    ///
    /// # Panics
    /// On the 2³²nd distinct frame.
    pub fn intern(&mut self, name: &str) -> FrameId {
        if let Some(&id) = self.frame_ids.get(name) {
            return id;
        }
        let id = FrameId(u32::try_from(self.frames.len()).expect("fewer than 2^32 frames"));
        self.frames.push(name.into());
        self.frame_ids.insert(name.into(), id);
        id
    }

    /// The id of the frame named `name`, if there is one.
    pub fn frame_id(&self, name: &str) -> Option<FrameId> {
        self.frame_ids.get(name).copied()
    }

    /// The child of `parent` for `frame` without a call site, if there is one.
    pub fn child(&self, parent: NodeId, frame: FrameId) -> Option<NodeId> {
        self.child_index.get(&child_key(parent, frame)).copied()
    }

    /// The child of `parent` for `frame` called from `site`, if there is one.
    pub fn child_at(&self, parent: NodeId, frame: FrameId, site: Option<CallSite>) -> Option<NodeId> {
        match site {
            None => self.child(parent, frame),
            Some(site) => self.site_index.get(&(child_key(parent, frame), site)).copied(),
        }
    }

    /// The call site `id` was called from, for a context split by call site
    /// (docs/profiling.md, "Call sites").
    pub fn site(&self, id: NodeId) -> Option<CallSite> {
        self.sites.get(&id).copied()
    }

    /// Whether any context has a call site.
    pub fn has_sites(&self) -> bool {
        !self.sites.is_empty()
    }

    /// The child of `parent` for `frame`, created with zero counts when new.
    ///
    /// # Panics
    /// If `parent` is not of this profile, or on the 2³²nd node.
    pub fn child_or_insert(&mut self, parent: NodeId, frame: FrameId) -> NodeId {
        self.insert_child(parent, frame, None).0
    }

    /// The child of `parent` for `frame` called from `site`, created with
    /// zero counts when new.
    ///
    /// # Panics
    /// As [`Profile::child_or_insert`].
    pub fn child_or_insert_at(&mut self, parent: NodeId, frame: FrameId, site: Option<CallSite>) -> NodeId {
        self.insert_child(parent, frame, site).0
    }

    /// Like [`Profile::child_or_insert_at`], and whether the child is new.
    pub(crate) fn insert_child(
        &mut self,
        parent: NodeId,
        frame: FrameId,
        site: Option<CallSite>,
    ) -> (NodeId, bool) {
        assert!(parent.index() < self.nodes.len(), "parent {parent} is not a node");
        let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 nodes"));
        let key = child_key(parent, frame);
        let existing = match site {
            None => *self.child_index.entry(key).or_insert(id),
            Some(site) => *self.site_index.entry((key, site)).or_insert(id),
        };
        if existing != id {
            return (existing, false);
        }
        if let Some(site) = site {
            self.sites.insert(id, site);
        }
        let mut node = Node::new(parent, frame);
        let parent_node = &mut self.nodes[parent.index()];
        node.next_sibling = parent_node.first_child.replace(id);
        self.nodes.push(node);
        (id, true)
    }

    /// Adds to the counts of the context reached from the root through the
    /// frames named `path`, created (with its ancestors) when new, and gives
    /// its id; the empty path is the root.
    pub fn add_path(&mut self, path: &[&str], calls: u64, bytecodes: u64) -> NodeId {
        let mut at = NodeId::ROOT;
        for name in path {
            let frame = self.intern(name);
            at = self.child_or_insert(at, frame);
        }
        self.add(at, calls, bytecodes);
        at
    }

    /// Adds to the counts of `id`, saturating at `u64::MAX` (which 585
    /// years of bytecodes at one per nanosecond would not reach), and tells
    /// whether a sum saturated, and in which metric (calls first).
    ///
    /// # Panics
    /// If `id` is not of this profile.
    pub fn add(&mut self, id: NodeId, calls: u64, bytecodes: u64) -> Option<Metric> {
        let node = &mut self.nodes[id.index()];
        let (calls, calls_over) = node.calls.overflowing_add(calls);
        let (bytecodes, bytecodes_over) = node.bytecodes.overflowing_add(bytecodes);
        node.calls = if calls_over { u64::MAX } else { calls };
        node.bytecodes = if bytecodes_over { u64::MAX } else { bytecodes };
        match (calls_over, bytecodes_over) {
            (true, _) => Some(Metric::Calls),
            (false, true) => Some(Metric::Bytecodes),
            (false, false) => None,
        }
    }

    /// The children of `id`, in no particular order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            profile: self,
            next: self.nodes[id.index()].first_child,
        }
    }

    /// The frames from the top-level context down to `id` (none for the root).
    pub fn path(&self, mut id: NodeId) -> Vec<&str> {
        let mut path = Vec::new();
        while id != NodeId::ROOT {
            let node = self.node(id);
            path.push(self.frame(node.frame));
            id = node.parent;
        }
        path.reverse();
        path
    }

    /// The per-line counts (docs/profiling.md, "Per-line counts"): for each
    /// frame and source line, the bytecodes the frame's method executed on
    /// that line over all its contexts, ordered by frame, then line. Empty
    /// for a profile made without lines.
    pub fn lines(&self) -> impl Iterator<Item = (FrameId, u32, u64)> + '_ {
        self.lines
            .iter()
            .map(|(&(frame, line), &bytecodes)| (frame, line, bytecodes))
    }

    /// Whether the profile has per-line counts.
    pub fn has_lines(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Adds `bytecodes` to `line` of `frame`, saturating, and tells whether
    /// the sum saturated.
    pub fn add_line(&mut self, frame: FrameId, line: u32, bytecodes: u64) -> bool {
        let count = self.lines.entry((frame, line)).or_insert(0);
        let (sum, over) = count.overflowing_add(bytecodes);
        *count = if over { u64::MAX } else { sum };
        over
    }

    /// The sum of every context's value in `metric` (saturating).
    pub fn total(&self, metric: Metric) -> u64 {
        (1..self.nodes.len()).fold(0u64, |sum, index| {
            sum.saturating_add(self.value(NodeId(index as u32), metric))
        })
    }
}

fn child_key(parent: NodeId, frame: FrameId) -> u64 {
    u64::from(parent.0) << 32 | u64::from(frame.0)
}

/// The children of a node; see [`Profile::children`].
#[derive(Debug, Clone)]
pub struct Children<'a> {
    profile: &'a Profile,
    next: Option<NodeId>,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.profile.node(id).next_sibling;
        Some(id)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A profile from `(path, calls, bytecodes)` triples.
    pub(crate) fn profile(paths: &[(&[&str], u64, u64)]) -> Profile {
        let mut profile = Profile::new();
        for &(path, calls, bytecodes) in paths {
            profile.add_path(path, calls, bytecodes);
        }
        profile.files = 1;
        profile
    }

    #[test]
    fn a_path_lists_frames_outermost_first() {
        let p = profile(&[(&["main", "f", "g"], 1, 1)]);
        assert_eq!(p.path(NodeId(3)), ["main", "f", "g"]);
        assert!(p.path(NodeId::ROOT).is_empty());
    }

    #[test]
    fn the_same_frame_under_the_same_parent_is_one_context() {
        let p = profile(&[(&["main", "f"], 1, 10), (&["main", "f"], 2, 20), (&["f"], 1, 1)]);
        assert_eq!(p.context_count(), 3);
        let main = p.child(NodeId::ROOT, p.frame_id("main").unwrap()).unwrap();
        let f = p.child(main, p.frame_id("f").unwrap()).unwrap();
        assert_eq!((p.node(f).calls, p.node(f).bytecodes), (3, 30));
        assert_eq!(p.frames().len(), 2);
    }

    #[test]
    fn children_are_listed_through_their_links() {
        let p = profile(&[
            (&["main", "a"], 1, 1),
            (&["main", "b"], 1, 1),
            (&["main", "c"], 1, 1),
        ]);
        let main = NodeId(1);
        let mut names: Vec<&str> = p.children(main).map(|c| p.frame(p.node(c).frame)).collect();
        names.sort_unstable();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(p.children(NodeId::ROOT).count(), 1);
        assert_eq!(p.children(NodeId(2)).count(), 0);
    }

    #[test]
    fn counts_saturate_instead_of_wrapping_and_say_so() {
        let mut p = profile(&[(&["main"], u64::MAX, 1)]);
        assert_eq!(p.add(NodeId(1), 1, 1), Some(Metric::Calls));
        assert_eq!(
            (p.node(NodeId(1)).calls, p.node(NodeId(1)).bytecodes),
            (u64::MAX, 2)
        );
        assert_eq!(p.total(Metric::Calls), u64::MAX);
        assert_eq!(p.add(NodeId(1), 0, u64::MAX), Some(Metric::Bytecodes));
        assert_eq!(p.add(NodeId(1), 0, 0), None);
        assert_eq!(p.node(NodeId(1)).bytecodes, u64::MAX);
    }

    #[test]
    fn totals_sum_every_context_but_the_root() {
        let p = profile(&[(&["main"], 1, 10), (&["main", "f"], 2, 20)]);
        assert_eq!((p.total(Metric::Calls), p.total(Metric::Bytecodes)), (3, 30));
    }
}
