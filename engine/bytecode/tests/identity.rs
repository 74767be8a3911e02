//! Opening a method body and encoding it again without edits gives back
//! the compiler's `Code` attribute byte for byte: decoding, layout, frame
//! expansion and compression, and every remapped table agree with javac.

use std::fs;

use jp_bytecode::MethodBody;
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{ClassFile, PoolBuilder};

#[test]
fn every_testdata_method_encodes_back_to_its_original_code() {
    let files: Vec<_> = jp_testdata::VERSIONS
        .into_iter()
        .flat_map(|version| jp_testdata::files_with_extension(&jp_testdata::dir().join(version), "class"))
        .collect();
    let mut methods = 0;
    for file in &files {
        let bytes = fs::read(file).unwrap();
        let class = ClassFile::parse(&bytes).unwrap();
        for method in &class.methods {
            let Some(raw) = method.attribute(names::CODE) else {
                continue;
            };
            let code = Code::from_raw(raw, &class.constant_pool).unwrap();
            let body = MethodBody::open(&class, method, &code).unwrap_or_else(|e| {
                panic!(
                    "{}: {}: {e}",
                    file.display(),
                    String::from_utf8_lossy(method.name)
                )
            });
            let mut pool = PoolBuilder::new(&class.constant_pool);
            let info = body.encode(&mut pool).unwrap();
            assert!(
                info == raw.info,
                "{}: {}{} changed",
                file.display(),
                String::from_utf8_lossy(method.name),
                String::from_utf8_lossy(method.descriptor)
            );
            assert!(!pool.is_extended());
            methods += 1;
        }
    }
    assert!(methods > 300, "only {methods} methods");
}
