//! Every class of the checked-in corpus (`testdata/`, see `testdata/build.sh`) is written back
//! byte for byte: by the lossless writer, which copies what it does not change, and by
//! `deep::reencode`, which encodes every constant and typed attribute from its parsed form.

mod common;

use std::collections::BTreeSet;

use common::{first_difference, short, testdata_classes};
use jp_classfile::attributes::{names, AttributeInfo, Code, Record};
use jp_classfile::{deep, ClassFile, ClassWriter, ConstantPool, RawAttribute};

/// Runs `check` on every class and fails once, listing every class it failed for.
fn for_every_class(check: impl Fn(&[u8]) -> Result<(), String>) {
    let classes = testdata_classes();
    let failures: Vec<String> = classes
        .iter()
        .filter_map(|(path, bytes)| check(bytes).err().map(|e| format!("{}: {e}", short(path))))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} classes failed:\n{}",
        failures.len(),
        classes.len(),
        failures.join("\n")
    );
}

fn compare(input: &[u8], output: &[u8]) -> Result<(), String> {
    if input == output {
        Ok(())
    } else {
        Err(format!(
            "output differs from offset {:#x} ({} bytes in, {} out)",
            first_difference(input, output),
            input.len(),
            output.len()
        ))
    }
}

#[test]
fn every_testdata_class_round_trips_identically() {
    for_every_class(|bytes| {
        let class = ClassFile::parse(bytes).map_err(|e| format!("parse: {e}"))?;
        let written = ClassWriter::new(&class)
            .to_bytes()
            .map_err(|e| format!("write: {e}"))?;
        compare(bytes, &written)
    });
}

#[test]
fn every_testdata_class_reencodes_deeply_to_identical_bytes() {
    for_every_class(|bytes| {
        let class = ClassFile::parse(bytes).map_err(|e| format!("parse: {e}"))?;
        let reencoded = deep::reencode(&class).map_err(|e| format!("reencode: {}", common::chain(&e)))?;
        compare(bytes, &reencoded)
    });
}

#[test]
fn the_corpus_has_a_class_of_every_major_version_it_claims() {
    let majors: BTreeSet<u16> = testdata_classes()
        .iter()
        .map(|(_, bytes)| u16::from_be_bytes([bytes[6], bytes[7]]))
        .collect();
    for major in [45, 46, 47, 48, 52, 61, 69] {
        assert!(
            majors.contains(&major),
            "no class of major version {major}: {majors:?}"
        );
    }
}

/// The names of `attributes` and of the attributes nested in them (`Code`, `Record`).
fn collect_names<'a>(attributes: &[RawAttribute<'a>], pool: &ConstantPool<'a>, seen: &mut BTreeSet<Vec<u8>>) {
    for attribute in attributes {
        seen.insert(attribute.name.to_vec());
        if attribute.name == names::CODE {
            let code = Code::from_raw(attribute, pool).expect("corpus Code parses");
            collect_names(&code.attributes, pool, seen);
        } else if attribute.name == names::RECORD {
            let record = Record::from_raw(attribute, pool).expect("corpus Record parses");
            for component in &record.components {
                collect_names(&component.attributes, pool, seen);
            }
        }
    }
}

#[test]
fn the_corpus_has_every_attribute_but_source_debug_extension() {
    let classes = testdata_classes();
    let mut seen = BTreeSet::new();
    for (_, bytes) in &classes {
        let class = ClassFile::parse(bytes).expect("corpus class parses");
        let pool = &class.constant_pool;
        collect_names(&class.attributes, pool, &mut seen);
        for member in class.fields.iter().chain(&class.methods) {
            collect_names(&member.attributes, pool, &mut seen);
        }
    }
    // JVMS Table 4.7-A but SourceDebugExtension, which javac never writes. Synthetic comes from
    // testdata/old/: javac has marked synthetic members with ACC_SYNTHETIC since Java 5.
    let expected = [
        names::CONSTANT_VALUE,
        names::CODE,
        names::STACK_MAP_TABLE,
        names::EXCEPTIONS,
        names::INNER_CLASSES,
        names::ENCLOSING_METHOD,
        names::SYNTHETIC,
        names::SIGNATURE,
        names::SOURCE_FILE,
        names::LINE_NUMBER_TABLE,
        names::LOCAL_VARIABLE_TABLE,
        names::LOCAL_VARIABLE_TYPE_TABLE,
        names::DEPRECATED,
        names::RUNTIME_VISIBLE_ANNOTATIONS,
        names::RUNTIME_INVISIBLE_ANNOTATIONS,
        names::RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS,
        names::RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS,
        names::RUNTIME_VISIBLE_TYPE_ANNOTATIONS,
        names::RUNTIME_INVISIBLE_TYPE_ANNOTATIONS,
        names::ANNOTATION_DEFAULT,
        names::BOOTSTRAP_METHODS,
        names::METHOD_PARAMETERS,
        names::MODULE,
        names::MODULE_PACKAGES,
        names::MODULE_MAIN_CLASS,
        names::NEST_HOST,
        names::NEST_MEMBERS,
        names::RECORD,
        names::PERMITTED_SUBCLASSES,
    ];
    let missing: Vec<_> = expected
        .iter()
        .filter(|name| !seen.contains(**name))
        .map(|name| String::from_utf8_lossy(name))
        .collect();
    assert!(missing.is_empty(), "no class in testdata/ has {missing:?}");
}
