//! Source files that are already preprocessed (a verification task's `.i`,
//! or any file that starts with a line marker). Their line markers point at
//! a file the user does not have, and they hold the system headers' text
//! without the macros that guard it, which the driver's own `#include`s would
//! then define a second time. Both the front end and the driver therefore
//! read the file as a source again ([`as_source`]): each system header it
//! included becomes its `#include` line again, every marker an empty line, so
//! that positions, gcov's lines and the engine's claims all name the lines of
//! the file the user gave.

use std::path::Path;

/// Whether `text`, read from `path`, is preprocessed C: a `.i` file, or one
/// whose first line is a line marker.
pub fn is_preprocessed(path: &Path, text: &str) -> bool {
    path.extension().is_some_and(|e| e == "i") || text.lines().next().is_some_and(is_line_marker)
}

/// `text` as a source: every line marker left empty and each system header
/// the file itself included (its text between the marker entering it and
/// the one returning to the file) the `#include <header>` line that brought
/// it, followed by empty lines. Every line of the file's own keeps its number.
pub fn as_source(text: &str) -> String {
    let mut source = String::with_capacity(text.len());
    // Files entered and not yet left, and whether the outermost of them is a
    // system header the file included (its text is left out).
    let mut depth = 0usize;
    let mut in_system_header = false;
    for line in text.split_inclusive('\n') {
        let ends_line = line.ends_with('\n');
        if let Some(marker) = LineMarker::parse(line) {
            if marker.enters {
                if depth == 0 && marker.system_header {
                    if let Some(header) = header_name(&marker.file) {
                        source.push_str(&format!("#include <{header}>"));
                        in_system_header = true;
                    }
                }
                depth += 1;
            } else if marker.returns {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    in_system_header = false;
                }
            }
            if ends_line {
                source.push('\n');
            }
        } else if in_system_header {
            if ends_line {
                source.push('\n');
            }
        } else {
            source.push_str(line);
        }
    }
    source
}

/// The name `#include <...>` finds a system header by: its path after the
/// last `include` directory (and a multiarch directory such as
/// `x86_64-linux-gnu`), or `None` when the path has no such directory.
fn header_name(path: &str) -> Option<String> {
    let after = ["/include/", "/include-fixed/"]
        .iter()
        .filter_map(|dir| path.rfind(dir).map(|at| at + dir.len()))
        .max()?;
    let name = &path[after..];
    let name = match name.split_once('/') {
        Some((first, rest)) if first.contains("-linux-gnu") => rest,
        _ => name,
    };
    (!name.is_empty() && !name.contains(['>', '\n'])).then(|| name.to_string())
}

/// A line marker: `# 12 "file" 1 3` (entering a system header), `#line 12`.
struct LineMarker {
    file: String,
    enters: bool,
    returns: bool,
    system_header: bool,
}

impl LineMarker {
    fn parse(line: &str) -> Option<LineMarker> {
        if !is_line_marker(line) {
            return None;
        }
        let after_hash = line.trim_start().strip_prefix('#')?;
        let quoted = after_hash.find('"').map(|at| &after_hash[at + 1..]);
        let (file, flags) = match quoted.and_then(|q| q.find('"').map(|end| (q, end))) {
            Some((q, end)) => (q[..end].to_string(), &q[end + 1..]),
            None => (String::new(), ""),
        };
        let flags: Vec<&str> = flags.split_whitespace().collect();
        Some(LineMarker {
            file,
            enters: flags.contains(&"1"),
            returns: flags.contains(&"2"),
            system_header: flags.contains(&"3"),
        })
    }
}

/// `# 12 "file" ...` or `#line 12 "file"` (a bare `#line 12` too).
fn is_line_marker(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let rest = rest.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    rest.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_headers_become_their_include_lines_and_every_line_keeps_its_number() {
        let text = "# 1 \"t.c\"\n\
                    # 1 \"/usr/include/stdlib.h\" 1 3 4\n\
                    typedef struct { int quot; } div_t;\n\
                    # 1 \"/usr/include/x86_64-linux-gnu/bits/types.h\" 1 3 4\n\
                    typedef int __int32_t;\n\
                    # 5 \"/usr/include/stdlib.h\" 2 3 4\n\
                    extern void free(void *);\n\
                    # 2 \"t.c\" 2\n\
                    # 1 \"list.h\" 1\n\
                    struct node { struct node *next; };\n\
                    # 3 \"t.c\" 2\n\
                    #line 9 \"t.c\"\n\
                    #pragma once\n\
                    int main(void) { return 0; }\n";
        let source = as_source(text);
        assert_eq!(
            source,
            "\n#include <stdlib.h>\n\n\n\n\n\n\n\n\
             struct node { struct node *next; };\n\n\n#pragma once\nint main(void) { return 0; }\n"
        );
        assert_eq!(source.lines().count(), text.lines().count());
    }

    #[test]
    fn headers_are_named_as_an_include_finds_them() {
        assert_eq!(
            header_name("/usr/include/stdio.h").as_deref(),
            Some("stdio.h")
        );
        assert_eq!(
            header_name("/usr/include/x86_64-linux-gnu/sys/types.h").as_deref(),
            Some("sys/types.h")
        );
        assert_eq!(
            header_name("/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h").as_deref(),
            Some("stddef.h")
        );
        assert_eq!(header_name("stdlib.h"), None);
    }

    #[test]
    fn a_dot_i_or_a_file_starting_with_a_marker_is_preprocessed() {
        assert!(is_preprocessed(Path::new("task.i"), "int a;\n"));
        assert!(is_preprocessed(
            Path::new("task.c"),
            "# 1 \"task.c\"\nint a;\n"
        ));
        assert!(!is_preprocessed(
            Path::new("task.c"),
            "#include <stdio.h>\n"
        ));
        assert!(!is_preprocessed(Path::new("task.c"), "#define N 4\n"));
    }
}
