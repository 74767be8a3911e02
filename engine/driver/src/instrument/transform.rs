//! How one file of a unit is written: a resource or a filtered-out class
//! as it is, any other class rewritten, through the cache's objects when
//! there is a cache. [`Scheme::rewrite_class`](crate::scheme::Scheme::rewrite_class), called in one place here, rewrites a class.

use std::path::Path;

use jp_classfile::ClassFileError;
use jp_rewrite::{RewriteError, Rewritten};

use super::{Counts, Run};
use crate::cache::{object_key, CacheProblem, KeptWarning, Sha};
use crate::filter::ClassFilter;
use crate::objects::CachedRewrite;

/// How one class or resource is written.
pub(super) struct Transformed {
    /// The bytes to write; `None`: the input's.
    pub(super) bytes: Option<Vec<u8>>,
    pub(super) kind: Kind,
    pub(super) warnings: Vec<KeptWarning>,
    /// The key under which this new rewrite is to be stored, once written.
    new_object: Option<Sha>,
}

/// What became of one file, as the outcome counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Resource,
    Unchanged,
    Rewritten,
    Reused,
}

impl Kind {
    pub(super) fn counts(self) -> Counts {
        let mut counts = Counts::default();
        match self {
            Kind::Resource => counts.copied = 1,
            Kind::Unchanged => counts.unchanged = 1,
            Kind::Rewritten => counts.rewritten = 1,
            Kind::Reused => counts.reused = 1,
        }
        counts
    }
}

impl Run<'_> {
    /// How the file `name` holding `bytes` is written: resources and
    /// filtered-out classes as they are, other classes rewritten, through
    /// the cache when there is one (`sha`: the bytes' digest, if known).
    pub(super) fn transform(
        &self,
        name: &str,
        bytes: &[u8],
        sha: Option<Sha>,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Transformed, RewriteError> {
        let as_is = |kind| Transformed {
            bytes: None,
            kind,
            warnings: Vec::new(),
            new_object: None,
        };
        if !name.ends_with(".class") {
            return Ok(as_is(Kind::Resource));
        }
        if !self
            .request
            .filter
            .accepts(&ClassFilter::class_name_of_entry(name))
        {
            return Ok(as_is(Kind::Unchanged));
        }
        let cached = self.objects.map(|objects| {
            let key = object_key(&self.fingerprint, &sha.unwrap_or_else(|| Sha::of(bytes)));
            (objects, key)
        });
        if let Some((objects, key)) = &cached {
            match objects.get(key) {
                Ok(Some(CachedRewrite { bytes, warnings })) => {
                    let kind = if bytes.is_some() {
                        Kind::Reused
                    } else {
                        Kind::Unchanged
                    };
                    return Ok(Transformed {
                        bytes,
                        kind,
                        warnings,
                        new_object: None,
                    });
                }
                Ok(None) => {}
                Err(problem) => problems.push(problem),
            }
        }
        let Rewritten { bytes, warnings } = match self.request.scheme.rewrite_class(bytes) {
            Err(RewriteError::ClassFile(error)) if is_for_a_future_jvm(name, &error) => {
                // Not stored: the same bytes elsewhere are an error.
                let class = name.strip_suffix(".class").unwrap_or(name);
                let class = class.split('/').skip(3).collect::<Vec<_>>().join("/");
                return Ok(Transformed {
                    warnings: vec![KeptWarning {
                        class,
                        method: None,
                        reason: format!("class kept as it was: {error}"),
                    }],
                    ..as_is(Kind::Unchanged)
                });
            }
            result => result?,
        };
        let kind = if bytes.is_some() {
            Kind::Rewritten
        } else {
            Kind::Unchanged
        };
        Ok(Transformed {
            bytes,
            kind,
            warnings: warnings.into_iter().map(KeptWarning::from).collect(),
            new_object: cached.map(|(_, key)| key),
        })
    }

    /// Stores a new rewrite in the cache, if there is one: as a link to
    /// `output` when the class was written to a file of its own, else as a
    /// copy.
    pub(super) fn store(
        &self,
        transformed: &Transformed,
        output: Option<&Path>,
        problems: &mut Vec<CacheProblem>,
    ) {
        if let (Some(objects), Some(key)) = (self.objects, &transformed.new_object) {
            let stored = objects.put(key, transformed.bytes.as_deref(), &transformed.warnings, output);
            problems.extend(stored.err());
        }
    }
}

/// Whether `error` says that the class `name` is newer than JP reads and
/// the class lies under a multi-release jar's `META-INF/versions/N/`, where
/// only a JVM of release N or later looks. Such a class is kept as it was
/// (with a warning) instead of failing its whole jar.
fn is_for_a_future_jvm(name: &str, error: &ClassFileError) -> bool {
    let versioned = name
        .strip_prefix("META-INF/versions/")
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(version, _)| version.parse::<u32>().is_ok());
    versioned
        && matches!(
            error,
            ClassFileError::UnsupportedVersion { major, .. } if *major > jp_classfile::MAX_MAJOR_VERSION
        )
}
