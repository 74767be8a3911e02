//! Dotted version numbers as the checks compare them: glibc symbol versions (`GLIBC_2.2.5`)
//! and macOS deployment targets (`10.12`).

use std::fmt;

/// A `major.minor.patch` version; ordering is numeric, field by field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    /// First component.
    pub major: u16,
    /// Second component.
    pub minor: u16,
    /// Third component, 0 when absent.
    pub patch: u16,
}

impl Version {
    /// `major.minor`, patch 0.
    pub const fn new(major: u16, minor: u16) -> Self {
        Version {
            major,
            minor,
            patch: 0,
        }
    }

    /// Parses `2.17` or `2.2.5`; `None` for anything else (`PRIVATE`, `2`, `2.x`).
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split('.').map(|part| part.parse::<u16>().ok());
        let major = parts.next()??;
        let minor = parts.next()??;
        let patch = parts.next().unwrap_or(Some(0))?;
        if parts.next().is_some() {
            return None;
        }
        Some(Version { major, minor, patch })
    }

    /// Decodes Mach-O's packed `xxxx.yy.zz` (one 16-bit and two 8-bit fields), as in
    /// `LC_BUILD_VERSION.minos` and `LC_VERSION_MIN_MACOSX.version`.
    pub fn from_macho(packed: u32) -> Self {
        Version {
            major: (packed >> 16) as u16,
            minor: ((packed >> 8) & 0xff) as u16,
            patch: (packed & 0xff) as u16,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)?;
        if self.patch != 0 {
            write!(f, ".{}", self.patch)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_versions_compare_numerically() {
        let old = Version::parse("2.2.5").unwrap();
        let floor = Version::parse("2.17").unwrap();
        let new = Version::parse("2.34").unwrap();
        assert!(old < floor && floor < new);
        assert_eq!(old.to_string(), "2.2.5");
        assert_eq!(floor.to_string(), "2.17");
    }

    #[test]
    fn non_numeric_versions_are_not_versions() {
        assert_eq!(Version::parse("PRIVATE"), None);
        assert_eq!(Version::parse("2"), None);
        assert_eq!(Version::parse("2.17.1.1"), None);
    }

    #[test]
    fn macho_versions_unpack_into_dotted_form() {
        assert_eq!(Version::from_macho(0x000A_0C00), Version::new(10, 12));
        assert_eq!(Version::from_macho(0x000B_0000), Version::new(11, 0));
    }
}
