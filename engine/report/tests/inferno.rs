//! The folded report read by a real folded-stack tool: inferno's flame
//! graph (the Rust port of `flamegraph.pl`) draws each of our frames whole,
//! with the subtree totals of the profile, and splits none inside a name.

use std::collections::BTreeMap;

use jp_profile::{Metric, Profile};
use jp_report::Options;

/// Each frame's `<title>` in inferno's SVG, `name (N samples, P%)`, as
/// (name, samples), the root `all` included.
fn titles(svg: &str) -> Vec<(String, u64)> {
    let mut titles = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<title>") {
        rest = &rest[start + "<title>".len()..];
        let end = rest.find("</title>").unwrap();
        let title = rest[..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        let (name, info) = title.rsplit_once(" (").unwrap();
        let samples = info.split(' ').next().unwrap().replace(',', "");
        titles.push((name.to_owned(), samples.parse().unwrap()));
    }
    titles
}

#[test]
fn inferno_draws_every_frame_whole_with_the_profiles_totals() {
    let main = "demo.Main.main([Ljava/lang/String;)V";
    let bridge = "demo.Box.get()Ljava/lang/Object;";
    let real = "demo.Box.get()Ljava/lang/String;";
    let sum_list = "demo.Util.sum(Ljava/util/List;)I";
    let sum_array = "demo.Util.sum([I)I";
    let init = "demo.Main.<init>(Ljava/lang/String;Z)V";
    let spaced = "demo.MainTest.main works twice()V";
    let mut profile = Profile::new();
    for (path, bytecodes) in [
        (&[main][..], 12),
        (&[main, bridge], 3),
        (&[main, bridge, real], 40),
        (&[main, sum_list], 100),
        (&[main, sum_array], 200),
        (&[main, init], 7),
        (&[spaced], 5),
    ] {
        profile.add_path(path, 1, bytecodes);
    }
    let mut folded = Vec::new();
    jp_report::folded::write(&profile, &Options::new(Metric::Bytecodes), &mut folded).unwrap();
    let folded = String::from_utf8(folded).unwrap();

    let mut options = inferno::flamegraph::Options::default();
    options.min_width = 0.0;
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut options, folded.lines(), &mut svg).unwrap();
    let drawn: BTreeMap<String, u64> = titles(&String::from_utf8(svg).unwrap()).into_iter().collect();

    let expected: BTreeMap<String, u64> = [
        ("all", 367),
        ("demo.Main.main(java.lang.String[]):void", 362),
        ("demo.Box.get():java.lang.Object", 43),
        ("demo.Box.get():java.lang.String", 40),
        ("demo.Util.sum(java.util.List):int", 100),
        ("demo.Util.sum(int[]):int", 200),
        ("demo.Main.<init>(java.lang.String,boolean):void", 7),
        ("demo.MainTest.main works twice():void", 5),
    ]
    .into_iter()
    .map(|(name, samples)| (name.to_owned(), samples))
    .collect();
    assert_eq!(drawn, expected, "folded input:\n{folded}");
}
