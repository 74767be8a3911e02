//! The load-time agent's cache: one file per class answer, named by its
//! key ([`crate::cache::object_key`]), `DIR/ab/cdef...`.
//!
//! Unlike the instrument run's object store, it has no index and takes no
//! lock: JVMs that start at once each read and write whole files. Every
//! write goes to a temporary file that is then renamed into place, so a
//! reader sees a complete entry or none, and two JVMs that write the same
//! key write the same bytes. Each file carries the SHA-256 of its answer,
//! so a damaged one is detected, reported and written again.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::cache::{CacheProblem, Sha};
use crate::class_rewriter::Answer;
use crate::output::write_atomically;

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"JPCLS1\n\0";

/// The entries under one directory.
#[derive(Debug)]
pub(crate) struct ClassStore {
    dir: PathBuf,
}

impl ClassStore {
    /// The store in `dir`, created with its first entry.
    pub(crate) fn new(dir: &Path) -> ClassStore {
        ClassStore { dir: dir.to_owned() }
    }

    fn path(&self, key: &Sha) -> PathBuf {
        let hex = key.to_string();
        self.dir.join(&hex[..2]).join(&hex[2..])
    }

    /// The answer stored under `key`, `None` when there is none.
    ///
    /// # Errors
    /// An entry that cannot be read or does not check out: the caller
    /// recomputes it and stores it again.
    pub(crate) fn get(&self, key: &Sha) -> Result<Option<Answer>, CacheProblem> {
        let path = self.path(key);
        let problem = |message: String| CacheProblem {
            path: path.clone(),
            message,
        };
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(problem(format!("unreadable cache entry ({e}); recomputed"))),
        };
        let damaged = || problem("damaged cache entry; recomputed".to_owned());
        let rest = bytes.strip_prefix(MAGIC).ok_or_else(damaged)?;
        let (digest, answer) = rest.split_first_chunk::<32>().ok_or_else(damaged)?;
        if Sha::of(answer).0 != *digest {
            return Err(damaged());
        }
        Answer::decode(answer).map(Some).map_err(|_| damaged())
    }

    /// Stores `answer` under `key`, atomically.
    ///
    /// # Errors
    /// When the entry cannot be written; the class is still served, and the
    /// cache misses it next time.
    pub(crate) fn put(&self, key: &Sha, answer: &Answer) -> Result<(), CacheProblem> {
        let path = self.path(key);
        let encoded = answer.encode();
        let mut bytes = Vec::with_capacity(MAGIC.len() + 32 + encoded.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&Sha::of(&encoded).0);
        bytes.extend_from_slice(&encoded);
        let parent = path.parent().expect("an entry lies in a fan-out directory");
        fs::create_dir_all(parent)
            .and_then(|()| write_atomically(&path, &bytes))
            .map_err(|e| CacheProblem {
                path,
                message: format!("cannot write the cache entry ({e})"),
            })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The entry files under `dir`.
    pub(crate) fn entries(dir: &Path) -> Vec<PathBuf> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect()
    }

    fn answer() -> Answer {
        Answer {
            bytes: Some(vec![1, 2, 3]),
            warnings: vec!["A.run()V: too large".to_owned()],
        }
    }

    #[test]
    fn an_entry_is_read_back_and_a_missing_one_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let store = ClassStore::new(&dir.path().join("agent"));
        let key = Sha::of(b"key");
        assert_eq!(store.get(&key).unwrap(), None);
        store.put(&key, &answer()).unwrap();
        assert_eq!(store.get(&key).unwrap(), Some(answer()));
        let hex = key.to_string();
        assert!(dir.path().join("agent").join(&hex[..2]).join(&hex[2..]).is_file());
    }

    #[test]
    fn a_changed_or_truncated_entry_is_a_problem_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = ClassStore::new(dir.path());
        let key = Sha::of(b"key");
        store.put(&key, &answer()).unwrap();
        let path = store.path(&key);
        let mut bytes = fs::read(&path).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&path, &bytes).unwrap();
        let problem = store.get(&key).unwrap_err();
        assert_eq!(problem.path, path);
        assert_eq!(problem.message, "damaged cache entry; recomputed");
        fs::write(&path, &bytes[..10]).unwrap();
        assert!(store.get(&key).is_err());
        store.put(&key, &answer()).unwrap();
        assert_eq!(store.get(&key).unwrap(), Some(answer()));
    }

    #[test]
    fn a_store_that_cannot_be_written_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, b"").unwrap();
        let problem = ClassStore::new(&file)
            .put(&Sha::of(b"key"), &answer())
            .unwrap_err();
        assert!(
            problem.message.starts_with("cannot write the cache entry"),
            "{}",
            problem.message
        );
    }
}
