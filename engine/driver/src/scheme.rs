//! The rewrite that [`crate::instrument`] applies to each class, given by
//! the caller: the profiling scheme for what ships, other schemes (the
//! test-only stress scheme of `engine/stress`) from crates that ship
//! nothing.

use std::fmt;

use jp_rewrite::profile::{profile_class, ProfileOptions};
use jp_rewrite::{RewriteError, Rewritten};

/// A rewrite of one class, with its options.
pub trait Scheme: fmt::Debug + Send + Sync {
    /// Rewrites one class.
    ///
    /// # Errors
    /// When the class cannot be read at all; what cannot be rewritten is
    /// kept as it was, with a warning.
    fn rewrite_class(&self, bytes: &[u8]) -> Result<Rewritten, RewriteError>;

    /// Names the scheme and its options in the cache key of every class it
    /// rewrites ([`crate::cache`]): two schemes may share an identifier only
    /// when they write the same bytes. Changing it invalidates every cache.
    fn identifier(&self) -> String;
}

impl Scheme for ProfileOptions {
    fn rewrite_class(&self, bytes: &[u8]) -> Result<Rewritten, RewriteError> {
        profile_class(bytes, self)
    }

    /// `Profile(ProfileOptions { analysis: Default })`: the text the cache
    /// key has always held for this scheme, so existing caches stay valid;
    /// per-line counts add `, lines: true` before the closing brace, and
    /// wrapped native methods `, natives: true` after that, and call sites
    /// `, call_sites: true` after that, allocation counts
    /// `, allocations: true` after that, and probes
    /// `, probes: [<probe>; <probe>]` last, each as [`jp_rewrite::probe::Probe`]
    /// displays it.
    fn identifier(&self) -> String {
        let lines = if self.lines { ", lines: true" } else { "" };
        let natives = if self.natives { ", natives: true" } else { "" };
        let call_sites = if self.call_sites { ", call_sites: true" } else { "" };
        let allocations = if self.allocations {
            ", allocations: true"
        } else {
            ""
        };
        let probes = if self.probes.is_empty() {
            String::new()
        } else {
            let named: Vec<String> = self.probes.iter().map(ToString::to_string).collect();
            format!(", probes: [{}]", named.join("; "))
        };
        format!(
            "Profile(ProfileOptions {{ analysis: {:?}{lines}{natives}{call_sites}{allocations}{probes} }})",
            self.analysis
        )
    }
}

#[cfg(test)]
mod tests {
    use jp_rewrite::blocks::Analysis;
    use jp_rewrite::probe::{InstructionKind, Probe, ProbeAction, ProbeSite};

    use super::*;

    #[test]
    fn the_profile_scheme_keeps_the_identifier_existing_caches_were_keyed_on() {
        let identifier = |analysis| {
            ProfileOptions {
                analysis,
                lines: false,
                call_sites: false,
                natives: false,
                allocations: false,
                probes: Default::default(),
            }
            .identifier()
        };
        assert_eq!(
            identifier(Analysis::Default),
            "Profile(ProfileOptions { analysis: Default })"
        );
        assert_eq!(
            identifier(Analysis::Precise),
            "Profile(ProfileOptions { analysis: Precise })"
        );
    }

    #[test]
    fn per_line_counts_change_the_identifier() {
        let lines = ProfileOptions {
            analysis: Analysis::Precise,
            lines: true,
            call_sites: false,
            natives: false,
            allocations: false,
            probes: Default::default(),
        };
        assert_eq!(
            lines.identifier(),
            "Profile(ProfileOptions { analysis: Precise, lines: true })"
        );
    }

    #[test]
    fn wrapped_natives_change_the_identifier() {
        let natives = ProfileOptions {
            analysis: Analysis::Precise,
            lines: true,
            call_sites: false,
            natives: true,
            allocations: false,
            probes: Default::default(),
        };
        assert_eq!(
            natives.identifier(),
            "Profile(ProfileOptions { analysis: Precise, lines: true, natives: true })"
        );
    }

    #[test]
    fn call_sites_change_the_identifier() {
        let sites = ProfileOptions {
            call_sites: true,
            ..ProfileOptions::default()
        };
        assert_eq!(
            sites.identifier(),
            "Profile(ProfileOptions { analysis: Default, call_sites: true })"
        );
    }

    #[test]
    fn allocations_change_the_identifier() {
        let allocations = ProfileOptions {
            call_sites: true,
            allocations: true,
            ..ProfileOptions::default()
        };
        assert_eq!(
            allocations.identifier(),
            "Profile(ProfileOptions { analysis: Default, call_sites: true, allocations: true })"
        );
    }

    #[test]
    fn probes_change_the_identifier() {
        let probe = |metric: &str| Probe {
            site: ProbeSite::Instruction(InstructionKind::MonitorEnter),
            action: ProbeAction::count(metric).unwrap(),
        };
        let options = |probes: Vec<Probe>| ProfileOptions {
            probes: probes.into(),
            ..ProfileOptions::default()
        };
        assert_eq!(
            options(vec![probe("locks"), probe("monitors")]).identifier(),
            "Profile(ProfileOptions { analysis: Default, probes: [monitorenter -> count locks; monitorenter -> count monitors] })"
        );
        assert_ne!(
            options(vec![probe("locks")]).identifier(),
            options(vec![probe("monitors")]).identifier()
        );
    }
}
