//! `pack`: one archive of the `jp` binary per platform, and `SHA256SUMS` over the output
//! directory. The bytes depend only on the inputs, the version and the epoch: entries are sorted,
//! every time stamp is the epoch, owners are 0 without names, and the gzip header carries no
//! name or time.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use flate2::{Compression, GzBuilder};
use sha2::{Digest, Sha256};
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

use crate::error::DistError;
use crate::platform::{Platform, System, PLATFORMS};

/// The checksum file `pack` writes last, in `sha256sum` format.
const SUMS_FILE: &str = "SHA256SUMS";

const EXECUTABLE_MODE: u32 = 0o755;
const FILE_MODE: u32 = 0o644;
const SECONDS_PER_DAY: u64 = 86_400;

/// What `pack` needs, read from the command line.
#[derive(Debug)]
pub struct PackRequest {
    /// Release version, part of every archive name (`0.1.0`).
    pub version: String,
    /// Time stamp of every entry, in seconds since 1970 (`SOURCE_DATE_EPOCH`).
    pub epoch: u64,
    /// Output directory, created if missing.
    pub out: PathBuf,
    /// The `jp` binary of each platform.
    pub binaries: Vec<(&'static Platform, PathBuf)>,
    /// Files put beside the binary in every archive (`LICENSE`, `README.md`).
    pub includes: Vec<PathBuf>,
}

/// One file of an archive, before it is written.
struct Member<'a> {
    name: String,
    mode: u32,
    bytes: &'a [u8],
}

/// Writes the archives, then `SHA256SUMS`; returns the paths written, sums last.
///
/// # Errors
///
/// When an input cannot be read, an output cannot be written, or (zip only) the epoch is outside
/// the years 1980 to 2107 that zip's time stamps can hold.
pub fn pack(request: &PackRequest) -> Result<Vec<PathBuf>, DistError> {
    check_version(&request.version)?;
    std::fs::create_dir_all(&request.out).map_err(DistError::writing(&request.out))?;
    let includes = request
        .includes
        .iter()
        .map(|path| {
            let name = path
                .file_name()
                .ok_or_else(|| DistError::IncludeName { path: path.clone() })?;
            Ok((name.to_string_lossy().into_owned(), read(path)?))
        })
        .collect::<Result<Vec<_>, DistError>>()?;
    check_include_names(includes.iter().map(|(name, _)| name.as_str()))?;
    let mut written = Vec::new();
    for (platform, binary) in &request.binaries {
        let windows = platform.system == System::Windows;
        let base = format!("jp-{}-{}", request.version, platform.id);
        let executable = read(binary)?;
        let mut members = vec![Member {
            name: format!("{base}/{}", platform.executable()),
            mode: EXECUTABLE_MODE,
            bytes: &executable,
        }];
        members.extend(includes.iter().map(|(name, bytes)| Member {
            name: format!("{base}/{name}"),
            mode: FILE_MODE,
            bytes,
        }));
        members.sort_by(|a, b| a.name.cmp(&b.name));
        let (bytes, path) = if windows {
            let path = request.out.join(format!("{base}.zip"));
            let time = dos_time(request.epoch).ok_or(DistError::ZipEpoch { epoch: request.epoch })?;
            (zip_archive(&members, time), path)
        } else {
            let path = request.out.join(format!("{base}.tar.gz"));
            (tar_gz_archive(&members, request.epoch), path)
        };
        let bytes = bytes.map_err(DistError::writing(&path))?;
        write_atomically(&path, &bytes)?;
        written.push(path);
    }
    written.push(write_sums(&request.out)?);
    Ok(written)
}

/// The version becomes part of file and directory names, so it is one plain name component.
fn check_version(version: &str) -> Result<(), DistError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '+');
    if version.is_empty() || version.starts_with('.') || !version.chars().all(allowed) {
        return Err(DistError::Version {
            version: version.to_owned(),
        });
    }
    Ok(())
}

/// Two members of one archive with the same name would leave it to the unpacking tool which one
/// wins.
fn check_include_names<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), DistError> {
    let mut seen: Vec<&str> = PLATFORMS.iter().map(|platform| platform.executable()).collect();
    for name in names {
        if seen.contains(&name) {
            return Err(DistError::DuplicateMember {
                name: name.to_owned(),
            });
        }
        seen.push(name);
    }
    Ok(())
}

fn read(path: &Path) -> Result<Vec<u8>, DistError> {
    std::fs::read(path).map_err(DistError::reading(path))
}

fn tar_gz_archive(members: &[Member], epoch: u64) -> std::io::Result<Vec<u8>> {
    let gzip = GzBuilder::new().mtime(0).write(Vec::new(), Compression::best());
    let mut tar = tar::Builder::new(gzip);
    for member in members {
        let mut header = tar::Header::new_ustar();
        header.set_path(&member.name)?;
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(member.bytes.len() as u64);
        header.set_mode(member.mode);
        header.set_mtime(epoch);
        header.set_uid(0);
        header.set_gid(0);
        header.set_cksum();
        tar.append(&header, member.bytes)?;
    }
    tar.into_inner()?.finish()
}

fn zip_archive(members: &[Member], time: zip::DateTime) -> std::io::Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for member in members {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .last_modified_time(time)
            .unix_permissions(member.mode);
        zip.start_file(member.name.as_str(), options)?;
        zip.write_all(member.bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// The epoch as zip's local date and time (UTC): civil date from days since 1970, after
/// Howard Hinnant's `civil_from_days`.
fn dos_time(epoch: u64) -> Option<zip::DateTime> {
    let days = i64::try_from(epoch / SECONDS_PER_DAY).ok()? + 719_468;
    let seconds = epoch % SECONDS_PER_DAY;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    zip::DateTime::from_date_and_time(
        u16::try_from(year).ok()?,
        month as u8,
        day as u8,
        (seconds / 3600) as u8,
        (seconds / 60 % 60) as u8,
        (seconds % 60) as u8,
    )
    .ok()
}

/// `SHA256SUMS` over every file in `dir` but itself, names sorted, as `sha256sum -c` reads it.
fn write_sums(dir: &Path) -> Result<PathBuf, DistError> {
    let read_dir = DistError::reading(dir);
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(&read_dir)? {
        let entry = entry.map_err(&read_dir)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().map_err(&read_dir)?.is_file() && name != SUMS_FILE {
            names.push(name);
        }
    }
    names.sort();
    let mut sums = String::new();
    for name in names {
        let digest = Sha256::digest(read(&dir.join(&name))?);
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        sums += &format!("{hex}  {name}\n");
    }
    let path = dir.join(SUMS_FILE);
    write_atomically(&path, sums.as_bytes())?;
    Ok(path)
}

/// Writes `bytes` to `path` atomically, readable by everyone whatever the umask.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), DistError> {
    jp_atomic_file::write_atomically_with_mode(path, FILE_MODE, |out| out.write_all(bytes))
        .map_err(DistError::writing(path))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;
    use crate::platform::find;

    const EPOCH: u64 = 1_700_000_000;

    /// A fake `jp` binary per platform and a LICENSE, packed into `out`.
    fn pack_into(inputs: &Path, out: &Path) -> Vec<PathBuf> {
        let binary = inputs.join("jp");
        std::fs::write(&binary, b"\x7fELF pretend binary").unwrap();
        let license = inputs.join("LICENSE");
        std::fs::write(&license, b"Apache License\n").unwrap();
        let binaries = ["linux-x86_64", "windows-x86_64"]
            .map(|id| (find(id).unwrap(), binary.clone()))
            .to_vec();
        let request = PackRequest {
            version: "1.2.3".into(),
            epoch: EPOCH,
            out: out.to_owned(),
            binaries,
            includes: vec![license],
        };
        pack(&request).unwrap()
    }

    #[test]
    fn packing_twice_gives_identical_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let first = pack_into(dir.path(), &dir.path().join("first"));
        let second = pack_into(dir.path(), &dir.path().join("second"));
        assert_eq!(first.len(), 3);
        for (a, b) in first.iter().zip(&second) {
            assert_eq!(a.file_name(), b.file_name());
            assert_eq!(
                std::fs::read(a).unwrap(),
                std::fs::read(b).unwrap(),
                "{}",
                a.display()
            );
        }
    }

    #[test]
    fn the_tar_archive_holds_sorted_entries_with_modes_epoch_and_no_owner() {
        let dir = tempfile::tempdir().unwrap();
        pack_into(dir.path(), &dir.path().join("out"));
        let file = std::fs::File::open(dir.path().join("out/jp-1.2.3-linux-x86_64.tar.gz")).unwrap();
        let gzip = flate2::read::GzDecoder::new(file);
        let header = gzip.header().unwrap();
        assert_eq!((header.filename(), header.mtime()), (None, 0));
        let mut archive = tar::Archive::new(gzip);
        let mut entries = Vec::new();
        for entry in archive.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            assert_eq!(header.mtime().unwrap(), EPOCH);
            assert_eq!((header.uid().unwrap(), header.gid().unwrap()), (0, 0));
            assert_eq!(header.username().unwrap(), Some(""));
            assert_eq!(header.groupname().unwrap(), Some(""));
            let name = entry.path().unwrap().to_string_lossy().into_owned();
            entries.push((name, header.mode().unwrap()));
        }
        let expected = [
            ("jp-1.2.3-linux-x86_64/LICENSE".to_string(), 0o644),
            ("jp-1.2.3-linux-x86_64/jp".to_string(), 0o755),
        ];
        assert_eq!(entries, expected);
    }

    #[test]
    fn the_windows_archive_is_a_zip_with_jp_exe() {
        let dir = tempfile::tempdir().unwrap();
        pack_into(dir.path(), &dir.path().join("out"));
        let file = std::fs::File::open(dir.path().join("out/jp-1.2.3-windows-x86_64.zip")).unwrap();
        let mut zip = zip::ZipArchive::new(file).unwrap();
        let mut entries = Vec::new();
        for index in 0..zip.len() {
            let mut entry = zip.by_index(index).unwrap();
            let time = entry.last_modified().unwrap();
            assert_eq!((time.year(), time.month(), time.day()), (2023, 11, 14));
            assert_eq!((time.hour(), time.minute(), time.second()), (22, 13, 20));
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            entries.push((entry.name().unwrap().into_owned(), entry.unix_mode(), bytes.len()));
        }
        let expected = [
            ("jp-1.2.3-windows-x86_64/LICENSE".to_string(), Some(0o100644), 15),
            ("jp-1.2.3-windows-x86_64/jp.exe".to_string(), Some(0o100755), 19),
        ];
        assert_eq!(entries, expected);
    }

    #[test]
    fn sha256sums_covers_every_other_file_in_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("jp-engine-1.2.3.jar"), b"jar bytes").unwrap();
        pack_into(dir.path(), &out);
        let sums = std::fs::read_to_string(out.join(SUMS_FILE)).unwrap();
        let mut names = Vec::new();
        for line in sums.lines() {
            let (hex, name) = line.split_once("  ").unwrap();
            let digest = Sha256::digest(std::fs::read(out.join(name)).unwrap());
            let expected: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
            assert_eq!(hex, expected, "{name}");
            names.push(name);
        }
        let expected = [
            "jp-1.2.3-linux-x86_64.tar.gz",
            "jp-1.2.3-windows-x86_64.zip",
            "jp-engine-1.2.3.jar",
        ];
        assert_eq!(names, expected);
    }

    #[test]
    fn a_version_is_one_plain_name_component() {
        for version in ["0.1.0", "1.0.0-rc.1", "2.0.0+build.5"] {
            assert!(check_version(version).is_ok(), "{version}");
        }
        for version in ["", "../x", "1/2", ".hidden", "1 2"] {
            assert!(check_version(version).is_err(), "{version:?}");
        }
    }

    #[test]
    fn included_files_may_not_clash_with_each_other_or_the_binary() {
        assert!(check_include_names(["LICENSE", "README.md"].into_iter()).is_ok());
        assert!(check_include_names(["LICENSE", "LICENSE"].into_iter()).is_err());
        assert!(check_include_names(["jp"].into_iter()).is_err());
    }

    #[test]
    fn zip_time_stamps_are_the_epoch_in_utc() {
        let time = dos_time(315_532_800).unwrap();
        assert_eq!(
            (time.year(), time.month(), time.day(), time.hour()),
            (1980, 1, 1, 0)
        );
        let time = dos_time(951_782_400).unwrap(); // leap day
        assert_eq!((time.year(), time.month(), time.day()), (2000, 2, 29));
        assert!(dos_time(0).is_none(), "zip cannot say 1970");
    }
}
