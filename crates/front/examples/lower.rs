//! Prints the IR of a C file and the front end's diagnostics:
//! `cargo run -p front --example lower -- FILE.c [-I DIR]... [--mcdc]`

fn main() {
    let mut args = std::env::args().skip(1);
    let mut config = front::FrontConfig::default();
    let mut file = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-I" => config.include_dirs.extend(args.next().map(Into::into)),
            "--mcdc" => config.mcdc = true,
            _ => file = Some(arg),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: lower FILE.c [-I DIR]... [--mcdc]");
        std::process::exit(2);
    };
    match front::compile(std::path::Path::new(&file), &config) {
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1);
        }
        Ok(out) => {
            for d in &out.diagnostics {
                eprintln!("{d}");
            }
            for (name, _) in &out.excluded {
                eprintln!("excluded: {name}");
            }
            print!("{}", ir::print::print_program(&out.program, &[]));
        }
    }
}
