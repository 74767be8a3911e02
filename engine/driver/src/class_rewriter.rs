//! One class at a time, in memory: what the load-time agent (`agent/`,
//! through `jp-jni`) asks for each class the JVM loads. The settings are
//! those of an instrument request without inputs and output, resolved once
//! ([`ClassRewriter::new`]) through [`crate::config::effective`] as the CLI's
//! and the build plugins' are; each class then goes through the same class
//! filter and the same scheme as `jp instrument`'s, so it gets the same bytes.
//!
//! With a cache directory, answers are kept on disk by the key of the
//! incremental cache (the scheme fingerprint and the SHA-256 of the class's
//! bytes, [`crate::cache::object_key`]), one file each ([`ClassStore`]).
//!
//! ```no_run
//! use jp_driver::class_rewriter::ClassRewriter;
//! let rewriter = ClassRewriter::from_json(r#"{"bba": "precise", "include": ["com.acme.**"]}"#)?;
//! let bytes = std::fs::read("/p/classes/com/acme/Main.class")?;
//! if let Some(answer) = rewriter.rewrite("com/acme/Main", &bytes)? {
//!     answer.warnings.iter().for_each(|w| eprintln!("jp: {w}"));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use jp_rewrite::profile::ProfileOptions;
use jp_rewrite::{RewriteError, Rewritten};
use serde::{Deserialize, Serialize};

use crate::api::check_absolute;
use crate::cache::{object_key, scheme_fingerprint, KeptWarning, Sha};
use crate::class_store::ClassStore;
use crate::config::{self, BbaName};
use crate::error::EngineError;
use crate::filter::{ClassFilter, ClassPattern};
use crate::scheme::Scheme;

/// How classes are rewritten: an instrument request's settings, without
/// inputs and output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RewriterSettings {
    /// The basic-block analysis; wins over the configuration file's.
    #[serde(default)]
    pub bba: Option<BbaName>,
    /// Per-line counts; wins over the configuration file's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<bool>,
    /// Native methods as contexts, through wrappers that call them renamed
    /// (`jp_rewrite::profile::ProfileOptions::natives`): only for a JVM
    /// whose native method prefix the agent set. Off when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natives: Option<bool>,
    /// Include patterns, added to the configuration file's.
    #[serde(default)]
    pub include: Vec<ClassPattern>,
    /// Exclude patterns, added to the configuration file's.
    #[serde(default)]
    pub exclude: Vec<ClassPattern>,
    /// A `jp.toml`; absolute.
    #[serde(default)]
    pub config_file: Option<PathBuf>,
    /// Where answers are cached; absolute. Without one, every class is
    /// rewritten each time it loads.
    #[serde(default)]
    pub cache_dir: Option<PathBuf>,
}

/// A class that could not be read at all: it is to be left as it was.
#[derive(Debug, thiserror::Error)]
#[error("{class}")]
pub struct ClassError {
    /// The binary name of the class (`com.acme.Main`).
    pub class: String,
    /// Why.
    #[source]
    pub source: RewriteError,
}

/// What became of a class the filter admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The rewritten class; `None`: keep it as it was.
    pub bytes: Option<Vec<u8>>,
    /// What was kept as it was, and why (`com/acme/Main.run()V: ...`), and
    /// problems of the cache that were worked around.
    pub warnings: Vec<String>,
}

/// The JSON head of an encoded [`Answer`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    warnings: Vec<String>,
}

/// Why bytes are not an encoded [`Answer`].
#[derive(Debug, thiserror::Error)]
pub enum AnswerDecodeError {
    /// Shorter than its head says.
    #[error("truncated answer")]
    Truncated,
    /// The head is not the JSON of an answer.
    #[error("malformed answer head")]
    Head(#[source] serde_json::Error),
}

impl Answer {
    /// The answer as it crosses to Java and as the cache keeps it: the
    /// length of the JSON head (`{"warnings": [...]}`, UTF-8) as a 4-byte
    /// big-endian integer, the head, then the rewritten class (nothing when
    /// the class is kept as it was).
    pub fn encode(&self) -> Vec<u8> {
        let head = serde_json::to_vec(&Head {
            warnings: self.warnings.clone(),
        })
        .expect("a list of strings always serialises");
        let class = self.bytes.as_deref().unwrap_or_default();
        let mut out = Vec::with_capacity(4 + head.len() + class.len());
        let length = u32::try_from(head.len()).expect("warnings shorter than 4 GiB");
        out.extend_from_slice(&length.to_be_bytes());
        out.extend_from_slice(&head);
        out.extend_from_slice(class);
        out
    }

    /// Reads what [`Answer::encode`] wrote.
    ///
    /// # Errors
    /// Bytes too short for their head, or a head that is not an answer's.
    pub fn decode(bytes: &[u8]) -> Result<Answer, AnswerDecodeError> {
        let (length, rest) = bytes
            .split_first_chunk::<4>()
            .ok_or(AnswerDecodeError::Truncated)?;
        let length =
            usize::try_from(u32::from_be_bytes(*length)).map_err(|_| AnswerDecodeError::Truncated)?;
        let (head, class) = rest
            .split_at_checked(length)
            .ok_or(AnswerDecodeError::Truncated)?;
        let Head { warnings } = serde_json::from_slice(head).map_err(AnswerDecodeError::Head)?;
        Ok(Answer {
            bytes: (!class.is_empty()).then(|| class.to_vec()),
            warnings,
        })
    }
}

/// Rewrites classes one by one, under settings resolved once.
#[derive(Debug)]
pub struct ClassRewriter {
    options: ProfileOptions,
    filter: ClassFilter,
    /// See [`scheme_fingerprint`]: with a class's digest, its cache key.
    fingerprint: String,
    store: Option<ClassStore>,
    /// Set once a failed cache write has been reported: the next ones
    /// would say the same for every class.
    write_problem_reported: AtomicBool,
}

impl ClassRewriter {
    /// Resolves the settings: reads the configuration file, merges it with
    /// the given settings.
    ///
    /// # Errors
    /// A relative path, or a configuration file that is unreadable or
    /// invalid, naming the file.
    pub fn new(settings: &RewriterSettings) -> Result<ClassRewriter, EngineError> {
        if let Some(path) = &settings.config_file {
            check_absolute("configFile", path)?;
        }
        if let Some(dir) = &settings.cache_dir {
            check_absolute("cacheDir", dir)?;
        }
        let (options, filter) = config::effective(
            settings.config_file.as_deref(),
            settings.bba,
            settings.lines,
            None, // call sites only from the configuration file
            None, // and extra metrics
            &settings.include,
            &settings.exclude,
        )?;
        let options = ProfileOptions {
            natives: settings.natives.unwrap_or(false),
            ..options
        };
        Ok(ClassRewriter {
            fingerprint: scheme_fingerprint(&options.identifier()),
            options,
            filter,
            store: settings.cache_dir.as_deref().map(ClassStore::new),
            write_problem_reported: AtomicBool::new(false),
        })
    }

    /// [`ClassRewriter::new`] with the settings as JSON (docs/engine-json.md).
    ///
    /// # Errors
    /// JSON that is not the settings' (unknown fields included, and bad
    /// patterns), and the errors of [`ClassRewriter::new`].
    pub fn from_json(settings_json: &str) -> Result<ClassRewriter, EngineError> {
        let settings: RewriterSettings =
            serde_json::from_str(settings_json).map_err(EngineError::RequestJson)?;
        ClassRewriter::new(&settings)
    }

    /// Rewrites the class `name` (internal form, `com/acme/Main`, as the
    /// JVM names it) whose bytes are `bytes`. `None`: the class filter
    /// leaves it alone.
    ///
    /// # Errors
    /// A class that cannot be read at all (malformed, of a version JP does
    /// not read, already instrumented), naming the class. What cannot be
    /// rewritten within a class is kept as it was, with a warning.
    pub fn rewrite(&self, name: &str, bytes: &[u8]) -> Result<Option<Answer>, ClassError> {
        let class = name.replace('/', ".");
        if !self.filter.accepts(&class) {
            return Ok(None);
        }
        let key = object_key(&self.fingerprint, &Sha::of(bytes));
        let mut problems = Vec::new();
        if let Some(store) = &self.store {
            match store.get(&key) {
                Ok(Some(answer)) => return Ok(Some(answer)),
                Ok(None) => {}
                Err(problem) => problems.push(problem.to_string()),
            }
        }
        let Rewritten { bytes, warnings } = self
            .options
            .rewrite_class(bytes)
            .map_err(|source| ClassError { class, source })?;
        let answer = Answer {
            bytes,
            warnings: warnings
                .into_iter()
                .map(|w| KeptWarning::from(w).to_string())
                .collect(),
        };
        if let Some(store) = &self.store {
            if let Err(problem) = store.put(&key, &answer) {
                if !self.write_problem_reported.swap(true, Ordering::Relaxed) {
                    problems.push(format!("{problem} (not reported again)"));
                }
            }
        }
        Ok(Some(Answer {
            warnings: answer.warnings.into_iter().chain(problems).collect(),
            ..answer
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;

    fn rewriter(json: &str) -> ClassRewriter {
        ClassRewriter::from_json(json).unwrap()
    }

    fn sample() -> Vec<u8> {
        jp_testdata::class("java8/AllInstructions.class")
    }

    #[test]
    fn a_class_is_rewritten_as_jp_instrument_rewrites_it() {
        let answer = rewriter(r#"{"bba":"precise"}"#)
            .rewrite("AllInstructions", &sample())
            .unwrap()
            .unwrap();
        let expected = jp_rewrite::profile::profile_class(
            &sample(),
            &ProfileOptions {
                analysis: jp_rewrite::blocks::Analysis::Precise,
                lines: false,
                call_sites: false,
                natives: false,
                allocations: false,
                probes: Default::default(),
            },
        )
        .unwrap();
        assert_eq!(answer.bytes, expected.bytes);
        assert!(answer.bytes.is_some());
    }

    #[test]
    fn natives_are_off_unless_given_and_part_of_the_cache_key() {
        let (off, on) = (rewriter("{}"), rewriter(r#"{"natives":true}"#));
        assert!(!off.options.natives);
        assert!(on.options.natives);
        assert_ne!(off.fingerprint, on.fingerprint);
    }

    #[test]
    fn bad_bytes_are_an_error_naming_the_class() {
        let error = rewriter("{}")
            .rewrite("com/acme/Broken", b"\xca\xfe\xba")
            .unwrap_err();
        assert_eq!(error.class, "com.acme.Broken");
        assert!(matches!(error.source, RewriteError::ClassFile(_)));
        let chain = crate::error::chain(&error);
        assert!(
            chain.starts_with("com.acme.Broken: malformed class file: "),
            "{chain}"
        );
    }

    #[test]
    fn an_instrumented_class_is_an_error_naming_the_class() {
        let rewriter = rewriter("{}");
        let once = rewriter.rewrite("AllInstructions", &sample()).unwrap().unwrap();
        let error = rewriter
            .rewrite("AllInstructions", &once.bytes.unwrap())
            .unwrap_err();
        assert!(matches!(error.source, RewriteError::AlreadyInstrumented));
        assert!(error.source().is_some());
    }

    #[test]
    fn the_filter_and_its_defaults_decide_which_classes_are_rewritten() {
        let rewriter = rewriter(r#"{"include":["com.acme.**"],"exclude":["**Test"]}"#);
        assert!(rewriter.rewrite("org/other/Main", &sample()).unwrap().is_none());
        assert!(rewriter
            .rewrite("com/acme/MainTest", &sample())
            .unwrap()
            .is_none());
        assert!(rewriter.rewrite("com/acme/Main", &sample()).unwrap().is_some());
        let defaults = ClassRewriter::from_json("{}").unwrap();
        assert!(defaults
            .rewrite("sun/tools/attach/VirtualMachineImpl", &sample())
            .unwrap()
            .is_none());
    }

    #[test]
    fn unknown_settings_and_relative_paths_are_refused() {
        let error = ClassRewriter::from_json(r#"{"output":"/o"}"#).unwrap_err();
        assert!(matches!(error, EngineError::RequestJson(_)));
        let error = ClassRewriter::from_json(r#"{"cacheDir":"cache"}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid request: cacheDir is not an absolute path: cache"
        );
    }

    #[test]
    fn a_configuration_file_is_read_once_when_the_rewriter_is_made() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("jp.toml");
        std::fs::write(&file, "[instrument]\nexclude = [\"com.acme.**\"]\n").unwrap();
        let settings = RewriterSettings {
            config_file: Some(file.clone()),
            ..RewriterSettings::default()
        };
        let rewriter = ClassRewriter::new(&settings).unwrap();
        std::fs::remove_file(&file).unwrap();
        assert!(rewriter.rewrite("com/acme/Main", &sample()).unwrap().is_none());
        let error = ClassRewriter::new(&settings).unwrap_err();
        assert!(matches!(error, EngineError::Config(_)));
    }

    #[test]
    fn the_cache_gives_the_same_answer_and_survives_damage() {
        let dir = tempfile::tempdir().unwrap();
        let json = format!(r#"{{"cacheDir":"{}"}}"#, dir.path().display());
        let first = rewriter(&json)
            .rewrite("AllInstructions", &sample())
            .unwrap()
            .unwrap();
        let again = rewriter(&json)
            .rewrite("AllInstructions", &sample())
            .unwrap()
            .unwrap();
        assert_eq!(first, again);
        let entries = crate::class_store::tests::entries(dir.path());
        assert_eq!(entries.len(), 1);
        std::fs::write(&entries[0], b"damaged").unwrap();
        let repaired = rewriter(&json)
            .rewrite("AllInstructions", &sample())
            .unwrap()
            .unwrap();
        assert_eq!(repaired.bytes, first.bytes);
        assert_eq!(repaired.warnings.len(), 1);
        assert!(
            repaired.warnings[0].contains("damaged"),
            "{:?}",
            repaired.warnings
        );
        let clean = rewriter(&json)
            .rewrite("AllInstructions", &sample())
            .unwrap()
            .unwrap();
        assert_eq!(clean, first);
    }

    #[test]
    fn other_settings_do_not_share_cache_entries() {
        let dir = tempfile::tempdir().unwrap();
        let with = |bba: &str| {
            let json = format!(r#"{{"bba":"{bba}","cacheDir":"{}"}}"#, dir.path().display());
            rewriter(&json)
                .rewrite("AllInstructions", &sample())
                .unwrap()
                .unwrap()
        };
        assert_ne!(with("default").bytes, with("precise").bytes);
        assert_eq!(crate::class_store::tests::entries(dir.path()).len(), 2);
    }

    #[test]
    fn an_answer_reads_back_what_it_wrote() {
        for answer in [
            Answer {
                bytes: Some(vec![0xca, 0xfe]),
                warnings: vec!["A.run()V: too large".to_owned()],
            },
            Answer {
                bytes: None,
                warnings: Vec::new(),
            },
        ] {
            assert_eq!(Answer::decode(&answer.encode()).unwrap(), answer);
        }
        assert!(matches!(
            Answer::decode(b"\0\0"),
            Err(AnswerDecodeError::Truncated)
        ));
        assert!(matches!(
            Answer::decode(b"\0\0\0\x09{\"w\":[]}"),
            Err(AnswerDecodeError::Truncated)
        ));
        assert!(matches!(
            Answer::decode(b"\0\0\0\x02{}"),
            Err(AnswerDecodeError::Head(_))
        ));
    }
}
