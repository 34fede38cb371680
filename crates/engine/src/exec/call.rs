//! Calls: functions with a body run in a new frame; library functions have
//! models (see `libc`); a function a system header declares without a model
//! stops the path (the driver would run the real one, whose behaviour a
//! guess would misstate); any other bodiless function is a stub whose return
//! values are inputs, recorded in call order. The return of the function
//! under test checks for leaked allocations.

use super::input::push_frame;
use super::libc::Model;
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::state::{ObjKind, State};
use crate::value::{value_cells, Cell, ObjIdx, PtrVal, SymVal, Target};
use ir::{Callee, Expr, FuncId, Place, Type};
use testcase::FindingKind;

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
                    Target::Null => {
                        return self.fault(
                            st,
                            FindingKind::NullDereference,
                            "call through a NULL function pointer",
                        )
                    }
                    _ => return unsupported("a call through a pointer to data"),
                }
            }
        };
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(st, a)?);
        }
        let function = self.program.function(func);
        if function.body.is_some() {
            if st.frames.len() as u32 >= self.config.max_depth.max(1) {
                return Err(Stop::Budget("max_depth"));
            }
            st.frame_mut().stmt += 1;
            push_frame(self.program, st, func, &values, dest.clone())?;
            self.enter_block(st, ir::BlockId(0));
            return Ok(());
        }
        let result = match self.library(st, &function.name, &values)? {
            Model::Returns(v) => v,
            Model::NotLibrary if self.program.in_system_header(function.span) => {
                let header = header_name(self.program.file_name(function.span));
                return unsupported(format!("no model of `{}` from {header}", function.name));
            }
            Model::NotLibrary => {
                st.escaped.extend(values);
                self.stub_return(st, func)?
            }
        };
        if let (Some(place), Some(value)) = (dest, result) {
            let loc = self.place_loc(st, place)?;
            self.store(st, &loc, &value)?;
        }
        st.frame_mut().stmt += 1;
        Ok(())
    }

    /// A fresh input for the return value of a bodiless function.
    fn stub_return(&mut self, st: &mut State, func: FuncId) -> Exec<Option<SymVal>> {
        let function = self.program.function(func);
        let n = st.stub_calls.iter().filter(|(f, _)| *f == func).count();
        let path = format!("{}()#{n}", function.name);
        let value = match &function.sig.ret {
            Type::Void => return Ok(None),
            Type::Int(it) => SymVal::Int(st.fresh_input(&path, u32::from(it.bits))),
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
        st.stub_calls.push((func, value.clone()));
        Ok(Some(value))
    }

    /// Leaves the top frame with `value`, storing it where the caller asked.
    pub fn return_from(&mut self, st: &mut State, value: Option<SymVal>) -> Exec<()> {
        let Some(frame) = st.frames.pop() else {
            return Ok(());
        };
        if st.frames.is_empty() {
            st.ret = value;
            self.report_leaks(st);
            return Ok(());
        }
        if let (Some(place), Some(v)) = (&frame.dest, value) {
            let loc = match self.place_loc(st, place) {
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

    /// A leak finding when allocated objects are still live after the function
    /// under test returned but unreachable: the path goes on to its test.
    fn report_leaks(&mut self, st: &State) {
        let leaked = self.unreachable_heap(st);
        if leaked.is_empty() {
            return;
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
    }

    /// Live allocated objects that no pointer reaches from the return value,
    /// the input objects the function did not free or the globals, directly
    /// or through other allocated objects, or handed to a function without a
    /// body (which may keep it). Every stored pointer counts,
    /// whatever the type of the memory holding it; frames are gone, so their
    /// locals do not.
    fn unreachable_heap(&self, st: &State) -> Vec<ObjIdx> {
        let live = |kind: &ObjKind| matches!(kind, ObjKind::Heap { freed: false, .. });
        if !st.objects.iter().any(|o| live(&o.kind)) {
            return Vec::new();
        }
        // Any byte of a stored pointer keeps its target (no false leak).
        let pointees = |cells: &[Cell]| -> Vec<ObjIdx> {
            cells
                .iter()
                .filter_map(|cell| match cell {
                    Cell::Ptr { ptr, .. } => match self.resolved(st, &ptr.target) {
                        Target::Object(o) if live(&st.object(o).kind) => Some(o),
                        _ => None,
                    },
                    _ => None,
                })
                .collect()
        };
        let mut pending: Vec<ObjIdx> = st
            .ret
            .iter()
            .chain(&st.escaped)
            .flat_map(|v| pointees(&value_cells(v)))
            .collect();
        for object in &st.objects {
            if matches!(
                object.kind,
                ObjKind::Input { freed: false, .. } | ObjKind::Global { .. }
            ) {
                pending.extend(pointees(&object.cells));
            }
        }
        let mut reached = vec![false; st.objects.len()];
        while let Some(o) = pending.pop() {
            if !reached[o as usize] {
                reached[o as usize] = true;
                pending.extend(pointees(&st.object(o).cells));
            }
        }
        (0..st.objects.len() as ObjIdx)
            .filter(|o| live(&st.object(*o).kind) && !reached[*o as usize])
            .collect()
    }
}

/// How C code names the system header at `path`: `<stdlib.h>` for
/// `/usr/include/stdlib.h`, `<bits/types.h>` for
/// `/usr/include/x86_64-linux-gnu/bits/types.h`.
fn header_name(path: &str) -> String {
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
