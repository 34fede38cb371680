//! Calls: functions with a body run in a new frame; library functions have
//! models (see `libc`); one of the C library's (`testcase::c_library`)
//! without a model runs natively on the path's values (see `native`: the
//! driver runs the real one, whose behaviour a guess would misstate), or
//! stops the path when it cannot; any other bodiless function is a stub whose return
//! values, and the bytes it writes through its pointer arguments (see
//! `stub`), are inputs, recorded in call order. A bodiless
//! `__VERIFIER_assume(cond)` restricts the path to `cond`. The return of
//! the function under test checks for leaked allocations.

use super::api;
use super::input::push_frame;
use super::libc::Model;
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::state::{BuildStep, CallWithoutBody, ObjKind, ReturnTo, State};
use crate::value::{
    cells_to_int, cells_to_ptr, concrete, value_cells, Cell, Cond, ObjIdx, PtrVal, SymVal, Target,
    Word,
};
use ir::{Callee, Expr, FuncId, Layout, Place, Program, Span, Type};
use std::rc::Rc;
use testcase::c_library::{self, MockResult};
use testcase::Bound;
use testcase::FindingKind;

/// Deepest nesting of calls with concrete arguments only: concrete
/// recursion runs as deep as the code goes, up to here (a recursion that
/// never ends stops at this bound).
const CONCRETE_CALL_DEPTH: u32 = 512;

/// The assumption of a verification task (SV-COMP, Test-Comp), declared
/// without a body: paths that break it are not the program's.
const ASSUME_FUNCTION: &str = "__VERIFIER_assume";

impl Machine<'_, '_> {
    pub fn call(
        &mut self,
        st: &mut State,
        dest: &Option<Place>,
        callee: &Callee,
        args: &[Expr],
    ) -> Exec<()> {
        let func = match callee {
            Callee::Direct(f) => *f,
            Callee::Indirect(e) => {
                let p = self.eval_ptr(st, e)?;
                match self.resolved(st, &p.target) {
                    Target::Func(f) => f,
                    Target::Lazy(l) => return Err(self.decide(st, l)),
                    Target::Null => return self.call_through_null(st, e),
                    _ => return unsupported("a call through a pointer to data"),
                }
            }
        };
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(st, a)?);
        }
        if let Callee::Indirect(_) = callee {
            values = fitted_arguments(self.program, func, args, values)?;
        }
        let function = self.program.function(func);
        self.check_nonnull_arguments(st, func, &values)?;
        if testcase::ERROR_FUNCTIONS.contains(&function.name.as_str()) {
            let message = format!("the error function `{}` is called", function.name);
            return self.fault(st, FindingKind::ErrorCall, &message);
        }
        if function.name == ASSUME_FUNCTION && function.body.is_none() {
            self.assume_holds(st, &values)?;
            st.stub_calls.push(Rc::new(CallWithoutBody {
                func,
                args: values,
                result: None,
                writes: Vec::new(),
            }));
            return Ok(());
        }
        if function.body.is_some() {
            let concrete_call = values.iter().all(|v| self.is_concrete(st, v));
            let depth = match concrete_call {
                true => st.frames.len() as u32 >= CONCRETE_CALL_DEPTH,
                false => {
                    let symbolic = st.frames.iter().filter(|f| !f.concrete_call).count();
                    symbolic as u32 >= self.config.max_depth.max(1)
                }
            };
            if depth {
                return Err(Stop::Budget(Bound::MaxDepth));
            }
            st.frame_mut().stmt += 1;
            let returns = match dest {
                Some(place) => ReturnTo::Place(place.clone()),
                None => ReturnTo::Nowhere,
            };
            push_frame(self.program, st, func, &values, returns)?;
            st.frame_mut().concrete_call = concrete_call;
            self.enter_block(st, ir::BlockId(0));
            return Ok(());
        }
        let mock = c_library::mocked(&function.name);
        let result = match self.library(st, &function.name, &values)? {
            // Models compute `size_t` and `long` results in 64 bits; the
            // declared type (32 bits under ILP32) keeps their low bits.
            Model::Returns(Some(SymVal::Int(v))) => {
                let declared = function.sig.ret.scalar_bits().unwrap_or(v.get_size());
                Some(SymVal::Int(crate::value::resize(&v, declared, true)))
            }
            Model::Returns(v) => v,
            // Defined in the source but not read (reached through a pointer).
            Model::NotLibrary if self.program.excluded_definitions.contains(&function.name) => {
                return unsupported(format!("calls `{}`, which is excluded", function.name));
            }
            // The driver runs the C library's own function, unless it mocks
            // it: without a model the engine runs it natively on the path's
            // values, or stops.
            Model::NotLibrary if mock.is_none() && !c_library::is_stubbed(self.program, func) => {
                self.native_call(st, func, &values)?
            }
            Model::NotLibrary => {
                // It writes what the test scripts through the pointers it
                // gets (see `stub`), and may keep them; a mocked C library
                // function returns what the real one may.
                let writes = self.stub_writes(st, func, &values, mock)?;
                st.escaped.extend(values.iter().cloned());
                let value = self.stub_return(st, func, values.clone(), writes)?;
                if let Some(result) = mock {
                    self.assume_mock_result(st, func, result, value.as_ref(), &values)?;
                }
                value
            }
        };
        if let (Some(place), Some(value)) = (dest, result) {
            let loc = self.place_loc(st, place)?;
            self.store(st, &loc, &value)?;
        }
        st.frame_mut().stmt += 1;
        Ok(())
    }

    /// A NULL argument where the declaration of `func` says never NULL is
    /// undefined, whatever the size argument says (UBSan stops there): a
    /// finding, and the path goes on with one that is not NULL.
    fn check_nonnull_arguments(
        &mut self,
        st: &mut State,
        func: FuncId,
        values: &[SymVal],
    ) -> Exec<()> {
        let function = self.program.function(func);
        let builtin = match function.body {
            None => testcase::c_library::builtin_nonnull(&function.name),
            Some(_) => &[],
        };
        for &param in function.nonnull.iter().chain(builtin) {
            let Some(SymVal::Ptr(p)) = values.get(param) else {
                continue;
            };
            match self.resolved(st, &p.target) {
                Target::Null => {}
                // Undecided, the test would pass NULL: as the callee
                // dereferences it, it points to an object (a NULL the
                // function never tests is the caller's to avoid).
                Target::Lazy(lazy) => return Err(self.decide_not_null(st, lazy)),
                _ => continue,
            }
            let null = p.offset.eq(Word::known(0, p.offset.get_size()));
            let message = format!(
                "NULL passed as argument {} of `{}`, which its declaration says is never NULL",
                param + 1,
                function.name
            );
            // Surely NULL: the path ends at the finding.
            if !self.may(st, &null.not()) {
                return self.fault(st, FindingKind::NullArgument, &message);
            }
            self.check_fault(st, FindingKind::NullArgument, &null, &message)?;
        }
        Ok(())
    }

    /// A call through `pointer`, NULL here: a finding, whose input is not
    /// vouched for when the callback comes from a member that neither the
    /// function under test nor the caller tests for NULL (the library's
    /// user is to set it; a NULL parameter is labelled the same way, see
    /// `unvouched_inputs`).
    fn call_through_null<T>(&mut self, st: &State, pointer: &Expr) -> Exec<T> {
        let kind = FindingKind::NullDereference;
        let reported = self.reported.len();
        if !self.report(st, kind, "call through a NULL function pointer") {
            return Err(Stop::Dead);
        }
        let caller = st.frame().func;
        let body = self.body(caller)?;
        let member = match &ir::params::strip_casts(pointer).kind {
            ir::ExprKind::Load(place) => ir::params::member_read(self.program, body, place),
            _ => None,
        };
        if let Some((ty, field)) = member {
            let tested = [self.root, caller]
                .iter()
                .any(|&func| ir::checks_member_null(self.program, func, ty, field));
            let newly_reported = self.reported.len() > reported;
            let program = self.program;
            if let (false, true, Some(finding)) = (tested, newly_reported, self.findings.last_mut())
            {
                let member = &program.struct_def(ty).fields[field as usize].name;
                finding.unvouched_inputs.push(format!(
                    "member `{member}` NULL, which {}() never tests",
                    program.function(caller).name
                ));
            }
        }
        Err(self.end(st, false))
    }

    /// A number, or a pointer to a known place in an object the inputs did
    /// not give (a recursion over an input structure may spin on a cycle).
    fn is_concrete(&self, st: &State, value: &SymVal) -> bool {
        match value {
            SymVal::Int(v) => concrete(&st.with_fixed(v)).is_some(),
            SymVal::Ptr(p) => {
                let known_object = match self.resolved(st, &p.target) {
                    Target::Lazy(_) => false,
                    Target::Object(obj) => !matches!(st.object(obj).kind, ObjKind::Input { .. }),
                    _ => true,
                };
                known_object && concrete(&st.with_fixed(&p.offset)).is_some()
            }
            SymVal::Bytes(_) => false,
        }
    }

    /// `__VERIFIER_assume(cond)`: a verification task's harness ends the
    /// runs where `cond` is 0 before they go on, so such paths do not exist.
    /// The driver's stub of it does nothing: every test satisfies `cond`.
    fn assume_holds(&mut self, st: &mut State, values: &[SymVal]) -> Exec<()> {
        let Some(SymVal::Int(cond)) = values.first() else {
            return unsupported(format!("the argument of `{ASSUME_FUNCTION}`"));
        };
        let holds = cond.eq(Word::known(0, cond.get_size())).not();
        if !self.may(st, &holds) {
            return Err(Stop::Dead);
        }
        self.assume(st, &holds)?;
        st.frame_mut().stmt += 1;
        Ok(())
    }

    /// Keeps a mocked C library function's result within what the real
    /// one may return (see `c_library::MOCKED`).
    fn assume_mock_result(
        &mut self,
        st: &mut State,
        func: FuncId,
        result: MockResult,
        value: Option<&SymVal>,
        args: &[SymVal],
    ) -> Exec<()> {
        let Some(SymVal::Int(v)) = value else {
            return Ok(());
        };
        let bits = v.get_size();
        let minus_one = v.eq(Word::known(u128::MAX >> (128 - bits), bits));
        let at_least_zero = v.bvsge(Word::known(0, bits));
        let holds = match result {
            MockResult::Status => Cond::or(&[minus_one, v.eq(Word::known(0, bits))]),
            MockResult::NonNegative | MockResult::Ready => Cond::or(&[minus_one, at_least_zero]),
            MockResult::UpTo { count } => {
                let within = match args.get(count) {
                    Some(SymVal::Int(n)) => {
                        let n = crate::value::resize(n, bits, false);
                        Cond::and(&[at_least_zero, v.bvule(n)])
                    }
                    _ => at_least_zero,
                };
                Cond::or(&[minus_one, within])
            }
            // A pointer, decided as any returned one: NULL, a stream or a string.
            MockResult::Stream | MockResult::Name => return Ok(()),
            MockResult::Id
                if self
                    .program
                    .function(func)
                    .sig
                    .ret
                    .as_int()
                    .is_some_and(|t| t.signed) =>
            {
                v.bvsgt(Word::known(0, bits))
            }
            MockResult::Id | MockResult::Seed => return Ok(()),
            MockResult::Truth => {
                Cond::or(&[v.eq(Word::known(0, bits)), v.eq(Word::known(1, bits))])
            }
            MockResult::Random => {
                Cond::and(&[at_least_zero, v.bvsle(Word::known(0x7fff_ffff, bits))])
            }
            MockResult::Time => {
                // What it stored through its pointer is the same time.
                let stored = st.stub_calls.last().and_then(|call| {
                    let (_, cells) = call.writes.iter().find(|(arg, _)| *arg == 0)?;
                    cells_to_int(cells).ok()
                });
                match stored {
                    Some(stored) if stored.get_size() == bits => {
                        Cond::and(&[at_least_zero, v.eq(&stored)])
                    }
                    _ => at_least_zero,
                }
            }
        };
        self.assume(st, &holds)?;
        // A shorter read than the real one may make: a bound, never a
        // reason to call a longer one's goals infeasible.
        if let MockResult::UpTo { count } = result {
            if let Some(most) = self.read_at_most(func, count) {
                let short = v.bvsle(Word::known(u128::from(most), bits));
                self.assume_limit(st, &short, Bound::MaxArray)?;
            }
        }
        Ok(())
    }

    /// A fresh input for the return value of a bodiless function; the call
    /// is recorded with its arguments and what it wrote through them.
    fn stub_return(
        &mut self,
        st: &mut State,
        func: FuncId,
        args: Vec<SymVal>,
        writes: Vec<(usize, Vec<Cell>)>,
    ) -> Exec<Option<SymVal>> {
        let function = self.program.function(func);
        let n = st.stub_calls.iter().filter(|c| c.func == func).count();
        let path = format!("{}()#{n}", function.name);
        let value = match &function.sig.ret {
            Type::Void => {
                st.stub_calls.push(Rc::new(CallWithoutBody {
                    func,
                    args,
                    result: None,
                    writes,
                }));
                return Ok(None);
            }
            ty if let Some(value) = st.fresh_scalar(&path, ty) => SymVal::Int(value),
            ty @ Type::Pointer(_) => {
                SymVal::Ptr(PtrVal::to(Target::Lazy(st.add_lazy(path, ty.clone()))))
            }
            _ => {
                return unsupported(format!(
                    "`{}` returns a non-scalar from a stub",
                    function.name
                ))
            }
        };
        st.stub_calls.push(Rc::new(CallWithoutBody {
            func,
            args,
            result: Some(value.clone()),
            writes,
        }));
        Ok(Some(value))
    }

    /// Leaves the top frame with `value`, storing it where the caller asked.
    pub fn return_from(&mut self, st: &mut State, value: Option<SymVal>) -> Exec<()> {
        let Some(frame) = st.frames.pop() else {
            return Ok(());
        };
        if let ReturnTo::ExitCheck {
            predicate,
            param,
            at,
        } = frame.returns
        {
            return self.exit_checked(st, predicate, param, value, at);
        }
        if st.frames.is_empty() {
            st.ret = value;
            st.returned_at = Some(self.span);
            self.report_leaks(st)?;
            let returned_at = self.span;
            return self.check_invariant_on_exit(st, 0, returned_at);
        }
        let place = match (frame.returns, value) {
            (ReturnTo::Construction { build }, value) => return self.constructed(st, build, value),
            // A call that changed nothing leaves what fewer calls leave.
            (ReturnTo::EarlierCall { changes_before }, _) => {
                if st.memory_changes == changes_before {
                    return Err(Stop::Dead);
                }
                st.build_step = Some(BuildStep::CallAgain);
                return Ok(());
            }
            (
                ReturnTo::Part {
                    build,
                    adder,
                    mut parts,
                },
                value,
            ) => {
                let Some(made) = self.made_by_last_call(st, build, value)? else {
                    return unsupported("a construction call that makes nothing");
                };
                if let Some(call) = st.builds[build].calls.last_mut() {
                    call.part = Some(made.clone());
                }
                parts.push(made);
                st.build_step = Some(BuildStep::Add {
                    build,
                    adder,
                    parts,
                });
                return Ok(());
            }
            (ReturnTo::Place(place), Some(v)) => Some((place, v)),
            (ReturnTo::Assumption, Some(SymVal::Int(v))) => {
                let zero = Word::known(0, v.get_size());
                return self.assume(st, &v.eq(&zero).not());
            }
            (ReturnTo::BuildCheck { predicate, build }, Some(SymVal::Int(v))) => {
                return self.build_checked(st, predicate, build, &v)
            }
            (ReturnTo::Assumption | ReturnTo::BuildCheck { .. }, _) => {
                return unsupported("an invariant without a result")
            }
            _ => None,
        };
        if let Some((place, v)) = place {
            let loc = match self.place_loc(st, &place) {
                Err(Stop::Fork(_)) => {
                    return unsupported("an undecided pointer in a call's destination")
                }
                other => other?,
            };
            let v = match (&loc.ty, v) {
                (Type::Int(it), SymVal::Int(x)) if u32::from(it.bits) != x.get_size() => {
                    SymVal::Int(crate::value::resize(&x, u32::from(it.bits), true))
                }
                (_, v) => v,
            };
            self.store(st, &loc, &v)?;
        }
        Ok(())
    }

    /// Runs the declared invariant of the first parameter from `from` on
    /// that has one (checked or built through the API) again, unless the
    /// call freed it; the others follow in turn, one at a time. The call
    /// under test returned at `at`, where a broken invariant is reported.
    fn check_invariant_on_exit(&mut self, st: &mut State, from: usize, at: Span) -> Exec<()> {
        let params = &self.program.function(self.root).sig.params;
        let mut checks = Vec::new();
        for (param, ty) in params.iter().enumerate().skip(from) {
            let Some(SymVal::Ptr(p)) = st.params.get(param).cloned() else {
                continue;
            };
            let Some(object) = self.live_object(st, &p) else {
                continue;
            };
            if let Some(invariant) = self.invariant_of(ty) {
                checks.push((invariant, param, SymVal::Ptr(p.clone())));
            } else if let Some(invariant) = self.invariant_through(ty) {
                // The `T *` the call may have replaced through a `T **`.
                self.make_bytes(st, object, &p.offset, 8);
                let cells = crate::memory::read(st.object(object), &p.offset, 8)?;
                checks.push((invariant, param, SymVal::Ptr(cells_to_ptr(&cells)?)));
            }
        }
        if let Some((predicate, param, value)) = checks.into_iter().next() {
            push_frame(
                self.program,
                st,
                predicate,
                &[value],
                ReturnTo::ExitCheck {
                    predicate,
                    param,
                    at,
                },
            )?;
            self.enter_block(st, ir::BlockId(0));
        }
        Ok(())
    }

    /// A `broken-invariant` finding at `at` when `broken` may hold, naming
    /// the predicate call its reproducer checks. Not at the predicate's
    /// line: the predicate is right, the code that changed its input is not.
    fn note_broken_invariant(
        &mut self,
        st: &State,
        broken: &Cond,
        message: &str,
        call: testcase::InvariantCall,
        at: Span,
    ) {
        self.span = at;
        if self.note_fault(st, FindingKind::BrokenInvariant, broken, message) {
            if let Some(finding) = self.findings.last_mut() {
                finding.broken_invariant = Some(call);
            }
        }
    }

    /// The input or allocated object `p` points into, unless it is freed.
    fn live_object(&self, st: &State, p: &PtrVal) -> Option<ObjIdx> {
        let Target::Object(o) = self.resolved(st, &p.target) else {
            return None;
        };
        let freed = matches!(
            st.object(o).kind,
            ObjKind::Heap { freed: true, .. } | ObjKind::Input { freed: true, .. }
        );
        (!freed).then_some(o)
    }

    /// Assumes the declared invariant of what parameter `param`, a `T **`,
    /// points to: the `T *` it designates is made an input object first
    /// (such a parameter is the address of the caller's variable).
    pub(super) fn assume_through(&mut self, mut st: State, param: usize) -> Exec<Vec<State>> {
        let ty = &self.program.function(self.root).sig.params[param];
        let (Some(predicate), Some(SymVal::Ptr(p))) =
            (self.invariant_through(ty), st.params.get(param))
        else {
            return Ok(vec![st]);
        };
        let Target::Lazy(lazy) = p.target else {
            return Ok(vec![st]);
        };
        let object = self.materialize(&mut st, lazy)?;
        self.hooks.pointer_decided(&st, lazy, self.span);
        let pointer_bytes = self.program.data_model.pointer_bytes();
        self.make_bytes(&mut st, object, &Word::known(0, 64), pointer_bytes);
        let cells = crate::memory::read(st.object(object), &Word::known(0, 64), pointer_bytes)?;
        let value = SymVal::Ptr(cells_to_ptr(&cells)?);
        push_frame(
            self.program,
            &mut st,
            predicate,
            &[value],
            ReturnTo::Assumption,
        )?;
        self.enter_block(&mut st, ir::BlockId(0));
        Ok(vec![st])
    }

    /// A declared invariant run after the call gave `value`: a finding when
    /// it can be zero. The path's test stays: it shows what the call did.
    fn exit_checked(
        &mut self,
        st: &mut State,
        predicate: ir::FuncId,
        param: usize,
        value: Option<SymVal>,
        at: Span,
    ) -> Exec<()> {
        let Some(SymVal::Int(v)) = value else {
            return unsupported("an invariant without a result");
        };
        let broken = v.eq(Word::known(0, v.get_size()));
        let name = &self.program.function(predicate).name;
        let message = format!("the call leaves `{name}` false on parameter {}", param + 1);
        let call = testcase::InvariantCall {
            predicate,
            param: param as u32,
            by_building: false,
        };
        self.note_broken_invariant(st, &broken, &message, call, at);
        self.check_invariant_on_exit(st, param + 1, at)
    }

    /// A construction call of input `build` returned `value`. After the
    /// constructor, the built pointer becomes the parameter (a NULL one is
    /// not an input the API gives). Then the path forks: the input is done
    /// (the next build starts, or the members other parameters point to
    /// are chosen in what was built), or one more call of each function
    /// that adds to it (within `max_build_calls`).
    fn constructed(&mut self, st: &mut State, build: usize, value: Option<SymVal>) -> Exec<()> {
        let param = st.builds[build].param;
        let calls = &st.builds[build].calls;
        let (last, changes_before, first) = (
            calls[calls.len() - 1].func,
            calls[calls.len() - 1].changes_before,
            calls.len() == 1,
        );
        // A call that changed nothing (an item refused) builds what the
        // shorter sequence does.
        if !first && st.memory_changes == changes_before {
            return Err(Stop::Dead);
        }
        // The constructor's result is the input (an initialiser's, the
        // storage it set up); an adder that returns the type (as one that
        // may move it with realloc does) gives its new place.
        let ty = ir::Type::ptr(ir::Type::Struct(st.builds[build].ty));
        let returns_built = self.program.function(last).sig.ret == ty;
        let made = self.made_by_last_call(st, build, value)?;
        if returns_built || first {
            let Some(SymVal::Ptr(built)) = made else {
                return unsupported("a construction call that returns no pointer");
            };
            match self.resolved(st, &built.target) {
                Target::Null => return Err(Stop::Dead),
                // A pointer a stub returned and the constructor passed on
                // (`return list_init(make_node())`): what it built, a new
                // object. The driver takes a NULL result for a failed
                // allocation, so it may not become NULL later.
                Target::Lazy(lazy) => {
                    self.hooks.pointer_decided(st, lazy, self.span);
                    self.materialize(st, lazy)?;
                }
                _ => {}
            }
            set_param(self.program, st, param, SymVal::Ptr(built));
        }
        // A call that frees what it was given destroys, it does not build.
        if let SymVal::Ptr(built) = &st.params[param] {
            if let Target::Object(o) = self.resolved(st, &built.target) {
                if matches!(st.object(o).kind, ObjKind::Heap { freed: true, .. }) {
                    return Err(Stop::Dead);
                }
            }
        }
        let added = st.builds[build]
            .calls
            .iter()
            .filter(|c| c.part.is_none())
            .count()
            - 1;
        let adders = match self.apis.for_pointer(&ty) {
            Some(api) => api.adders.clone(),
            None => Vec::new(),
        };
        let may_add = (added as u32) < self.config.max_build_calls;
        if !adders.is_empty() && !may_add {
            self.note_cut(st, Bound::MaxBuildCalls);
        }
        let mut next = Vec::new();
        if may_add {
            for adder in adders {
                let mut child = self.fork(st);
                child.build_step = Some(BuildStep::Add {
                    build,
                    adder,
                    parts: Vec::new(),
                });
                next.push(child);
            }
        }
        if next.is_empty() && !self.members_wanted(st, build) {
            st.build_step = api::first_step(st, build + 1);
            return self.check_built(st, build);
        }
        let done = self.build_done(st, build);
        next.splice(0..0, done);
        if next.is_empty() {
            // No node to point to: no input of this shape.
            return Err(Stop::Dead);
        }
        Err(Stop::Fork(next))
    }

    /// What the last construction call of input `build` made, now that it
    /// returned `value`: its result, or for an initialiser the storage it
    /// set up, on the outcome it succeeds with (the others are no input).
    fn made_by_last_call(
        &mut self,
        st: &mut State,
        build: usize,
        value: Option<SymVal>,
    ) -> Exec<Option<SymVal>> {
        let Some(call) = st.builds[build].calls.last() else {
            return Ok(value);
        };
        let Some(success) = call.initialises else {
            return Ok(value);
        };
        let storage = call.args.first().cloned();
        if let Some(SymVal::Int(status)) = &value {
            self.assume(st, &succeeded(success, status))?;
        }
        Ok(storage)
    }

    /// Calls construction function `func` for input `build` (see
    /// `api::push_call`), an initialiser on fresh storage, its string
    /// arguments non-NULL input strings, and enters its first block.
    fn construction_call(
        &mut self,
        st: &mut State,
        build: usize,
        func: ir::FuncId,
        built: Option<SymVal>,
        parts: Vec<SymVal>,
        returns: ReturnTo,
    ) -> Exec<()> {
        let initialises = self.apis.initialiser(func);
        let built = match (built, initialises) {
            (None, Some(_)) => {
                let params = &self.program.function(func).sig.params;
                let Some(Type::Struct(ty)) = params.first().and_then(Type::pointee) else {
                    return unsupported("an initialiser that takes no struct");
                };
                Some(self.storage(st, *ty)?)
            }
            (built, _) => built,
        };
        let strings = api::push_call(self.program, st, build, func, built, parts, returns)?;
        if let Some(call) = st.builds[build].calls.last_mut() {
            call.initialises = initialises;
        }
        for string in strings {
            self.materialize(st, string)?;
        }
        self.enter_block(st, ir::BlockId(0));
        Ok(())
    }

    /// Whether the builds are all done once `build` is, and parameters
    /// wait for their node in the built structures.
    fn members_wanted(&self, st: &State, build: usize) -> bool {
        api::first_step(st, build + 1).is_none() && st.builds.iter().any(|b| b.member == Some(None))
    }

    /// The paths on from `st` once build `build` is done: the next build
    /// starts, or the members other parameters point to are chosen in what
    /// was built.
    fn build_done(&mut self, st: &State, build: usize) -> Vec<State> {
        let mut done = if self.members_wanted(st, build) {
            self.choose_members(st)
        } else {
            let mut done = self.fork(st);
            done.build_step = api::first_step(st, build + 1);
            vec![done]
        };
        done.retain_mut(|state| self.check_built(state, build).is_ok());
        done
    }

    /// Runs the declared invariant of input `build`'s type on what its
    /// calls built, if they built anything.
    fn check_built(&mut self, st: &mut State, build: usize) -> Exec<()> {
        let b = &st.builds[build];
        if b.calls.is_empty() || b.member.is_some() {
            return Ok(());
        }
        let Some(predicate) = self.invariant_of(&ir::Type::ptr(ir::Type::Struct(b.ty))) else {
            return Ok(());
        };
        let value = st.params[b.param].clone();
        let returns = ReturnTo::BuildCheck { predicate, build };
        push_frame(self.program, st, predicate, &[value], returns)?;
        self.enter_block(st, ir::BlockId(0));
        Ok(())
    }

    /// The invariant of input `build` gave `value` on what its calls built:
    /// a finding of those calls when it can be zero; the test then goes on
    /// with inputs it holds for.
    fn build_checked(
        &mut self,
        st: &mut State,
        predicate: FuncId,
        build: usize,
        value: &Word,
    ) -> Exec<()> {
        let zero = Word::known(0, value.get_size());
        let broken = value.eq(&zero);
        let b = &st.builds[build];
        let mut calls: Vec<&str> = b.calls[1..]
            .iter()
            .filter(|c| c.part.is_none())
            .map(|c| self.program.function(c.func).name.as_str())
            .collect();
        calls.sort_unstable();
        calls.dedup();
        let param = b.param;
        let by = match calls.first() {
            Some(_) => format!("the calls of {} that build", calls.join(", ")),
            None => format!(
                "{} that builds",
                self.program.function(b.calls[0].func).name
            ),
        };
        let verb = if calls.is_empty() { "leaves" } else { "leave" };
        let name = &self.program.function(predicate).name;
        let message = format!("{by} parameter {} {verb} `{name}` false", param + 1);
        let call = testcase::InvariantCall {
            predicate,
            param: param as u32,
            by_building: true,
        };
        // The last call made it: the finding is at that function.
        let last = b.calls[b.calls.len() - 1].func;
        let at = self.program.function(last).span;
        self.note_broken_invariant(st, &broken, &message, call, at);
        self.assume(st, &broken.not())
    }

    /// Takes building step `step` (see [`BuildStep`]): one path per
    /// constructor that can make the next value, or the call of an adder
    /// whose arguments are all made.
    pub(super) fn take_build_step(&mut self, st: State, step: BuildStep) -> Exec<Vec<State>> {
        match step {
            BuildStep::Construct { build } => {
                let mut next = self.other_than_constructed(&st, build);
                let returns = ReturnTo::Construction { build };
                next.extend(self.call_constructors(&st, build, st.builds[build].ty, returns)?);
                Ok(next)
            }
            BuildStep::Add {
                build,
                adder,
                parts,
            } => match api::part_types(self.program, adder).get(parts.len()) {
                Some(&ty) => {
                    let returns = ReturnTo::Part {
                        build,
                        adder,
                        parts,
                    };
                    self.call_constructors(&st, build, ty, returns)
                }
                None => {
                    let mut st = st;
                    let built = st.params[st.builds[build].param].clone();
                    let returns = ReturnTo::Construction { build };
                    self.construction_call(&mut st, build, adder, Some(built), parts, returns)?;
                    Ok(vec![st])
                }
            },
            BuildStep::CallAgain => self.call_again(st),
        }
    }

    /// Goes on to the call under test, and, within `max_build_calls`, also
    /// calls the function once more before it with fresh arguments, for
    /// what that call leaves in its static variables.
    fn call_again(&mut self, st: State) -> Exec<Vec<State>> {
        let call = st.earlier_calls.len();
        if call as u32 >= self.config.max_build_calls {
            return Ok(vec![st]);
        }
        let mut again = self.fork(&st);
        let function = self.program.function(self.root);
        let name = format!("{}()#{call}", function.name);
        let mut args = Vec::with_capacity(function.sig.params.len());
        for ty in &function.sig.params {
            let Type::Int(it) = ty else {
                return unsupported("an earlier call with an argument other than an integer");
            };
            args.push(SymVal::Int(again.fresh_input(
                &name,
                u32::from(it.bits),
                it.signed,
            )));
        }
        let returns = ReturnTo::EarlierCall {
            changes_before: again.memory_changes,
        };
        push_frame(self.program, &mut again, self.root, &args, returns)?;
        again.earlier_calls.push(args);
        self.enter_block(&mut again, ir::BlockId(0));
        Ok(vec![st, again])
    }

    /// The values input `build` may take without being constructed: NULL,
    /// which callers pass too, to a function that guards against it; a node
    /// of an earlier parameter's structure, for one it does not adopt.
    fn other_than_constructed(&mut self, st: &State, build: usize) -> Vec<State> {
        let mut next = Vec::new();
        let param = st.builds[build].param;
        let root = self.program.function(self.root);
        if ir::checks_null(self.program, self.root, param) && !root.nonnull.contains(&param) {
            let mut null = st.clone();
            set_param(
                self.program,
                &mut null,
                param,
                SymVal::Ptr(PtrVal::to(Target::Null)),
            );
            next.extend(self.build_done(&null, build));
        }
        if st.builds[build].may_be_member {
            let mut member = st.clone();
            member.builds[build].member = Some(None);
            next.extend(self.build_done(&member, build));
        }
        next
    }

    /// One path per constructor of `ty`, called for input `build` with
    /// its result going to `returns`.
    fn call_constructors(
        &mut self,
        st: &State,
        build: usize,
        ty: ir::StructId,
        returns: ReturnTo,
    ) -> Exec<Vec<State>> {
        let constructors = match self.apis.for_struct(ty) {
            Some(api) => api.constructors.clone(),
            None => return Err(Stop::Dead),
        };
        let mut next = Vec::new();
        for constructor in constructors {
            let mut child = self.fork(st);
            let returns = returns.clone();
            self.construction_call(&mut child, build, constructor, None, Vec::new(), returns)?;
            next.push(child);
        }
        if next.is_empty() {
            return Err(Stop::Dead);
        }
        Ok(next)
    }

    /// One state per choice of a node of the built structures for each
    /// parameter that is a member of them.
    fn choose_members(&mut self, st: &State) -> Vec<State> {
        let mut states = vec![st.clone()];
        for (build, member) in st.builds.iter().enumerate() {
            if member.member != Some(None) {
                continue;
            }
            let mut expanded = Vec::new();
            for state in &states {
                for (obj, path) in api::reachable_nodes(self.program, state, member.ty) {
                    let mut child = self.fork(state);
                    set_param(
                        self.program,
                        &mut child,
                        member.param,
                        SymVal::Ptr(PtrVal::to(Target::Object(obj))),
                    );
                    child.builds[build].member = Some(Some(path));
                    expanded.push(child);
                }
            }
            states = expanded;
        }
        states
    }

    /// A leak finding when allocated objects are still live after the function
    /// under test returned but unreachable: the path goes on to its test,
    /// unless it leaks after a failed allocation it need not handle.
    fn report_leaks(&mut self, st: &State) -> Exec<()> {
        let leaked = self.unreachable_heap(st);
        if leaked.is_empty() {
            return Ok(());
        }
        if self.failure_unhandled(st) {
            return Err(self.end(st, false));
        }
        // A block of a symbolic size counts with its largest size.
        let mut exact = true;
        let mut bytes = 0;
        for o in &leaked {
            let object = st.object(*o);
            let size = match &object.kind {
                ObjKind::Heap { size, .. } => Self::concrete_u64(size),
                _ => None,
            };
            exact &= size.is_some();
            bytes += size.unwrap_or(object.capacity());
        }
        let objects = match leaked.len() {
            1 => "1 allocated object".to_string(),
            n => format!("{n} allocated objects"),
        };
        let up_to = if exact { "" } else { "up to " };
        let message = format!("{objects} ({up_to}{bytes} bytes) unreachable after return");
        // An infeasible path has no test either: nothing to report.
        self.report(st, FindingKind::Leak, &message);
        Ok(())
    }

    /// Live allocated objects that no pointer reaches from the return value,
    /// the input objects the function did not free or the globals, directly
    /// or through other allocated objects, or handed to a function without a
    /// body (which may keep it). Every stored pointer counts,
    /// whatever the type of the memory holding it; frames are gone, so their
    /// locals do not.
    fn unreachable_heap(&self, st: &State) -> Vec<ObjIdx> {
        let live = |kind: &ObjKind| matches!(kind, ObjKind::Heap { freed: false, .. });
        // What building the inputs allocated is the test's, never the call's.
        let the_calls = |kind: &ObjKind| {
            matches!(
                kind,
                ObjKind::Heap {
                    freed: false,
                    for_inputs: false,
                    ..
                }
            )
        };
        if !st.objects.iter().any(|o| live(&o.kind)) {
            return Vec::new();
        }
        // Any byte of a stored pointer keeps its target (no false leak).
        let pointee = |cell: &Cell| -> Option<ObjIdx> {
            match cell {
                Cell::Ptr { ptr, .. } => match self.resolved(st, &ptr.target) {
                    Target::Object(o) if live(&st.object(o).kind) => Some(o),
                    _ => None,
                },
                _ => None,
            }
        };
        // The driver holds what it built through the API in its variables,
        // the parts an adder refused included.
        let parts = st
            .builds
            .iter()
            .flat_map(|b| &b.calls)
            .filter_map(|c| c.part.as_ref());
        let built = st.builds.iter().map(|b| &st.params[b.param]).chain(parts);
        let mut pending: Vec<ObjIdx> = st
            .ret
            .iter()
            .chain(&st.escaped)
            .chain(built)
            .flat_map(|v| value_cells(v, self.program.data_model.pointer_bytes()))
            .filter_map(|cell| pointee(&cell))
            .collect();
        for object in &st.objects {
            if matches!(
                object.kind,
                ObjKind::Input { freed: false, .. } | ObjKind::Global { .. }
            ) {
                pending.extend(object.cells.iter().filter_map(pointee));
            }
        }
        let mut reached = vec![false; st.objects.len()];
        while let Some(o) = pending.pop() {
            if !reached[o as usize] {
                reached[o as usize] = true;
                pending.extend(st.object(o).cells.iter().filter_map(pointee));
            }
        }
        (0..st.objects.len() as ObjIdx)
            .filter(|o| the_calls(&st.object(*o).kind) && !reached[*o as usize])
            .collect()
    }
}

/// Whether an initialiser that returned `status` succeeded.
fn succeeded(success: ir::Success, status: &Word) -> Cond {
    let zero = Word::known(0, status.get_size());
    match success {
        ir::Success::Void => Cond::Known(true),
        ir::Success::Is(value) => status.eq(Word::known(value as u128, status.get_size())),
        ir::Success::NonNegative => status.bvsge(zero),
        ir::Success::NonZero => status.eq(zero).not(),
    }
}

/// Gives parameter `param` of the function under test its value, in the
/// state's record and in the local the function reads.
fn set_param(program: &Program, st: &mut State, param: usize, value: SymVal) {
    let local = st.frames[0].locals[param];
    st.object_mut(local)
        .set_start(&value, program.data_model.pointer_bytes());
    st.params[param] = value;
}

/// The arguments of a call through a pointer, as the function it reaches
/// receives them. Through a pointer to a function without a prototype
/// (`int (*f)()`) a call passes its arguments promoted and unchecked; the
/// callee reads the low bytes of each integer or pointer's register or
/// stack slot, so an equally wide or wider integer converts exactly.
/// Anything else (too few arguments, an `int` for a `double` or a `long`)
/// reads what no conversion gives (undefined behaviour): the path stops.
fn fitted_arguments(
    program: &Program,
    func: FuncId,
    args: &[Expr],
    mut values: Vec<SymVal>,
) -> Exec<Vec<SymVal>> {
    let function = program.function(func);
    let params = &function.sig.params;
    let refused = |what: String| {
        unsupported(format!(
            "a call of `{}` through a pointer without a prototype that {what} (undefined behaviour)",
            function.name
        ))
    };
    if args.len() < params.len() {
        return refused(format!(
            "passes {} of its {} arguments",
            args.len(),
            params.len()
        ));
    }
    let slot_bits = program.data_model.pointer_bytes() * 8;
    for (i, (param, arg)) in params.iter().zip(args).enumerate() {
        if arg.ty == *param {
            continue;
        }
        match (&arg.ty, param, &mut values[i]) {
            (Type::Pointer(_), Type::Pointer(_), _) => {}
            (Type::Int(a), Type::Int(p), SymVal::Int(v))
                if !p.is_bool && p.bits <= a.bits && u64::from(a.bits) <= slot_bits =>
            {
                *v = crate::value::resize(v, u32::from(p.bits), a.signed);
            }
            _ => {
                return refused(format!(
                    "passes argument {} as another type than it receives",
                    i + 1
                ))
            }
        }
    }
    Ok(values)
}

/// How C code names the system header at `path`: `<stdlib.h>` for
/// `/usr/include/stdlib.h`, `<bits/types.h>` for
/// `/usr/include/x86_64-linux-gnu/bits/types.h`.
pub(super) fn header_name(path: &str) -> String {
    if path.starts_with('<') {
        return path.to_string();
    }
    let relative = path.rsplit_once("/include/").map_or(path, |(_, h)| h);
    let relative = match relative.split_once('/') {
        Some((triple, rest)) if triple.contains("-linux-") => rest,
        _ => relative,
    };
    format!("<{relative}>")
}
