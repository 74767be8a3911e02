//! Deep re-encoding: writes a class from its typed model alone, every
//! constant from its parsed [`crate::Constant`] and every attribute that has a
//! typed view in [`crate::attributes`] through that view (recursing into
//! `Code` and `Record`), with no verbatim copying except for attributes
//! JP does not interpret.
//!
//! A faithful model gives back the input bytes, so comparing
//! [`reencode`]'s output with the input tests every parser and encoder of
//! this crate at once. `jp roundtrip --deep` does that over whole corpora.

use crate::attributes::{self as attr, names, AttributeInfo};
use crate::class_file::{encode_attribute, ClassFile, Member, RawAttribute};
use crate::constant_pool::ConstantPool;
use crate::error::{ClassFileError, Result};
use crate::reader::{put_count, ByteSink};

/// Re-encodes `class` from its typed model.
///
/// # Errors
/// A typed attribute that does not parse, wrapped in
/// [`ClassFileError::InAttribute`] naming it.
pub fn reencode(class: &ClassFile<'_>) -> Result<Vec<u8>> {
    let pool = &class.constant_pool;
    let mut out = Vec::with_capacity(class.bytes().len());
    out.put_u4(0xCAFE_BABE);
    out.put_u2(class.minor_version);
    out.put_u2(class.major_version);
    out.put_u2(pool.count());
    for (_, constant) in pool.iter() {
        constant.encode(&mut out);
    }
    out.put_u2(class.access_flags);
    out.put_u2(class.this_class.0);
    out.put_u2(class.super_class.0);
    put_count(&mut out, class.interfaces.len());
    for interface in &class.interfaces {
        out.put_u2(interface.0);
    }
    for members in [&class.fields, &class.methods] {
        put_count(&mut out, members.len());
        for member in members {
            reencode_member(member, pool, &mut out)?;
        }
    }
    reencode_attributes(&class.attributes, pool, &mut out)?;
    Ok(out)
}

fn reencode_member(member: &Member<'_>, pool: &ConstantPool<'_>, out: &mut Vec<u8>) -> Result<()> {
    out.put_u2(member.access_flags);
    out.put_u2(member.name_index.0);
    out.put_u2(member.descriptor_index.0);
    reencode_attributes(&member.attributes, pool, out)
}

fn reencode_attributes(
    attributes: &[RawAttribute<'_>],
    pool: &ConstantPool<'_>,
    out: &mut Vec<u8>,
) -> Result<()> {
    put_count(out, attributes.len());
    for raw in attributes {
        encode_attribute(out, raw.name_index, &reencode_info(raw, pool)?);
    }
    Ok(())
}

fn encode_typed<'a, T: AttributeInfo<'a>>(
    raw: &RawAttribute<'a>,
    pool: &ConstantPool<'a>,
) -> Result<Vec<u8>> {
    let mut info = Vec::with_capacity(raw.info.len());
    T::from_raw(raw, pool)?.encode(&mut info);
    Ok(info)
}

/// The `info` bytes of `raw`, re-encoded through its typed view; errors
/// name the attribute (and, through their sources, the nested ones).
fn reencode_info<'a>(raw: &RawAttribute<'a>, pool: &ConstantPool<'a>) -> Result<Vec<u8>> {
    reencode_typed(raw, pool).map_err(|source| ClassFileError::InAttribute {
        name: crate::mutf8::to_str_lossy(raw.name).into_owned(),
        offset: raw.info_offset,
        source: Box::new(source),
    })
}

fn reencode_typed<'a>(raw: &RawAttribute<'a>, pool: &ConstantPool<'a>) -> Result<Vec<u8>> {
    match raw.name {
        names::CODE => {
            let code = attr::Code::from_raw(raw, pool)?;
            let infos = code
                .attributes
                .iter()
                .map(|nested| reencode_info(nested, pool))
                .collect::<Result<Vec<_>>>()?;
            let attributes = with_infos(&code.attributes, &infos);
            let mut info = Vec::with_capacity(raw.info.len());
            attr::Code { attributes, ..code }.encode(&mut info);
            Ok(info)
        }
        names::RECORD => {
            let record = attr::Record::from_raw(raw, pool)?;
            let infos = record
                .components
                .iter()
                .map(|c| {
                    c.attributes
                        .iter()
                        .map(|nested| reencode_info(nested, pool))
                        .collect::<Result<Vec<_>>>()
                })
                .collect::<Result<Vec<_>>>()?;
            let components = record
                .components
                .iter()
                .zip(&infos)
                .map(|(c, infos)| attr::RecordComponent {
                    attributes: with_infos(&c.attributes, infos),
                    ..c.clone()
                })
                .collect();
            let mut info = Vec::with_capacity(raw.info.len());
            attr::Record { components }.encode(&mut info);
            Ok(info)
        }
        names::STACK_MAP_TABLE => encode_typed::<attr::StackMapTable>(raw, pool),
        names::LINE_NUMBER_TABLE => encode_typed::<attr::LineNumberTable>(raw, pool),
        names::LOCAL_VARIABLE_TABLE => encode_typed::<attr::LocalVariableTable>(raw, pool),
        names::LOCAL_VARIABLE_TYPE_TABLE => encode_typed::<attr::LocalVariableTypeTable>(raw, pool),
        names::CONSTANT_VALUE => encode_typed::<attr::ConstantValue>(raw, pool),
        names::EXCEPTIONS => encode_typed::<attr::Exceptions>(raw, pool),
        names::SIGNATURE => encode_typed::<attr::Signature>(raw, pool),
        names::METHOD_PARAMETERS => encode_typed::<attr::MethodParameters>(raw, pool),
        names::INNER_CLASSES => encode_typed::<attr::InnerClasses>(raw, pool),
        names::ENCLOSING_METHOD => encode_typed::<attr::EnclosingMethod>(raw, pool),
        names::SOURCE_FILE => encode_typed::<attr::SourceFile>(raw, pool),
        names::BOOTSTRAP_METHODS => encode_typed::<attr::BootstrapMethods>(raw, pool),
        names::NEST_HOST => encode_typed::<attr::NestHost>(raw, pool),
        names::NEST_MEMBERS => encode_typed::<attr::NestMembers>(raw, pool),
        names::PERMITTED_SUBCLASSES => encode_typed::<attr::PermittedSubclasses>(raw, pool),
        names::MODULE => encode_typed::<attr::Module>(raw, pool),
        names::MODULE_PACKAGES => encode_typed::<attr::ModulePackages>(raw, pool),
        names::MODULE_MAIN_CLASS => encode_typed::<attr::ModuleMainClass>(raw, pool),
        names::RUNTIME_VISIBLE_ANNOTATIONS | names::RUNTIME_INVISIBLE_ANNOTATIONS => {
            encode_typed::<attr::Annotations>(raw, pool)
        }
        names::RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS | names::RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS => {
            encode_typed::<attr::ParameterAnnotations>(raw, pool)
        }
        names::RUNTIME_VISIBLE_TYPE_ANNOTATIONS | names::RUNTIME_INVISIBLE_TYPE_ANNOTATIONS => {
            encode_typed::<attr::TypeAnnotations>(raw, pool)
        }
        names::ANNOTATION_DEFAULT => encode_typed::<attr::AnnotationDefault>(raw, pool),
        _ => Ok(raw.info.to_vec()),
    }
}

/// `attributes` with their `info` replaced by `infos`, index for index.
fn with_infos<'b>(attributes: &[RawAttribute<'b>], infos: &'b [Vec<u8>]) -> Vec<RawAttribute<'b>> {
    attributes
        .iter()
        .zip(infos)
        .map(|(raw, info)| RawAttribute { info, ..*raw })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;

    #[test]
    fn deep_reencoding_of_a_minimal_class_is_identical() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        assert_eq!(reencode(&class).unwrap(), bytes);
    }

    #[test]
    fn a_broken_typed_attribute_is_named() {
        let mut bytes = minimal_class(52);
        let code_length_at = {
            let class = ClassFile::parse(&bytes).unwrap();
            class.methods[0].attributes[0].info_offset + 4
        };
        // code_length 0: the structure still parses, the Code attribute does not.
        bytes[code_length_at..code_length_at + 4].fill(0);
        let class = ClassFile::parse(&bytes).unwrap();
        let err = reencode(&class).unwrap_err();
        assert!(
            err.to_string().starts_with("in attribute Code at offset"),
            "{err}"
        );
    }
}
