//! The environment as a test input: `getenv` (and `secure_getenv`, the same
//! in a process that is not set-user-ID) gives, for each name, NULL or an
//! input string, the same one each time the path asks; the driver sets the
//! variable (`setenv`) or removes it (`unsetenv`) before the call.

use super::{returns, Args, Model};
use crate::exec::place::Loc;
use crate::exec::{unsupported, Exec, Machine};
use crate::state::{DeferredInput, ObjKind, Object, State};
use crate::value::Word;
use ir::Layout;
use testcase::EnvironmentVariable;

impl Machine<'_, '_> {
    pub(super) fn getenv(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let name = self.constant_string(st, &args.ptr(0)?, "an environment variable's name")?;
        // The names `setenv` accepts, spelled plainly in the driver.
        if name.is_empty()
            || !name
                .iter()
                .all(|b| b.is_ascii_graphic() && !b"=\"\\".contains(b))
        {
            return unsupported(format!(
                "an environment variable named `{}`, which a test cannot set",
                String::from_utf8_lossy(&name)
            ));
        }
        let name = String::from_utf8_lossy(&name).into_owned();
        let value_ty = EnvironmentVariable::value_type();
        let obj = match st.environment.iter().find(|(known, _)| *known == name) {
            Some(&(_, obj)) => obj,
            None => {
                let path = format!("getenv(\"{name}\")");
                let value = DeferredInput {
                    elem: value_ty.clone(),
                    first: (path.clone(), "."),
                    operand: path,
                    links: false,
                };
                let size = self.program.size_of(&value_ty);
                let obj = st.add_object(Object::deferred(ObjKind::Environment, value, size));
                st.environment.push((name, obj));
                obj
            }
        };
        let loc = Loc {
            obj,
            off: Word::known(0, 64),
            ty: value_ty,
            bits: None,
        };
        returns(self.load(st, &loc)?)
    }
}
