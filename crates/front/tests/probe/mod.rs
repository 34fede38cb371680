//! Layout probes: a C program printing what gcc computes (offsets, sizes),
//! built for one data model, beside the front end's reading of the same
//! source.

use ir::DataModel;
use std::path::Path;

/// What the probe `source` prints when gcc builds it for `model` in
/// `dir`, and the front end's output for it; `None` (with a note) when
/// there is no compiler.
pub fn run_with_gcc(
    dir: &Path,
    source: &str,
    model: DataModel,
) -> Option<(String, front::FrontOutput)> {
    let src = dir.join("probe.c");
    std::fs::write(&src, source).expect("probe written");
    let bin = dir.join("probe");
    let built = std::process::Command::new("cc")
        .args(["-w", model.gcc_flag(), "-o"])
        .arg(&bin)
        .arg(&src)
        .status();
    match built {
        Err(_) => {
            eprintln!("note: no cc; skipping the layout comparison");
            return None;
        }
        Ok(status) => assert!(status.success(), "the probe must build:\n{source}"),
    }
    let output = std::process::Command::new(&bin)
        .output()
        .expect("probe runs");
    let gcc = String::from_utf8_lossy(&output.stdout).into_owned();
    let config = front::FrontConfig {
        data_model: model,
        ..front::FrontConfig::default()
    };
    let out = front::compile(&src, &config).expect("probe lowers");
    Some((gcc, out))
}
