//! What exploring a function depends on besides the configuration: the
//! whole-program facts the engine derives, and the functions whose bodies
//! may run. A run that finds all of them unchanged may keep the function's
//! earlier tests instead of exploring it again.

use crate::exec::ProgramFacts;
use crate::{EngineConfig, GoalScope};
use ir::{FuncId, Program};
use std::cell::OnceCell;
use std::collections::BTreeSet;

/// The dependencies of the functions of one program under one configuration.
pub struct Dependencies {
    /// The facts as text: anything in them may change any exploration.
    facts: String,
    /// The functions any exploration may run to build or check its inputs.
    input_functions: Vec<FuncId>,
    /// What each function's body refers to, walked once.
    references: Vec<OnceCell<ir::walk::References>>,
    /// Whose goals an exploration counts: each of those functions is in
    /// its report.
    goal_scope: GoalScope,
}

impl Dependencies {
    pub fn new(program: &Program, config: &EngineConfig) -> Dependencies {
        let facts = ProgramFacts::new(program, config);
        Dependencies {
            facts: format!("{facts:?}"),
            input_functions: facts.input_functions().collect(),
            references: program.functions.iter().map(|_| OnceCell::new()).collect(),
            goal_scope: config.goal_scope,
        }
    }

    /// The whole-program facts (construction API, invariants, the globals
    /// the code writes), as text.
    pub fn facts(&self) -> &str {
        &self.facts
    }

    /// Every function whose body exploring `func` may run or whose goals
    /// it counts, in id order: `func`, the functions building or checking inputs, and all they call
    /// or take the address of. A call through a pointer may also run any
    /// function whose address a global holds, and, the pointer being an
    /// input, any function of its type.
    pub fn functions(&self, program: &Program, func: FuncId) -> Vec<FuncId> {
        let mut found: BTreeSet<FuncId> = BTreeSet::new();
        let mut pending: Vec<FuncId> = (self.goal_scope.functions(program, func).into_iter())
            .chain(self.input_functions.iter().copied())
            .collect();
        let mut through_pointers = false;
        while let Some(next) = pending.pop() {
            if !found.insert(next) {
                continue;
            }
            let Some(body) = program.function(next).body.as_ref() else {
                continue;
            };
            let references =
                self.references[next.index()].get_or_init(|| ir::walk::references(body));
            pending.extend(references.functions.iter().copied());
            for sig in &references.called_through_pointers {
                through_pointers = true;
                pending.extend(
                    program
                        .functions
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.body.is_some() && f.sig == *sig)
                        .map(|(i, _)| FuncId(i as u32)),
                );
            }
            if through_pointers {
                pending.extend(functions_in_globals(program));
            }
        }
        found.into_iter().collect()
    }
}

/// The functions whose addresses the globals' initializers hold.
fn functions_in_globals(program: &Program) -> Vec<FuncId> {
    program
        .globals
        .iter()
        .filter_map(|global| global.init.as_ref())
        .flat_map(|ir::Init::Fields(items)| items)
        .filter_map(|item| match item.value {
            ir::ConstValue::FuncAddr(f) => Some(f),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_programs::program;

    fn names(program: &Program, funcs: &[FuncId]) -> Vec<String> {
        funcs
            .iter()
            .map(|f| program.function(*f).name.clone())
            .collect()
    }

    #[test]
    fn a_function_depends_on_what_it_calls_and_nothing_else() {
        let p = program(
            "deps-calls",
            "static int twice(int x) { return 2 * x; }\n\
             int quad(int x) { return twice(twice(x)); }\n\
             int other(int x) { return x + 1; }\n",
        );
        let deps = Dependencies::new(&p, &EngineConfig::default());
        let quad = p.function_by_name("quad").unwrap();
        assert_eq!(names(&p, &deps.functions(&p, quad)), ["twice", "quad"]);
    }

    #[test]
    fn a_call_through_a_pointer_depends_on_the_functions_it_may_reach() {
        let p = program(
            "deps-pointer",
            "int one(void) { return 1; }\n\
             static int two(void) { return 2; }\n\
             static int three(int x) { return x + 3; }\n\
             int (*hook)(int) = three;\n\
             int call(int (*f)(void)) { return f(); }\n\
             int other(int x) { return x + 1; }\n",
        );
        let deps = Dependencies::new(&p, &EngineConfig::default());
        let call = p.function_by_name("call").unwrap();
        assert_eq!(
            names(&p, &deps.functions(&p, call)),
            ["one", "two", "three", "call"]
        );
    }

    #[test]
    fn constructors_of_inputs_are_dependencies() {
        let p = program(
            "deps-api",
            "#include <stdlib.h>\n\
             struct box { int v; };\n\
             struct box *box_new(int v) { struct box *b = malloc(sizeof *b); if (b) b->v = v; return b; }\n\
             int box_get(struct box *b) { return b->v; }\n",
        );
        let deps = Dependencies::new(&p, &EngineConfig::default());
        let get = p.function_by_name("box_get").unwrap();
        let found = names(&p, &deps.functions(&p, get));
        assert!(found.contains(&"box_new".to_string()), "{found:?}");
    }
}
