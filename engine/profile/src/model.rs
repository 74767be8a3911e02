//! The merged calling-context tree: an arena of nodes under one root (the
//! thread roots of every profile merged), frames interned as strings.

use std::collections::{BTreeMap, HashMap};

/// A node's position in [`Profile::nodes`]; the root is 0.
pub type NodeId = u32;

/// One calling context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The enclosing context (0, the root, for top-level contexts; the root's own parent is 0 too).
    pub parent: NodeId,
    /// Index into [`Profile::frames`]; unused for the root.
    pub frame: u32,
    /// Invocations in this context.
    pub calls: u64,
    /// Bytecodes the method itself ran in this context.
    pub bytecodes: u64,
    /// The child contexts, in the order they were added.
    pub children: Vec<NodeId>,
}

/// Which count a report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Invocations.
    Calls,
    /// Executed bytecodes.
    Bytecodes,
}

impl Node {
    /// The node's value in `metric`.
    pub fn value(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls,
            Metric::Bytecodes => self.bytecodes,
        }
    }
}

/// A whole profile: one tree, its frames and its metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Method names, `binary.class.Name.method(Descriptor)`.
    pub frames: Vec<String>,
    /// The contexts; `nodes[0]` is the root.
    pub nodes: Vec<Node>,
    /// `meta` records, by key (the last value of a key wins).
    pub meta: BTreeMap<String, String>,
    /// How many profile files were merged into this one.
    pub files: usize,
    frame_index: HashMap<String, u32>,
    child_index: HashMap<(NodeId, u32), NodeId>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            frames: Vec::new(),
            nodes: vec![Node {
                parent: 0,
                frame: 0,
                calls: 0,
                bytecodes: 0,
                children: Vec::new(),
            }],
            meta: BTreeMap::new(),
            files: 0,
            frame_index: HashMap::new(),
            child_index: HashMap::new(),
        }
    }
}

impl Profile {
    /// The interned index of `frame`.
    pub fn intern(&mut self, frame: &str) -> u32 {
        if let Some(&index) = self.frame_index.get(frame) {
            return index;
        }
        let index = self.frames.len() as u32;
        self.frames.push(frame.to_owned());
        self.frame_index.insert(frame.to_owned(), index);
        index
    }

    /// The child of `parent` for `frame`, if there is one.
    pub fn child(&self, parent: NodeId, frame: u32) -> Option<NodeId> {
        self.child_index.get(&(parent, frame)).copied()
    }

    /// The child of `parent` for `frame`, created with zero counts when new.
    pub fn child_or_insert(&mut self, parent: NodeId, frame: u32) -> NodeId {
        if let Some(id) = self.child(parent, frame) {
            return id;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent,
            frame,
            calls: 0,
            bytecodes: 0,
            children: Vec::new(),
        });
        self.nodes[parent as usize].children.push(id);
        self.child_index.insert((parent, frame), id);
        id
    }

    /// Adds `other` into this profile: contexts with the same path of
    /// frames add up. Metadata: `threads` add up, other keys keep the
    /// first value seen, except `bba`, which becomes `mixed` when they differ.
    pub fn merge(&mut self, other: &Profile) {
        let mut mapped: Vec<NodeId> = vec![0; other.nodes.len()];
        // Nodes come parent first (ids grow from parents to children).
        for (id, node) in other.nodes.iter().enumerate().skip(1) {
            let frame = self.intern(&other.frames[node.frame as usize]);
            let into = self.child_or_insert(mapped[node.parent as usize], frame);
            let target = &mut self.nodes[into as usize];
            target.calls = target.calls.saturating_add(node.calls);
            target.bytecodes = target.bytecodes.saturating_add(node.bytecodes);
            mapped[id] = into;
        }
        for (key, value) in &other.meta {
            match (key.as_str(), self.meta.get(key)) {
                ("threads", Some(mine)) => {
                    let sum = mine.parse::<u64>().unwrap_or(0) + value.parse::<u64>().unwrap_or(0);
                    self.meta.insert(key.clone(), sum.to_string());
                }
                ("bba", Some(mine)) if mine != value => {
                    self.meta.insert(key.clone(), "mixed".to_owned());
                }
                (_, Some(_)) => {}
                (_, None) => {
                    self.meta.insert(key.clone(), value.clone());
                }
            }
        }
        self.files += other.files;
    }

    /// The frames from the top-level context down to `id`.
    pub fn path(&self, mut id: NodeId) -> Vec<&str> {
        let mut path = Vec::new();
        while id != 0 {
            let node = &self.nodes[id as usize];
            path.push(self.frames[node.frame as usize].as_str());
            id = node.parent;
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(paths: &[(&[&str], u64, u64)]) -> Profile {
        let mut profile = Profile::default();
        for (path, calls, bytecodes) in paths {
            let mut at = 0;
            for frame in *path {
                let frame = profile.intern(frame);
                at = profile.child_or_insert(at, frame);
            }
            profile.nodes[at as usize].calls += calls;
            profile.nodes[at as usize].bytecodes += bytecodes;
        }
        profile.files = 1;
        profile
    }

    #[test]
    fn merging_adds_up_the_same_paths_and_keeps_the_others() {
        let mut a = profile(&[(&["main"], 1, 10), (&["main", "f"], 2, 20)]);
        let b = profile(&[(&["main"], 1, 5), (&["main", "g"], 3, 30), (&["<clinit>"], 1, 7)]);
        a.merge(&b);
        let main = a.child(0, a.frame_index["main"]).unwrap();
        assert_eq!(
            (a.nodes[main as usize].calls, a.nodes[main as usize].bytecodes),
            (2, 15)
        );
        assert_eq!(a.nodes[main as usize].children.len(), 2);
        assert_eq!(a.nodes[0].children.len(), 2);
        assert_eq!(a.files, 2);
    }

    #[test]
    fn merging_metadata_sums_threads_and_flags_mixed_analyses() {
        let mut a = Profile::default();
        a.meta.insert("threads".into(), "2".into());
        a.meta.insert("bba".into(), "precise".into());
        let mut b = Profile::default();
        b.meta.insert("threads".into(), "3".into());
        b.meta.insert("bba".into(), "default".into());
        a.merge(&b);
        assert_eq!(a.meta["threads"], "5");
        assert_eq!(a.meta["bba"], "mixed");
    }

    #[test]
    fn a_path_lists_frames_outermost_first() {
        let p = profile(&[(&["main", "f", "g"], 1, 1)]);
        let g = p.nodes.len() as NodeId - 1;
        assert_eq!(p.path(g), ["main", "f", "g"]);
    }
}
