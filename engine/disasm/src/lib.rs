//! A readable dump of a class file in the manner of `javap -v`: the
//! header, the constant pool (optionally), the members and their
//! attributes, one item per line with the JVMS field names, so that two
//! dumps compare line by line. `jp inspect` prints it, and golden tests
//! compare rewritten classes through it. It reads through `jp-classfile`
//! only and never fails on a malformed attribute: the line says so.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../classfile/testdata/java8/Enums.class"))?;
//! let class = jp_classfile::ClassFile::parse(&bytes)?;
//! let text = jp_disasm::class_text(&class, jp_disasm::Options::default());
//! assert!(text.starts_with("class Enums\n"));
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

use std::io::{self, Write};

use jp_classfile::access::{describe, FlagContext};
use jp_classfile::attributes::{self as attr, names, AttributeInfo};
use jp_classfile::{mutf8, ClassFile, Constant, ConstantPool, CpIndex, Member, RawAttribute};

/// What the dump shows beyond the header, members and attributes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Every constant-pool entry, one per line.
    pub constants: bool,
}

/// The dump of `class` as a string.
pub fn class_text(class: &ClassFile<'_>, options: Options) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = print_class(&mut out, class, options);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the dump of `class` to `out`.
///
/// # Errors
/// Only those of `out`.
pub fn print_class(out: &mut impl Write, class: &ClassFile<'_>, options: Options) -> io::Result<()> {
    let pool = &class.constant_pool;
    writeln!(out, "class {}", text(class.this_class_name()))?;
    writeln!(
        out,
        "  version: {}.{} ({})",
        class.major_version,
        class.minor_version,
        java_release(class.major_version)
    )?;
    writeln!(out, "  flags: {}", flags(class.access_flags, FlagContext::Class))?;
    writeln!(
        out,
        "  this_class: {} {}",
        class.this_class,
        text(class.this_class_name())
    )?;
    match class.super_class_name() {
        Some(name) => writeln!(out, "  super_class: {} {}", class.super_class, text(name))?,
        None => writeln!(out, "  super_class: none")?,
    }
    for interface in &class.interfaces {
        writeln!(out, "  interface: {} {}", interface, class_name(pool, *interface))?;
    }
    writeln!(
        out,
        "  constant pool: {} entries, {} bytes",
        pool.count() - 1,
        pool.raw_bytes().len()
    )?;
    if options.constants {
        for (index, constant) in pool.iter() {
            if !matches!(constant, Constant::Unusable) {
                writeln!(
                    out,
                    "    {:>6} = {:<18} {}",
                    index.to_string(),
                    constant.kind_name(),
                    describe_constant(pool, constant)
                )?;
            }
        }
    }
    writeln!(out, "  fields: {}", class.fields.len())?;
    for field in &class.fields {
        print_member(out, pool, field, FlagContext::Field)?;
    }
    writeln!(out, "  methods: {}", class.methods.len())?;
    for method in &class.methods {
        print_member(out, pool, method, FlagContext::Method)?;
    }
    print_attributes(out, pool, &class.attributes, "  ")
}

/// `0x0021 (ACC_PUBLIC, ACC_SUPER)`, or just `0x0000`.
fn flags(flags: u16, context: FlagContext) -> String {
    let names = describe(flags, context);
    if names.is_empty() {
        format!("{flags:#06x}")
    } else {
        format!("{flags:#06x} ({names})")
    }
}

fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    mutf8::to_str_lossy(bytes)
}

fn print_member(
    out: &mut impl Write,
    pool: &ConstantPool<'_>,
    member: &Member<'_>,
    context: FlagContext,
) -> io::Result<()> {
    writeln!(
        out,
        "    {}{}  flags: {}",
        text(member.name),
        if context == FlagContext::Field {
            format!(": {}", text(member.descriptor))
        } else {
            text(member.descriptor).into_owned()
        },
        flags(member.access_flags, context)
    )?;
    print_attributes(out, pool, &member.attributes, "      ")
}

fn print_attributes(
    out: &mut impl Write,
    pool: &ConstantPool<'_>,
    attributes: &[RawAttribute<'_>],
    indent: &str,
) -> io::Result<()> {
    for raw in attributes {
        write!(out, "{indent}{} ({} bytes)", text(raw.name), raw.info.len())?;
        match describe_attribute(pool, raw) {
            Ok(Detail::None) => writeln!(out)?,
            Ok(Detail::Line(line)) => writeln!(out, ": {line}")?,
            Ok(Detail::Code(code)) => {
                writeln!(
                    out,
                    ": max_stack={} max_locals={} code_length={} exception_table={}",
                    code.max_stack,
                    code.max_locals,
                    code.code.len(),
                    code.exception_table.len()
                )?;
                for handler in &code.exception_table {
                    let catch = if handler.catch_type.is_none() {
                        "any".into()
                    } else {
                        class_name(pool, handler.catch_type)
                    };
                    writeln!(
                        out,
                        "{indent}  handler: pc {}..{} -> {} catch {}",
                        handler.start_pc, handler.end_pc, handler.handler_pc, catch
                    )?;
                }
                print_attributes(out, pool, &code.attributes, &format!("{indent}  "))?;
            }
            Err(error) => writeln!(out, ": malformed: {error}")?,
        }
    }
    Ok(())
}

enum Detail<'a> {
    None,
    Line(String),
    Code(attr::Code<'a>),
}

fn describe_attribute<'a>(
    pool: &ConstantPool<'a>,
    raw: &RawAttribute<'a>,
) -> jp_classfile::Result<Detail<'a>> {
    let utf8 = |index: CpIndex| pool.utf8_lossy(index).into_owned();
    Ok(match raw.name {
        names::CODE => Detail::Code(attr::Code::from_raw(raw, pool)?),
        names::SOURCE_FILE => Detail::Line(utf8(attr::SourceFile::from_raw(raw, pool)?.sourcefile_index)),
        names::SIGNATURE => Detail::Line(utf8(attr::Signature::from_raw(raw, pool)?.signature_index)),
        names::STACK_MAP_TABLE => Detail::Line(format!(
            "{} frames",
            attr::StackMapTable::from_raw(raw, pool)?.frames.len()
        )),
        names::LINE_NUMBER_TABLE => Detail::Line(format!(
            "{} lines",
            attr::LineNumberTable::from_raw(raw, pool)?.entries.len()
        )),
        names::LOCAL_VARIABLE_TABLE => Detail::Line(format!(
            "{} variables",
            attr::LocalVariableTable::from_raw(raw, pool)?.entries.len()
        )),
        names::INNER_CLASSES => Detail::Line(format!(
            "{} classes",
            attr::InnerClasses::from_raw(raw, pool)?.classes.len()
        )),
        names::BOOTSTRAP_METHODS => Detail::Line(format!(
            "{} methods",
            attr::BootstrapMethods::from_raw(raw, pool)?
                .bootstrap_methods
                .len()
        )),
        names::NEST_HOST => Detail::Line(class_name(
            pool,
            attr::NestHost::from_raw(raw, pool)?.host_class_index,
        )),
        names::RECORD => Detail::Line(format!(
            "{} components",
            attr::Record::from_raw(raw, pool)?.components.len()
        )),
        names::EXCEPTIONS => Detail::Line(
            attr::Exceptions::from_raw(raw, pool)?
                .exception_index_table
                .iter()
                .map(|&i| class_name(pool, i))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => Detail::None,
    })
}

fn class_name(pool: &ConstantPool<'_>, index: CpIndex) -> String {
    pool.class_name(index)
        .map_or_else(|_| format!("<invalid {index}>"), |name| text(name).into_owned())
}

fn describe_constant(pool: &ConstantPool<'_>, constant: &Constant<'_>) -> String {
    let utf8 = |index: CpIndex| pool.utf8_lossy(index).into_owned();
    let nat = |index: CpIndex| match pool.get(index) {
        Some(Constant::NameAndType { name, descriptor }) => {
            format!("{}:{}", utf8(*name), utf8(*descriptor))
        }
        _ => format!("<invalid {index}>"),
    };
    match *constant {
        Constant::Utf8(bytes) => format!("{:?}", text(bytes)),
        Constant::Integer(v) => v.to_string(),
        Constant::Float(bits) => format!("{}f", f32::from_bits(bits)),
        Constant::Long(v) => format!("{v}l"),
        Constant::Double(bits) => format!("{}d", f64::from_bits(bits)),
        Constant::Class { name } | Constant::Module { name } | Constant::Package { name } => {
            format!("{name} {}", utf8(name))
        }
        Constant::String { string } => format!("{string} {:?}", utf8(string)),
        Constant::MethodType { descriptor } => format!("{descriptor} {}", utf8(descriptor)),
        Constant::Fieldref { class, name_and_type }
        | Constant::Methodref { class, name_and_type }
        | Constant::InterfaceMethodref { class, name_and_type } => {
            format!(
                "{class}.{name_and_type} {}.{}",
                class_name(pool, class),
                nat(name_and_type)
            )
        }
        Constant::NameAndType { name, descriptor } => {
            format!("{name}:{descriptor} {}:{}", utf8(name), utf8(descriptor))
        }
        Constant::MethodHandle {
            reference_kind,
            reference,
        } => format!("kind {reference_kind} {reference}"),
        Constant::Dynamic {
            bootstrap_method_attr_index,
            name_and_type,
        }
        | Constant::InvokeDynamic {
            bootstrap_method_attr_index,
            name_and_type,
        } => {
            format!("bootstrap {bootstrap_method_attr_index} {}", nat(name_and_type))
        }
        Constant::Unusable => String::new(),
    }
}

/// The Java release that introduced a class-file major version.
fn java_release(major: u16) -> String {
    match major {
        45 => "Java 1.0/1.1".into(),
        46..=48 => format!("Java 1.{}", major - 44),
        49.. => format!("Java {}", major - 44),
        _ => "unknown".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn major_versions_name_their_java_release() {
        assert_eq!(java_release(45), "Java 1.0/1.1");
        assert_eq!(java_release(48), "Java 1.4");
        assert_eq!(java_release(52), "Java 8");
        assert_eq!(java_release(69), "Java 25");
    }
}
