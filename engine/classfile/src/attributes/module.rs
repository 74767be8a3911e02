//! The attributes of a `module-info` class: `Module` (JVMS §4.7.25),
//! `ModulePackages` (§4.7.26) and `ModuleMainClass` (§4.7.27).
//!
//! The parsers read the layout only; the constant-pool indices they return
//! are neither resolved nor checked.

use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::Result;
use crate::reader::{put_count, ByteSink, Reader};

use super::member_attrs::{read_index_list, write_index_list};
use super::AttributeInfo;

/// One `requires` entry of `Module` (JVMS §4.7.25).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModuleRequires {
    /// `requires_index`: a `Module` constant.
    pub requires_index: CpIndex,
    /// `requires_flags`: `ACC_TRANSITIVE`, `ACC_STATIC_PHASE`,
    /// `ACC_SYNTHETIC`, `ACC_MANDATED`.
    pub requires_flags: u16,
    /// `requires_version_index`: a `Utf8` constant, or 0 when no version
    /// was recorded.
    pub requires_version_index: CpIndex,
}

/// One `exports` entry of `Module` (JVMS §4.7.25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleExports {
    /// `exports_index`: a `Package` constant.
    pub exports_index: CpIndex,
    /// `exports_flags`: `ACC_SYNTHETIC`, `ACC_MANDATED`.
    pub exports_flags: u16,
    /// `exports_to_index`: `Module` constants; empty for an unqualified
    /// export.
    pub exports_to_index: Vec<CpIndex>,
}

/// One `opens` entry of `Module` (JVMS §4.7.25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleOpens {
    /// `opens_index`: a `Package` constant.
    pub opens_index: CpIndex,
    /// `opens_flags`: `ACC_SYNTHETIC`, `ACC_MANDATED`.
    pub opens_flags: u16,
    /// `opens_to_index`: `Module` constants; empty for an unqualified
    /// opening.
    pub opens_to_index: Vec<CpIndex>,
}

/// One `provides` entry of `Module` (JVMS §4.7.25).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleProvides {
    /// `provides_index`: the service interface, a `Class` constant.
    pub provides_index: CpIndex,
    /// `provides_with_index`: the implementations, `Class` constants.
    pub provides_with_index: Vec<CpIndex>,
}

/// JVMS §4.7.25, `Module`: a module's name, flags, version and its
/// `requires`, `exports`, `opens`, `uses` and `provides` directives, in the
/// order the JVMS lays them out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// `module_name_index`: a `Module` constant.
    pub module_name_index: CpIndex,
    /// `module_flags`: `ACC_OPEN`, `ACC_SYNTHETIC`, `ACC_MANDATED`.
    pub module_flags: u16,
    /// `module_version_index`: a `Utf8` constant, or 0 when there is no
    /// version.
    pub module_version_index: CpIndex,
    /// `requires`.
    pub requires: Vec<ModuleRequires>,
    /// `exports`.
    pub exports: Vec<ModuleExports>,
    /// `opens`.
    pub opens: Vec<ModuleOpens>,
    /// `uses_index`: service interfaces, `Class` constants.
    pub uses_index: Vec<CpIndex>,
    /// `provides`.
    pub provides: Vec<ModuleProvides>,
}

impl<'a> AttributeInfo<'a> for Module {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let module_name_index = CpIndex(r.u2("module_name_index")?);
        let module_flags = r.u2("module_flags")?;
        let module_version_index = CpIndex(r.u2("module_version_index")?);

        let count = r.count_u2("requires_count", 6)?;
        let mut requires = Vec::with_capacity(count);
        for _ in 0..count {
            requires.push(ModuleRequires {
                requires_index: CpIndex(r.u2("requires_index")?),
                requires_flags: r.u2("requires_flags")?,
                requires_version_index: CpIndex(r.u2("requires_version_index")?),
            });
        }

        let count = r.count_u2("exports_count", 6)?;
        let mut exports = Vec::with_capacity(count);
        for _ in 0..count {
            exports.push(ModuleExports {
                exports_index: CpIndex(r.u2("exports_index")?),
                exports_flags: r.u2("exports_flags")?,
                exports_to_index: read_index_list(r, "exports_to_count")?,
            });
        }

        let count = r.count_u2("opens_count", 6)?;
        let mut opens = Vec::with_capacity(count);
        for _ in 0..count {
            opens.push(ModuleOpens {
                opens_index: CpIndex(r.u2("opens_index")?),
                opens_flags: r.u2("opens_flags")?,
                opens_to_index: read_index_list(r, "opens_to_count")?,
            });
        }

        let uses_index = read_index_list(r, "uses_count")?;

        let count = r.count_u2("provides_count", 4)?;
        let mut provides = Vec::with_capacity(count);
        for _ in 0..count {
            provides.push(ModuleProvides {
                provides_index: CpIndex(r.u2("provides_index")?),
                provides_with_index: read_index_list(r, "provides_with_count")?,
            });
        }

        Ok(Module {
            module_name_index,
            module_flags,
            module_version_index,
            requires,
            exports,
            opens,
            uses_index,
            provides,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u2(self.module_name_index.0);
        out.put_u2(self.module_flags);
        out.put_u2(self.module_version_index.0);
        put_count(out, self.requires.len());
        for requires in &self.requires {
            out.put_u2(requires.requires_index.0);
            out.put_u2(requires.requires_flags);
            out.put_u2(requires.requires_version_index.0);
        }
        put_count(out, self.exports.len());
        for exports in &self.exports {
            out.put_u2(exports.exports_index.0);
            out.put_u2(exports.exports_flags);
            write_index_list(out, &exports.exports_to_index);
        }
        put_count(out, self.opens.len());
        for opens in &self.opens {
            out.put_u2(opens.opens_index.0);
            out.put_u2(opens.opens_flags);
            write_index_list(out, &opens.opens_to_index);
        }
        write_index_list(out, &self.uses_index);
        put_count(out, self.provides.len());
        for provides in &self.provides {
            out.put_u2(provides.provides_index.0);
            write_index_list(out, &provides.provides_with_index);
        }
    }
}

index_list_attribute! {
    /// JVMS §4.7.26, `ModulePackages`: every package of the module.
    ModulePackages {
        /// `package_index`: `Package` constants, in file order.
        package_index counted by "package_count"
    }
}

index_attribute! {
    /// JVMS §4.7.27, `ModuleMainClass`: the module's main class.
    ModuleMainClass {
        /// `main_class_index`: a `Class` constant.
        main_class_index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ClassFileError;
    use crate::testing::{encoded, minimal_class, parse_info};
    use crate::ClassFile;

    /// A module with every kind of directive. The indices are arbitrary:
    /// the parser does not look them up.
    const MODULE_INFO: [u8; 60] = [
        0, 1, 0x00, 0x20, 0, 0, // module_name_index, module_flags (ACC_OPEN), no version
        0, 2, // requires_count
        0, 3, 0x80, 0x00, 0, 0, // java.base, ACC_MANDATED, no version
        0, 4, 0x00, 0x20, 0, 5, // transitive, with a version
        0, 2, // exports_count
        0, 6, 0, 0, 0, 0, // unqualified
        0, 7, 0, 0, 0, 2, 0, 3, 0, 4, // to two modules
        0, 1, // opens_count
        0, 6, 0x10, 0x00, 0, 1, 0, 3, // synthetic, to one module
        0, 1, 0, 8, // uses_count, uses_index
        0, 1, // provides_count
        0, 8, 0, 1, 0, 2, // provides #8 with #2
    ];

    #[test]
    fn a_module_with_every_directive_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let module: Module = parse_info(&MODULE_INFO, &class.constant_pool).unwrap();
        assert_eq!(module.module_name_index, CpIndex(1));
        assert_eq!(module.module_flags, 0x0020);
        assert_eq!(module.module_version_index, CpIndex(0));
        assert_eq!(
            module.requires,
            [
                ModuleRequires {
                    requires_index: CpIndex(3),
                    requires_flags: 0x8000,
                    requires_version_index: CpIndex(0),
                },
                ModuleRequires {
                    requires_index: CpIndex(4),
                    requires_flags: 0x0020,
                    requires_version_index: CpIndex(5),
                },
            ]
        );
        assert!(module.exports[0].exports_to_index.is_empty());
        assert_eq!(
            module.exports[1],
            ModuleExports {
                exports_index: CpIndex(7),
                exports_flags: 0,
                exports_to_index: vec![CpIndex(3), CpIndex(4)],
            }
        );
        assert_eq!(
            module.opens,
            [ModuleOpens {
                opens_index: CpIndex(6),
                opens_flags: 0x1000,
                opens_to_index: vec![CpIndex(3)],
            }]
        );
        assert_eq!(module.uses_index, [CpIndex(8)]);
        assert_eq!(
            module.provides,
            [ModuleProvides {
                provides_index: CpIndex(8),
                provides_with_index: vec![CpIndex(2)],
            }]
        );
        assert_eq!(encoded(&module), MODULE_INFO);
    }

    #[test]
    fn an_empty_module_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let module: Module = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(module.module_version_index, CpIndex(2));
        assert!(module.requires.is_empty() && module.provides.is_empty());
        assert_eq!(encoded(&module), info);
    }

    #[test]
    fn forged_module_counts_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        // (position of the count, its item name)
        let counts = [
            (6, "requires_count"),
            (20, "exports_count"),
            (26, "exports_to_count"),
            (38, "opens_count"),
            (44, "opens_to_count"),
            (48, "uses_count"),
            (52, "provides_count"),
            (56, "provides_with_count"),
        ];
        for (position, name) in counts {
            let mut info = MODULE_INFO.to_vec();
            info[position..position + 2].copy_from_slice(&[0xFF, 0xFF]);
            let err = parse_info::<Module>(&info, &class.constant_pool).unwrap_err();
            assert!(
                matches!(
                    err,
                    ClassFileError::ImpossibleCount { item, count: 65535, offset, .. }
                        if item == name && offset == 0x200 + position
                ),
                "{name}: {err:?}"
            );
        }
    }

    #[test]
    fn a_truncated_module_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<Module>(&MODULE_INFO[..4], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "module_version_index",
                offset: 0x204,
                needed: 2
            }
        ));
        // Every prefix fails, by truncation or by a count that no longer fits.
        for len in 0..MODULE_INFO.len() {
            assert!(parse_info::<Module>(&MODULE_INFO[..len], &class.constant_pool).is_err());
        }
    }

    #[test]
    fn module_packages_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 3, 0, 6, 0, 7, 0, 9];
        let packages: ModulePackages = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(packages.package_index, [CpIndex(6), CpIndex(7), CpIndex(9)]);
        assert_eq!(encoded(&packages), info);
    }

    #[test]
    fn a_forged_package_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<ModulePackages>(&[0, 4, 0, 6, 0, 7, 0, 9], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "package_count",
                count: 4,
                remaining: 6,
                ..
            }
        ));
    }

    #[test]
    fn truncated_module_packages_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<ModulePackages>(&[0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "package_count",
                ..
            }
        ));
    }

    #[test]
    fn module_main_class_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 2];
        let main: ModuleMainClass = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(main.main_class_index, CpIndex(2));
        assert_eq!(encoded(&main), info);
        let err = parse_info::<ModuleMainClass>(&[0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "main_class_index",
                needed: 1,
                ..
            }
        ));
    }
}
