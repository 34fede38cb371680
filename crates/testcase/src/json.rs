//! The `<stem>.tests.json` schema: `emit` writes it, `check` reads it back
//! with these same types, so the two never disagree.

use crate::FindingKind;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// Identifies the format; bumped on incompatible changes.
pub const FORMAT: &str = "cairn-tests/1";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TestsFile {
    pub format: String,
    /// The C file as given to cairn.
    pub source: String,
    /// The same file relative to the output directory (what the drivers include).
    pub source_from_out: String,
    /// Absolute `-I` directories the source needs to compile.
    #[serde(default)]
    pub include_dirs: Vec<String>,
    /// Other flags every compilation of the generated files needs
    /// (`-iquote DIR`, `-std=gnu89`...), after the include directories.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The data model the tests were generated for: under ILP32 every
    /// generated file compiles with `-m32`.
    #[serde(default, skip_serializing_if = "is_lp64")]
    pub data_model: ir::DataModel,
    /// File name of the test driver inside the output directory.
    pub driver: String,
    /// The test framework the driver is written for.
    #[serde(default)]
    pub framework: Framework,
    /// For a C++ driver (GoogleTest): the C file inside the output directory
    /// that includes the source and holds the tests' bodies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_c_part: Option<String>,
    /// File name of the findings reproducers, when there are findings.
    pub findings_driver: Option<String>,
    pub functions: Vec<FunctionJson>,
    /// Things the drivers could not express (tests or stubs left out, and why).
    pub notes: Vec<String>,
}

fn is_lp64(model: &ir::DataModel) -> bool {
    *model == ir::DataModel::Lp64
}

impl TestsFile {
    /// What compiling and linking the generated files for their data model
    /// needs: `-m32` under ILP32, nothing for the default LP64.
    pub fn target_flags(&self) -> Vec<String> {
        let model = (!is_lp64(&self.data_model)).then(|| self.data_model.gcc_flag().to_string());
        model.into_iter().collect()
    }

    /// The flags every compilation of the generated files needs: the
    /// target's, then `-I` for each include directory, then the others.
    pub fn compiler_flags(&self) -> Vec<String> {
        let dirs = self.include_dirs.iter().map(|d| format!("-I{d}"));
        let others = self.flags.iter().cloned();
        self.target_flags()
            .into_iter()
            .chain(dirs)
            .chain(others)
            .collect()
    }
}

/// The test framework a driver is written for (`cairn gen --framework`).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Framework {
    /// cairn's own runner: each test in a process of its own.
    #[default]
    Plain,
    /// CMocka (`cmocka_unit_test`, `assert_int_equal`), in C.
    Cmocka,
    /// GoogleTest (`TEST`, `EXPECT_EQ`): a C++ file beside a C file with
    /// the tests' bodies.
    Gtest,
}

impl Framework {
    /// The name users give it (`--framework NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Framework::Plain => "plain",
            Framework::Cmocka => "cmocka",
            Framework::Gtest => "gtest",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FunctionJson {
    pub name: String,
    /// File defining the function, relative to the output directory when possible.
    pub file: String,
    pub line: u32,
    pub goals: Vec<GoalJson>,
    pub tests: Vec<TestJson>,
    pub findings: Vec<FindingJson>,
    pub stats: StatsJson,
    /// Tests the engine made that failed when cairn ran them against the
    /// code, left out of the driver, with why.
    #[serde(default)]
    pub dropped_tests: Vec<crate::DroppedTest>,
    /// Why the function has no test, when it has none (as a goal's reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untested: Option<String>,
    /// Its decisions, under `--coverage mcdc`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<DecisionJson>,
}

/// A decision (two or more conditions joined by `&&`/`||`) and which of
/// its conditions the tests show independent (MC/DC, as llvm-cov counts it).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DecisionJson {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub text: String,
    /// The ways an evaluation can go (short-circuits skip conditions).
    pub vectors: u32,
    /// Of those, the ways some written test takes.
    pub vectors_covered: u32,
    pub conditions: Vec<ConditionJson>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ConditionJson {
    pub text: String,
    pub line: u32,
    pub col: u32,
    /// The two tests whose evaluations show the condition independent:
    /// the outcome differs, and so does this condition alone.
    pub shown_by: Option<(String, String)>,
    /// Why no pair of tests shows it.
    pub reason: Option<String>,
    /// No pair can show it: it is a constant, or every pair of evaluations
    /// that would needs one the search proved infeasible (no bound cut it).
    #[serde(default)]
    pub infeasible: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GoalJson {
    /// `function:line:col:arm` (see `ir::goal_key`).
    pub key: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// Condition and direction, e.g. `a > b: true`.
    pub label: String,
    /// The condition (branch site) number within the function.
    pub site: u32,
    /// The block the goal's edge leads to: goals of one site with one target
    /// are one edge for gcov (`case 4: default:`).
    pub target: u32,
    /// Some test written to the driver takes this edge, by the engine's account.
    pub covered: bool,
    /// Why no test covers it (`infeasible`, `budget: ...`, `unsupported: ...`).
    pub reason: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TestJson {
    /// The test function in the driver, e.g. `test_classify_3`.
    pub name: String,
    /// Set when the driver could not express the test; it is then not in the driver.
    pub skipped: Option<String>,
    pub inputs: InputsJson,
    pub expected_return: Option<Json>,
    pub checks: Vec<CheckJson>,
    /// Scalar checks left out past `CHECKS_PER_TEST`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unchecked: usize,
    /// The output heap: objects the function allocated that are reachable
    /// when it returns, in the order the checks first reach them.
    #[serde(default)]
    pub allocated: Vec<AllocatedJson>,
    /// Access paths of the input objects the function freed (it took
    /// ownership): the driver neither checks nor frees them after the call.
    #[serde(default)]
    pub freed_inputs: Vec<String>,
    /// Goal keys this test covers first.
    pub covers: Vec<String>,
    /// Every goal key on the test's path.
    pub path_goals: Vec<String>,
    /// C library calls without a model the engine ran natively on the
    /// values it chose, and the inputs they fixed (concretised).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub native_calls: Vec<crate::NativeCall>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct InputsJson {
    pub args: Vec<NamedValue>,
    pub globals: Vec<NamedValue>,
    /// The input heap's nodes.
    pub objects: Vec<ObjectJson>,
    /// The input heap's edges: every pointer into an input object, from the
    /// argument, global or object member holding it.
    #[serde(default)]
    pub edges: Vec<EdgeJson>,
    pub stubs: Vec<StubJson>,
    /// Allocation calls of the code under test (malloc, calloc, realloc,
    /// strdup, strndup, counted from 0 during the call) that return NULL.
    #[serde(default)]
    pub failing_allocations: Vec<u32>,
    /// Parameters built through the code's own functions, in call order.
    #[serde(default)]
    pub constructions: Vec<ConstructionJson>,
    /// Calls of the function under test made before the checked one, as C
    /// spells them, e.g. `next_id()`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_calls: Vec<String>,
    /// The streams opened for `FILE *` inputs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<StreamJson>,
    /// The environment variables set (a string value) or removed (`null`)
    /// before the call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<NamedValue>,
}

/// A stream the driver opens for a `FILE *` input. Bytes are written as
/// text: printable ASCII as it is, a backslash as `\\`, any other byte as
/// `\xNN`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StreamJson {
    /// Access path, e.g. `out`, `ctx->log`.
    pub name: String,
    /// The variable the driver declares for it.
    pub c_name: Option<String>,
    /// `read` (its `contents`, then end of file) or `write` (it takes at
    /// most `room` bytes, any number when absent; writes beyond fail; the
    /// call writes `written`, absent when the test cannot know it).
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contents: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The function closed it: the driver does not close it again.
    pub closed_by_call: bool,
    /// Predicted after the call, when still open: `feof`, `ferror`, and
    /// for a stream read the bytes consumed (`ftell`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eof: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
}

/// A parameter built through the code's API: the calls the driver makes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ConstructionJson {
    /// The parameter's name.
    pub param: String,
    /// Each call as C spells it, e.g. `list_push(l, 3)`.
    pub calls: Vec<String>,
    /// For a node of another built parameter: the path to it, e.g. `l->head->next`.
    #[serde(default)]
    pub member_of: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AllocatedJson {
    /// Access path it is first reached by, e.g. `result`, `result->next`.
    pub name: String,
    /// The pointer variable the driver names it with (`None`: never named).
    pub c_name: Option<String>,
    pub elem_type: String,
    pub len: u64,
    /// Predicted contents, one value per element; members no check
    /// covers are `"unknown"`.
    pub values: Vec<Json>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EdgeJson {
    /// Where the pointer is stored: `n`, `*n.next`, `a[2]`, `g.head`.
    pub from: String,
    /// The object it points into, and how many bytes in.
    pub to: String,
    pub offset: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NamedValue {
    pub name: String,
    pub value: Json,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ObjectJson {
    /// Access path, e.g. `*out`, `list->next`.
    pub name: String,
    /// The variable the driver declares for it.
    pub c_name: Option<String>,
    pub elem_type: String,
    pub len: u64,
    /// Elements of the struct's flexible array member allocated after it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flexible_len: u64,
    pub init: Vec<Json>,
}

pub(crate) fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StubJson {
    pub function: String,
    pub returns: Vec<Json>,
    /// The bytes calls write through pointer arguments (calls and
    /// arguments counted from 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<crate::StubWrite>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CheckJson {
    /// The C lvalue the driver checks, e.g. `out_in[1]`, `result.mode`.
    pub lvalue: String,
    pub expected: Json,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FindingJson {
    /// Written as its slug, e.g. `division-by-zero`.
    pub kind: FindingKind,
    /// `file:line:col`.
    pub location: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub inputs: InputsJson,
    /// Struct types the inputs build freely with no declared invariant
    /// vouching for them; empty when the inputs are valid.
    #[serde(default)]
    pub unvouched_inputs: Vec<String>,
    /// Argument selecting this finding in the reproducers file (`None`: left out).
    pub reproducer: Option<u32>,
    /// Goal keys on the path to the fault, each once, in order of first reach.
    #[serde(default)]
    pub path_goals: Vec<String>,
    /// Why running its reproducer did not show the fault, when cairn ran
    /// it: then no claim, only information.
    #[serde(default)]
    pub not_confirmed: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct StatsJson {
    pub paths: u64,
    /// Z3 checks made.
    pub solver_calls: u64,
    #[serde(default)]
    pub statements: u64,
    pub elapsed_ms: u64,
    /// Questions the search asked the solver.
    #[serde(default)]
    pub solver_questions: u64,
    /// Of them, answered by the cache of earlier answers.
    #[serde(default)]
    pub answered_by_cache: u64,
    /// Of them, answered by the last model found.
    #[serde(default)]
    pub answered_by_last_model: u64,
    /// Of them, answered by a guessed value of their one symbol.
    #[serde(default)]
    pub answered_by_guesses: u64,
    /// Z3 checks not made: bit-blasting alone would have taken longer
    /// than the check could (answered unknown).
    #[serde(default)]
    pub priced_out: u64,
    /// Time spent in Z3 checks.
    #[serde(default)]
    pub solver_ms: u64,
    /// Concrete candidate inputs the cheap phase ran (no solver asked per branch).
    #[serde(default)]
    pub cheap_candidates: u64,
    /// Of the tests, those the cheap phase found.
    #[serde(default)]
    pub cheap_tests: u64,
    /// Goals those tests covered first.
    #[serde(default)]
    pub cheap_goals: u64,
}
