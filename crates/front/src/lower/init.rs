//! Initializers: brace elision, designators, string literals for char
//! arrays; laid out as constant items for globals and as assignments for locals.

use super::{Lowerer, R};
use crate::cint;
use ir::{
    ConstValue, Expr, ExprKind, GlobalId, Init, InitItem, IntType, Layout, Place, PlaceBase, Proj,
    Type,
};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;

/// More scalars than this in one initialized object is not supported.
const MAX_SCALARS: usize = 1 << 16;

/// One step from an object to a sub-object.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Step {
    Field(u32, Type),
    Index(u64, Type),
}

enum LeafValue<'b> {
    Expr(&'b Node<Expression>),
    /// A string literal initializing a whole array of characters: the raw
    /// bits of each element.
    Units(Vec<u128>),
}

struct Leaf<'b> {
    path: Vec<Step>,
    offset: u64,
    ty: Type,
    value: LeafValue<'b>,
}

/// The element type and length of an array a string literal may
/// initialize: of `char`, `wchar_t`, `char16_t` or `char32_t` (any integer
/// of 8, 16 or 32 bits).
fn string_array(ty: &Type) -> Option<(IntType, Option<u64>)> {
    match ty {
        Type::Array(elem, n) => match **elem {
            Type::Int(t) if matches!(t.bits, 8 | 16 | 32) && !t.is_bool => Some((t, *n)),
            _ => None,
        },
        _ => None,
    }
}

fn string_literal(e: &Node<Expression>) -> Option<&Node<StringLiteral>> {
    match &e.node {
        Expression::StringLiteral(s) => Some(s),
        _ => None,
    }
}

fn place_at(base: &Place, path: &[Step]) -> Place {
    let mut place = base.clone();
    for step in path {
        place.proj.push(match step {
            Step::Field(index, ty) => Proj::Field {
                index: *index,
                ty: ty.clone(),
            },
            Step::Index(i, elem) => Proj::Index {
                index: Expr::int(IntType::LONG_LONG, *i as i128),
                elem: elem.clone(),
            },
        });
    }
    place
}

fn zero_of(ty: &Type) -> Option<Expr> {
    match ty {
        Type::Int(t) => Some(Expr::int(*t, 0)),
        Type::Float(_) if ty.as_ieee_float().is_some() => Some(Expr {
            kind: ExprKind::Float(0),
            ty: ty.clone(),
        }),
        Type::Pointer(_) => Some(Expr {
            kind: ExprKind::Null,
            ty: ty.clone(),
        }),
        _ => None,
    }
}

impl<'a> Lowerer<'a> {
    /// The sub-objects of an aggregate: step, type and offset of member `n`.
    fn member_at(&self, ty: &Type, n: usize) -> Option<(Step, Type, u64)> {
        match ty {
            Type::Struct(id) => {
                let def = self.program.structs.get(id.0 as usize)?;
                if def.is_union && n > 0 {
                    return None;
                }
                let f = def.fields.get(n)?;
                Some((Step::Field(n as u32, f.ty.clone()), f.ty.clone(), f.offset))
            }
            Type::Array(elem, len) => {
                if len.is_some_and(|len| n as u64 >= len) {
                    return None;
                }
                let size = self.program.size_of(elem);
                Some((
                    Step::Index(n as u64, (**elem).clone()),
                    (**elem).clone(),
                    size.wrapping_mul(n as u64),
                ))
            }
            _ => None,
        }
    }

    /// The initialized leaves of an object and its length when the type is
    /// an array of unknown size.
    fn leaves<'b>(&mut self, ty: &Type, init: &'b Node<Initializer>) -> R<(Type, Vec<Leaf<'b>>)> {
        let mut out = Vec::new();
        let length = self.walk(ty, &[], 0, init, &mut out)?;
        let ty = match ty {
            Type::Array(elem, None) => Type::Array(elem.clone(), Some(length)),
            other => other.clone(),
        };
        Ok((ty, out))
    }

    /// Initializes one object; returns how many elements it covered (arrays).
    fn walk<'b>(
        &mut self,
        ty: &Type,
        path: &[Step],
        offset: u64,
        init: &'b Node<Initializer>,
        out: &mut Vec<Leaf<'b>>,
    ) -> R<u64> {
        match &init.node {
            Initializer::Expression(e) => self.walk_expr(ty, path, offset, e, out),
            Initializer::List(items) => {
                let mut pos = 0;
                self.walk_list(ty, path, offset, items, &mut pos, true, out)
            }
        }
    }

    fn walk_expr<'b>(
        &mut self,
        ty: &Type,
        path: &[Step],
        offset: u64,
        e: &'b Node<Expression>,
        out: &mut Vec<Leaf<'b>>,
    ) -> R<u64> {
        if out.len() > MAX_SCALARS {
            return self.unsupported(e.span.start, "very large initializer");
        }
        if let (Some((elem, _)), Some(s)) = (string_array(ty), string_literal(e)) {
            let literal =
                cint::string_literal(&s.node).map_err(|m| self.rule_error(e.span.start, m))?;
            if literal.unit.bits != elem.bits {
                return self.error(
                    e.span.start,
                    "a string literal of another character width initializes this array",
                );
            }
            out.push(Leaf {
                path: path.to_vec(),
                offset,
                ty: ty.clone(),
                value: LeafValue::Units(literal.units().collect()),
            });
            return Ok(literal.len() as u64);
        }
        if let Type::Array(..) = ty {
            return self.error(
                e.span.start,
                "array initializer must be an initializer list or string literal",
            );
        }
        out.push(Leaf {
            path: path.to_vec(),
            offset,
            ty: ty.clone(),
            value: LeafValue::Expr(e),
        });
        Ok(1)
    }

    /// Consumes items of a brace list (or, when `braced` is false, the items
    /// an elided inner brace level takes) for the aggregate `ty`.
    #[allow(clippy::too_many_arguments)]
    fn walk_list<'b>(
        &mut self,
        ty: &Type,
        path: &[Step],
        offset: u64,
        items: &'b [Node<InitializerListItem>],
        pos: &mut usize,
        braced: bool,
        out: &mut Vec<Leaf<'b>>,
    ) -> R<u64> {
        if !matches!(ty, Type::Struct(_) | Type::Array(..)) {
            // A scalar in braces: `int x = { 5 };`.
            let Some(item) = items.get(*pos) else {
                return Ok(0);
            };
            *pos += 1;
            return self.walk(ty, path, offset, &item.node.initializer, out);
        }
        let mut cursor = 0usize;
        let mut covered = 0u64;
        while let Some(item) = items.get(*pos) {
            if !item.node.designation.is_empty() {
                if !braced {
                    break;
                }
                cursor = self.designate(
                    ty,
                    path,
                    offset,
                    &item.node.designation,
                    &item.node.initializer,
                    out,
                )?;
                *pos += 1;
                cursor += 1;
                covered = covered.max(cursor as u64);
                continue;
            }
            let Some((step, member_ty, member_offset)) = self.member_at(ty, cursor) else {
                if braced {
                    // gcc warns about excess elements and ignores them.
                    *pos = items.len();
                }
                break;
            };
            let mut sub_path = path.to_vec();
            sub_path.push(step);
            let at = offset.wrapping_add(member_offset);
            match &item.node.initializer.node {
                Initializer::List(sub) => {
                    let mut sub_pos = 0;
                    self.walk_list(&member_ty, &sub_path, at, sub, &mut sub_pos, true, out)?;
                    *pos += 1;
                }
                Initializer::Expression(e) => {
                    let whole = match &member_ty {
                        Type::Struct(_) => self.type_of_expr(e)? == member_ty,
                        Type::Array(..) => {
                            string_array(&member_ty).is_some() && string_literal(e).is_some()
                        }
                        _ => true,
                    };
                    if whole {
                        self.walk_expr(&member_ty, &sub_path, at, e, out)?;
                        *pos += 1;
                    } else {
                        self.walk_list(&member_ty, &sub_path, at, items, pos, false, out)?;
                    }
                }
            }
            cursor += 1;
            covered = covered.max(cursor as u64);
            if matches!(ty, Type::Struct(id) if self.program.structs.get(id.0 as usize).is_some_and(|s| s.is_union))
            {
                break;
            }
        }
        Ok(covered)
    }

    /// Applies `.a.b[3] = init`; returns the index of the first designated member.
    fn designate<'b>(
        &mut self,
        ty: &Type,
        path: &[Step],
        offset: u64,
        designators: &'b [Node<Designator>],
        init: &'b Node<Initializer>,
        out: &mut Vec<Leaf<'b>>,
    ) -> R<usize> {
        let Some((first, rest)) = designators.split_first() else {
            return Ok(0);
        };
        let at = first.span.start;
        let (targets, position): (Vec<(Vec<Step>, Type, u64)>, usize) = match (&first.node, ty) {
            (Designator::Member(id), Type::Struct(sid)) => {
                let Some(chain) = self.member_chain(*sid, &id.node.name) else {
                    return self.error(at, format!("no member named `{}`", id.node.name));
                };
                let position = chain.first().map_or(0, |(i, _, _)| *i as usize);
                let mut steps = Vec::new();
                let mut off = offset;
                let mut last = ty.clone();
                for (i, fty, foff) in chain {
                    steps.push(Step::Field(i, fty.clone()));
                    off = off.wrapping_add(foff);
                    last = fty;
                }
                (vec![(steps, last, off)], position)
            }
            (Designator::Index(e), Type::Array(..)) => {
                let n = self.const_int(e)?.1;
                let Some((step, elem, off)) =
                    usize::try_from(n).ok().and_then(|n| self.member_at(ty, n))
                else {
                    return self.error(at, "array designator index out of range");
                };
                (
                    vec![(vec![step], elem, offset.wrapping_add(off))],
                    n as usize,
                )
            }
            (Designator::Range(r), Type::Array(..)) => {
                let low = self.const_int(&r.node.from)?.1;
                let high = self.const_int(&r.node.to)?.1;
                if high < low || high - low > MAX_SCALARS as i128 {
                    return self.unsupported(at, "large designator range");
                }
                let mut targets = Vec::new();
                for n in low..=high {
                    let Some((step, elem, off)) =
                        usize::try_from(n).ok().and_then(|n| self.member_at(ty, n))
                    else {
                        return self.error(at, "array designator index out of range");
                    };
                    targets.push((vec![step], elem, offset.wrapping_add(off)));
                }
                (targets, high as usize)
            }
            _ => return self.error(at, "designator does not match the initialized type"),
        };
        for (steps, member_ty, member_offset) in targets {
            let mut sub_path = path.to_vec();
            sub_path.extend(steps);
            if rest.is_empty() {
                self.walk(&member_ty, &sub_path, member_offset, init, out)?;
            } else {
                self.designate(&member_ty, &sub_path, member_offset, rest, init, out)?;
            }
        }
        Ok(position)
    }

    /// Field index, type and offset of each step to `name`, through anonymous members.
    fn member_chain(&self, id: ir::StructId, name: &str) -> Option<Vec<(u32, Type, u64)>> {
        let def = self.program.structs.get(id.0 as usize)?;
        for (i, f) in def.fields.iter().enumerate() {
            if f.name == name {
                return Some(vec![(i as u32, f.ty.clone(), f.offset)]);
            }
        }
        for (i, f) in def.fields.iter().enumerate() {
            if let (true, Type::Struct(sub)) = (f.name.is_empty(), &f.ty) {
                if let Some(mut rest) = self.member_chain(*sub, name) {
                    rest.insert(0, (i as u32, f.ty.clone(), f.offset));
                    return Some(rest);
                }
            }
        }
        None
    }

    /// The declared type with an unknown array length taken from the initializer.
    pub(super) fn complete_array_type(&mut self, ty: &Type, init: &Node<Initializer>) -> R<Type> {
        if !matches!(ty, Type::Array(_, None)) {
            return Ok(ty.clone());
        }
        Ok(self.leaves(ty, init)?.0)
    }

    /// A constant initializer for a global or static object.
    pub(super) fn static_init(&mut self, ty: &Type, init: &Node<Initializer>) -> R<(Type, Init)> {
        let saved = self.func.take();
        let result = self.static_items(ty, init);
        self.func = saved;
        result
    }

    fn static_items(&mut self, ty: &Type, init: &Node<Initializer>) -> R<(Type, Init)> {
        let (ty, leaves) = self.leaves(ty, init)?;
        let mut items: Vec<InitItem> = Vec::new();
        let mut bit_field_bytes = BitFieldBytes::default();
        for leaf in leaves {
            match leaf.value {
                LeafValue::Units(units) => {
                    let Some((elem, length)) = string_array(&leaf.ty) else {
                        continue;
                    };
                    let limit = length.map_or(units.len(), |n| n as usize);
                    let size = u64::from(elem.bits / 8);
                    for (i, unit) in units.iter().take(limit).enumerate() {
                        items.push(InitItem {
                            offset: leaf.offset + i as u64 * size,
                            value: ConstValue::Int(elem, *unit),
                        });
                    }
                }
                LeafValue::Expr(e) => {
                    let v = self.rvalue(e)?;
                    let v = self.convert_assigned(v, &leaf.ty, e.span.start)?;
                    let Some(value) = self.const_value(&v) else {
                        return self.error(
                            e.span.start,
                            "initializer element is not a compile-time constant",
                        );
                    };
                    match (self.leaf_bit_field(&ty, &leaf.path), &value) {
                        (Some(bits), ConstValue::Int(_, raw)) => {
                            bit_field_bytes.set(leaf.offset, bits, *raw)
                        }
                        _ => items.push(InitItem {
                            offset: leaf.offset,
                            value,
                        }),
                    }
                }
            }
        }
        items.extend(bit_field_bytes.into_items());
        // Later initializers of the same byte win; keep items in offset order.
        let mut seen = HashSet::new();
        let mut unique: Vec<InitItem> = items
            .into_iter()
            .rev()
            .filter(|it| seen.insert(it.offset))
            .collect();
        unique.sort_by_key(|it| it.offset);
        Ok((ty, Init::Fields(unique)))
    }

    /// The bit-field the last step of `path` from an object of type `root` names.
    fn leaf_bit_field(&self, root: &Type, path: &[Step]) -> Option<ir::BitField> {
        let (Step::Field(index, _), before) = path.split_last()? else {
            return None;
        };
        let parent = match before.last() {
            Some(Step::Field(_, ty) | Step::Index(_, ty)) => ty,
            None => root,
        };
        let Type::Struct(id) = parent else {
            return None;
        };
        self.program
            .structs
            .get(id.0 as usize)?
            .fields
            .get(*index as usize)?
            .bits
    }

    /// Initializes a local object with assignments: every scalar is
    /// assigned, those the initializer does not mention get zero.
    pub(super) fn local_init(
        &mut self,
        place: Place,
        ty: &Type,
        init: &Node<Initializer>,
    ) -> R<()> {
        let at = init.span.start;
        if let (Initializer::Expression(e), false) = (&init.node, matches!(ty, Type::Array(..))) {
            let v = self.rvalue(e)?;
            let v = self.convert_assigned(v, ty, e.span.start)?;
            return self.assign_stmt(place, v, at);
        }
        let (_, leaves) = self.leaves(ty, init)?;
        let mentioned: HashSet<Vec<Step>> = leaves.iter().map(|l| l.path.clone()).collect();
        let mut scalars = Vec::new();
        self.scalar_paths(ty, &mut Vec::new(), &mut scalars, at)?;
        for (path, scalar_ty) in scalars {
            let covered = (0..=path.len()).any(|n| {
                path.get(..n)
                    .is_some_and(|prefix| mentioned.contains(prefix))
            });
            if covered {
                continue;
            }
            let Some(zero) = zero_of(&scalar_ty) else {
                return self.unsupported(at, "long double member in a local initializer");
            };
            self.assign_stmt(place_at(&place, &path), zero, at)?;
        }
        for leaf in leaves {
            let target = place_at(&place, &leaf.path);
            match leaf.value {
                LeafValue::Expr(e) => {
                    let v = self.rvalue(e)?;
                    let v = self.convert_assigned(v, &leaf.ty, e.span.start)?;
                    self.assign_stmt(target, v, e.span.start)?;
                }
                LeafValue::Units(units) => {
                    let Some((elem, length)) = string_array(&leaf.ty) else {
                        continue;
                    };
                    let n = length.unwrap_or(units.len() as u64);
                    for i in 0..n {
                        let unit = units.get(i as usize).copied().unwrap_or(0);
                        let mut p = target.clone();
                        p.proj.push(Proj::Index {
                            index: Expr::int(IntType::LONG_LONG, i as i128),
                            elem: Type::Int(elem),
                        });
                        let value = Expr::int(elem, elem.value_of(unit));
                        self.assign_stmt(p, value, at)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Every scalar sub-object of `ty` (the first member of a union).
    fn scalar_paths(
        &self,
        ty: &Type,
        path: &mut Vec<Step>,
        out: &mut Vec<(Vec<Step>, Type)>,
        at: usize,
    ) -> R<()> {
        if out.len() > MAX_SCALARS {
            return self.unsupported(at, "very large initializer");
        }
        match ty {
            Type::Struct(_) | Type::Array(..) => {
                let mut n = 0;
                while let Some((step, member_ty, _)) = self.member_at(ty, n) {
                    if matches!(ty, Type::Array(_, None)) {
                        break;
                    }
                    path.push(step);
                    self.scalar_paths(&member_ty, path, out, at)?;
                    path.pop();
                    n += 1;
                }
                Ok(())
            }
            _ => {
                out.push((path.clone(), ty.clone()));
                Ok(())
            }
        }
    }

    /// The constant an initializer expression denotes, if it is one.
    pub(super) fn const_value(&self, e: &Expr) -> Option<ConstValue> {
        match &e.kind {
            ExprKind::Int(bits) => Some(ConstValue::Int(e.ty.as_int()?, *bits)),
            ExprKind::Float(bits) => Some(ConstValue::Float(e.ty.as_ieee_float()?, *bits)),
            ExprKind::Null => Some(ConstValue::Null),
            ExprKind::FuncAddr(f) => Some(ConstValue::FuncAddr(*f)),
            ExprKind::Str(s) => Some(ConstValue::StrAddr(*s, 0)),
            ExprKind::AddrOf(place) => self.const_address(place),
            ExprKind::PtrAdd(p, i) => {
                let base = self.const_value(p)?;
                let ConstValue::Int(it, bits) = self.const_value(i)? else {
                    return None;
                };
                let size = self.program.size_of(p.ty.pointee()?) as i64;
                offset_address(base, (it.value_of(bits) as i64).wrapping_mul(size))
            }
            ExprKind::Cast(inner) => {
                let value = self.const_value(inner)?;
                match (value, &e.ty) {
                    (ConstValue::Int(from, bits), Type::Int(to)) => {
                        Some(ConstValue::Int(*to, cint::convert(from, *to, bits)))
                    }
                    (ConstValue::Int(_, 0), Type::Pointer(_)) => Some(ConstValue::Null),
                    (ConstValue::Int(from, bits), Type::Pointer(_)) => {
                        let address = self.program.data_model.ulong();
                        Some(ConstValue::Int(address, cint::convert(from, address, bits)))
                    }
                    (ConstValue::Null, Type::Int(to)) => Some(ConstValue::Int(*to, 0)),
                    (address, Type::Pointer(_)) => Some(address),
                    (address, Type::Int(to))
                        if u64::from(to.bits) == 8 * self.program.data_model.pointer_bytes() =>
                    {
                        Some(address)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(super) fn global_decl_type(&self, id: GlobalId) -> Option<Type> {
        self.globals
            .iter()
            .find(|g| g.id == Some(id))
            .map(|g| g.global.ty.clone())
    }

    /// `&g.f[2]` and the like as a global address plus a constant offset.
    fn const_address(&self, place: &Place) -> Option<ConstValue> {
        let (mut address, mut ty) = match &place.base {
            PlaceBase::Global(g) => (ConstValue::GlobalAddr(*g, 0), self.global_decl_type(*g)?),
            PlaceBase::Deref(e) => (self.const_value(e)?, e.ty.pointee()?.clone()),
            PlaceBase::Local(_) => return None,
        };
        for proj in &place.proj {
            match proj {
                Proj::Field {
                    index,
                    ty: field_ty,
                } => {
                    let Type::Struct(id) = ty else { return None };
                    let offset = self
                        .program
                        .structs
                        .get(id.0 as usize)?
                        .fields
                        .get(*index as usize)?
                        .offset;
                    address = offset_address(address, offset as i64)?;
                    ty = field_ty.clone();
                }
                Proj::Index { index, elem } => {
                    let ConstValue::Int(it, bits) = self.const_value(index)? else {
                        return None;
                    };
                    let size = self.program.size_of(elem) as i64;
                    address =
                        offset_address(address, (it.value_of(bits) as i64).wrapping_mul(size))?;
                    ty = elem.clone();
                }
            }
        }
        Some(address)
    }
}

/// The bytes holding initialized bit-fields, built bit by bit (several
/// fields share a byte; a later initializer of a field wins).
#[derive(Default)]
struct BitFieldBytes(std::collections::BTreeMap<u64, u8>);

impl BitFieldBytes {
    fn set(&mut self, offset: u64, bits: ir::BitField, raw: u128) {
        for k in 0..u64::from(bits.width) {
            let position = u64::from(bits.shift) + k;
            let byte = self.0.entry(offset + position / 8).or_insert(0);
            let mask = 1u8 << (position % 8);
            if (raw >> k) & 1 == 1 {
                *byte |= mask;
            } else {
                *byte &= !mask;
            }
        }
    }

    fn into_items(self) -> impl Iterator<Item = InitItem> {
        self.0.into_iter().map(|(offset, byte)| InitItem {
            offset,
            value: ConstValue::Int(IntType::UCHAR, u128::from(byte)),
        })
    }
}

fn offset_address(address: ConstValue, delta: i64) -> Option<ConstValue> {
    match address {
        ConstValue::GlobalAddr(g, off) => Some(ConstValue::GlobalAddr(g, off.wrapping_add(delta))),
        ConstValue::StrAddr(s, off) => Some(ConstValue::StrAddr(s, off.wrapping_add(delta))),
        ConstValue::FuncAddr(f) if delta == 0 => Some(ConstValue::FuncAddr(f)),
        ConstValue::Null if delta == 0 => Some(ConstValue::Null),
        _ => None,
    }
}
