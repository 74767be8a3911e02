//! Thread groups (format version 3): what the threads of each name ran,
//! kept beside the merged tree as counts of the merged tree's contexts.
//!
//! A group's contexts are a subtree of the merged tree (a context's parent
//! is in the group too), so a group is a list of `(context, calls,
//! bytecodes)` over the merged arena: about 20 bytes a context rather than
//! a tree of its own. [`Profile::thread_group`] builds a group's own tree
//! when a report asks for one.

use crate::model::{NodeId, Profile};

/// The name of the contexts of a profile that are in no group: those of
/// a file before its first `thread` record, or of a profile without groups
/// merged with one that has them. It is never written as a `thread` record.
pub(crate) const NO_GROUP: &str = "";

/// One thread group: the threads of one name (digits replaced by `#`), how
/// many they were, and their own counts of the merged tree's contexts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadGroup {
    name: Box<str>,
    threads: u64,
    /// `(context, calls, bytecodes)`, by context id once normalized: each
    /// parent before its children, as in the merged arena.
    counts: Vec<(NodeId, u64, u64)>,
}

impl ThreadGroup {
    pub(crate) fn new(name: &str, threads: u64) -> ThreadGroup {
        ThreadGroup {
            name: name.into(),
            threads,
            counts: Vec::new(),
        }
    }

    /// The group's name, as in its `thread` record; empty for the contexts
    /// that are in no group.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many threads of the group ran instrumented code.
    pub fn threads(&self) -> u64 {
        self.threads
    }

    /// The group's own counts of the merged tree's contexts, parents first.
    pub fn counts(&self) -> &[(NodeId, u64, u64)] {
        &self.counts
    }

    /// The sums of the group's calls and bytecodes (saturating).
    pub fn totals(&self) -> (u64, u64) {
        self.counts.iter().fold((0, 0), |(calls, bytecodes), &(_, c, b)| {
            (calls.saturating_add(c), bytecodes.saturating_add(b))
        })
    }

    /// Every context of `profile`, with its counts, in the [`NO_GROUP`] group.
    pub(crate) fn all_contexts(profile: &Profile) -> ThreadGroup {
        let mut group = ThreadGroup::new(NO_GROUP, 0);
        for (index, node) in profile.nodes().iter().enumerate().skip(1) {
            group.push(NodeId(index as u32), node.calls, node.bytecodes);
        }
        group
    }

    pub(crate) fn add_threads(&mut self, threads: u64) {
        self.threads = self.threads.saturating_add(threads);
    }

    pub(crate) fn push(&mut self, context: NodeId, calls: u64, bytecodes: u64) {
        self.counts.push((context, calls, bytecodes));
    }

    /// Sorts the counts by context and adds up those of one context
    /// (saturating), as a merge may have given it twice.
    pub(crate) fn normalize(&mut self) {
        self.counts.sort_by_key(|&(context, _, _)| context);
        self.counts.dedup_by(|later, kept| {
            if later.0 != kept.0 {
                return false;
            }
            kept.1 = kept.1.saturating_add(later.1);
            kept.2 = kept.2.saturating_add(later.2);
            true
        });
    }
}

impl Profile {
    /// The thread groups, in the order first read; empty for a profile
    /// without them (format versions 1 and 2, or one built in memory).
    /// When there are groups, every context's counts are the sums of its
    /// counts in the groups.
    pub fn thread_groups(&self) -> &[ThreadGroup] {
        &self.threads
    }

    /// The group named `name`, created (with no threads) when new.
    pub(crate) fn group_mut(&mut self, name: &str) -> &mut ThreadGroup {
        let index = match self.threads.iter().position(|group| &*group.name == name) {
            Some(index) => index,
            None => {
                self.threads.push(ThreadGroup::new(name, 0));
                self.threads.len() - 1
            }
        };
        &mut self.threads[index]
    }

    /// Before a profile with groups is merged in: a profile without groups
    /// that has contexts puts them all in the [`NO_GROUP`] group, so that
    /// its groups go on adding up to its tree.
    pub(crate) fn group_all_contexts(&mut self) {
        if self.threads.is_empty() && self.context_count() > 0 {
            self.threads.push(ThreadGroup::all_contexts(self));
        }
    }

    /// The profile of the group named `name` alone: its contexts with its
    /// own counts, the same frames (so frame ids mean the same in both) and
    /// metadata, and `threads` the group's. Per-line counts are over every
    /// thread, so the group's profile has none. `None` when there is no
    /// such group.
    pub fn thread_group(&self, name: &str) -> Option<Profile> {
        let group = self.threads.iter().find(|group| &*group.name == name)?;
        let mut profile = Profile::new();
        for frame in self.frames() {
            profile.intern(frame);
        }
        profile.meta = self.meta.clone();
        profile
            .meta
            .insert("threads".to_owned(), group.threads.to_string());
        profile.files = self.files;
        let mut mapped = vec![NodeId::ROOT; self.nodes().len()];
        for &(context, calls, bytecodes) in &group.counts {
            let node = self.node(context);
            let parent = mapped[node.parent.0 as usize];
            let into = profile.child_or_insert_at(parent, node.frame, self.site(context));
            profile.add(into, calls, bytecodes);
            mapped[context.0 as usize] = into;
        }
        Some(profile)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::model::{Metric, NodeId, Profile};

    const GROUPED: &str = "jp-profile 3\nmeta threads 5\n\
        frame 1 Main.main()V\nframe 2 Main.work(I)J\n\
        thread 1 main\nnode 1 0 1 1 42\nnode 2 1 2 10 5230\n\
        thread 4 pool-#-thread-#\nnode 3 0 2 40 20920\nend 3\n";

    fn read(text: &str) -> Profile {
        crate::parse(text.as_bytes(), Path::new("p.jpprof")).unwrap()
    }

    #[test]
    fn the_merged_tree_sums_the_groups_and_each_group_has_its_own_tree() {
        let profile = read(GROUPED);
        assert_eq!(profile.context_count(), 3);
        assert_eq!(profile.total(Metric::Calls), 51);
        let names: Vec<(&str, u64)> = profile
            .thread_groups()
            .iter()
            .map(|group| (group.name(), group.threads()))
            .collect();
        assert_eq!(names, [("main", 1), ("pool-#-thread-#", 4)]);
        let pool = profile.thread_group("pool-#-thread-#").unwrap();
        assert_eq!(pool.context_count(), 1);
        assert_eq!(pool.path(NodeId(1)), ["Main.work(I)J"]);
        assert_eq!(pool.total(Metric::Bytecodes), 20920);
        assert_eq!(pool.meta["threads"], "4");
        let main = profile.thread_group("main").unwrap();
        assert_eq!(main.context_count(), 2);
        assert_eq!(main.total(Metric::Calls), 11);
        assert!(profile.thread_group("other").is_none());
    }

    #[test]
    fn the_same_path_in_two_groups_is_one_context_of_the_merged_tree() {
        let profile = read(
            "jp-profile 3\nframe 1 a()V\nthread 1 main\nnode 1 0 1 1 5\n\
             thread 2 worker-#\nnode 2 0 1 3 7\nend 2\n",
        );
        assert_eq!(profile.context_count(), 1);
        assert_eq!(
            (profile.node(NodeId(1)).calls, profile.node(NodeId(1)).bytecodes),
            (4, 12)
        );
        assert_eq!(profile.thread_groups()[1].counts(), [(NodeId(1), 3, 7)]);
        assert_eq!(profile.thread_groups()[1].totals(), (3, 7));
    }

    #[test]
    fn merging_adds_up_groups_of_one_name_and_puts_ungrouped_contexts_apart() {
        let mut merged = read("jp-profile 1\nframe 1 b()V\nnode 1 0 1 2 2\nend 1\n");
        merged.merge(&read(GROUPED));
        merged.merge(&read(GROUPED));
        let groups: Vec<(&str, u64, (u64, u64))> = merged
            .thread_groups()
            .iter()
            .map(|group| (group.name(), group.threads(), group.totals()))
            .collect();
        assert_eq!(
            groups,
            [
                ("", 0, (2, 2)),
                ("main", 2, (22, 10544)),
                ("pool-#-thread-#", 8, (80, 41840))
            ]
        );
        assert_eq!(merged.total(Metric::Calls), 2 + 22 + 80);
        assert_eq!(merged.thread_group("main").unwrap().context_count(), 2);
    }

    #[test]
    fn the_thread_groups_example_of_the_format_document_reads() {
        let doc = include_str!("../../../docs/profile-format.md");
        let start = doc.find("```\njp-profile 3").unwrap() + 4;
        let end = start + doc[start..].find("```").unwrap();
        let profile = read(&doc[start..end]);
        let work = profile.frame_id("com.acme.Main.work(I)J").unwrap();
        let calls: u64 = profile
            .nodes()
            .iter()
            .filter(|node| node.frame == work)
            .map(|node| node.calls)
            .sum();
        assert_eq!(calls, 50);
        assert_eq!(profile.thread_group("main").unwrap().total(Metric::Calls), 11);
    }

    #[test]
    fn a_grouped_profile_is_written_back_as_it_was_read() {
        let profile = read(GROUPED);
        let mut out = Vec::new();
        crate::write(&profile, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), GROUPED);
    }
}
