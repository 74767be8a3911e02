//! Tests as contexts: JP gives every test its own top-level context, whose
//! frame is named `[test] <test id>` (docs/profile-format.md, "Tests").
//! A Java class's binary name never starts with `[` (only array classes'
//! do, and they have no methods), so no method frame reads as a test.
//!
//! `<test id>` is the test class's binary name for what runs for the class
//! as a whole, or `<class>#<test>` for one test (`com.acme.ParserTest#largeFile()`).

/// What a test frame's name starts with.
pub const TEST_FRAME_PREFIX: &str = "[test] ";

/// The test id of a test frame's name; `None` for a method frame.
pub fn test_id(frame_name: &str) -> Option<&str> {
    frame_name.strip_prefix(TEST_FRAME_PREFIX)
}

/// The frame name of the test `test_id`.
pub fn test_frame(test_id: &str) -> String {
    format!("{TEST_FRAME_PREFIX}{test_id}")
}

#[cfg(test)]
mod frame_names {
    use super::*;

    #[test]
    fn a_test_frame_gives_back_its_test_id_and_a_method_frame_none() {
        let frame = test_frame("com.acme.ParserTest#parses(String) > [2] \"a,b\"");
        assert_eq!(frame, "[test] com.acme.ParserTest#parses(String) > [2] \"a,b\"");
        assert_eq!(
            test_id(&frame),
            Some("com.acme.ParserTest#parses(String) > [2] \"a,b\"")
        );
        assert_eq!(test_id("com.acme.Parser.parse(Ljava/lang/String;)I"), None);
        assert_eq!(test_id("[Lcom.acme.X;.m()V"), None);
    }
}
