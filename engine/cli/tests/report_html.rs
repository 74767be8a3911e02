//! `jp report --format html`: the page is too large to be a golden file
//! (it holds its script and style), so these check what it must be: a whole
//! HTML document with the merged profile's data, the same on stdout and in
//! `--out`, following `--metric`.

mod common;

use std::fs;

use common::{jp, profile};

/// The text of the page's data element.
fn data(page: &str) -> &str {
    let open = "<script type=\"application/json\" id=\"jp-data\">";
    let start = page.find(open).expect("a data element") + open.len();
    &page[start..start + page[start..].find("</script>").unwrap()]
}

#[test]
fn html_on_stdout_is_one_whole_document_with_the_merged_profile() {
    let (a, b) = (profile("a.jpprof"), profile("b.jpprof"));
    let output = jp(&["report", &a, &b, "--format", "html"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = String::from_utf8(output.stdout).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(page.ends_with("</script>\n</body>\n</html>\n"));
    assert_eq!(page.matches("<body>").count(), 1);
    let data = data(&page);
    assert!(data.contains("\"files\":2"), "{data}");
    assert!(data.contains("\"metric\":\"bytecodes\""));
    assert!(data.contains("\"demo.Main.work(int):long\""), "{data}");
    assert!(data.contains("\"Main.work(int)\""), "{data}");
    // Both profiles' totals: 26 calls and 832 bytecodes.
    assert!(data.contains("\"grand\":[26,832]"), "{data}");
}

#[test]
fn html_in_a_file_is_what_stdout_gets_and_follows_the_metric() {
    let dir = tempfile::tempdir().unwrap();
    let a = profile("a.jpprof");
    let target = dir.path().join("report.html");
    let to_file = jp(&[
        "report",
        &a,
        "--format",
        "html",
        "--metric",
        "calls",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(to_file.status.code(), Some(0));
    assert!(to_file.stdout.is_empty() && to_file.stderr.is_empty());
    let to_stdout = jp(&["report", &a, "--format", "html", "--metric", "calls"]);
    let page = fs::read(&target).unwrap();
    assert_eq!(page, to_stdout.stdout);
    assert!(data(std::str::from_utf8(&page).unwrap()).contains("\"metric\":\"calls\""));
}
