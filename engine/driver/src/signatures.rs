//! Jar signatures, which rewritten classes no longer match. A JVM refuses
//! a class whose digest differs from the one its signed jar records, so
//! when any class of a jar is rewritten, the signature files go
//! (`META-INF/*.SF`, `*.RSA`, `*.DSA`, `*.EC`, `SIG-*`) and the manifest
//! loses its per-entry digests. The jar is then simply unsigned.

/// Whether `name` is a signature file of a signed jar (JAR File
/// Specification, "Signed JAR File").
pub(crate) fn is_signature_file(name: &str) -> bool {
    let Some(file) = name.strip_prefix("META-INF/") else {
        return false;
    };
    if file.contains('/') {
        return false;
    }
    let upper = file.to_ascii_uppercase();
    upper.starts_with("SIG-")
        || [".SF", ".RSA", ".DSA", ".EC"]
            .iter()
            .any(|ext| upper.ends_with(ext))
}

/// The manifest without the `*-Digest` attributes of its entry sections;
/// sections left with nothing but their `Name` are dropped. The main
/// section, the other attributes and the line endings stay as they were.
pub(crate) fn strip_manifest_digests(manifest: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(manifest.len());
    for (index, section) in sections(manifest).into_iter().enumerate() {
        if index == 0 {
            out.extend_from_slice(section);
            continue;
        }
        let attributes = attributes(section);
        let kept: Vec<&[u8]> = attributes.iter().copied().filter(|a| !is_digest(a)).collect();
        let only_name = kept
            .iter()
            .all(|a| attribute_name(a).eq_ignore_ascii_case(b"Name") || a.trim_ascii().is_empty());
        if kept.len() < attributes.len() && only_name {
            continue;
        }
        for attribute in kept {
            out.extend_from_slice(attribute);
        }
    }
    out
}

/// Sections with the blank line that ends each (the first is the main section).
fn sections(manifest: &[u8]) -> Vec<&[u8]> {
    let mut sections = Vec::new();
    let mut start = 0;
    for (end, line) in lines(manifest) {
        if line.trim_ascii_end().is_empty() {
            sections.push(&manifest[start..end]);
            start = end;
        }
    }
    if start < manifest.len() {
        sections.push(&manifest[start..]);
    }
    sections
}

/// Attributes of a section, each with its continuation lines (which start
/// with a space) and line endings; a trailing blank line is its own item.
fn attributes(section: &[u8]) -> Vec<&[u8]> {
    let mut attributes = Vec::new();
    let mut start = 0;
    let mut previous_end = 0;
    for (end, line) in lines(section) {
        let begins_attribute = !line.starts_with(b" ");
        if begins_attribute && previous_end > start {
            attributes.push(&section[start..previous_end]);
            start = previous_end;
        }
        previous_end = end;
    }
    if start < section.len() {
        attributes.push(&section[start..]);
    }
    attributes
}

/// Each line with its ending, and the offset just past it.
fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let end = text[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| at + i + 1);
        let line = &text[at..end];
        at = end;
        Some((end, line))
    })
}

fn attribute_name(attribute: &[u8]) -> &[u8] {
    let end = attribute
        .iter()
        .position(|&b| b == b':')
        .unwrap_or(attribute.len());
    &attribute[..end]
}

fn is_digest(attribute: &[u8]) -> bool {
    let name = attribute_name(attribute).to_ascii_uppercase();
    name.ends_with(b"-DIGEST")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_files_are_recognised_in_meta_inf_only() {
        for name in [
            "META-INF/ECLIPSE_.SF",
            "META-INF/ECLIPSE_.RSA",
            "META-INF/A.dsa",
            "META-INF/SIG-X",
            "META-INF/K.EC",
        ] {
            assert!(is_signature_file(name), "{name}");
        }
        for name in [
            "META-INF/MANIFEST.MF",
            "META-INF/x/A.SF",
            "A.SF",
            "META-INF/services/a.RSA",
        ] {
            assert!(!is_signature_file(name), "{name}");
        }
    }

    #[test]
    fn entry_digests_go_and_the_rest_of_the_manifest_stays() {
        let manifest = b"Manifest-Version: 1.0\r\nMain-Class: a.B\r\n\r\n\
            Name: a/B.class\r\nSHA-256-Digest: abc=\r\n\r\n\
            Name: a/very/long/na\r\n me/C.class\r\nSHA-256-Digest: def=\r\nX-Kept: yes\r\n\r\n";
        let stripped = strip_manifest_digests(manifest);
        assert_eq!(
            String::from_utf8(stripped).unwrap(),
            "Manifest-Version: 1.0\r\nMain-Class: a.B\r\n\r\n\
             Name: a/very/long/na\r\n me/C.class\r\nX-Kept: yes\r\n\r\n"
        );
    }

    #[test]
    fn an_unsigned_manifest_is_unchanged() {
        let manifest = b"Manifest-Version: 1.0\nCreated-By: test\n\nName: x/\nSealed: true\n\n";
        assert_eq!(strip_manifest_digests(manifest), manifest);
    }
}
