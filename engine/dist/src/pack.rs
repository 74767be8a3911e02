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
use crate::platform::{Platform, System};

/// The checksum file `pack` writes last, in `sha256sum` format.
pub const SUMS_FILE: &str = "SHA256SUMS";

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
struct Member {
    name: String,
    mode: u32,
    bytes: Vec<u8>,
}

/// Writes the archives, then `SHA256SUMS`; returns the paths written, sums last.
///
/// # Errors
///
/// When an input cannot be read, an output cannot be written, or (zip only) the epoch is outside
/// the years 1980 to 2107 that zip's time stamps can hold.
pub fn pack(request: &PackRequest) -> Result<Vec<PathBuf>, DistError> {
    std::fs::create_dir_all(&request.out).map_err(|source| DistError::Write {
        path: request.out.clone(),
        source,
    })?;
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
    let mut written = Vec::new();
    for (platform, binary) in &request.binaries {
        let windows = platform.system == System::Windows;
        let base = format!("jp-{}-{}", request.version, platform.id);
        let binary_name = if windows { "jp.exe" } else { "jp" };
        let mut members = vec![Member {
            name: format!("{base}/{binary_name}"),
            mode: EXECUTABLE_MODE,
            bytes: read(binary)?,
        }];
        members.extend(includes.iter().map(|(name, bytes)| Member {
            name: format!("{base}/{name}"),
            mode: FILE_MODE,
            bytes: bytes.clone(),
        }));
        members.sort_by(|a, b| a.name.cmp(&b.name));
        let (bytes, path) = if windows {
            let path = request.out.join(format!("{base}.zip"));
            (zip_archive(&members, request.epoch), path)
        } else {
            let path = request.out.join(format!("{base}.tar.gz"));
            (tar_gz_archive(&members, request.epoch), path)
        };
        let bytes = bytes.map_err(|source| DistError::Write {
            path: path.clone(),
            source,
        })?;
        write_atomically(&path, &bytes)?;
        written.push(path);
    }
    written.push(write_sums(&request.out)?);
    Ok(written)
}

fn read(path: &Path) -> Result<Vec<u8>, DistError> {
    std::fs::read(path).map_err(|source| DistError::Read {
        location: crate::error::Location::file(path),
        source,
    })
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
        tar.append(&header, member.bytes.as_slice())?;
    }
    tar.into_inner()?.finish()
}

fn zip_archive(members: &[Member], epoch: u64) -> std::io::Result<Vec<u8>> {
    let time = dos_time(epoch).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("epoch {epoch} is outside the years zip time stamps can hold (1980-2107)"),
        )
    })?;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for member in members {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .last_modified_time(time)
            .unix_permissions(member.mode);
        zip.start_file(member.name.as_str(), options)?;
        zip.write_all(&member.bytes)?;
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
    let read_dir = |source| DistError::Read {
        location: crate::error::Location::file(dir),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read_dir)? {
        let entry = entry.map_err(read_dir)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().map_err(read_dir)?.is_file() && name != SUMS_FILE {
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

/// Writes through a temporary file in the same directory and renames it over `path`, so that
/// readers see the old file or the whole new one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), DistError> {
    let write_error = |source| DistError::Write {
        path: path.to_owned(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(write_error)?;
    temp.write_all(bytes).map_err(write_error)?;
    // Temporary files are private to their owner; release files are for everyone to read.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let readable = std::fs::Permissions::from_mode(FILE_MODE);
        temp.as_file().set_permissions(readable).map_err(write_error)?;
    }
    temp.persist(path).map_err(|error| write_error(error.error))?;
    Ok(())
}
