//! Frame names as the line-oriented reports (`folded`, `text`) write them:
//! a Java-like signature instead of the JVMS descriptor, and nothing that
//! a terminal or a folded-stack reader would take for markup.
//!
//! A profile names a frame `binary.class.Name.method(Descriptor)`. The
//! descriptor holds `;` (`(Ljava/util/List;)I`), which the folded format
//! uses between frames, so those reports write the parameter and return
//! types as Java spells them: `pkg.Class.method(java.util.List,int[]):int`.
//! The return type stays, so that overloads and bridge methods (which differ
//! only in it) keep distinct names. Then every control character (C0, DEL,
//! C1: a line break, a tab, an escape sequence) is written `\u{1b}`, a `;`
//! left in a malformed name `\u{3b}`, and `\` as `\\`, so that the escapes
//! cannot be mistaken for a name's own text. Such a name has no `;`, no
//! line break and no tab; it may hold spaces (Kotlin allows them in method
//! names), which the folded readers accept since the count follows the last
//! space of a line.

use std::borrow::Cow;
use std::fmt::Write as _;

use jp_profile::Profile;

/// Every frame of `profile` as written by [`readable`], indexed by frame id.
pub fn readable_frames(profile: &Profile) -> Vec<Cow<'_, str>> {
    profile.frames().iter().map(|name| readable(name)).collect()
}

/// `name` with its descriptor written as a Java signature (when it ends in
/// a well-formed method descriptor; otherwise as it is), then escaped as
/// [`escape`] does, and `;` as `\u{3b}`. A test frame (`[test] <test id>`)
/// has no descriptor, even when its test's parameter list looks like one,
/// and is only escaped.
pub fn readable(name: &str) -> Cow<'_, str> {
    if jp_profile::tests::test_id(name).is_some() {
        return escape_frame(name);
    }
    let signature = name
        .rmatch_indices('(')
        .find_map(|(start, _)| java_signature(&name[start..]).map(|signature| (start, signature)));
    match signature {
        Some((start, signature)) => {
            let mut text = escape_frame(&name[..start]).into_owned();
            text.push_str(&escape_frame(&signature));
            Cow::Owned(text)
        }
        None => escape_frame(name),
    }
}

/// Control characters as `\u{..}` and `\` as `\\`, for text that is not
/// a frame (the metadata of the text report); text without them is borrowed.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c.is_control() || c == '\\')
}

/// [`escape`], and `;` as `\u{3b}`.
fn escape_frame(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c.is_control() || c == '\\' || c == ';')
}

fn escape_where(text: &str, special: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.contains(&special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if special(c) => {
                write!(out, "\\u{{{:x}}}", u32::from(c)).expect("a String takes any text");
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `(java.util.List,int[]):int` for the method descriptor
/// `(Ljava/util/List;[I)I` (JVMS §4.3.3); `None` if `descriptor` is not one.
fn java_signature(descriptor: &str) -> Option<String> {
    let mut rest = descriptor.strip_prefix('(')?;
    let mut out = String::with_capacity(descriptor.len() + 16);
    out.push('(');
    let mut first = true;
    while !rest.starts_with(')') {
        if !first {
            out.push(',');
        }
        first = false;
        rest = field_type(rest, &mut out)?;
    }
    out.push_str("):");
    rest = &rest[1..];
    if rest == "V" {
        out.push_str("void");
        return Some(out);
    }
    field_type(rest, &mut out)?.is_empty().then_some(out)
}

/// Appends the Java name of the field type at the start of `text` (JVMS
/// §4.3.2) and gives what follows it.
fn field_type<'a>(text: &'a str, out: &mut String) -> Option<&'a str> {
    let dimensions = text.len() - text.trim_start_matches('[').len();
    let text = &text[dimensions..];
    let base = match text.as_bytes().first()? {
        b'B' => "byte",
        b'C' => "char",
        b'D' => "double",
        b'F' => "float",
        b'I' => "int",
        b'J' => "long",
        b'S' => "short",
        b'Z' => "boolean",
        b'L' => {
            let end = text.find(';')?;
            let class = &text[1..end];
            if class.is_empty() {
                return None;
            }
            out.extend(class.chars().map(|c| if c == '/' { '.' } else { c }));
            out.push_str(&"[]".repeat(dimensions));
            return Some(&text[end + 1..]);
        }
        _ => return None,
    };
    out.push_str(base);
    out.push_str(&"[]".repeat(dimensions));
    Some(&text[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_become_java_signatures_with_their_return_type() {
        assert_eq!(
            readable("demo.Main.main([Ljava/lang/String;)V"),
            "demo.Main.main(java.lang.String[]):void"
        );
        assert_eq!(
            readable("pkg.Class.method(Ljava/util/List;[IJ[[Lpkg/Outer$Inner;)I"),
            "pkg.Class.method(java.util.List,int[],long,pkg.Outer$Inner[][]):int"
        );
        assert_eq!(readable("a.B.<init>()V"), "a.B.<init>():void");
        assert_eq!(
            readable("a.B.f(BCDFSZ)[Z"),
            "a.B.f(byte,char,double,float,short,boolean):boolean[]"
        );
    }

    #[test]
    fn bridge_methods_differing_only_in_the_return_type_stay_apart() {
        let bridge = readable("a.B.get()Ljava/lang/Object;");
        let real = readable("a.B.get()Ljava/lang/String;");
        assert_eq!(
            (&*bridge, &*real),
            ("a.B.get():java.lang.Object", "a.B.get():java.lang.String")
        );
    }

    #[test]
    fn names_with_spaces_and_parentheses_keep_them() {
        assert_eq!(
            readable("demo.MainTest.main works (twice)(Ljava/lang/String;)V"),
            "demo.MainTest.main works (twice)(java.lang.String):void"
        );
    }

    #[test]
    fn a_name_without_a_descriptor_is_kept_with_its_semicolons_escaped() {
        assert_eq!(readable("main"), "main");
        assert_eq!(readable("a.B.f(Ljava/lang/String)V"), "a.B.f(Ljava/lang/String)V");
        assert_eq!(readable("a.B.f(L;)V"), "a.B.f(L\\u{3b})V");
        assert_eq!(readable("a.B.f()VV"), "a.B.f()VV");
        assert_eq!(readable("a.B.f(V)V"), "a.B.f(V)V");
    }

    #[test]
    fn a_test_frame_is_escaped_and_keeps_its_parameter_list() {
        assert_eq!(
            readable("[test] a.ParserTest#parses(String, int) > [2] \"x;y\""),
            "[test] a.ParserTest#parses(String, int) > [2] \"x\\u{3b}y\""
        );
        assert_eq!(readable("[test] a.T#f(I)V"), "[test] a.T#f(I)V");
    }

    #[test]
    fn control_characters_and_backslashes_are_escaped() {
        assert_eq!(
            readable("a.B.\u{1b}[31mred\u{1b}[0m\nnext\ttab\u{7f}\u{85}\\()V"),
            "a.B.\\u{1b}[31mred\\u{1b}[0m\\u{a}next\\u{9}tab\\u{7f}\\u{85}\\\\():void"
        );
        assert_eq!(escape("ünïcødé → 😀 x;y"), "ünïcødé → 😀 x;y");
        assert_eq!(
            escape("java -jar a.jar\u{1b}]0;title\u{7}"),
            "java -jar a.jar\\u{1b}]0;title\\u{7}"
        );
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }
}
