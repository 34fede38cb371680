//! The Test-Comp test-suite format (<https://gitlab.com/sosy-lab/software/test-format>),
//! as the competition's validator TestCov reads it: `metadata.xml`, then one
//! `testN.xml` per test of the program's `main`, each `<input>` the result
//! of one `__VERIFIER_nondet_*()` call, in the order the test's path made
//! the calls; all in `test-suite.zip` under `test-suite/`.
//!
//! The values are the engine's stub results ([`testcase::Inputs::stub_calls`]),
//! written as TestCov's harness parses them with `sscanf`: integers in
//! decimal, a `_Bool` as 0 or 1, floating values as exact hexadecimal
//! numbers, `inf`, `nan` (with their sign).

use crate::ctype;
use crate::xml::{attribute, text};
use ir::float::{self, FloatClass};
use ir::{FloatKind, FuncId, Program, Type};
use std::fmt::Write;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use testcase::{FindingKind, FunctionReport, Inputs, Value};

/// The functions whose results are a Test-Comp program's inputs.
pub const NONDET_PREFIX: &str = "__VERIFIER_nondet_";

/// How metadata.xml names a data model (TestCov's `-64` or `-32`).
fn architecture(model: ir::DataModel) -> &'static str {
    match model {
        ir::DataModel::Lp64 => "64bit",
        ir::DataModel::Ilp32 => "32bit",
    }
}

/// The folder of the zip that holds the suite's files.
const SUITE_FOLDER: &str = "test-suite";

const METADATA_DOCTYPE: &str = "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">";
const TESTCASE_DOCTYPE: &str = "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">";
const XML_DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>";

/// The property a suite is written for, as Test-Comp states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specification {
    /// Cover every branch (Test-Comp's `coverage-branches.prp`).
    Branches,
    /// Call the error function (Test-Comp's `coverage-error-call.prp`).
    ErrorCall,
}

impl Specification {
    pub fn text(self) -> &'static str {
        match self {
            Specification::Branches => "COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )",
            Specification::ErrorCall => {
                "COVER( init(main()), FQL(cover EDGES(@CALL(reach_error))) )"
            }
        }
    }
}

/// What `metadata.xml` says beyond the tests.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    /// The program file as the user named it.
    pub program_file: PathBuf,
    /// SHA-256 of the program file's bytes, in lowercase hexadecimal.
    pub program_hash: String,
    pub specification: Specification,
    /// The tool and its version.
    pub producer: String,
    /// When the suite was made, as the user's clock gives it.
    pub creation_time: String,
}

/// A suite ready to be written.
#[derive(Clone, Debug)]
pub struct TestSuite {
    pub metadata: String,
    pub tests: Vec<SuiteTest>,
    /// Tests and findings the format cannot hold, and why.
    pub notes: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct SuiteTest {
    /// `test1.xml`, `test2.xml`, ...
    pub file_name: String,
    pub xml: String,
    pub inputs: usize,
    /// Where the test calls the error function (`file:line:col`; for a
    /// native run, where the function starts), when it does.
    pub reaches_error: Option<String>,
}

/// Why no suite can be written for a program.
#[derive(Debug, PartialEq, Eq)]
pub struct SuiteError(pub String);

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SuiteError {}

/// The SHA-256 of `bytes` in lowercase hexadecimal, as `programhash` holds it.
pub fn program_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// A test found by running the program natively: the results of its
/// `__VERIFIER_nondet_*()` calls in call order.
pub struct NativeTest {
    pub values: Vec<(FuncId, Value)>,
    /// The run entered the program's error function.
    pub reaches_error: bool,
}

/// The suite of `report`, the report of the program's `main` (when the
/// engine could analyse it): its tests, then its findings (a crash is a
/// test too; a call of the error function is marked `coversError`), then
/// the tests of the native runs.
pub fn test_suite(
    program: &Program,
    report: Option<&FunctionReport>,
    native: &[NativeTest],
    config: &SuiteConfig,
) -> Result<TestSuite, SuiteError> {
    if let Some(report) = report {
        let main = program.function(report.func);
        if main.name != "main" {
            return Err(SuiteError(format!(
                "a Test-Comp suite is for the program's `main`, not `{}`",
                main.name
            )));
        }
    }
    let mut suite = TestSuite {
        metadata: metadata_xml(config, program.data_model),
        tests: Vec::new(),
        notes: Vec::new(),
    };
    let (tests, findings) = match report {
        Some(report) => (&report.tests[..], &report.findings[..]),
        None => (&[][..], &[][..]),
    };
    let tests = tests
        .iter()
        .enumerate()
        .map(|(n, test)| (format!("test {}", n + 1), &test.inputs, None));
    let findings = findings.iter().enumerate().map(|(n, finding)| {
        let reaches_error = (finding.kind == FindingKind::ErrorCall).then(|| {
            let span = finding.span;
            format!("{}:{}:{}", program.file_name(span), span.line, span.col)
        });
        (
            format!("finding {} ({})", n + 1, finding.kind),
            &finding.inputs,
            reaches_error,
        )
    });
    let error_function = testcase::ERROR_FUNCTIONS
        .iter()
        .filter_map(|name| program.function_by_name(name))
        .find(|f| program.function(*f).body.is_some());
    // A native run records entering the function, not the call.
    let error_place = error_function.map(|f| {
        let span = program.function(f).span;
        format!(
            "{}:{}:{}, where it starts (a native run)",
            program.file_name(span),
            span.line,
            span.col
        )
    });
    let engine_tests = tests
        .chain(findings)
        .map(|(origin, inputs, reaches_error)| {
            let values = input_values(program, inputs);
            (origin, values, reaches_error)
        });
    let native_tests = native.iter().enumerate().map(|(n, test)| {
        let values = test
            .values
            .iter()
            .map(|(func, value)| input_value(program, *func, value))
            .collect();
        let reaches_error = error_place.clone().filter(|_| test.reaches_error);
        (format!("native run {}", n + 1), values, reaches_error)
    });
    for (origin, values, reaches_error) in engine_tests.chain(native_tests) {
        match values {
            Ok(values) => {
                let file_name = format!("test{}.xml", suite.tests.len() + 1);
                suite.tests.push(SuiteTest {
                    xml: testcase_xml(&values, reaches_error.is_some()),
                    inputs: values.len(),
                    file_name,
                    reaches_error,
                });
            }
            Err(why) => suite.notes.push(format!("{origin} left out: {why}")),
        }
    }
    Ok(suite)
}

/// One `<input>`: the value as TestCov's harness reads it, and its C type.
#[derive(Clone, Debug, PartialEq, Eq)]
struct InputValue {
    text: String,
    type_name: String,
}

/// The inputs of one test in call order, or why the format cannot hold them.
fn input_values(program: &Program, inputs: &Inputs) -> Result<Vec<InputValue>, String> {
    input_stream(inputs)?
        .into_iter()
        .map(|(func, value)| input_value(program, func, value))
        .collect()
}

/// The results of a test's `__VERIFIER_nondet_*()` calls in call order, when
/// they are all its inputs (a Test-Comp test can hold no other), or why not.
pub fn input_stream(inputs: &Inputs) -> Result<Vec<(FuncId, &Value)>, String> {
    if !inputs.failing_allocations.is_empty() {
        return Err("it makes an allocation fail, which a Test-Comp harness cannot".to_string());
    }
    if !(inputs.args.is_empty()
        && inputs.globals.is_empty()
        && inputs.objects.is_empty()
        && inputs.constructions.is_empty()
        && inputs.earlier_calls.is_empty()
        && inputs.environment.iter().all(|v| v.value == Value::Unknown))
    {
        return Err("it sets inputs other than __VERIFIER_nondet_*() results".to_string());
    }
    inputs.stub_calls().ok_or_else(|| {
        "the order of its input calls is not recorded (a record of an older cairn)".into()
    })
}

fn input_value(program: &Program, func: FuncId, value: &Value) -> Result<InputValue, String> {
    let function = program.function(func);
    if !function.name.starts_with(NONDET_PREFIX) {
        return Err(format!(
            "`{}` has no body and is no __VERIFIER_nondet_*() function, so a Test-Comp \
             harness cannot give its results",
            function.name
        ));
    }
    let unwritable = || {
        format!(
            "`{}` returns a value TestCov's harness cannot read",
            function.name
        )
    };
    let text = match value {
        Value::Int { ty, bits } if ty.is_bool => u8::from(*bits != 0).to_string(),
        Value::Int { ty, bits } => ty.decimal(*bits),
        Value::Float { kind, bits } => float_text(*kind, *bits).ok_or_else(unwritable)?,
        _ => return Err(unwritable()),
    };
    // The IR's name is the width's: a 32-bit `long` (ILP32) would be `int`.
    let named_by_function = match function.name.strip_prefix(NONDET_PREFIX) {
        Some("long") => Some("long".to_string()),
        Some("ulong") => Some("unsigned long".to_string()),
        _ => None,
    };
    let type_name = match &function.sig.ret {
        _ if named_by_function.is_some() => named_by_function,
        ty @ (Type::Int(_) | Type::Float(_)) => ctype::type_name(program, ty).ok(),
        _ => None,
    }
    .ok_or_else(unwritable)?;
    Ok(InputValue { text, type_name })
}

/// A `float` or `double` as `sscanf`'s `%f` reads it back to the same bits;
/// `None` for a NaN other than the default one of its sign (glibc reads no
/// payload).
fn float_text(kind: FloatKind, bits: u64) -> Option<String> {
    let sign = |negative: bool| if negative { "-" } else { "" };
    match float::classify(kind, bits) {
        FloatClass::Finite {
            negative,
            significand,
            exponent,
        } => Some(float::hex_literal(negative, significand, exponent)),
        FloatClass::Infinite { negative } => Some(format!("{}inf", sign(negative))),
        FloatClass::NaN {
            negative,
            quiet: true,
            payload: 0,
        } => Some(format!("{}nan", sign(negative))),
        FloatClass::NaN { .. } => None,
    }
}

fn metadata_xml(config: &SuiteConfig, model: ir::DataModel) -> String {
    let fields = [
        ("sourcecodelang", "C".to_string()),
        ("producer", config.producer.clone()),
        ("specification", config.specification.text().to_string()),
        ("programfile", config.program_file.display().to_string()),
        ("programhash", config.program_hash.clone()),
        ("entryfunction", "main".to_string()),
        ("architecture", architecture(model).to_string()),
        ("creationtime", config.creation_time.clone()),
    ];
    let mut xml = format!("{XML_DECLARATION}\n{METADATA_DOCTYPE}\n<test-metadata>\n");
    for (tag, content) in fields {
        let _ = writeln!(xml, "  <{tag}>{}</{tag}>", text(&content));
    }
    xml.push_str("</test-metadata>\n");
    xml
}

/// A test case. TestCov takes a file for one only when its first line is
/// the XML declaration and its second the DOCTYPE.
fn testcase_xml(values: &[InputValue], covers_error: bool) -> String {
    let covers = if covers_error {
        " coversError=\"true\""
    } else {
        ""
    };
    let mut xml = format!("{XML_DECLARATION}\n{TESTCASE_DOCTYPE}\n<testcase{covers}>\n");
    for value in values {
        let _ = writeln!(
            xml,
            "  <input type=\"{}\">{}</input>",
            attribute(&value.type_name),
            text(&value.text)
        );
    }
    xml.push_str("</testcase>\n");
    xml
}

/// Writes `OUT/test-suite.zip` (atomically) and returns its path.
pub fn write_test_suite(out_dir: &Path, suite: &TestSuite) -> Result<PathBuf, crate::EmitError> {
    let path = out_dir.join(format!("{SUITE_FOLDER}.zip"));
    let fail = |message: String| crate::EmitError {
        path: path.clone(),
        message,
    };
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let files = std::iter::once(("metadata.xml", &suite.metadata))
        .chain(suite.tests.iter().map(|t| (t.file_name.as_str(), &t.xml)));
    for (name, text) in files {
        zip.start_file(format!("{SUITE_FOLDER}/{name}"), options)
            .map_err(|e| fail(e.to_string()))?;
        zip.write_all(text.as_bytes())
            .map_err(|e| fail(e.to_string()))?;
    }
    let bytes = zip.finish().map_err(|e| fail(e.to_string()))?.into_inner();
    crate::write_atomically(&path, &bytes)?;
    Ok(path)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ir::{FnSig, Function, IntType, Span};
    use testcase::{Finding, Stub, TestCase};

    const MAIN: FuncId = FuncId(0);
    const NONDET_INT: FuncId = FuncId(1);
    const NONDET_CHAR: FuncId = FuncId(2);
    const NONDET_DOUBLE: FuncId = FuncId(3);
    const NONDET_BOOL: FuncId = FuncId(4);
    const READ_LINE: FuncId = FuncId(5);

    /// The suite of a report the engine made.
    fn test_suite(
        program: &Program,
        report: &FunctionReport,
        native: &[NativeTest],
        config: &SuiteConfig,
    ) -> Result<TestSuite, SuiteError> {
        super::test_suite(program, Some(report), native, config)
    }

    /// A bodiless function of no parameters returning `ret`.
    pub(crate) fn declared(name: &str, ret: Type) -> Function {
        Function {
            name: name.to_string(),
            sig: FnSig {
                ret,
                params: vec![],
                variadic: false,
            },
            prototyped: true,
            nonnull: Vec::new(),
            const_pointee: Vec::new(),
            is_static: false,
            span: Span::default(),
            body: None,
        }
    }

    /// `main` and the bodiless functions it reads from.
    fn program() -> Program {
        Program {
            files: vec!["prog.c".to_string()],
            functions: vec![
                declared("main", Type::Int(IntType::INT)),
                declared("__VERIFIER_nondet_int", Type::Int(IntType::INT)),
                declared("__VERIFIER_nondet_char", Type::Int(IntType::CHAR)),
                declared("__VERIFIER_nondet_double", Type::Float(FloatKind::F64)),
                declared("__VERIFIER_nondet_bool", Type::Int(IntType::BOOL)),
                declared("read_line", Type::Int(IntType::INT)),
            ],
            ..Default::default()
        }
    }

    fn int(ty: IntType, value: i64) -> Value {
        Value::Int {
            ty,
            bits: value as u128 & ((1u128 << ty.bits) - 1),
        }
    }

    /// Inputs from the stub calls in the order the path made them.
    fn inputs(calls: &[(FuncId, Value)]) -> Inputs {
        let mut inputs = Inputs::default();
        for (func, value) in calls {
            match inputs.stubs.iter_mut().find(|s| s.func == *func) {
                Some(stub) => stub.returns.push(value.clone()),
                None => inputs.stubs.push(Stub {
                    func: *func,
                    returns: vec![value.clone()],
                    writes: Vec::new(),
                }),
            }
            inputs.stub_order.push(*func);
        }
        inputs
    }

    fn test(inputs: Inputs) -> TestCase {
        TestCase {
            func: MAIN,
            inputs,
            ret: None,
            exits: None,
            checks: vec![],
            unchecked: 0,
            allocated: vec![],
            freed_inputs: vec![],
            new_goals: vec![],
            path_goals: vec![],
            boundaries: vec![],
            stub_calls: vec![],
            native_calls: vec![],
        }
    }

    fn report(tests: Vec<TestCase>, findings: Vec<Finding>) -> FunctionReport {
        FunctionReport {
            tests,
            findings,
            ..FunctionReport::empty(&program(), MAIN)
        }
    }

    fn config() -> SuiteConfig {
        SuiteConfig {
            program_file: PathBuf::from("dir/a&b<c>.c"),
            program_hash: program_hash(b""),
            specification: Specification::Branches,
            producer: "cairn 0.1.0".to_string(),
            creation_time: "2026-11-24T11:00:00Z".to_string(),
        }
    }

    /// The text of every `<input>` of a test case, read back by an XML parser.
    fn read_inputs(xml: &str) -> Vec<String> {
        let mut reader = quick_xml::Reader::from_str(xml);
        let (mut inside, mut found) = (false, Vec::new());
        loop {
            match reader.read_event().expect("well-formed XML") {
                quick_xml::events::Event::Start(e) => inside = e.name().as_ref() == b"input",
                quick_xml::events::Event::Text(t) if inside => {
                    found.push(t.unescape().expect("escaped text").into_owned())
                }
                quick_xml::events::Event::End(_) => inside = false,
                quick_xml::events::Event::Eof => return found,
                _ => {}
            }
        }
    }

    #[test]
    fn inputs_come_in_the_order_the_path_called_the_stubs() {
        let calls = [
            (NONDET_INT, int(IntType::INT, -5)),
            (NONDET_CHAR, int(IntType::CHAR, -1)),
            (NONDET_INT, int(IntType::INT, i64::from(i32::MIN))),
            (NONDET_BOOL, int(IntType::BOOL, 1)),
            (
                NONDET_DOUBLE,
                Value::Float {
                    kind: FloatKind::F64,
                    bits: 1.5f64.to_bits(),
                },
            ),
        ];
        let suite = test_suite(
            &program(),
            &report(vec![test(inputs(&calls))], vec![]),
            &[],
            &config(),
        )
        .expect("a suite");
        assert_eq!(suite.tests.len(), 1);
        let case = &suite.tests[0];
        assert_eq!((case.file_name.as_str(), case.inputs), ("test1.xml", 5));
        assert_eq!(
            read_inputs(&case.xml),
            ["-5", "-1", "-2147483648", "1", "0x1.8p+0"]
        );
        assert!(case.xml.contains("<input type=\"char\">-1</input>"));
    }

    #[test]
    fn an_ilp32_suite_says_32bit_and_types_a_32_bit_long_as_long() {
        let mut program = program();
        program.data_model = ir::DataModel::Ilp32;
        program
            .functions
            .push(declared("__VERIFIER_nondet_long", Type::Int(IntType::INT)));
        let nondet_long = FuncId(program.functions.len() as u32 - 1);
        let calls = [(nondet_long, int(IntType::INT, i64::from(i32::MAX)))];
        let report = FunctionReport {
            tests: vec![test(inputs(&calls))],
            ..FunctionReport::empty(&program, MAIN)
        };
        let suite = test_suite(&program, &report, &[], &config()).expect("a suite");
        assert!(suite
            .metadata
            .contains("<architecture>32bit</architecture>"));
        assert!(suite.tests[0]
            .xml
            .contains("<input type=\"long\">2147483647</input>"));
    }

    #[test]
    fn files_start_with_the_declaration_and_doctype_testcov_looks_for() {
        let suite = test_suite(
            &program(),
            &report(vec![test(Inputs::default())], vec![]),
            &[],
            &config(),
        )
        .expect("a suite");
        let lines: Vec<&str> = suite.tests[0].xml.lines().collect();
        assert!(lines[0].starts_with("<?xml "));
        assert_eq!(
            lines[1],
            "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">"
        );
        assert_eq!(lines[2..], ["<testcase>", "</testcase>"]);
        let metadata: Vec<&str> = suite.metadata.lines().collect();
        assert!(metadata[0].starts_with("<?xml "));
        assert!(metadata[1].starts_with("<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\""));
        assert!(suite
            .metadata
            .contains("<programfile>dir/a&amp;b&lt;c&gt;.c</programfile>"));
        assert!(suite.metadata.contains(
            "<programhash>e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855</programhash>"
        ));
        assert!(suite
            .metadata
            .contains("<architecture>64bit</architecture>"));
        assert!(suite.metadata.contains(
            "<specification>COVER( init(main()), FQL(cover EDGES(@DECISIONEDGE)) )</specification>"
        ));
    }

    #[test]
    fn a_call_of_the_error_function_covers_the_error() {
        let finding = Finding {
            func: MAIN,
            kind: FindingKind::ErrorCall,
            span: Span {
                file: 0,
                line: 12,
                col: 9,
            },
            message: "the error function `reach_error` is called".to_string(),
            inputs: inputs(&[(NONDET_INT, int(IntType::INT, 42))]),
            unvouched_inputs: vec![],
            broken_invariant: None,
            path_goals: vec![],
            not_confirmed: None,
        };
        let suite = test_suite(
            &program(),
            &report(vec![test(Inputs::default())], vec![finding]),
            &[],
            &config(),
        )
        .expect("a suite");
        let error = &suite.tests[1];
        assert_eq!(error.file_name, "test2.xml");
        assert_eq!(error.reaches_error.as_deref(), Some("prog.c:12:9"));
        assert!(error.xml.contains("<testcase coversError=\"true\">"));
        assert_eq!(suite.tests[0].reaches_error, None);
    }

    #[test]
    fn tests_the_format_cannot_hold_are_left_out_with_a_note() {
        let other_stub = inputs(&[(READ_LINE, int(IntType::INT, 1))]);
        let failing = Inputs {
            failing_allocations: vec![0],
            ..Inputs::default()
        };
        let signalling_nan = inputs(&[(
            NONDET_DOUBLE,
            Value::Float {
                kind: FloatKind::F64,
                bits: 0x7ff0_0000_0000_0001,
            },
        )]);
        let tests = vec![test(other_stub), test(failing), test(signalling_nan)];
        let suite =
            test_suite(&program(), &report(tests, vec![]), &[], &config()).expect("a suite");
        assert!(suite.tests.is_empty());
        assert_eq!(suite.notes.len(), 3);
        assert!(suite.notes[0].starts_with("test 1 left out: `read_line` has no body"));
        assert!(suite.notes[1].contains("allocation fail"));
        assert!(suite.notes[2].contains("cannot read"));
    }

    #[test]
    fn floats_read_back_to_their_bits() {
        for value in [
            0.1f64,
            -0.0,
            f64::MIN_POSITIVE / 4.0,
            f64::INFINITY,
            -f64::NAN,
        ] {
            let text = float_text(FloatKind::F64, value.to_bits()).expect("writable");
            let back: f64 = match text.as_str() {
                "inf" => f64::INFINITY,
                "-nan" => -f64::NAN,
                hex => hex_value(hex),
            };
            assert_eq!(back.to_bits(), value.to_bits(), "{text}");
        }
    }

    /// The value of a hexadecimal floating literal such as `-0x1.8p-3`.
    fn hex_value(text: &str) -> f64 {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let rest = rest.strip_prefix("0x").expect("hexadecimal");
        let (mantissa, exponent) = rest.split_once('p').expect("an exponent");
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{whole}{fraction}");
        let significand = u64::from_str_radix(&digits, 16).expect("hex digits") as f64;
        let exponent: i32 = exponent.parse().expect("a decimal exponent");
        // In two halves, so that no power of two on the way is subnormal.
        let power = exponent - 4 * fraction.len() as i32;
        let value = significand * 2f64.powi(power / 2) * 2f64.powi(power - power / 2);
        if negative {
            -value
        } else {
            value
        }
    }

    #[test]
    fn a_test_passing_main_arguments_is_left_out_and_the_native_runs_kept() {
        let mut program = program();
        program.functions[0].sig.params = vec![Type::Int(IntType::INT)];
        let mut passing_argc = Inputs::default();
        passing_argc.args.push(int(IntType::INT, 2));
        let native = [NativeTest {
            values: vec![(NONDET_INT, int(IntType::INT, 7))],
            reaches_error: false,
        }];
        let suite = test_suite(
            &program,
            &report(vec![test(passing_argc)], vec![]),
            &native,
            &config(),
        )
        .expect("a suite");
        assert_eq!(suite.tests.len(), 1, "{:?}", suite.notes);
        assert_eq!(suite.tests[0].inputs, 1);
        assert!(suite.notes[0].starts_with("test 1 left out: it sets inputs other than"));
    }

    #[test]
    fn the_zip_holds_the_files_under_test_suite() {
        let dir = tempfile::tempdir().expect("a directory");
        let suite = test_suite(
            &program(),
            &report(vec![test(Inputs::default())], vec![]),
            &[],
            &config(),
        )
        .expect("a suite");
        let path = write_test_suite(dir.path(), &suite).expect("written");
        let bytes = std::fs::read(&path).expect("readable");
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
        let names: Vec<String> = archive
            .file_names()
            .map(|name| name.expect("a name").into_owned())
            .collect();
        assert_eq!(names, ["test-suite/metadata.xml", "test-suite/test1.xml"]);
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut archive.by_name("test-suite/test1.xml").expect("there"),
            &mut text,
        )
        .expect("UTF-8");
        assert_eq!(text, suite.tests[0].xml);
    }
}
