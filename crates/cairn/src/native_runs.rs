//! Native runs of a Test-Comp program: the program compiled with gcc and
//! the harness `emit::native_runs` writes, run on random and mutated input
//! streams of any length; each run that takes a control-flow edge no
//! earlier run took is kept as a test. The symbolic search's tests seed the
//! runs (replayed first, then changed), so that the native runs start from
//! the branches the solver reached and go on where it stopped: loops over
//! long input streams and large arrays run here at native speed, where the
//! symbolic search is cut by its bounds.

use emit::testcomp::NativeTest;
use ir::{FuncId, Program, Type};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use testcase::Value;

/// Time one run may take before the harness ends it (its record kept): at
/// first `RUN_TIME_FIRST` (`RUN_TIME_MOST` while no run ends by itself),
/// then 20 times the 95th percentile of the runs that ended by themselves,
/// within `RUN_TIME_LEAST` and `RUN_TIME_MOST`: streams that make the
/// program loop (nearly) for ever cost little.
const RUN_TIME_FIRST: Duration = Duration::from_millis(250);
const RUN_TIME_MOST: Duration = Duration::from_secs(1);
const RUN_TIME_LEAST: Duration = Duration::from_millis(50);

/// Runs that ended by themselves before their times set the limit.
const TIMED_RUNS: usize = 5;

/// Runs in a row that took no new edge before the runs stop early.
const STALE_RUNS: u64 = 4000;

/// What the native runs found.
pub struct NativeRuns {
    pub tests: Vec<NativeTest>,
    pub runs: u64,
    /// Edges the runs took, seeds' included.
    pub edges: usize,
    /// When the first run entered the error function, from `started`.
    pub first_error: Option<Duration>,
}

/// One run's record, as the harness wrote it.
struct Record {
    values: Vec<(u16, u64)>,
    edges: Vec<u32>,
    /// Pairs of operands the program compared.
    compared: Vec<(u64, u64)>,
    reaches_error: bool,
    /// The run reached its time limit.
    stopped: bool,
    took: Duration,
}

/// When the runs stop, besides 4,000 runs in a row without a new edge.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum StopAt {
    Deadline,
    /// Or at the first run that enters the error function.
    Error,
}

/// Compiles `file` with the harness in `build` and runs it until the
/// deadline (or `StopAt::Error`), starting from `seeds` (input streams, in
/// call order); times are counted from `started`.
pub fn explore(
    program: &Program,
    file: &Path,
    build: &Path,
    seeds: &[Vec<(FuncId, Value)>],
    started: Instant,
    (deadline, stop): (Instant, StopAt),
) -> Result<NativeRuns, String> {
    let main = program
        .function_by_name("main")
        .ok_or("the program has no `main`")?;
    let constants = emit::native_runs::Constants {
        ints: engine::constants(program, main).to_vec(),
        floats: engine::float_constants(program, main),
    };
    let harness = emit::native_runs::native_harness(program, &constants)?;
    std::fs::create_dir_all(build).map_err(|e| format!("{}: {e}", build.display()))?;
    // Absolute: the runs start in it and are given paths inside it.
    let build = &build
        .canonicalize()
        .map_err(|e| format!("{}: {e}", build.display()))?;
    let binary = compile(program, file, build, &harness.c)?;
    let index_of = |func: FuncId| harness.inputs.iter().position(|f| *f == func);
    // One run per core at a time.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let runners: Vec<Runner> = (0..cores)
        .map(|n| Runner {
            binary: binary.clone(),
            prefix: build.join(format!("prefix-{n}")),
            record: build.join(format!("record-{n}")),
            build: build.to_path_buf(),
        })
        .collect();
    let mut kept = Kept::new(started);
    let mut random = Rng(0x5eed_c0ff_ee15_0001);
    let replayed: Vec<Vec<u64>> = seeds
        .iter()
        .filter_map(|seed| {
            seed.iter()
                .map(|(func, value)| index_of(*func).and(bits_of(value)))
                .collect()
        })
        .collect();
    for batch in replayed.chunks(cores) {
        if Instant::now() >= deadline {
            break;
        }
        let runs: Vec<(Vec<u64>, u64)> = batch.iter().map(|p| (p.clone(), random.next())).collect();
        for record in run_batch(&runners, runs, RUN_TIME_MOST)? {
            kept.add(record, None);
        }
    }
    let mut stale = 0u64;
    // The last batch's streams: a change that took no new edge may have
    // brought a comparison the next change satisfies.
    let mut last: Vec<Stream> = Vec::new();
    let done = |kept: &Kept| stop == StopAt::Error && kept.found.first_error.is_some();
    while Instant::now() < deadline && stale < STALE_RUNS && !done(&kept) {
        let runs: Vec<(Vec<u64>, u64)> = (0..cores)
            .map(|n| {
                // Three runs in ten start afresh, two from a run of the last
                // batch, the others from a kept stream.
                let pick = random.below(10);
                let prefix = if kept.corpus.is_empty() || pick < 3 {
                    Vec::new()
                } else if let Some(from) = last.get(n).filter(|_| pick < 5) {
                    satisfied(from, &mut random).unwrap_or_else(|| mutated(from, &mut random))
                } else {
                    let from = &kept.corpus[random.below(kept.corpus.len() as u64) as usize];
                    mutated(from, &mut random)
                };
                (prefix, random.next())
            })
            .collect();
        last.clear();
        for record in run_batch(&runners, runs, kept.run_limit())? {
            last.push(Stream {
                values: record.values.clone(),
                compared: record.compared.clone(),
            });
            let new = kept.add(record, Some((program, &harness.inputs)));
            stale = if new { 0 } else { stale + 1 };
        }
    }
    kept.found.edges = kept.seen.len();
    Ok(kept.found)
}

/// The runs so far: the edges they took and the streams that took new ones.
struct Kept {
    /// How long the runs that ended by themselves took.
    times: Vec<Duration>,
    seen: HashSet<u32>,
    corpus: Vec<Stream>,
    found: NativeRuns,
    started: Instant,
}

impl Kept {
    fn new(started: Instant) -> Kept {
        Kept {
            times: Vec::new(),
            seen: HashSet::new(),
            corpus: Vec::new(),
            found: NativeRuns {
                tests: Vec::new(),
                runs: 0,
                edges: 0,
                first_error: None,
            },
            started,
        }
    }

    /// How long the next runs may take.
    fn run_limit(&self) -> Duration {
        if self.times.is_empty() && self.found.runs >= 2 * TIMED_RUNS as u64 {
            return RUN_TIME_MOST;
        }
        if self.times.len() < TIMED_RUNS {
            return RUN_TIME_FIRST;
        }
        let mut times = self.times.clone();
        times.sort();
        let slow = times[times.len() * 95 / 100];
        (slow * 20).clamp(RUN_TIME_LEAST, RUN_TIME_MOST)
    }

    /// Counts a run; keeps its stream when it ended by itself and took a
    /// new edge or first entered the error function, and as a test when `as_test` (not a seed)
    /// gives the program and its input functions. Whether it was kept.
    fn add(&mut self, record: Record, as_test: Option<(&Program, &[FuncId])>) -> bool {
        self.found.runs += 1;
        // A run its time limit stopped is no test: replayed, it would run
        // as long again, past a validator's limit; the edges it took count
        // only when a run that ends takes them.
        if record.stopped {
            return false;
        }
        self.times.push(record.took);
        let new_edges = record
            .edges
            .iter()
            .filter(|e| !self.seen.contains(e))
            .count();
        self.seen.extend(record.edges.iter().copied());
        let first_error = record.reaches_error && self.found.first_error.is_none();
        if first_error {
            self.found.first_error = Some(self.started.elapsed());
        }
        if new_edges == 0 && !first_error {
            return false;
        }
        if let Some((program, inputs)) = as_test {
            self.found.tests.push(NativeTest {
                values: typed(program, inputs, &record.values),
                reaches_error: record.reaches_error,
            });
        }
        self.corpus.push(Stream {
            values: record.values,
            compared: record.compared,
        });
        true
    }
}

/// A kept run's stream, and the operands its program compared.
struct Stream {
    values: Vec<(u16, u64)>,
    compared: Vec<(u64, u64)>,
}

/// A kept stream changed: a value equal to one operand of a comparison set
/// to the other (or beside it), cut at a random place (the rest drawn
/// anew), or one value replaced by a neighbour, a small number or any bits.
fn mutated(stream: &Stream, random: &mut Rng) -> Vec<u64> {
    let mut bits: Vec<u64> = stream.values.iter().map(|(_, b)| *b).collect();
    if bits.is_empty() {
        return bits;
    }
    if random.below(3) == 0 {
        if let Some(changed) = satisfied(stream, random) {
            return changed;
        }
    }
    let at = random.below(bits.len() as u64) as usize;
    match random.below(4) {
        0 => bits.truncate(at),
        1 => bits[at] = bits[at].wrapping_add(1),
        2 => bits[at] = bits[at].wrapping_sub(1),
        _ => {
            bits[at] = if random.below(2) == 0 {
                random.below(33).wrapping_sub(16)
            } else {
                random.next()
            };
            bits.truncate(at + 1 + random.below((bits.len() - at) as u64) as usize);
        }
    }
    bits
}

/// The stream with a value equal to one operand of a comparison its run
/// made set to the other operand (or beside it); `None` when no value
/// equals an operand of the comparison picked.
fn satisfied(stream: &Stream, random: &mut Rng) -> Option<Vec<u64>> {
    if stream.compared.is_empty() {
        return None;
    }
    let (a, b) = stream.compared[random.below(stream.compared.len() as u64) as usize];
    let (from, to) = if random.below(2) == 0 { (a, b) } else { (b, a) };
    let mut bits: Vec<u64> = stream.values.iter().map(|(_, b)| *b).collect();
    let equal: Vec<usize> = (0..bits.len()).filter(|i| bits[*i] == from).collect();
    let at = *equal.get(random.below(equal.len() as u64) as usize)?;
    bits[at] = to.wrapping_add(random.below(3)).wrapping_sub(1);
    Some(bits)
}

/// The raw bits of a value the harness can replay.
fn bits_of(value: &Value) -> Option<u64> {
    match value {
        Value::Int { bits, .. } => Some(*bits as u64),
        Value::Float { bits, .. } => Some(*bits),
        _ => None,
    }
}

/// A record's values as the functions' typed results.
fn typed(program: &Program, inputs: &[FuncId], values: &[(u16, u64)]) -> Vec<(FuncId, Value)> {
    values
        .iter()
        .filter_map(|(index, bits)| {
            let func = *inputs.get(*index as usize)?;
            let value = match &program.function(func).sig.ret {
                Type::Int(ty) => Value::Int {
                    ty: *ty,
                    bits: u128::from(*bits),
                },
                Type::Float(kind) => Value::Float {
                    kind: *kind,
                    bits: *bits,
                },
                _ => return None,
            };
            Some((func, value))
        })
        .collect()
}

/// The program and the harness built in `build`: the program's code counts
/// its edges, the harness's does not.
fn compile(program: &Program, file: &Path, build: &Path, harness: &str) -> Result<PathBuf, String> {
    let harness_file = build.join("native_harness.c");
    std::fs::write(&harness_file, harness)
        .map_err(|e| format!("{}: {e}", harness_file.display()))?;
    let model = program.data_model.gcc_flag();
    let (program_object, harness_object) = (build.join("program.o"), build.join("harness.o"));
    let binary = build.join("native_runs");
    gcc("the program", |gcc| {
        gcc.args(["-w", "-O0", "-fsanitize-coverage=trace-pc,trace-cmp"])
            .args(["-finstrument-functions", model, "-c"])
            .arg(file)
            .arg("-o")
            .arg(&program_object)
    })?;
    gcc("the harness", |gcc| {
        gcc.args(["-O1", model, "-c"])
            .arg(&harness_file)
            .arg("-o")
            .arg(&harness_object)
    })?;
    gcc("the native runs", |gcc| {
        gcc.arg(model)
            .arg(&program_object)
            .arg(&harness_object)
            .arg("-o")
            .arg(&binary)
            .arg("-lm")
    })?;
    Ok(binary)
}

/// Runs gcc with the arguments `with` adds; `Err` names `what` and gcc's first error.
fn gcc(what: &str, with: impl FnOnce(&mut Command) -> &mut Command) -> Result<(), String> {
    let mut command = Command::new("gcc");
    let output = with(&mut command)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first = stderr.lines().find(|l| l.contains("error")).unwrap_or("");
    Err(format!("gcc cannot build {what}: {}", first.trim()))
}

/// Runs `runs` (a prefix and a seed each, at most one per runner) at once,
/// and returns their records in the same order.
fn run_batch(
    runners: &[Runner],
    runs: Vec<(Vec<u64>, u64)>,
    limit: Duration,
) -> Result<Vec<Record>, String> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = runners
            .iter()
            .zip(runs)
            .map(|(runner, (prefix, seed))| scope.spawn(move || runner.run(&prefix, seed, limit)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a native run's thread panicked".into()))
            })
            .collect()
    })
}

/// Runs the binary with files of its own.
struct Runner {
    binary: PathBuf,
    build: PathBuf,
    prefix: PathBuf,
    record: PathBuf,
}

impl Runner {
    /// One run on `prefix` then values drawn from `seed`, for at most `limit`.
    fn run(&self, prefix: &[u64], seed: u64, limit: Duration) -> Result<Record, String> {
        let (prefix_file, log) = (&self.prefix, &self.record);
        let text: String = prefix.iter().map(|b| format!("{b}\n")).collect();
        std::fs::write(prefix_file, text).map_err(|e| format!("{}: {e}", prefix_file.display()))?;
        let _ = std::fs::remove_file(log);
        let start = Instant::now();
        // `timeout` stops a run that the harness's own timer cannot.
        Command::new("timeout")
            .args(["-s", "KILL", "5"])
            .arg(&self.binary)
            .env("CAIRN_LOG", log)
            .env("CAIRN_SEED", seed.to_string())
            .env("CAIRN_PREFIX", prefix_file)
            .env("CAIRN_MILLISECONDS", limit.as_millis().to_string())
            .current_dir(&self.build)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
        let took = start.elapsed();
        let text = std::fs::read_to_string(log).unwrap_or_default();
        Ok(Record {
            took,
            ..parse_record(&text)
        })
    }
}

fn parse_record(text: &str) -> Record {
    let mut record = Record {
        values: Vec::new(),
        edges: Vec::new(),
        compared: Vec::new(),
        reaches_error: false,
        stopped: false,
        took: Duration::ZERO,
    };
    for line in text.lines() {
        let mut words = line.split(' ');
        match words.next() {
            Some("v") => {
                let index = words.next().and_then(|w| w.parse().ok());
                let bits = words.next().and_then(|w| w.parse().ok());
                if let (Some(index), Some(bits)) = (index, bits) {
                    record.values.push((index, bits));
                }
            }
            Some("e") => record
                .edges
                .extend(words.next().and_then(|w| w.parse::<u32>().ok())),
            Some("c") => {
                let a = words.next().and_then(|w| w.parse().ok());
                let b = words.next().and_then(|w| w.parse().ok());
                if let (Some(a), Some(b)) = (a, b) {
                    record.compared.push((a, b));
                }
            }
            Some("x") => record.reaches_error = true,
            Some("end") => record.stopped = words.next() == Some("time"),
            _ => {}
        }
    }
    record
}

/// SplitMix64: the same runs for the same program on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_its_values_edges_and_error_in_order() {
        let record =
            parse_record("v 0 7\nv 1 18446744073709551615\ne 12\ne 40\nc 3 9\nx\nend exit\n");
        assert_eq!(record.compared, vec![(3, 9)]);
        assert!(!record.stopped);
        assert!(parse_record("end time\n").stopped);
        assert_eq!(record.values, vec![(0, 7), (1, u64::MAX)]);
        assert_eq!(record.edges, vec![12, 40]);
        assert!(record.reaches_error);
        // A run killed before it wrote its record took no edge.
        let empty = parse_record("");
        assert!(empty.values.is_empty() && empty.edges.is_empty() && !empty.reaches_error);
    }

    #[test]
    fn a_mutated_stream_keeps_a_prefix_of_the_original() {
        let original: Vec<(u16, u64)> = (0..20).map(|n| (0, n * 3)).collect();
        let stream = Stream {
            values: original.clone(),
            compared: vec![(9, 1000)],
        };
        let mut random = Rng(1);
        let mut set_to_the_other_operand = 0;
        for _ in 0..200 {
            let changed = mutated(&stream, &mut random);
            if changed.get(3).is_some_and(|v| (999..=1001).contains(v)) {
                set_to_the_other_operand += 1;
            }
            assert!(changed.len() <= original.len());
            // At most one value differs, and the ones before it are kept.
            let differing = changed
                .iter()
                .zip(&original)
                .filter(|(a, (_, b))| *a != b)
                .count();
            assert!(differing <= 1, "{changed:?}");
        }
        // The value 9 (at 3) was compared with 1000.
        assert!(set_to_the_other_operand > 10, "{set_to_the_other_operand}");
    }

    #[test]
    fn kept_runs_are_those_with_a_new_edge_or_the_first_error() {
        let mut kept = Kept::new(Instant::now());
        let run = |edges: &[u32], reaches_error| Record {
            values: vec![(0, 1)],
            edges: edges.to_vec(),
            compared: Vec::new(),
            reaches_error,
            stopped: false,
            took: Duration::from_micros(500),
        };
        assert!(kept.add(run(&[1, 2], false), None));
        assert!(!kept.add(run(&[2], false), None));
        assert!(kept.add(run(&[2], true), None));
        assert!(!kept.add(run(&[1], true), None));
        let stopped = Record {
            stopped: true,
            ..run(&[7], false)
        };
        assert!(!kept.add(stopped, None));
        assert!(kept.add(run(&[7], false), None));
        assert_eq!((kept.found.runs, kept.corpus.len()), (6, 3));
        // Seeds are not tests of the runs' own.
        assert!(kept.found.tests.is_empty());
        assert!(kept.found.first_error.is_some());
    }
}
