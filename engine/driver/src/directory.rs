//! Stats of files looked up by name in their directory.
//!
//! A run over an unchanged directory input stats every input file and
//! every output file, and little else: the kernel's walk along each
//! file's whole path was a large part of such a run. On Linux a
//! [`Directory`] holds a descriptor of its directory, and each stat looks
//! up one name from there (`statx` relative to the descriptor). Elsewhere,
//! or when that is refused, it stats the whole path, as `fs::metadata` does.

use std::cell::RefCell;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::cache::Stat;

/// A directory whose files are statted by name.
struct Directory {
    path: PathBuf,
    #[cfg(target_os = "linux")]
    fd: Option<std::os::fd::OwnedFd>,
}

impl Directory {
    /// `path`, opened for lookups when it can be; when not, every stat
    /// takes the whole path (and fails as that does).
    fn open(path: &Path) -> Directory {
        Directory {
            path: path.to_owned(),
            #[cfg(target_os = "linux")]
            fd: {
                use rustix::fs::{Mode, OFlags};
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                rustix::fs::open(path, flags, Mode::empty()).ok()
            },
        }
    }

    /// The stat of the file `name` in this directory, links followed: what
    /// [`Stat::of`] gives for `fs::metadata` of its path.
    ///
    /// # Errors
    /// As `fs::metadata` of the path fails.
    fn stat(&self, name: &OsStr) -> io::Result<Stat> {
        #[cfg(target_os = "linux")]
        if let Some(stat) = self.fd.as_ref().and_then(|fd| stat_at(fd, name)) {
            return Ok(stat);
        }
        fs::metadata(self.path.join(name)).map(|metadata| Stat::of(&metadata))
    }
}

/// The directory of the files statted last, kept open while the next file
/// lies in it too: files come in directory order.
#[derive(Default)]
pub(crate) struct LastDirectory(RefCell<Option<Directory>>);

impl LastDirectory {
    /// The stat of the file at `path`, as `fs::metadata` gives it.
    ///
    /// # Errors
    /// As `fs::metadata` of `path` fails.
    pub(crate) fn stat(&self, path: &Path) -> io::Result<Stat> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return fs::metadata(path).map(|metadata| Stat::of(&metadata));
        };
        let mut last = self.0.borrow_mut();
        let directory = match last.take() {
            Some(directory) if directory.path == parent => directory,
            _ => Directory::open(parent),
        };
        let stat = directory.stat(name);
        *last = Some(directory);
        stat
    }
}

/// The stat of `name` in the directory `fd`; `None` when `statx` fails,
/// for whatever reason: the path's stat then says why, or succeeds.
#[cfg(target_os = "linux")]
fn stat_at(fd: &std::os::fd::OwnedFd, name: &OsStr) -> Option<Stat> {
    use rustix::fs::{AtFlags, StatxFlags};
    let wanted = StatxFlags::SIZE | StatxFlags::MTIME | StatxFlags::CTIME;
    let statx = rustix::fs::statx(fd, name, AtFlags::STATX_SYNC_AS_STAT, wanted).ok()?;
    if statx.stx_mask & wanted.bits() != wanted.bits() {
        return None; // a file system that cannot tell: ask the path, as std would
    }
    let time = |t: rustix::fs::StatxTimestamp| Stat::nanos(t.tv_sec, i64::from(t.tv_nsec));
    Some(Stat {
        size: statx.stx_size,
        mtime: time(statx.stx_mtime),
        ctime: time(statx.stx_ctime),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_by_name_is_the_stat_of_the_path() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("A.class"), b"bytes").unwrap();
        let directory = Directory::open(dir.path());
        let by_path = |name: &str| Stat::of(&fs::metadata(dir.path().join(name)).unwrap());
        assert_eq!(directory.stat(OsStr::new("A.class")).unwrap(), by_path("A.class"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("A.class", dir.path().join("link.class")).unwrap();
            let linked = directory.stat(OsStr::new("link.class")).unwrap();
            assert_eq!(linked, by_path("A.class"), "links are followed");
        }
        let missing = directory.stat(OsStr::new("gone.class")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_directory_that_could_not_be_opened_stats_paths() {
        let dir = tempfile::tempdir().unwrap();
        let directory = Directory::open(&dir.path().join("later"));
        fs::create_dir(dir.path().join("later")).unwrap();
        fs::write(dir.path().join("later/B.class"), b"b").unwrap();
        assert_eq!(directory.stat(OsStr::new("B.class")).unwrap().size, 1);
    }

    #[test]
    fn the_last_directory_follows_the_files_from_directory_to_directory() {
        let dir = tempfile::tempdir().unwrap();
        for (sub, size) in [("a", 1), ("b", 2)] {
            fs::create_dir(dir.path().join(sub)).unwrap();
            fs::write(dir.path().join(sub).join("X.class"), vec![0; size]).unwrap();
        }
        let last = LastDirectory::default();
        let size = |sub: &str| last.stat(&dir.path().join(sub).join("X.class")).unwrap().size;
        assert_eq!([size("a"), size("b"), size("a")], [1, 2, 1]);
        assert!(
            last.stat(Path::new("/")).is_ok(),
            "a path without a parent is statted whole"
        );
    }
}
