//! The title of a report when none is given (`--title`, or the plugins'
//! project and task): what was profiled, in the words a person would use.
//!
//! The runtime records the JVM's command (`meta command`, the main class or
//! jar and its arguments). That names a program run from the command line
//! (`demo.Main`, `app.jar`), but a build's test worker is named by its
//! launcher (`worker.org.gradle.process.internal.worker.GradleWorkerMain
//! 'Gradle Test Executor 1'`, Surefire's `surefirebooter….jar`), which says
//! nothing about the project. Then the profiles' directory names it: the
//! nearest directory above them that is not one of the build tools' own
//! (`build`, `target`, `jp`, `profiles`), as in
//! `demo/build/jp/profiles/jpProfileTest/…` (`jpProfileTest`) or
//! `shop/target/jp/profiles/…` (`shop`).

use std::path::{Path, PathBuf};

use jp_profile::Profile;

/// Directories that the build tools and JP name the same in every project.
const TOOL_DIRECTORIES: [&str; 6] = ["build", "target", "jp", "profiles", "jp-profiles", "tmp"];

/// Main classes and jars of test launchers: they name no project.
const LAUNCHERS: [&str; 5] = [
    "worker.org.gradle.",
    "org.gradle.",
    "surefirebooter",
    "org.apache.maven.surefire.",
    "org.junit.platform.console.",
];

/// The title of a report of `profile`, read from `profiles`: the main
/// class or jar of its command, else the profiles' directory, else `JP profile`.
pub fn default_title(profile: &Profile, profiles: &[PathBuf]) -> String {
    profile
        .meta
        .get("command")
        .and_then(|command| program(command))
        .or_else(|| directory(profiles))
        .unwrap_or_else(|| "JP profile".to_owned())
}

/// `demo.Main` of `demo.Main --fast`, `app.jar` of `/opt/app.jar x`; `None`
/// for a test launcher.
fn program(command: &str) -> Option<String> {
    let first = command.split_whitespace().next()?;
    let name = if first.ends_with(".jar") {
        Path::new(first).file_name()?.to_str()?
    } else {
        first
    };
    let launcher = LAUNCHERS.iter().any(|launcher| name.starts_with(launcher));
    (!launcher).then(|| name.to_owned())
}

/// The nearest directory above every profile that is not a tool's own.
fn directory(profiles: &[PathBuf]) -> Option<String> {
    let mut common = profiles.first()?.parent()?.to_path_buf();
    for profile in &profiles[1..] {
        while !profile.starts_with(&common) {
            common = common.parent()?.to_path_buf();
        }
    }
    common
        .ancestors()
        .filter_map(|dir| dir.file_name()?.to_str())
        .find(|name| !TOOL_DIRECTORIES.contains(name))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(command: Option<&str>, profiles: &[&str]) -> String {
        let mut profile = Profile::new();
        if let Some(command) = command {
            profile.meta.insert("command".into(), command.into());
        }
        let profiles: Vec<PathBuf> = profiles.iter().map(PathBuf::from).collect();
        default_title(&profile, &profiles)
    }

    #[test]
    fn a_program_is_named_by_its_main_class_or_jar() {
        assert_eq!(title(Some("demo.Main --fast"), &["/p/a.jpprof"]), "demo.Main");
        assert_eq!(title(Some("/opt/lib/app.jar run"), &[]), "app.jar");
    }

    #[test]
    fn a_test_worker_is_named_by_the_profiles_directory() {
        let gradle = "worker.org.gradle.process.internal.worker.GradleWorkerMain 'Gradle Test Executor 1'";
        assert_eq!(
            title(
                Some(gradle),
                &[
                    "/w/demo/build/jp/profiles/jpProfileTest/a.jpprof",
                    "/w/demo/build/jp/profiles/jpProfileTest/b.jpprof"
                ]
            ),
            "jpProfileTest"
        );
        let surefire = "/w/shop/target/surefire/surefirebooter-2024.jar /w/shop/target/surefire";
        assert_eq!(
            title(
                Some(surefire),
                &[
                    "/w/shop/target/jp/profiles/1/a.jpprof",
                    "/w/shop/target/jp/profiles/2/b.jpprof"
                ]
            ),
            "shop"
        );
    }

    #[test]
    fn without_a_command_or_a_directory_the_title_is_generic() {
        assert_eq!(title(None, &["/p/runs/x.jpprof"]), "runs");
        assert_eq!(title(None, &[]), "JP profile");
        assert_eq!(title(None, &["x.jpprof"]), "JP profile");
    }
}
