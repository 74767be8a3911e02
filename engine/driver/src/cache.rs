//! The incremental cache (docs/architecture.md, "Incremental rewriting and the cache"): what lets a second run over
//! unchanged inputs rewrite nothing, and a run after an edit rewrite only
//! the edited classes.
//!
//! A cache directory holds:
//! ```text
//! CACHE/lock                 locked for the whole run, so runs sharing the cache take turns
//! CACHE/manifests/<h>.json   one per output directory (h: SHA-256 of its canonical path)
//! CACHE/objects/ab/cdef...   rewritten classes, named by their key (below)
//! CACHE/objects.idx          the digest and warnings of every key ([`crate::objects`])
//! CACHE/objects.adding       present while a run adds objects ([`crate::objects`])
//! ```
//!
//! **Objects.** The key of a rewritten class is the SHA-256 of the
//! *scheme fingerprint* (the engine's version, a hash of the sources that
//! decide the output (`JP_BUILD_ID`, see `build.rs`), this cache's format
//! and the scheme with its options, `bba` included) followed by the SHA-256
//! of the input bytes. So the same class under the same options finds its
//! rewrite again wherever it comes from, and switching an option back, or
//! checking an older version of a class out again, rewrites nothing. An
//! object holds the rewritten bytes, checked against the digest the index
//! records for its key: an object that is truncated or altered is detected
//! on read, reported, and recomputed. How objects are stored is
//! [`crate::objects`]'s business.
//!
//! **Hierarchy facts.** A rewrite depends on nothing but the class's own
//! bytes and the scheme's options: the profiling scheme and the stress
//! scheme take one class file and read no other class (leaf methods, loop
//! headers and the basic blocks are found within the method, and the
//! `serialVersionUID` from the class itself). So the set of facts about
//! other classes is empty, and an edit re-instruments exactly the edited
//! classes. A future rewrite that looks at other classes (a cross-class
//! `arguments` mode, say) must add what it reads to the key.
//!
//! **Manifests.** The manifest of an output directory records, for every
//! input file (a file of a directory input, a class file, a jar or a jmod),
//! its size, times and SHA-256, the output files it produced with their size
//! and times, its counts and its warnings, under a *run fingerprint*: the
//! scheme fingerprint plus the class filter. An input is up to date without
//! being read when its size and times (modification, and status change on
//! Unix) are as recorded, were recorded at least 3 seconds (`RACY_NANOS`)
//! before the recording run started (so that an edit within the file
//! system's time granularity cannot hide), and its outputs are as recorded.
//! Otherwise it is read and hashed: the same hash with its outputs in place
//! is up to date too; a different one is processed again (its classes
//! through the objects). A manifest written under another run fingerprint
//! serves only to delete the outputs whose input is gone. The manifest is
//! written atomically, last, so a run that is stopped half way leaves the
//! previous one, whose recorded output times no longer match what was
//! rewritten.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::objects::ObjectStore;
use crate::output::{remove_temporaries, write_atomically};

/// The version of the manifest, object and index formats.
const FORMAT: u32 = 2;

/// How long before the start of the run that recorded it a modification
/// time must lie for the time (with the size) to be trusted: more than the
/// coarsest time granularity of common file systems (FAT's 2 s).
pub(crate) const RACY_NANOS: u64 = 3_000_000_000;

/// A SHA-256 digest, written in lowercase hex.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Sha(pub(crate) [u8; 32]);

impl Sha {
    /// The digest of `bytes`.
    pub(crate) fn of(bytes: &[u8]) -> Sha {
        Sha(Sha256::digest(bytes).into())
    }

    /// The digest of several byte strings, each preceded by its length.
    fn of_parts(parts: &[&[u8]]) -> Sha {
        let mut hasher = Sha256::new();
        for part in parts {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        Sha(hasher.finalize().into())
    }

    fn hex(&self) -> String {
        self.to_string()
    }

    fn from_hex(text: &str) -> Option<Sha> {
        if text.len() != 64 {
            return None;
        }
        let mut bytes = [0; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(Sha(bytes))
    }
}

impl fmt::Display for Sha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Sha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha({self})")
    }
}

impl Serialize for Sha {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.hex())
    }
}

impl<'de> Deserialize<'de> for Sha {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Sha::from_hex(&text).ok_or_else(|| serde::de::Error::custom("not a SHA-256 in hex"))
    }
}

/// The key of an object: the scheme fingerprint and the input's digest.
pub(crate) fn object_key(scheme_fingerprint: &str, input: &Sha) -> Sha {
    Sha::of_parts(&[scheme_fingerprint.as_bytes(), &input.0])
}

/// What decides how one class is rewritten: the engine's version and
/// sources, the cache format and the scheme with its options.
pub(crate) fn scheme_fingerprint(scheme: &str) -> String {
    format!(
        "jp {} build {} format {FORMAT} scheme {scheme}",
        crate::VERSION,
        env!("JP_BUILD_ID")
    )
}

/// A file's size, modification time and (on Unix) status change time, in
/// nanoseconds since the epoch. The change time cannot be set by a program:
/// a file written and then given its old modification time back still shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stat {
    pub(crate) size: u64,
    pub(crate) mtime: u64,
    pub(crate) ctime: u64,
}

impl Stat {
    #[cfg(unix)]
    pub(crate) fn of(metadata: &Metadata) -> Stat {
        use std::os::unix::fs::MetadataExt;
        Stat {
            size: metadata.len(),
            mtime: Stat::nanos(metadata.mtime(), metadata.mtime_nsec()),
            ctime: Stat::nanos(metadata.ctime(), metadata.ctime_nsec()),
        }
    }

    #[cfg(not(unix))]
    pub(crate) fn of(metadata: &Metadata) -> Stat {
        Stat {
            size: metadata.len(),
            mtime: metadata.modified().map_or(0, nanos_since_epoch),
            ctime: 0,
        }
    }

    /// A file time given as seconds and nanoseconds since the epoch, in
    /// nanoseconds (0 before the epoch).
    #[cfg(unix)]
    pub(crate) fn nanos(seconds: i64, nanos: i64) -> u64 {
        u64::try_from(seconds).map_or(0, |seconds| {
            seconds
                .saturating_mul(1_000_000_000)
                .saturating_add(u64::try_from(nanos).unwrap_or(0))
        })
    }

    /// The later of its times.
    fn latest(&self) -> u64 {
        self.mtime.max(self.ctime)
    }
}

/// `time` in nanoseconds since the epoch (0 before it).
pub(crate) fn nanos_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// A method or class kept as it was, as recorded in objects and manifests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptWarning {
    /// Internal name of the class.
    pub class: String,
    /// `name(descriptor)` of the method; `None` when the whole class was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Why it was kept.
    pub reason: String,
}

impl From<jp_rewrite::Warning> for KeptWarning {
    fn from(warning: jp_rewrite::Warning) -> Self {
        KeptWarning {
            class: warning.class,
            method: warning.method,
            reason: warning.reason.to_string(),
        }
    }
}

impl fmt::Display for KeptWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.method {
            Some(method) => write!(f, "{}.{}: {}", self.class, method, self.reason),
            None => write!(f, "{}: {}", self.class, self.reason),
        }
    }
}

/// Something wrong with the cache, found and worked around: the entry was
/// recomputed (or, for a write, the cache simply misses it next time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheProblem {
    /// The cache file.
    pub path: PathBuf,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for CacheProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// A cache directory.
#[derive(Debug)]
pub(crate) struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// Creates the directory and its subdirectories when missing.
    pub(crate) fn open(dir: &Path) -> io::Result<Cache> {
        fs::create_dir_all(dir.join("objects"))?;
        fs::create_dir_all(dir.join("manifests"))?;
        Ok(Cache { dir: dir.to_owned() })
    }

    /// The lock file's path.
    pub(crate) fn lock_path(&self) -> PathBuf {
        self.dir.join("lock")
    }

    /// The lock file, opened (created when missing) for locking.
    pub(crate) fn lock_file(&self) -> io::Result<File> {
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(self.lock_path())
    }

    /// Where the manifest of the output directory `output` (canonical) lives.
    fn manifest_path(&self, output: &Path) -> PathBuf {
        let name = Sha::of(output.to_string_lossy().as_bytes());
        self.dir.join("manifests").join(format!("{name}.json"))
    }

    /// The manifest of `output`, if there is a usable one. One written by
    /// another format version is ignored; a damaged one is a problem.
    pub(crate) fn load_manifest(&self, output: &Path) -> (Option<Manifest>, Option<CacheProblem>) {
        let path = self.manifest_path(output);
        let problem = |message: String| {
            Some(CacheProblem {
                path: path.clone(),
                message,
            })
        };
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (None, None),
            Err(e) => {
                return (
                    None,
                    problem(format!("unreadable manifest ({e}); everything is checked again")),
                )
            }
        };
        // Parsed once as a manifest of this format; only when that fails is
        // the format alone read, to tell another version from damage.
        let manifest_error = match serde_json::from_slice::<Manifest>(&bytes) {
            Ok(manifest) if manifest.format != FORMAT => return (None, None),
            Ok(manifest) if Path::new(&manifest.output) == output => return (Some(manifest), None),
            Ok(manifest) => {
                return (
                    None,
                    problem(format!(
                        "manifest of another output ({}); everything is checked again",
                        manifest.output
                    )),
                )
            }
            Err(e) => e,
        };
        #[derive(Deserialize)]
        struct Format {
            format: u32,
        }
        match serde_json::from_slice::<Format>(&bytes) {
            Ok(Format { format }) if format != FORMAT => (None, None),
            Ok(_) => (
                None,
                problem(format!(
                    "damaged manifest ({manifest_error}); everything is checked again"
                )),
            ),
            Err(e) => (
                None,
                problem(format!("damaged manifest ({e}); everything is checked again")),
            ),
        }
    }

    /// Writes the manifest of its output directory, atomically.
    pub(crate) fn save_manifest(&self, manifest: &Manifest) -> Result<(), CacheProblem> {
        let path = self.manifest_path(Path::new(&manifest.output));
        let json = serde_json::to_vec(manifest).expect("a manifest always serialises");
        write_atomically(&path, &json).map_err(|e| CacheProblem {
            path,
            message: format!("cannot write the manifest ({e}); the next run checks everything again"),
        })
    }

    /// Deletes the temporary files that a killed run left in the cache
    /// (the caller holds its lock).
    pub(crate) fn remove_temporaries(&self) {
        remove_temporaries(&self.dir, 1);
        remove_temporaries(&self.dir.join("manifests"), 1);
        self.objects().remove_temporaries();
    }

    /// The store of rewritten classes.
    pub(crate) fn objects(&self) -> ObjectStore {
        ObjectStore::new(&self.dir)
    }
}

/// What a cache holds about one output directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Manifest {
    /// [`FORMAT`].
    pub(crate) format: u32,
    /// The run fingerprint (hex SHA-256) under which the records were made.
    pub(crate) fingerprint: Sha,
    /// The canonical path of the output directory.
    pub(crate) output: String,
    /// When the run that wrote it started (nanoseconds since the epoch).
    pub(crate) started: u64,
    /// Per input file, by its absolute path.
    pub(crate) units: BTreeMap<String, UnitRecord>,
}

impl Manifest {
    /// A new manifest.
    pub(crate) fn new(fingerprint: Sha, output: &Path, started: u64) -> Manifest {
        Manifest {
            format: FORMAT,
            fingerprint,
            output: output.to_string_lossy().into_owned(),
            started,
            units: BTreeMap::new(),
        }
    }

    /// Whether `record`'s stat can be trusted: its time lies well before
    /// the run that recorded it started.
    pub(crate) fn is_racy(&self, record: &UnitRecord) -> bool {
        record.input.latest().saturating_add(RACY_NANOS) >= self.started
    }
}

/// What one input file was and what it produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct UnitRecord {
    /// Its size and time when it was hashed.
    pub(crate) input: Stat,
    /// The SHA-256 of its bytes.
    pub(crate) sha256: Sha,
    /// The files written for it, relative to the output directory.
    pub(crate) outputs: Vec<OutputRecord>,
    /// Classes written rewritten.
    pub(crate) instrumented: u32,
    /// Classes written as they were.
    pub(crate) unchanged: u32,
    /// Other files copied.
    pub(crate) copied: u32,
    /// Methods or classes kept as they were (with the archive entry, if any).
    pub(crate) warnings: Vec<EntryWarning>,
}

/// One output file of an input file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OutputRecord {
    /// Relative to the output directory, `/`-separated.
    pub(crate) path: String,
    /// Its size and time right after it was written.
    pub(crate) stat: Stat,
}

/// A warning about an archive entry (or, without one, the file itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EntryWarning {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) entry: Option<String>,
    pub(crate) warning: KeptWarning,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_id_hashes_the_sources_of_every_crate_that_decides_the_output() {
        // A crate moved or renamed without `build.rs` following would drop
        // out of the hash silently: a cache filled by older rewriting code
        // would then be served by newer code.
        let hashed: Vec<&str> = env!("JP_BUILD_SOURCES").split(' ').collect();
        assert_eq!(
            hashed,
            ["../classfile/src", "../bytecode/src", "../rewrite/src", "src"]
        );
    }

    #[test]
    fn digests_are_written_and_read_as_hex() {
        let sha = Sha::of(b"abc");
        assert_eq!(
            sha.to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Sha::from_hex(&sha.to_string()), Some(sha));
        assert_eq!(Sha::from_hex("xyz"), None);
    }

    #[test]
    fn a_time_recorded_close_to_the_run_start_is_racy() {
        let mut manifest = Manifest::new(Sha::of(b""), Path::new("/out"), 10 * RACY_NANOS);
        let mut record = UnitRecord {
            input: Stat {
                size: 1,
                mtime: 0,
                ctime: 0,
            },
            sha256: Sha::of(b""),
            outputs: Vec::new(),
            instrumented: 0,
            unchanged: 0,
            copied: 0,
            warnings: Vec::new(),
        };
        assert!(!manifest.is_racy(&record));
        record.input.mtime = 9 * RACY_NANOS;
        assert!(manifest.is_racy(&record));
        record.input.mtime = 0;
        record.input.ctime = 9 * RACY_NANOS;
        assert!(manifest.is_racy(&record));
        manifest.started = u64::MAX;
        record.input.mtime = u64::MAX;
        assert!(manifest.is_racy(&record));
    }
}
