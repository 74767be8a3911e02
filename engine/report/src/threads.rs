//! The thread groups of a profile in reports: their totals (the text
//! report's Threads section, the HTML report's thread switch) and the
//! choice of one group alone (`jp report --thread NAME`).

use std::borrow::Cow;

use jp_profile::{Metric, Profile};

use crate::Options;

/// How the contexts in no thread group (read from profiles written before
/// thread groups, merged with newer ones) are named in reports.
pub const NO_GROUP_LABEL: &str = "(no thread group)";

/// The metadata key that names the group a report shows alone.
pub const THREAD_GROUP_META: &str = "thread group";

/// One thread group's totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadTotal {
    /// The group's name; empty for the contexts in no group.
    pub name: String,
    /// How many threads of the group ran instrumented code.
    pub threads: u64,
    /// The group's calls and bytecodes, summed over its contexts.
    pub calls: u64,
    /// See `calls`.
    pub bytecodes: u64,
}

impl ThreadTotal {
    /// The total in `metric`.
    pub fn value(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls,
            Metric::Bytecodes => self.bytecodes,
            // Groups keep calls and bytecodes alone; reports list no
            // groups in an extra metric.
            Metric::Extra(_) => 0,
        }
    }

    /// The name as a report shows it.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            NO_GROUP_LABEL
        } else {
            &self.name
        }
    }
}

/// The groups of `profile`, largest first in `metric`, ties by name; empty
/// for a profile without groups.
pub fn thread_totals(profile: &Profile, metric: Metric) -> Vec<ThreadTotal> {
    let mut totals: Vec<ThreadTotal> = profile
        .thread_groups()
        .iter()
        .map(|group| {
            let (calls, bytecodes) = group.totals();
            ThreadTotal {
                name: group.name().to_owned(),
                threads: group.threads(),
                calls,
                bytecodes,
            }
        })
        .collect();
    totals.sort_by(|a, b| {
        b.value(metric)
            .cmp(&a.value(metric))
            .then_with(|| a.name.cmp(&b.name))
    });
    totals
}

/// The profile that a report shows: `profile` itself, or with
/// [`Options::thread`] its group of that name alone (its name in the
/// metadata, under [`THREAD_GROUP_META`]).
///
/// # Errors
/// When there is no group of that name; the error lists the groups.
pub fn shown<'a>(profile: &'a Profile, options: &Options) -> Result<Cow<'a, Profile>, NoSuchThreadGroup> {
    let Some(name) = &options.thread else {
        return Ok(Cow::Borrowed(profile));
    };
    let wanted = if name == NO_GROUP_LABEL { "" } else { name.as_str() };
    let mut group = profile.thread_group(wanted).ok_or_else(|| NoSuchThreadGroup {
        name: name.clone(),
        groups: thread_totals(profile, options.metric)
            .iter()
            .map(|total| total.label().to_owned())
            .collect(),
    })?;
    group.meta.insert(THREAD_GROUP_META.to_owned(), name.clone());
    Ok(Cow::Owned(group))
}

/// `--thread NAME` names no group of the profiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no thread group `{name}` in the profiles; {}", match groups.as_slice() {
    [] => "they have none (written before JP kept thread groups)".to_owned(),
    groups => format!("their groups: {}", groups.join(", ")),
})]
pub struct NoSuchThreadGroup {
    /// The name asked for.
    pub name: String,
    /// The groups there are, largest first.
    pub groups: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::grouped_profile as grouped;

    #[test]
    fn groups_are_listed_largest_first_with_their_totals() {
        let totals = thread_totals(&grouped(), Metric::Bytecodes);
        let rows: Vec<(&str, u64, u64, u64)> = totals
            .iter()
            .map(|t| (t.label(), t.threads, t.calls, t.bytecodes))
            .collect();
        assert_eq!(rows, [("pool-#-thread-#", 4, 40, 20920), ("main", 1, 11, 5272)]);
    }

    #[test]
    fn one_group_is_shown_alone_and_an_unknown_one_is_refused_with_the_list() {
        let profile = grouped();
        let options = Options {
            thread: Some("main".to_owned()),
            ..Options::new(Metric::Bytecodes)
        };
        let main = shown(&profile, &options).unwrap();
        assert_eq!(main.context_count(), 2);
        assert_eq!(main.total(Metric::Bytecodes), 5272);
        assert_eq!(main.meta[THREAD_GROUP_META], "main");
        let options = Options {
            thread: Some("pool".to_owned()),
            ..options
        };
        assert_eq!(
            shown(&profile, &options).unwrap_err().to_string(),
            "no thread group `pool` in the profiles; their groups: pool-#-thread-#, main"
        );
        let ungrouped = crate::profile(&[(&["a"], 1, 1)]);
        assert_eq!(
            shown(&ungrouped, &options).unwrap_err().to_string(),
            "no thread group `pool` in the profiles; they have none (written before JP kept thread groups)"
        );
        let all = shown(&profile, &Options::new(Metric::Calls)).unwrap();
        assert!(matches!(all, Cow::Borrowed(_)));
    }
}
