//! Frame names as people read them, and as the exports write them.
//!
//! A profile names a frame `binary.class.Name.method(Descriptor)`. Two
//! forms are made from it, here and nowhere else (the HTML page gets both
//! from the data the report writes):
//!
//! - The *full* form ([`java_form`]): the descriptor written as a Java
//!   signature with fully qualified types and the return type,
//!   `pkg.Class.method(java.util.List,int[]):int`. It is unambiguous and
//!   stable, so the exports (folded, speedscope) use it, escaped as
//!   [`readable`] does.
//! - The *short* form ([`ShortNames`]), the default of the text and HTML
//!   reports and of the diff: `Leaderboard.rank(List)`, the package apart
//!   (shown quietly: muted in HTML, `[demo]` after the name in text).
//!   A nested class reads `Outer.Inner`; a `$` that does not start a
//!   nested class's name (anonymous and local classes `Outer$1`,
//!   `Outer$1Local`, generated `Outer$$Lambda$3`) stays, as do synthetic
//!   method names (`lambda$rank$0`, `access$000`). Parameter types are
//!   simple names. Constructors keep their JVM names, `Leaderboard.<init>(int)`,
//!   as async-profiler and IntelliJ's profiler show them, so that a search
//!   for `<init>` finds them all and a constructor never reads like a
//!   method call. Two frames of one profile never read the same: where
//!   they would (bridge methods differing only in the return type), the
//!   return type is added (`Box.get():Object`), and where that is not
//!   enough either (`f(a.List)` and `f(b.List)`), the types are written in
//!   full.
//!
//! A test frame (`[test] <test id>`) has no descriptor, even when its
//! test's parameter list looks like one, and keeps its name in both forms;
//! so does a name that does not end in a well-formed descriptor.
//!
//! The line-oriented formats then escape every control character (C0,
//! DEL, C1: a line break, a tab, an escape sequence) as `\u{1b}`, a `;`
//! as `\u{3b}` (the folded format puts `;` between frames), and `\` as
//! `\\`, so that the escapes cannot be mistaken for a name's own text.
//! Such a name has no `;`, no line break and no tab; it may hold spaces
//! (Kotlin allows them in method names), which the folded readers accept
//! since the count follows the last space of a line.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use jp_profile::{NodeId, Profile};

/// Which form of the names a person-facing report shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NameStyle {
    /// `Leaderboard.rank(List)`, the package apart.
    #[default]
    Short,
    /// `demo.Leaderboard.rank(java.util.List):java.util.List`.
    Full,
}

/// What follows a context's frame name in trees and stacks when the
/// context is split by call site (docs/profiling.md, "Call sites"):
/// ` @ line 42`, or ` @ bci 7` where the line is unknown; empty otherwise,
/// so that reports of profiles without call sites read as before.
pub fn site_suffix(profile: &Profile, id: NodeId) -> String {
    profile
        .site(id)
        .map_or_else(String::new, |site| format!(" @ {site}"))
}

/// Every frame of `profile` as written by [`readable`], indexed by frame id.
pub fn readable_frames(profile: &Profile) -> Vec<Cow<'_, str>> {
    profile.frames().iter().map(|name| readable(name)).collect()
}

/// [`java_form`], then escaped as [`escape`] does, and `;` as `\u{3b}`.
pub fn readable(name: &str) -> Cow<'_, str> {
    match java_form(name) {
        Cow::Borrowed(name) => escape_frame(name),
        Cow::Owned(name) => Cow::Owned(escape_frame(&name).into_owned()),
    }
}

/// The full form: `name` with its descriptor written as a Java signature
/// (when it ends in a well-formed method descriptor; otherwise as it is).
pub fn java_form(name: &str) -> Cow<'_, str> {
    match Method::parse(name) {
        Some(method) => {
            let mut text = String::with_capacity(name.len() + 16);
            text.push_str(method.qualified);
            method.signature(Types::Full, true, &mut text);
            Cow::Owned(text)
        }
        None => Cow::Borrowed(name),
    }
}

/// A frame's short form: what is shown, and its package (empty when it
/// has none, or is no method).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortName<'a> {
    /// `Leaderboard.rank(List)`, unescaped.
    pub text: String,
    /// `demo`, the package of the method's class.
    pub package: &'a str,
}

/// The short forms of every frame of a profile, indexed by frame id, told
/// apart where two would read the same (see the module's introduction).
#[derive(Debug)]
pub struct ShortNames<'a>(pub Vec<ShortName<'a>>);

impl<'a> ShortNames<'a> {
    /// The short forms of `profile`'s frames.
    pub fn of(profile: &'a Profile) -> ShortNames<'a> {
        ShortNames::of_names(profile.frames().iter().map(|name| &**name))
    }

    /// The short forms of `names`, in their order.
    pub fn of_names(names: impl IntoIterator<Item = &'a str>) -> ShortNames<'a> {
        let methods: Vec<(&str, Option<Method>)> = names
            .into_iter()
            .map(|name| (name, Method::parse(name)))
            .collect();
        let mut shorts: Vec<ShortName> = methods
            .iter()
            .map(|(name, method)| match method {
                Some(method) => method.short(Types::Simple, false),
                None => ShortName {
                    text: (*name).to_owned(),
                    package: "",
                },
            })
            .collect();
        // Each step reaches only the frames that still read alike.
        for (types, with_return) in [(Types::Simple, true), (Types::Full, true)] {
            let alike = alike(&shorts);
            if alike.is_empty() {
                break;
            }
            for index in alike {
                if let (_, Some(method)) = &methods[index] {
                    shorts[index] = method.short(types, with_return);
                }
            }
        }
        ShortNames(shorts)
    }

    /// The short text of frame `index` with ` [package]` after it, as the
    /// line-oriented reports show it; unescaped.
    pub fn with_package(&self, index: usize) -> Cow<'_, str> {
        let short = &self.0[index];
        if short.package.is_empty() {
            Cow::Borrowed(&short.text)
        } else {
            Cow::Owned(format!("{} [{}]", short.text, short.package))
        }
    }
}

/// The names of every frame of `names` in `style`, escaped for a
/// line-oriented report as [`readable`] escapes, in their order.
pub fn labels<'a>(names: &'a [Box<str>], style: NameStyle) -> Vec<Cow<'a, str>> {
    match style {
        NameStyle::Full => names.iter().map(|name| readable(name)).collect(),
        NameStyle::Short => {
            let shorts = ShortNames::of_names(names.iter().map(|name| &**name));
            (0..shorts.0.len())
                .map(|index| Cow::Owned(escape_frame(&shorts.with_package(index)).into_owned()))
                .collect()
        }
    }
}

/// The positions of the names that another name (with its package) reads like.
fn alike(shorts: &[ShortName]) -> Vec<usize> {
    let mut seen: HashMap<(&str, &str), usize> = HashMap::with_capacity(shorts.len());
    for short in shorts {
        *seen.entry((short.package, &short.text)).or_default() += 1;
    }
    (0..shorts.len())
        .filter(|&index| seen[&(shorts[index].package, &*shorts[index].text)] > 1)
        .collect()
}

/// How a signature writes class types: `List` or `java.util.List`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Types {
    Simple,
    Full,
}

/// A frame name that ends in a well-formed method descriptor.
#[derive(Debug)]
struct Method<'a> {
    /// `pkg.Outer$Inner.method`.
    qualified: &'a str,
    /// `(Ljava/util/List;)I`, checked.
    descriptor: &'a str,
}

impl<'a> Method<'a> {
    /// `None` for a test frame and for a name without a well-formed descriptor.
    fn parse(name: &'a str) -> Option<Method<'a>> {
        if jp_profile::tests::test_id(name).is_some() {
            return None;
        }
        name.rmatch_indices('(')
            .map(|(start, _)| start)
            .find(|&start| signature(&name[start..], Types::Full, true, &mut String::new()).is_some())
            .map(|start| Method {
                qualified: &name[..start],
                descriptor: &name[start..],
            })
    }

    /// Appends the parameter list (and `:` and the return type) to `out`.
    fn signature(&self, types: Types, with_return: bool, out: &mut String) {
        signature(self.descriptor, types, with_return, out).expect("checked when parsed");
    }

    /// `Outer.Inner.method(List)`, the package apart.
    fn short(&self, types: Types, with_return: bool) -> ShortName<'a> {
        // JVM method names hold no `.` (JVMS §4.2.2); class names hold them between packages.
        let (class, method) = self.qualified.rsplit_once('.').unwrap_or(("", self.qualified));
        let (package, class) = class.rsplit_once('.').unwrap_or(("", class));
        let mut text = String::with_capacity(self.qualified.len() + self.descriptor.len());
        if !class.is_empty() {
            push_nested(class, &mut text);
            text.push('.');
        }
        text.push_str(method);
        self.signature(types, with_return, &mut text);
        ShortName { text, package }
    }
}

/// Appends a class's simple binary name with each nested class's name
/// after a `.`: `Map$Entry` as `Map.Entry`, while `Outer$1`, `Outer$1Local`
/// and `Outer$$Lambda$3` keep their `$`, as it starts no name there.
fn push_nested(simple: &str, out: &mut String) {
    let mut previous: Option<&str> = None;
    for part in simple.split('$') {
        if let Some(previous) = previous {
            let nested = !previous.is_empty() && part.starts_with(|c: char| c.is_alphabetic() || c == '_');
            out.push(if nested { '.' } else { '$' });
        }
        out.push_str(part);
        previous = Some(part);
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

/// Appends `(java.util.List,int[]):int` (or `(List,int[])` with simple
/// types and no return type) for the method descriptor
/// `(Ljava/util/List;[I)I` (JVMS §4.3.3); `None` if `descriptor` is not one.
fn signature(descriptor: &str, types: Types, with_return: bool, out: &mut String) -> Option<()> {
    let mut rest = descriptor.strip_prefix('(')?;
    out.push('(');
    let mut first = true;
    while !rest.starts_with(')') {
        if !first {
            out.push(',');
        }
        first = false;
        rest = field_type(rest, types, out)?;
    }
    rest = &rest[1..];
    let mut returned = String::new();
    if rest == "V" {
        returned.push_str("void");
    } else if !field_type(rest, types, &mut returned)?.is_empty() {
        return None;
    }
    out.push(')');
    if with_return {
        out.push(':');
        out.push_str(&returned);
    }
    Some(())
}

/// Appends the Java name of the field type at the start of `text` (JVMS
/// §4.3.2) and gives what follows it.
fn field_type<'a>(text: &'a str, types: Types, out: &mut String) -> Option<&'a str> {
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
            match types {
                Types::Full => out.extend(class.chars().map(|c| if c == '/' { '.' } else { c })),
                Types::Simple => push_nested(class.rsplit('/').next().unwrap_or(class), out),
            }
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

    fn shorts(names: &[&'static str]) -> Vec<(String, &'static str)> {
        ShortNames::of_names(names.iter().copied())
            .0
            .into_iter()
            .map(|short| (short.text, short.package))
            .collect()
    }

    fn short(name: &'static str) -> (String, &'static str) {
        shorts(&[name]).remove(0)
    }

    #[test]
    fn the_short_form_is_the_simple_class_the_method_and_simple_parameter_types() {
        assert_eq!(
            short("demo.Leaderboard.rank(Ljava/util/List;)Ljava/util/List;"),
            ("Leaderboard.rank(List)".into(), "demo")
        );
        assert_eq!(
            short("com.acme.app.Main.main([Ljava/lang/String;)V"),
            ("Main.main(String[])".into(), "com.acme.app")
        );
        assert_eq!(
            short("a.B.f([[IJLjava/util/Map$Entry;)Z"),
            ("B.f(int[][],long,Map.Entry)".into(), "a")
        );
        assert_eq!(short("Top.run()V"), ("Top.run()".into(), ""));
    }

    #[test]
    fn constructors_and_initializers_keep_their_jvm_names() {
        assert_eq!(
            short("demo.Leaderboard.<init>(I)V"),
            ("Leaderboard.<init>(int)".into(), "demo")
        );
        assert_eq!(
            short("demo.Leaderboard.<clinit>()V"),
            ("Leaderboard.<clinit>()".into(), "demo")
        );
    }

    #[test]
    fn nested_classes_read_with_a_dot_and_generated_names_keep_their_dollars() {
        assert_eq!(short("a.Outer$Inner.f()V").0, "Outer.Inner.f()");
        assert_eq!(short("a.Outer$Inner$Deeper.f()V").0, "Outer.Inner.Deeper.f()");
        assert_eq!(short("a.Outer$1.run()V").0, "Outer$1.run()");
        assert_eq!(short("a.Outer$1Local.run()V").0, "Outer$1Local.run()");
        assert_eq!(short("a.Outer$$Lambda$14.apply()V").0, "Outer$$Lambda$14.apply()");
        assert_eq!(short("a.Outer.lambda$rank$0(I)I").0, "Outer.lambda$rank$0(int)");
        assert_eq!(
            short("a.Outer.access$000(La/Outer;)I").0,
            "Outer.access$000(Outer)"
        );
        // kotlinc: a file's functions, a companion, a lambda class.
        assert_eq!(short("demo.MainKt.main()V").0, "MainKt.main()");
        assert_eq!(short("demo.Repo$Companion.of()V").0, "Repo.Companion.of()");
        assert_eq!(short("demo.MainKt$main$1.invoke()V").0, "MainKt.main$1.invoke()");
    }

    #[test]
    fn overloads_differ_by_their_parameter_types() {
        assert_eq!(
            shorts(&["a.B.f(I)V", "a.B.f(J)V", "a.B.f()V"]),
            [
                ("B.f(int)".into(), "a"),
                ("B.f(long)".into(), "a"),
                ("B.f()".into(), "a")
            ]
        );
    }

    #[test]
    fn bridge_methods_get_their_return_type_and_others_do_not() {
        assert_eq!(
            shorts(&[
                "a.Box.get()Ljava/lang/Object;",
                "a.Box.get()Ljava/lang/String;",
                "a.Box.put()V"
            ]),
            [
                ("Box.get():Object".into(), "a"),
                ("Box.get():String".into(), "a"),
                ("Box.put()".into(), "a")
            ]
        );
    }

    #[test]
    fn parameter_types_of_one_simple_name_are_written_in_full_where_needed() {
        assert_eq!(
            shorts(&["a.B.f(La/List;)V", "a.B.f(Ljava/util/List;)V"]),
            [
                ("B.f(a.List):void".into(), "a"),
                ("B.f(java.util.List):void".into(), "a")
            ]
        );
    }

    #[test]
    fn classes_of_one_simple_name_are_told_apart_by_their_package() {
        assert_eq!(
            shorts(&["a.Main.f()V", "b.Main.f()V"]),
            [("Main.f()".into(), "a"), ("Main.f()".into(), "b")]
        );
    }

    #[test]
    fn test_frames_and_malformed_names_are_kept() {
        let test = "[test] a.ParserTest#parses(String, int) > [2] \"x;y\"";
        assert_eq!(short(test), (test.into(), ""));
        assert_eq!(short("[test] a.T#f(I)V"), ("[test] a.T#f(I)V".into(), ""));
        assert_eq!(short("main"), ("main".into(), ""));
        assert_eq!(
            short("a.B.f(Ljava/lang/String)V"),
            ("a.B.f(Ljava/lang/String)V".into(), "")
        );
        assert_eq!(short("a.B.f(L;)V"), ("a.B.f(L;)V".into(), ""));
        assert_eq!(short("f(I)V"), ("f(int)".into(), ""));
    }

    #[test]
    fn the_line_oriented_labels_put_the_package_after_the_name_and_escape() {
        let names: Vec<Box<str>> = [
            "demo.Main.main([Ljava/lang/String;)V",
            "a.B.x\u{1b}[2J;()V",
            "main",
        ]
        .into_iter()
        .map(Box::from)
        .collect();
        assert_eq!(
            labels(&names, NameStyle::Short),
            ["Main.main(String[]) [demo]", "B.x\\u{1b}[2J\\u{3b}() [a]", "main"]
        );
        assert_eq!(
            labels(&names, NameStyle::Full),
            [
                "demo.Main.main(java.lang.String[]):void",
                "a.B.x\\u{1b}[2J\\u{3b}():void",
                "main"
            ]
        );
    }
}
