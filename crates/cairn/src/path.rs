//! `cairn path`: follow a path given as source lines, print a one-line
//! verdict (with the contradicting conditions when there is none), and write
//! the test (when found) under the driver contract of `cairn gen`.

use crate::cli::PathArgs;
use crate::gen::engine_config;
use crate::{load, select_functions, Outcome, UsageError};
use engine::path::{Condition, Verdict};
use ir::Arm;

pub fn run(args: &PathArgs) -> Result<Outcome, UsageError> {
    let mut config = engine_config(&args.budgets)?;
    let steps = engine::path::parse_steps(&args.path)?;
    let output = load(&args.file, &args.source)?;
    let program = &output.program;
    crate::gen::declare_invariants(&mut config, [(args.file.as_path(), program)])?;
    crate::gen::prepare_dump_dir(&args.budgets)?;
    let func = select_functions(program, std::slice::from_ref(&args.function))?[0];
    let shown: Vec<String> = steps.iter().map(ToString::to_string).collect();
    let shown = shown.join(" ");
    let outcome = engine::path::follow(program, func, steps, &config)?;
    let effort = crate::effort(&outcome.report.stats);
    let name = &args.function;
    match outcome.verdict {
        Verdict::Followed => {
            let driver = crate::write_single_test(
                program,
                outcome.report,
                &args.file,
                &args.out,
                &args.source,
            )?;
            println!(
                "path followed: {name} visits {shown} {effort}; test in {}",
                driver.display()
            );
            Ok(Outcome::Success)
        }
        Verdict::Infeasible { conditions, leave } => {
            let source = std::fs::read_to_string(&args.file).unwrap_or_default();
            if let Some(leave) = leave {
                let lines: Vec<String> = leave.instead.iter().map(u32::to_string).collect();
                let mut instead = Vec::new();
                if !lines.is_empty() {
                    instead.push(format!("runs line {}", lines.join(" or ")));
                }
                if leave.ends {
                    instead.push("returns".to_string());
                }
                println!(
                    "infeasible: no run of {name} visits {shown}; whatever the inputs, the code \
                     never goes on to step {}: it {} there instead {effort}",
                    leave.step,
                    instead.join(" or ")
                );
            } else if conditions.is_empty() {
                println!(
                    "infeasible: no run of {name} visits {shown}; every run along it stops \
                     early (a certain fault, exit or abort) {effort}"
                );
            } else {
                let why = match conditions.len() {
                    1 => "this condition along it can never hold".to_string(),
                    n => format!("these {n} conditions along it contradict each other"),
                };
                println!("infeasible: no run of {name} visits {shown}; {why} {effort}:");
                for c in &conditions {
                    println!("  line {}: {}", c.span.line, describe(&source, c));
                }
            }
            Ok(Outcome::Disproved)
        }
        Verdict::Stopped { by } => {
            println!(
                "not followed within bounds ({}): no run of {name} found that visits \
                 {shown} {effort}",
                by.explained()
            );
            Ok(Outcome::BoundsHit)
        }
    }
}

/// A condition as the source writes it, negated for a false arm; a
/// statement that decided a pointer as written.
fn describe(source: &str, c: &Condition) -> String {
    let text = source
        .lines()
        .nth(c.span.line.saturating_sub(1) as usize)
        .map(|line| code_at(line, c.span.col))
        .unwrap_or_default();
    if text.is_empty() {
        return format!("(column {})", c.span.col);
    }
    match c.arm {
        None => match &c.decided {
            Some(decided) => format!("{text}  ({decided})"),
            None => text,
        },
        Some(Arm::True) => text,
        Some(Arm::False) => format!("!({text})"),
        Some(Arm::Case(n)) => format!("{text} matches case #{n}"),
        Some(Arm::Default) => format!("{text} matches no case"),
    }
}

/// The expression or statement starting at 1-based column `col` of `line`:
/// up to the `)`, `;`, `&&`, `||` or `?` that ends it at its nesting level.
fn code_at(line: &str, col: u32) -> String {
    let Some(rest) = line.get(col.saturating_sub(1) as usize..) else {
        return String::new();
    };
    let mut depth = 0u32;
    let mut end = rest.len();
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => {
                end = i;
                break;
            }
            ')' | ']' => depth -= 1,
            ';' | '?' if depth == 0 => {
                end = i;
                break;
            }
            '&' | '|' if depth == 0 && rest[i + 1..].starts_with(ch) => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    rest[..end].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::code_at;

    #[test]
    fn a_condition_ends_at_its_closing_parenthesis_or_connective() {
        assert_eq!(code_at("    if (p == q)", 9), "p == q");
        assert_eq!(
            code_at("    while (cur != NULL && cur->value != v) {", 12),
            "cur != NULL"
        );
        assert_eq!(
            code_at("    while (cur != NULL && cur->value != v) {", 27),
            "cur->value != v"
        );
        assert_eq!(code_at("    if (f(a, b) > 0)", 9), "f(a, b) > 0");
        assert_eq!(code_at("    *y = v / 2;", 5), "*y = v / 2");
        assert_eq!(code_at("short", 40), "");
    }
}
