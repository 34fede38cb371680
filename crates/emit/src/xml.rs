//! XML and HTML text: one escaping for every markup file cairn writes
//! (the shape pictures' SVG and DOT labels, the Test-Comp suites, and
//! check's JUnit and HTML reports), as their rules for text agree.

use std::fmt::Write;

/// `text` as element content: markup characters as entities (`&apos;` is
/// defined in XML and HTML alike), and the characters XML 1.0 cannot hold
/// at all (most control characters, which HTML also calls errors) spelled
/// out as `\xNN`, so that they stay visible.
pub fn text(text: &str) -> String {
    escape(text, false)
}

/// `text` as a double-quoted attribute value: as [`text`], and line breaks
/// and tabs as character references, which an XML parser keeps (it turns
/// literal ones into spaces).
pub fn attribute(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, in_attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' if in_attribute => {
                let _ = write!(out, "&#{};", c as u32);
            }
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7F}' || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_become_entities() {
        assert_eq!(
            text(r#"if (a < b && c > 'd') puts("x");"#),
            "if (a &lt; b &amp;&amp; c &gt; &apos;d&apos;) puts(&quot;x&quot;);"
        );
        // Already escaped text is escaped again: the reader sees what was written.
        assert_eq!(text("&lt;"), "&amp;lt;");
        assert_eq!(text("ünïcode → ok"), "ünïcode → ok");
    }

    #[test]
    fn control_characters_are_spelled_out_and_attributes_keep_line_breaks() {
        assert_eq!(text("a\u{1}b\tc\n\u{7f}"), "a\\x01b\tc\n\\x7F");
        assert_eq!(attribute("x\ny<&>\t"), "x&#10;y&lt;&amp;&gt;&#9;");
        assert_eq!(text("\u{FFFF}"), "\\xFFFF");
    }
}
