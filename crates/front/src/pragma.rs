//! `#pragma pack` regions of the preprocessed text: structs defined inside
//! one cap the alignment of their members; and the names `#pragma GCC
//! poison` forbids.

/// Byte ranges of the text where a `#pragma pack(N)` is in force, with N.
pub(crate) fn packed_regions(text: &str) -> Vec<(usize, usize, u64)> {
    let mut regions = Vec::new();
    let mut stack: Vec<Option<u64>> = Vec::new();
    let mut current: Option<u64> = None;
    let mut region_start = 0usize;
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let Some(args) = pack_arguments(line) else {
            continue;
        };
        let before = current;
        let words: Vec<&str> = args
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        match words.first().copied() {
            Some("push") => {
                stack.push(current);
                if let Some(n) = words.get(1).and_then(|w| w.parse().ok()) {
                    current = Some(n);
                }
            }
            Some("pop") => current = stack.pop().flatten(),
            Some(n) => current = n.parse().ok(),
            None => current = None,
        }
        if before != current {
            if let Some(n) = before {
                regions.push((region_start, line_start, n));
            }
            region_start = line_start;
        }
    }
    if let Some(n) = current {
        regions.push((region_start, text.len(), n));
    }
    regions
}

/// The text between the parentheses of a `#pragma pack(...)` line.
fn pack_arguments(line: &str) -> Option<&str> {
    let rest = pragma_text(line)?;
    let rest = rest.strip_prefix("pack")?.trim_start().strip_prefix('(')?;
    rest.split(')').next()
}

/// What follows `#pragma` on a pragma line (`_Pragma("...")` is printed as
/// one by the preprocessor).
fn pragma_text(line: &str) -> Option<&str> {
    let rest = line
        .trim_start()
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("pragma")?;
    rest.starts_with(char::is_whitespace)
        .then(|| rest.trim_start())
}

/// The identifiers the text's `#pragma GCC poison` lines forbid, sorted.
pub(crate) fn poisoned_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .lines()
        .filter_map(pragma_text)
        .filter_map(|rest| {
            rest.strip_prefix("GCC")?
                .trim_start()
                .strip_prefix("poison")
        })
        .flat_map(str::split_whitespace)
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The pack value in force at `offset`, if any.
pub(crate) fn pack_at(regions: &[(usize, usize, u64)], offset: usize) -> Option<u64> {
    regions
        .iter()
        .find(|(start, end, _)| (*start..*end).contains(&offset))
        .map(|r| r.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_a_poison_pragma_forbids_are_read() {
        let text = "#pragma GCC poison malloc free\nint x;\n#pragma GCC poison  calloc\n#pragma GCC system_header\n#pragma packed\n";
        assert_eq!(poisoned_names(text), vec!["calloc", "free", "malloc"]);
    }

    #[test]
    fn push_set_pop_delimit_a_region() {
        let text = "struct a {};\n#pragma pack(push)\n#pragma pack(1)\nstruct b {};\n#pragma pack(pop)\nstruct c {};\n";
        let regions = packed_regions(text);
        assert_eq!(pack_at(&regions, text.find("struct a").unwrap()), None);
        assert_eq!(pack_at(&regions, text.find("struct b").unwrap()), Some(1));
        assert_eq!(pack_at(&regions, text.find("struct c").unwrap()), None);
    }

    #[test]
    fn push_with_value_and_reset() {
        let text = "#pragma pack(push, 2)\nstruct b {};\n#pragma pack()\nstruct c {};\n";
        let regions = packed_regions(text);
        assert_eq!(pack_at(&regions, text.find("struct b").unwrap()), Some(2));
        assert_eq!(pack_at(&regions, text.find("struct c").unwrap()), None);
    }
}
