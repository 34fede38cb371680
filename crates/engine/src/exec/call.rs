//! Calls: functions with a body run in a new frame; library functions have
//! models (see `libc`); any other bodiless function is a stub whose return
//! values are inputs, recorded in call order.

use super::input::push_frame;
use super::libc::Model;
use super::Machine;
use crate::state::State;
use crate::testcase::FindingKind;
use crate::value::{unsupported, Exec, PtrVal, Stop, SymVal, Target};
use ir::{Callee, Expr, FuncId, Place, Type};

impl Machine<'_> {
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
            return push_frame(self.program, st, func, &values, dest.clone());
        }
        let result = match self.library(st, &function.name, &values)? {
            Model::Returns(v) => v,
            Model::NotLibrary => self.stub_return(st, func)?,
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
}
