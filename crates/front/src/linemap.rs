//! Maps byte offsets in the parsed text back to original `file:line:col`:
//! through the GNU rewrites ([`crate::gnu::Edits`]) to the preprocessed
//! text, then through the `# N "file"` line markers the preprocessor writes.

use crate::gnu::Edits;

/// One run of lines that come from the same file, starting at `offset`.
struct Segment {
    offset: usize,
    /// Line number (1-based) of the first line of the run in `file`.
    line: u32,
    file: u32,
}

pub(crate) struct LineMap {
    /// File names as the preprocessor spelled them; index 0 is the main file.
    pub files: Vec<String>,
    segments: Vec<Segment>,
    /// Offset of the start of every line of the preprocessed text.
    line_starts: Vec<usize>,
    /// The preprocessed text and the main file's original lines: the
    /// preprocessor collapses runs of blanks and comments inside a line, so
    /// columns in the main file are re-measured on the original text.
    text: String,
    main_lines: Vec<String>,
    /// From offsets of the parsed (rewritten) text to the preprocessed one.
    edits: Edits,
}

/// A resolved position: index into [`LineMap::files`], 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

impl LineMap {
    /// `main_file` is the name the preprocessor uses for the main file
    /// (the path it was given), so markers naming it map to index 0.
    pub fn new(text: &str, main_file: &str, main_source: Option<&str>) -> LineMap {
        let mut map = LineMap {
            files: vec![main_file.to_string()],
            segments: Vec::new(),
            line_starts: Vec::new(),
            text: text.to_string(),
            main_lines: main_source
                .map(|s| s.lines().map(String::from).collect())
                .unwrap_or_default(),
            edits: Edits::default(),
        };
        let mut offset = 0usize;
        for raw_line in text.split_inclusive('\n') {
            map.line_starts.push(offset);
            let next = offset + raw_line.len();
            if let Some(Marker { line, file, .. }) = parse_marker(raw_line) {
                let file = map.intern(&file);
                // The marker names the line that follows it.
                map.segments.push(Segment {
                    offset: next,
                    line,
                    file,
                });
            }
            offset = next;
        }
        if map.segments.first().is_none_or(|s| s.offset > 0) {
            map.segments.insert(
                0,
                Segment {
                    offset: 0,
                    line: 1,
                    file: 0,
                },
            );
        }
        map
    }

    /// Offsets given to this map are of the text `edits` rewrote.
    pub fn with_edits(mut self, edits: Edits) -> LineMap {
        self.edits = edits;
        self
    }

    /// The preprocessed text a range of the parsed text came from.
    pub fn original_text(&self, start: usize, end: usize) -> &str {
        let (start, end) = (self.edits.original(start), self.edits.original(end));
        self.text.get(start..end.max(start)).unwrap_or("")
    }

    fn intern(&mut self, name: &str) -> u32 {
        match self.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.files.push(name.to_string());
                (self.files.len() - 1) as u32
            }
        }
    }

    /// A diagnostic at a byte offset of the preprocessed text.
    pub fn diagnostic(
        &self,
        offset: usize,
        severity: crate::Severity,
        message: String,
    ) -> crate::Diagnostic {
        let at = self.locate(offset);
        crate::Diagnostic {
            severity,
            file: self
                .files
                .get(at.file as usize)
                .cloned()
                .unwrap_or_default(),
            line: at.line,
            col: at.col,
            message,
        }
    }

    /// A syntax error found at `offset`, placed where gcc places it: just
    /// after the previous token when the offending one starts a later line
    /// (a missing `;` at the end of line 7 is reported there, not at the
    /// first token of line 8).
    pub fn syntax_error(&self, offset: usize, message: String) -> crate::Diagnostic {
        let Some(last) = self.previous_token_end(offset) else {
            return self.diagnostic(offset, crate::Severity::Error, message);
        };
        let mut diagnostic = self.diagnostic(last, crate::Severity::Error, message);
        diagnostic.col = diagnostic.col.saturating_add(1);
        diagnostic
    }

    /// The offset of the last character of the token before `offset`, when
    /// only blanks, line breaks and line markers separate the two and a
    /// line break is among them.
    fn previous_token_end(&self, offset: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut end = offset.min(bytes.len());
        loop {
            while end > 0 && bytes[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            let line_start = self.line_starts[..]
                .partition_point(|&s| s < end)
                .checked_sub(1)
                .map_or(0, |l| self.line_starts[l]);
            let is_marker = self
                .text
                .get(line_start..end)
                .is_some_and(|line| parse_marker(line).is_some());
            if !is_marker || line_start == 0 {
                break;
            }
            end = line_start;
        }
        let between = self.text.get(end..offset)?;
        (end > 0 && between.contains('\n')).then(|| end - 1)
    }

    pub fn locate(&self, offset: usize) -> Position {
        let offset = self.edits.original(offset);
        let seg_index = self
            .segments
            .partition_point(|s| s.offset <= offset)
            .saturating_sub(1);
        let Some(seg) = self.segments.get(seg_index) else {
            return Position {
                file: 0,
                line: 1,
                col: 1,
            };
        };
        let line_of = |off: usize| {
            self.line_starts
                .partition_point(|&s| s <= off)
                .saturating_sub(1)
        };
        let text_line = line_of(offset);
        let seg_line = line_of(seg.offset);
        let line_start = self.line_starts.get(text_line).copied().unwrap_or(0);
        let line = seg.line as usize + text_line.saturating_sub(seg_line);
        let mut col = offset.saturating_sub(line_start) + 1;
        if seg.file == 0 {
            let pp_line = self
                .text
                .get(line_start..)
                .and_then(|t| t.lines().next())
                .unwrap_or("");
            let original = line.checked_sub(1).and_then(|l| self.main_lines.get(l));
            if let Some(c) = original.and_then(|o| original_column(pp_line, col - 1, o)) {
                col = c + 1;
            }
        }
        Position {
            file: seg.file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }
}

/// Skips blanks and comments in `line` from `j`.
fn skip_blanks(line: &[u8], mut j: usize) -> usize {
    loop {
        match (line.get(j), line.get(j + 1)) {
            (Some(b), _) if b.is_ascii_whitespace() => j += 1,
            (Some(b'/'), Some(b'*')) => {
                j += 2;
                while j < line.len() && !(line[j] == b'*' && line.get(j + 1) == Some(&b'/')) {
                    j += 1;
                }
                j += 2;
            }
            (Some(b'/'), Some(b'/')) => j = line.len(),
            _ => return j,
        }
    }
}

/// The byte index in `original` of the character at `target` in the
/// preprocessed line, when the two lines agree up to it except for blanks
/// and comments (no macro expanded before it on the line).
fn original_column(pp_line: &str, target: usize, original: &str) -> Option<usize> {
    let (pp, or) = (pp_line.as_bytes(), original.as_bytes());
    let (mut i, mut j) = (0usize, skip_blanks(or, 0));
    while i < target {
        if pp.get(i)?.is_ascii_whitespace() {
            while i < target && pp.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
                i += 1;
            }
            j = skip_blanks(or, j);
            continue;
        }
        if pp.get(i) != or.get(j) {
            return None;
        }
        i += 1;
        j += 1;
    }
    if pp.get(target).is_some_and(|b| !b.is_ascii_whitespace()) {
        j = skip_blanks(or, j);
    }
    (pp.get(target) == or.get(j)).then_some(j)
}

/// A line marker of preprocessed text: the line it names, in which file,
/// and its flags: entering an included file (1), returning from one (2),
/// in a system header (3). A `#line` directive's marker has none.
pub(crate) struct Marker {
    pub line: u32,
    pub file: String,
    pub enters: bool,
    pub returns: bool,
    pub system_header: bool,
}

/// Parses `# 12 "file.c" 1 3` (or `#line 12 "file.c"`).
pub(crate) fn parse_marker(line: &str) -> Option<Marker> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    let number: u32 = rest.get(..digits_end)?.parse().ok()?;
    let quoted = rest.get(digits_end..)?.trim_start().strip_prefix('"')?;
    let mut file = String::new();
    let mut chars = quoted.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => {
                let has = |flag| quoted[at + 1..].split_whitespace().any(|f| f == flag);
                return Some(Marker {
                    line: number,
                    file,
                    enters: has("1"),
                    returns: has("2"),
                    system_header: has("3"),
                });
            }
            '\\' => file.push(chars.next()?.1),
            c => file.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_offsets_through_markers() {
        let text = "# 0 \"main.c\"\n# 1 \"inc.h\" 1\nint a;\n# 3 \"main.c\" 2\n\n  int b;\n";
        let map = LineMap::new(text, "main.c", None);
        assert_eq!(map.files, vec!["main.c".to_string(), "inc.h".to_string()]);
        let a = text.find("int a").unwrap();
        assert_eq!(
            map.locate(a),
            Position {
                file: 1,
                line: 1,
                col: 1
            }
        );
        let b = text.find("int b").unwrap();
        assert_eq!(
            map.locate(b),
            Position {
                file: 0,
                line: 4,
                col: 3
            }
        );
    }

    #[test]
    fn columns_are_measured_on_the_original_line() {
        let original = "int  x =\t/* c */ a  +  b;\n";
        let text = "int x = a + b;\n";
        let map = LineMap::new(text, "m.c", Some(original));
        assert_eq!(map.locate(text.find('a').unwrap()).col, 18);
        assert_eq!(map.locate(text.find('b').unwrap()).col, 24);
        // A macro expanded earlier on the line: keep the preprocessed column.
        let map = LineMap::new("int y = 42 + b;\n", "m.c", Some("int y = N + b;\n"));
        assert_eq!(map.locate(13).col, 14);
    }

    #[test]
    fn a_syntax_error_at_the_start_of_a_line_is_placed_after_the_previous_token() {
        let original = "int f(void)\n{\n    int x = 1  /* one */\n    return x;\n}\n";
        let text = "# 1 \"m.c\"\nint f(void)\n{\n    int x = 1\n# 4 \"m.c\"\n    return x;\n}\n";
        let map = LineMap::new(text, "m.c", Some(original));
        let at = map.syntax_error(text.find("return").unwrap(), "expected ;".into());
        assert_eq!((at.line, at.col), (3, 14), "{at}");
        // On the same line as the token before, the offending token itself.
        let at = map.syntax_error(text.find("x;").unwrap(), "expected ;".into());
        assert_eq!((at.line, at.col), (4, 12), "{at}");
    }

    #[test]
    fn without_markers_lines_count_from_one() {
        let map = LineMap::new("x\ny\n", "m.c", None);
        assert_eq!(
            map.locate(2),
            Position {
                file: 0,
                line: 2,
                col: 1
            }
        );
        assert_eq!(
            map.locate(0),
            Position {
                file: 0,
                line: 1,
                col: 1
            }
        );
    }
}
