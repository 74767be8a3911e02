//! Access flags (JVMS Tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A), and their
//! rendering as Java keywords.

#![allow(missing_docs)]

pub const ACC_PUBLIC: u16 = 0x0001;
pub const ACC_PRIVATE: u16 = 0x0002;
pub const ACC_PROTECTED: u16 = 0x0004;
pub const ACC_STATIC: u16 = 0x0008;
pub const ACC_FINAL: u16 = 0x0010;
/// `ACC_SUPER` on classes, `ACC_SYNCHRONIZED` on methods, `ACC_OPEN` on modules.
pub const ACC_SUPER: u16 = 0x0020;
pub const ACC_SYNCHRONIZED: u16 = 0x0020;
/// `ACC_VOLATILE` on fields, `ACC_BRIDGE` on methods.
pub const ACC_VOLATILE: u16 = 0x0040;
pub const ACC_BRIDGE: u16 = 0x0040;
/// `ACC_TRANSIENT` on fields, `ACC_VARARGS` on methods.
pub const ACC_TRANSIENT: u16 = 0x0080;
pub const ACC_VARARGS: u16 = 0x0080;
pub const ACC_NATIVE: u16 = 0x0100;
pub const ACC_INTERFACE: u16 = 0x0200;
pub const ACC_ABSTRACT: u16 = 0x0400;
pub const ACC_STRICT: u16 = 0x0800;
pub const ACC_SYNTHETIC: u16 = 0x1000;
pub const ACC_ANNOTATION: u16 = 0x2000;
pub const ACC_ENUM: u16 = 0x4000;
/// `ACC_MODULE` on classes, `ACC_MANDATED` on parameters and module items.
pub const ACC_MODULE: u16 = 0x8000;
pub const ACC_MANDATED: u16 = 0x8000;

/// Which structure a set of flags belongs to; the same bit means different
/// things in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagContext {
    /// `ClassFile.access_flags`.
    Class,
    /// `field_info.access_flags`.
    Field,
    /// `method_info.access_flags`.
    Method,
}

/// The flags as `javap` prints them: `ACC_PUBLIC, ACC_STATIC`.
pub fn describe(flags: u16, context: FlagContext) -> String {
    let names: &[(u16, &str)] = match context {
        FlagContext::Class => &[
            (ACC_PUBLIC, "ACC_PUBLIC"),
            (ACC_FINAL, "ACC_FINAL"),
            (ACC_SUPER, "ACC_SUPER"),
            (ACC_INTERFACE, "ACC_INTERFACE"),
            (ACC_ABSTRACT, "ACC_ABSTRACT"),
            (ACC_SYNTHETIC, "ACC_SYNTHETIC"),
            (ACC_ANNOTATION, "ACC_ANNOTATION"),
            (ACC_ENUM, "ACC_ENUM"),
            (ACC_MODULE, "ACC_MODULE"),
        ],
        FlagContext::Field => &[
            (ACC_PUBLIC, "ACC_PUBLIC"),
            (ACC_PRIVATE, "ACC_PRIVATE"),
            (ACC_PROTECTED, "ACC_PROTECTED"),
            (ACC_STATIC, "ACC_STATIC"),
            (ACC_FINAL, "ACC_FINAL"),
            (ACC_VOLATILE, "ACC_VOLATILE"),
            (ACC_TRANSIENT, "ACC_TRANSIENT"),
            (ACC_SYNTHETIC, "ACC_SYNTHETIC"),
            (ACC_ENUM, "ACC_ENUM"),
        ],
        FlagContext::Method => &[
            (ACC_PUBLIC, "ACC_PUBLIC"),
            (ACC_PRIVATE, "ACC_PRIVATE"),
            (ACC_PROTECTED, "ACC_PROTECTED"),
            (ACC_STATIC, "ACC_STATIC"),
            (ACC_FINAL, "ACC_FINAL"),
            (ACC_SYNCHRONIZED, "ACC_SYNCHRONIZED"),
            (ACC_BRIDGE, "ACC_BRIDGE"),
            (ACC_VARARGS, "ACC_VARARGS"),
            (ACC_NATIVE, "ACC_NATIVE"),
            (ACC_ABSTRACT, "ACC_ABSTRACT"),
            (ACC_STRICT, "ACC_STRICT"),
            (ACC_SYNTHETIC, "ACC_SYNTHETIC"),
        ],
    };
    let mut parts: Vec<String> = names
        .iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|(_, name)| (*name).to_string())
        .collect();
    let known = names.iter().fold(0, |acc, (bit, _)| acc | bit);
    if flags & !known != 0 {
        parts.push(format!("{:#06x}", flags & !known));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_flags_read_like_javap() {
        assert_eq!(
            describe(ACC_PUBLIC | ACC_STATIC | ACC_VARARGS, FlagContext::Method),
            "ACC_PUBLIC, ACC_STATIC, ACC_VARARGS"
        );
        assert_eq!(describe(ACC_TRANSIENT, FlagContext::Field), "ACC_TRANSIENT");
    }

    #[test]
    fn unknown_bits_are_shown_in_hex() {
        assert_eq!(
            describe(0x0001 | 0x0100, FlagContext::Class),
            "ACC_PUBLIC, 0x0100"
        );
    }
}
