//! `jp-dist natives`: cross-builds the JNI library, and the `jp` command line where asked, for
//! every platform JP ships, and stages them as the release build takes them:
//! `OUT/native/<platform>/<library>` (the tree `-Djp.natives` copies into `jp-engine.jar`) and
//! `OUT/cli/<platform>/<jp or jp.exe>`.
//!
//! One `cargo zigbuild` call builds every target of one macOS deployment target (build scripts and
//! procedural macros compile once for all of them; the deployment target is one variable per
//! call), with Zig as the linker: it carries the C libraries of every system, so no other SDK is
//! needed. What makes the files fit to ship is set here, per target, so that a plain
//! `cargo build` of the workspace is never affected:
//! - the `dist` profile (no debug information) and paths of the build machine remapped
//!   (`--remap-path-prefix` for cargo's home and the target directory: panic locations of
//!   dependencies name their sources otherwise);
//! - Linux: glibc 2.17's symbol versions (the `.2.17` suffix of the target, read by
//!   cargo-zigbuild);
//! - macOS: the oldest system the platform's rule allows (`MACOSX_DEPLOYMENT_TARGET`: 10.12 on
//!   Intel, 11.0 on Apple silicon, the first macOS it ran);
//! - Windows: `/Brepro`, a content hash where the linker would write the time of the build.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::DistError;
use crate::platform::{self, Platform};

/// What `natives` needs to know.
#[derive(Debug)]
pub struct NativesRequest {
    /// The cargo workspace to build (JP's repository).
    pub workspace: PathBuf,
    /// The staging directory; replaced as a whole when the build succeeds.
    pub out: PathBuf,
    /// Platforms that also get the `jp` command line.
    pub cli: Vec<&'static Platform>,
    /// Where cargo-zigbuild and Zig are (`JP_CROSS_BIN`, set by `ensure_tools cross`).
    pub tools: PathBuf,
    /// Cargo's target directory and Zig's caches live here (`$JP_CACHE_DIR/cross`).
    pub cache: PathBuf,
}

/// Builds and stages. Returns the staged files, relative to `out`.
///
/// # Errors
///
/// When cargo-zigbuild cannot start or fails (its output has gone to this process's stderr), or
/// a file cannot be staged.
pub fn build(request: &NativesRequest) -> Result<Vec<PathBuf>, DistError> {
    let target_dir = request.cache.join("target");
    let released: Vec<_> = platform::released().collect();
    zigbuild(request, &target_dir, "jp-jni", &released)?;
    if !request.cli.is_empty() {
        zigbuild(request, &target_dir, "jp-cli", &request.cli)?;
    }
    let mut files = BTreeMap::new();
    for platform in released {
        let staged = Path::new("native").join(platform.id).join(platform.file_name());
        files.insert(staged, built(&target_dir, platform, platform.file_name()));
    }
    for platform in &request.cli {
        let staged = Path::new("cli").join(platform.id).join(platform.executable());
        files.insert(staged, built(&target_dir, platform, platform.executable()));
    }
    stage(&request.out, &files)?;
    Ok(files.into_keys().collect())
}

/// Where cargo leaves a target's `file` in the `dist` profile.
fn built(target_dir: &Path, platform: &Platform, file: &str) -> PathBuf {
    target_dir.join(platform.rust_target).join("dist").join(file)
}

/// `cargo zigbuild` of `package` for `platforms`: one call per macOS deployment target.
fn zigbuild(
    request: &NativesRequest,
    target_dir: &Path,
    package: &str,
    platforms: &[&Platform],
) -> Result<(), DistError> {
    let mut by_deployment_target = BTreeMap::<_, Vec<&Platform>>::new();
    for platform in platforms {
        by_deployment_target
            .entry(platform.macos_deployment_target())
            .or_default()
            .push(platform);
    }
    for (deployment_target, platforms) in by_deployment_target {
        let mut command = zigbuild_command(request, target_dir, package, &platforms);
        if let Some(version) = deployment_target {
            command.env("MACOSX_DEPLOYMENT_TARGET", version.to_string());
        }
        let status = command.status().map_err(|source| DistError::Spawn {
            program: request.tools.join("cargo-zigbuild"),
            source,
        })?;
        if !status.success() {
            let targets = platforms.iter().map(|platform| platform.zigbuild_target());
            return Err(DistError::Build {
                package: package.to_owned(),
                targets: targets.collect::<Vec<_>>().join(", "),
                status,
            });
        }
    }
    Ok(())
}

/// The `cargo zigbuild` command line and environment for `package` on `platforms`.
fn zigbuild_command(
    request: &NativesRequest,
    target_dir: &Path,
    package: &str,
    platforms: &[&Platform],
) -> Command {
    let mut command = Command::new(request.tools.join("cargo-zigbuild"));
    command.current_dir(&request.workspace).args([
        "zigbuild",
        "--locked",
        "--profile",
        "dist",
        "-p",
        package,
    ]);
    for platform in platforms {
        command.args(["--target", &platform.zigbuild_target()]);
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_default();
    let remap = format!(
        "--remap-path-prefix={}=/cargo --remap-path-prefix={}=/target",
        cargo_home.display(),
        target_dir.display()
    );
    for platform in platforms {
        let variable = format!(
            "CARGO_TARGET_{}_RUSTFLAGS",
            platform.rust_target.to_uppercase().replace('-', "_")
        );
        let flags = match platform.rustflags {
            "" => remap.clone(),
            rustflags => format!("{remap} {rustflags}"),
        };
        command.env(variable, flags);
    }
    // Flags for every target would replace the per-target ones above.
    for variable in ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS"] {
        command.env_remove(variable);
    }
    let mut path = OsString::from(&request.tools);
    if let Some(inherited) = std::env::var_os("PATH") {
        path.push(":");
        path.push(inherited);
    }
    command
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", target_dir)
        .env("ZIG_GLOBAL_CACHE_DIR", request.cache.join("zig"))
        .env("CARGO_ZIGBUILD_CACHE_DIR", request.cache.join("zigbuild"));
    command
}

/// Copies `files` (staged name → built file) into a fresh directory beside `out`, then puts it in
/// `out`'s place, so that `out` is a whole build or the previous one.
fn stage(out: &Path, files: &BTreeMap<PathBuf, PathBuf>) -> Result<(), DistError> {
    let parent = out.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(DistError::writing(parent))?;
    let fresh = tempfile::Builder::new()
        .prefix(".natives-")
        .tempdir_in(parent)
        .map_err(DistError::writing(parent))?;
    for (staged, built) in files {
        let destination = fresh.path().join(staged);
        if let Some(directory) = destination.parent() {
            fs::create_dir_all(directory).map_err(DistError::writing(directory))?;
        }
        fs::copy(built, &destination).map_err(DistError::reading(built))?;
    }
    if out.exists() {
        fs::remove_dir_all(out).map_err(DistError::writing(out))?;
    }
    let fresh = fresh.keep();
    fs::rename(&fresh, out).map_err(DistError::writing(out))
}
