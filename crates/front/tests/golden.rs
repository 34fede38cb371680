//! Golden tests: the IR text of every C file under `tests/inputs/`, with the
//! front end's diagnostics, compared to the committed snapshots.

use std::path::Path;

fn render(path: &Path) -> String {
    let dir = path
        .parent()
        .map(|d| format!("{}/", d.display()))
        .unwrap_or_default();
    match front::compile(path, &front::FrontConfig::default()) {
        Err(d) => format!("error: {}\n", d.to_string().replace(&dir, "")),
        Ok(out) => {
            let mut text = String::new();
            for d in &out.diagnostics {
                text.push_str(&format!("// {}\n", d.to_string().replace(&dir, "")));
            }
            for (name, _) in &out.excluded {
                text.push_str(&format!("// excluded: {name}\n"));
            }
            // `__FILE__` (in glibc's assert) spells the checkout's directory: keep snapshots portable.
            text.push_str(&ir::print::print_program(&out.program, &[]).replace(&dir, ""));
            text.push_str(&branch_sites(&out.program));
            text
        }
    }
}

/// Every branch site of the main file's functions: position, kind and text.
fn branch_sites(program: &ir::Program) -> String {
    let mut text = String::from("\nbranch sites:\n");
    for f in &program.functions {
        let Some(body) = &f.body else { continue };
        if f.span.file != 0 {
            continue;
        }
        for (i, site) in body.branches.iter().enumerate() {
            let (line, col, kind) = (site.span.line, site.span.col, site.kind);
            text.push_str(&format!(
                "  {} br{i} {line}:{col} {kind:?}: {}\n",
                f.name, site.text
            ));
        }
    }
    text
}

#[test]
fn ir_of_every_input_matches_its_snapshot() {
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs");
    let mut files: Vec<_> = std::fs::read_dir(&inputs)
        .expect("tests/inputs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("input")
            .to_string();
        insta::assert_snapshot!(name, render(&file));
    }
}
