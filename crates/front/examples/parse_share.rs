//! Measures what share of a code base the front end takes: per file, whether
//! it parses, and how many of the functions it defines are lowered or
//! excluded, with totals by reason (BENCHMARKS.md, "GNU C in real code"):
//! `cargo run --release -p front --example parse_share -- [-p DIR] [-I DIR] [-D DEF] [FILE.c...]`
//! Without files, every file of `DIR/compile_commands.json` (test programs
//! under a `test`/`testsuite` directory left out).

use std::collections::BTreeMap;

/// A diagnostic's reason without the names in it, so that reasons group:
/// `unsupported: calls `f`, which is excluded (inline assembly)` ->
/// `unsupported: calls _, which is excluded (inline assembly)`.
fn reason(message: &str) -> String {
    let message = if message.contains("syntax error") {
        "syntax error"
    } else {
        message
    };
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        out.push_str(if i % 2 == 1 { "_" } else { part });
    }
    out
}

/// The C files of `dir/compile_commands.json` but test programs, sorted.
fn database_files(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("compile_commands.json")).unwrap_or_default();
    let entries: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
    let mut files: Vec<String> = entries
        .iter()
        .filter_map(|e| {
            let file = std::path::Path::new(e.get("file")?.as_str()?);
            let directory = std::path::Path::new(e.get("directory")?.as_str()?);
            Some(directory.join(file).display().to_string())
        })
        .filter(|f| !f.contains("/test/") && !f.contains("/testsuite/"))
        .collect();
    files.sort();
    files.dedup();
    files
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut config = front::FrontConfig::default();
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-I" => config.include_dirs.extend(args.next().map(Into::into)),
            "-D" => config.defines.extend(args.next()),
            "-p" => config.compile_commands_dir = args.next().map(Into::into),
            _ => files.push(arg),
        }
    }
    if let (true, Some(dir)) = (files.is_empty(), &config.compile_commands_dir) {
        files = database_files(dir);
    }
    if files.is_empty() {
        eprintln!("usage: parse_share [-p DIR] [-I DIR] [-D DEF] [FILE.c...]");
        std::process::exit(2);
    }
    let (mut parsed, mut lowered, mut excluded) = (0, 0, 0);
    let mut file_failures: BTreeMap<String, usize> = BTreeMap::new();
    let mut exclusions: BTreeMap<String, usize> = BTreeMap::new();
    for file in &files {
        let output = match front::compile(std::path::Path::new(file), &config) {
            Ok(output) => output,
            Err(d) => {
                println!("{file}: fails: {d}");
                *file_failures.entry(reason(&d.message)).or_default() += 1;
                continue;
            }
        };
        parsed += 1;
        let program = &output.program;
        let is_header_function = |name: &str| {
            program
                .functions
                .iter()
                .any(|f| f.name == name && f.span.file != 0)
        };
        let mut names: Vec<&(String, front::Diagnostic)> = output
            .excluded
            .iter()
            .filter(|(name, _)| !is_header_function(name))
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        names.dedup_by(|a, b| a.0 == b.0);
        let bodies = program
            .functions
            .iter()
            .filter(|f| f.body.is_some() && f.span.file == 0)
            .count();
        println!("{file}: {bodies} lowered, {} excluded", names.len());
        for (name, d) in &names {
            println!("    {name}: {d}");
            *exclusions.entry(reason(&d.message)).or_default() += 1;
        }
        lowered += bodies;
        excluded += names.len();
    }
    println!(
        "files: {} parsed, {} failed; functions in parsed files: {lowered} lowered, {excluded} excluded",
        parsed,
        files.len() - parsed
    );
    for (why, n) in &file_failures {
        println!("file fails: {n} x {why}");
    }
    for (why, n) in &exclusions {
        println!("function excluded: {n} x {why}");
    }
}
