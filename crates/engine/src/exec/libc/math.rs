//! `<math.h>`: the functions real code uses most, modelled exactly on the
//! IEEE operations glibc computes them with (`fabs`, `floor`, `ceil`,
//! `trunc`, `round`, `sqrt`, `fmin`, `fmax`, `copysign`, and their `f`
//! variants; on known arguments they compute natively, see `float.rs`);
//! the others (`fmod`, `pow`, `exp`, `log`, the trigonometric ones, in
//! double only) run on concrete arguments, fixed to the solver's choice (a
//! `Bound::Concretised` cut, so goals other arguments would reach are never called
//! infeasible), and computed by this machine's C library, which is glibc's
//! libm as the driver's.

use super::super::float::{self, MathUnary};
use super::super::{Exec, Machine};
use super::{returns_int, Args, Model};
use crate::state::State;
use crate::value::Word;
use ir::FloatKind;

/// What a math function computes.
enum MathModel {
    Absolute,
    CopySign,
    Unary(MathUnary),
    MinMax {
        maximum: bool,
    },
    /// Computed on concrete arguments by the C library.
    OnValues(fn(f64, f64) -> f64, usize),
}

/// The model of `name`, with the kind of its arguments and result: the
/// double function, or the float one (`sqrtf`) of an exact model.
fn model(name: &str) -> Option<(MathModel, FloatKind)> {
    if let Some(model) = double_model(name) {
        return Some((model, FloatKind::F64));
    }
    match double_model(name.strip_suffix('f')?)? {
        // glibc's float functions are not the double ones rounded.
        MathModel::OnValues(..) => None,
        exact => Some((exact, FloatKind::F32)),
    }
}

fn double_model(name: &str) -> Option<MathModel> {
    Some(match name {
        "fabs" => MathModel::Absolute,
        "copysign" => MathModel::CopySign,
        "sqrt" => MathModel::Unary(MathUnary::Sqrt),
        "floor" => MathModel::Unary(MathUnary::Floor),
        "ceil" => MathModel::Unary(MathUnary::Ceil),
        "trunc" => MathModel::Unary(MathUnary::Trunc),
        "round" => MathModel::Unary(MathUnary::Round),
        "fmin" => MathModel::MinMax { maximum: false },
        "fmax" => MathModel::MinMax { maximum: true },
        "fmod" => MathModel::OnValues(|x, y| x % y, 2),
        "pow" => MathModel::OnValues(f64::powf, 2),
        "atan2" => MathModel::OnValues(f64::atan2, 2),
        "exp" => MathModel::OnValues(|x, _| x.exp(), 1),
        "log" => MathModel::OnValues(|x, _| x.ln(), 1),
        "log10" => MathModel::OnValues(|x, _| x.log10(), 1),
        "sin" => MathModel::OnValues(|x, _| x.sin(), 1),
        "cos" => MathModel::OnValues(|x, _| x.cos(), 1),
        "tan" => MathModel::OnValues(|x, _| x.tan(), 1),
        "atan" => MathModel::OnValues(|x, _| x.atan(), 1),
        _ => return None,
    })
}

impl Machine<'_, '_> {
    /// A `<math.h>` call, or `None` when `args.name` is no function modelled here.
    pub(super) fn math(&mut self, st: &mut State, args: &Args) -> Option<Exec<Model>> {
        let (model, kind) = model(args.name)?;
        Some(self.run_math(st, args, model, kind))
    }

    fn run_math(
        &mut self,
        st: &mut State,
        args: &Args,
        model: MathModel,
        kind: FloatKind,
    ) -> Exec<Model> {
        let x = args.int(0)?;
        match model {
            MathModel::Absolute => returns_int(float::absolute(&x, kind)),
            MathModel::CopySign => returns_int(float::copy_sign(&x, &args.int(1)?, kind)),
            MathModel::Unary(op) => returns_int(float::math_unary(op, &x, kind)),
            MathModel::MinMax { maximum } => {
                returns_int(float::min_max(maximum, &x, &args.int(1)?, kind))
            }
            MathModel::OnValues(compute, arity) => {
                let mut values = [0.0; 2];
                for (i, slot) in values.iter_mut().enumerate().take(arity) {
                    *slot = f64::from_bits(self.concretise(st, &args.int(i)?)? as u64);
                }
                let result = compute(values[0], values[1]);
                returns_int(Word::known(u128::from(result.to_bits()), 64))
            }
        }
    }
}
