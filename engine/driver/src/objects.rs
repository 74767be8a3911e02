//! The cache's store of rewritten classes (see [`crate::cache`] for the
//! keys and the manifests).
//!
//! ```text
//! CACHE/objects/ab/cdef...   a rewritten class, byte for byte, named by its key
//! CACHE/objects.idx          what is known of every key: the digest of its object, its warnings
//! CACHE/objects.adding       present while a run adds objects
//! ```
//!
//! An object file holds exactly the bytes of the class as written to the
//! output, so that it can be a second hard link to the output file instead
//! of a copy: creating a file costs far more than linking one on common
//! file systems, and a cold run would otherwise create every class twice.
//! Outputs are always replaced by a rename, never written in place, so the
//! object keeps its bytes when its output is rewritten. Where a link cannot
//! be made (another file system, or none of them), the object is a copy.
//!
//! The index records, for every key: whether the class was rewritten (a
//! class kept as it was has no object file, only its entry, so that its
//! warnings come back without parsing it), the SHA-256 of its object, and
//! its warnings. It is read when a run first needs an object and written,
//! atomically, at the end of a run that added entries; runs sharing the
//! cache take turns under its lock. An object whose digest does not match,
//! and an index that does not check out, are reported and recomputed. An
//! entry whose object file is missing counts as absent.
//!
//! Objects are written, and replaced, through temporary files and links
//! named as all of JP's temporary files are. A run that dies while adding
//! objects leaves its marker, `objects.adding`; the next run then deletes
//! the temporary files in `objects/`, and only then, as the store is large.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use serde::{Deserialize, Serialize};

use crate::cache::{CacheProblem, KeptWarning, Sha};
use crate::output::{remove_temporaries, temporary_builder, write_atomically};

/// The first bytes of the index file.
const INDEX_MAGIC: &[u8; 8] = b"JPIDX1\n\0";

/// A class as the cache knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CachedRewrite {
    /// The rewritten class, or `None` when it is written as it was.
    pub(crate) bytes: Option<Vec<u8>>,
    /// Methods (or the class) kept as they were.
    pub(crate) warnings: Vec<KeptWarning>,
}

/// The index entry of one key.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    /// The digest of the object file; `None` when the class is kept as it was.
    object: Option<Sha>,
    warnings: Vec<KeptWarning>,
}

/// The warnings part of an index entry.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryWarnings(Vec<KeptWarning>);

/// The index as loaded, with whether this run added to it and what was
/// wrong with the file, to be reported once.
#[derive(Debug, Default)]
struct Index {
    entries: HashMap<Sha, Entry>,
    changed: bool,
    problem: Option<CacheProblem>,
}

/// Rewritten classes by key: `objects/ab/cdef...` for the key `abcdef...`.
#[derive(Debug)]
pub(crate) struct ObjectStore {
    dir: PathBuf,
    index_path: PathBuf,
    /// Loaded on first use: a run with nothing to rewrite never reads it.
    index: Mutex<Option<Index>>,
    /// `CACHE/objects.adding`: present while a run adds objects.
    adding_marker: PathBuf,
    /// Set once this run has created the marker and the fan-out directories.
    adding: OnceLock<()>,
}

impl ObjectStore {
    /// The store of the cache directory `cache`.
    pub(crate) fn new(cache: &Path) -> ObjectStore {
        ObjectStore {
            dir: cache.join("objects"),
            index_path: cache.join("objects.idx"),
            index: Mutex::new(None),
            adding_marker: cache.join("objects.adding"),
            adding: OnceLock::new(),
        }
    }

    fn path(&self, key: &Sha) -> PathBuf {
        let hex = key.to_string();
        self.dir.join(&hex[..2]).join(&hex[2..])
    }

    /// The index, loaded when this is its first use.
    fn index(&self) -> MutexGuard<'_, Option<Index>> {
        let mut index = self.index.lock().unwrap_or_else(PoisonError::into_inner);
        if index.is_none() {
            *index = Some(load_index(&self.index_path));
        }
        index
    }

    fn entry(&self, key: &Sha) -> Option<Entry> {
        self.index()
            .as_ref()
            .and_then(|index| index.entries.get(key).cloned())
    }

    /// The class stored under `key`, `None` when there is none.
    ///
    /// # Errors
    /// An object that cannot be read or does not check out: the caller
    /// recomputes it (and stores it again).
    pub(crate) fn get(&self, key: &Sha) -> Result<Option<CachedRewrite>, CacheProblem> {
        let Some(entry) = self.entry(key) else {
            return Ok(None);
        };
        let Some(digest) = entry.object else {
            return Ok(Some(CachedRewrite {
                bytes: None,
                warnings: entry.warnings,
            }));
        };
        let path = self.path(key);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(CacheProblem {
                    path,
                    message: format!("unreadable cache object ({e}); recomputed"),
                })
            }
        };
        if Sha::of(&bytes) != digest {
            return Err(CacheProblem {
                path,
                message: "damaged cache object (its digest does not match); recomputed".to_owned(),
            });
        }
        Ok(Some(CachedRewrite {
            bytes: Some(bytes),
            warnings: entry.warnings,
        }))
    }

    /// Stores under `key` a class rewritten to `bytes` (`None`: kept as it
    /// was) with its `warnings`. When `output` is given, it is the file the
    /// bytes were just written to, and the object becomes a second link to
    /// it; otherwise, or when linking fails, the object is written as a copy.
    ///
    /// # Errors
    /// When the object cannot be written; the output is not affected, and
    /// the cache misses the class next time.
    pub(crate) fn put(
        &self,
        key: &Sha,
        bytes: Option<&[u8]>,
        warnings: &[KeptWarning],
        output: Option<&Path>,
    ) -> Result<(), CacheProblem> {
        if let Some(bytes) = bytes {
            let path = self.path(key);
            let linked = output.is_some_and(|output| self.link(output, &path).is_ok());
            if !linked {
                self.begin_adding().map_err(|e| CacheProblem {
                    path: self.adding_marker.clone(),
                    message: format!(
                        "cannot mark the cache as being added to ({e}); the class will be rewritten next time"
                    ),
                })?;
                write_atomically(&path, bytes).map_err(|e| CacheProblem {
                    path,
                    message: format!(
                        "cannot write the cache object ({e}); the class will be rewritten next time"
                    ),
                })?;
            }
        }
        let entry = Entry {
            object: bytes.map(Sha::of),
            warnings: warnings.to_vec(),
        };
        if let Some(index) = self.index().as_mut() {
            index.entries.insert(*key, entry);
            index.changed = true;
        }
        Ok(())
    }

    /// Makes `path` a link to `source`. A new object is linked in place
    /// (a link appears whole); one that exists already (damaged, or left by
    /// a run that stopped before writing the index) is replaced in one
    /// rename, so that a reader never finds it missing or half written.
    fn link(&self, source: &Path, path: &Path) -> io::Result<()> {
        self.begin_adding()?;
        match fs::hard_link(source, path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            linked => return linked,
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let temporary = temporary_builder()
            .make_in(dir, |temporary| fs::hard_link(source, temporary))?
            .into_temp_path();
        // A rename between two links of one file does nothing (POSIX), and
        // a failed one leaves the temporary link behind: dropping the
        // temporary path deletes it in both cases.
        fs::rename(&temporary, path)
    }

    /// Once per run that stores objects: marks the store as being added
    /// to (see [`ObjectStore::remove_temporaries`]) and creates the 256
    /// directories `objects/00` to `objects/ff`, so that storing one is a
    /// single link.
    fn begin_adding(&self) -> io::Result<()> {
        if self.adding.get().is_none() {
            for byte in 0..=255u8 {
                fs::create_dir_all(self.dir.join(format!("{byte:02x}")))?;
            }
            fs::File::create(&self.adding_marker)?;
            let _ = self.adding.set(());
        }
        Ok(())
    }

    /// Deletes the temporary files that a run killed while it was adding
    /// objects left in `objects/`. The marker that such a run leaves
    /// behind tells, so that the (large) store is walked only then. The
    /// caller holds the cache's lock: no other run is adding objects.
    pub(crate) fn remove_temporaries(&self) {
        if self.adding_marker.exists() {
            remove_temporaries(&self.dir, 2);
            let _ = fs::remove_file(&self.adding_marker);
        }
    }

    /// Writes the index when this run added to it, and reports a problem
    /// met while loading it.
    ///
    /// # Errors
    /// Every problem, to be reported; none stops the run.
    pub(crate) fn finish(&self) -> Vec<CacheProblem> {
        if self.adding.get().is_some() {
            // Every object is in place: none of this run's temporary files is left.
            let _ = fs::remove_file(&self.adding_marker);
        }
        let mut index = self.index.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(index) = index.as_mut() else {
            return Vec::new();
        };
        let mut problems: Vec<CacheProblem> = index.problem.take().into_iter().collect();
        if index.changed {
            if let Err(e) = write_atomically(&self.index_path, &encode_index(&index.entries)) {
                problems.push(CacheProblem {
                    path: self.index_path.clone(),
                    message: format!(
                        "cannot write the cache index ({e}); its new classes will be rewritten next time"
                    ),
                });
            }
        }
        problems
    }
}

/// The index at `path`: empty when there is none, and empty with a
/// problem when it cannot be read or does not check out.
fn load_index(path: &Path) -> Index {
    let problem = |message: String| {
        Some(CacheProblem {
            path: path.to_owned(),
            message,
        })
    };
    match fs::read(path).map(|bytes| decode_index(&bytes)) {
        Ok(Some(entries)) => Index {
            entries,
            ..Index::default()
        },
        // Written again from scratch at the end of the run.
        Ok(None) => Index {
            changed: true,
            problem: problem("damaged cache index; every class is rewritten".to_owned()),
            ..Index::default()
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Index::default(),
        Err(e) => Index {
            problem: problem(format!("unreadable cache index ({e}); every class is rewritten")),
            ..Index::default()
        },
    }
}

/// `JPIDX1\n\0`, then per entry (in key order, so that equal indexes are
/// equal files): the key, `1` and the object's digest or `0`, the length of
/// the warnings (`u32`, little endian) and the warnings (JSON, empty when
/// there are none); then the SHA-256 of everything before it.
fn encode_index(entries: &HashMap<Sha, Entry>) -> Vec<u8> {
    let mut keys: Vec<&Sha> = entries.keys().collect();
    keys.sort_by_key(|key| key.0);
    let mut bytes = Vec::with_capacity(INDEX_MAGIC.len() + entries.len() * 72 + 32);
    bytes.extend_from_slice(INDEX_MAGIC);
    for key in keys {
        let entry = &entries[key];
        bytes.extend_from_slice(&key.0);
        match &entry.object {
            Some(digest) => {
                bytes.push(1);
                bytes.extend_from_slice(&digest.0);
            }
            None => bytes.push(0),
        }
        let warnings = if entry.warnings.is_empty() {
            Vec::new()
        } else {
            serde_json::to_vec(&EntryWarnings(entry.warnings.clone())).expect("warnings always serialise")
        };
        bytes.extend_from_slice(&u32::try_from(warnings.len()).unwrap_or(u32::MAX).to_le_bytes());
        bytes.extend_from_slice(&warnings);
    }
    let check = Sha::of(&bytes);
    bytes.extend_from_slice(&check.0);
    bytes
}

/// The entries of an index file, or `None` when anything about it is wrong.
fn decode_index(file: &[u8]) -> Option<HashMap<Sha, Entry>> {
    let (body, check) = file.split_at_checked(file.len().checked_sub(32)?)?;
    if Sha::of(body).0 != check {
        return None;
    }
    let mut rest = body.strip_prefix(INDEX_MAGIC)?;
    let mut entries = HashMap::new();
    while !rest.is_empty() {
        let key = Sha(take(&mut rest, 32)?.try_into().ok()?);
        let object = match take(&mut rest, 1)? {
            [0] => None,
            [1] => Some(Sha(take(&mut rest, 32)?.try_into().ok()?)),
            _ => return None,
        };
        let length = usize::try_from(u32::from_le_bytes(take(&mut rest, 4)?.try_into().ok()?)).ok()?;
        let warnings = match take(&mut rest, length)? {
            [] => Vec::new(),
            json => serde_json::from_slice::<EntryWarnings>(json).ok()?.0,
        };
        entries.insert(key, Entry { object, warnings });
    }
    Some(entries)
}

/// The first `n` bytes of `rest`, which moves past them.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (taken, after) = rest.split_at_checked(n)?;
    *rest = after;
    Some(taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warned() -> Vec<KeptWarning> {
        vec![KeptWarning {
            class: "a/B".to_owned(),
            method: Some("run()V".to_owned()),
            reason: "too large".to_owned(),
        }]
    }

    fn entries() -> HashMap<Sha, Entry> {
        HashMap::from([
            (
                Sha::of(b"rewritten"),
                Entry {
                    object: Some(Sha::of(b"class")),
                    warnings: warned(),
                },
            ),
            (
                Sha::of(b"kept"),
                Entry {
                    object: None,
                    warnings: Vec::new(),
                },
            ),
        ])
    }

    #[test]
    fn an_index_decodes_to_what_was_encoded_whatever_the_order() {
        let encoded = encode_index(&entries());
        assert_eq!(decode_index(&encoded), Some(entries()));
        let mut reordered = HashMap::with_capacity(64);
        let mut pairs: Vec<(Sha, Entry)> = entries().into_iter().collect();
        pairs.reverse();
        reordered.extend(pairs);
        assert_eq!(encode_index(&reordered), encoded);
        assert_eq!(decode_index(&encode_index(&HashMap::new())), Some(HashMap::new()));
    }

    #[test]
    fn a_truncated_or_altered_index_is_refused() {
        let index = encode_index(&entries());
        for cut in [0, 8, 40, 41, index.len() - 33, index.len() - 1] {
            assert_eq!(decode_index(&index[..cut]), None, "cut at {cut}");
        }
        for at in [0, 8, 40, index.len() - 40, index.len() - 1] {
            let mut altered = index.clone();
            altered[at] ^= 1;
            assert_eq!(decode_index(&altered), None, "altered at {at}");
        }
    }

    #[test]
    fn an_object_comes_back_from_a_link_and_from_a_copy() {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("out/A.class");
        write_atomically(&output, b"\xca\xfe\xba\xbe A").unwrap();
        let store = ObjectStore::new(&dir.path().join("cache"));
        let (linked, copied, kept) = (Sha::of(b"1"), Sha::of(b"2"), Sha::of(b"3"));
        let rewrite = |bytes: &[u8]| CachedRewrite {
            bytes: Some(bytes.to_vec()),
            warnings: warned(),
        };
        let as_it_was = CachedRewrite {
            bytes: None,
            warnings: Vec::new(),
        };
        let a = b"\xca\xfe\xba\xbe A";
        store.put(&linked, Some(a), &warned(), Some(&output)).unwrap();
        store
            .put(&copied, Some(b"\xca\xfe\xba\xbe B"), &warned(), None)
            .unwrap();
        store.put(&kept, None, &[], None).unwrap();
        assert!(store.finish().is_empty());

        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let object = fs::metadata(store.path(&linked)).unwrap();
            assert_eq!(object.ino(), fs::metadata(&output).unwrap().ino());
        }
        // Replacing the output by a rename leaves the object as it was.
        write_atomically(&output, b"other").unwrap();
        let reopened = ObjectStore::new(&dir.path().join("cache"));
        assert_eq!(reopened.get(&linked), Ok(Some(rewrite(b"\xca\xfe\xba\xbe A"))));
        assert_eq!(reopened.get(&copied), Ok(Some(rewrite(b"\xca\xfe\xba\xbe B"))));
        assert_eq!(reopened.get(&kept), Ok(Some(as_it_was)));
        assert_eq!(reopened.get(&Sha::of(b"4")), Ok(None));
        let leftovers = fs::read_dir(store.path(&linked).parent().unwrap())
            .unwrap()
            .count();
        assert_eq!(leftovers, 1, "no temporary link is left");
    }

    #[test]
    fn a_damaged_object_or_index_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let store = ObjectStore::new(&cache);
        let key = Sha::of(b"1");
        store.put(&key, Some(b"class"), &[], None).unwrap();
        assert!(store.finish().is_empty());
        fs::write(store.path(&key), b"clasS").unwrap();
        let problem = ObjectStore::new(&cache).get(&key).unwrap_err();
        assert_eq!(problem.path, store.path(&key));
        assert!(problem.message.starts_with("damaged cache object"), "{problem}");

        let index = cache.join("objects.idx");
        let mut bytes = fs::read(&index).unwrap();
        bytes.pop();
        fs::write(&index, bytes).unwrap();
        let reopened = ObjectStore::new(&cache);
        assert_eq!(reopened.get(&key), Ok(None));
        let problems = reopened.finish();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, index);
        // Written again from scratch: the next run finds an empty, sound index.
        assert_eq!(decode_index(&fs::read(&index).unwrap()), Some(HashMap::new()));
    }
}
